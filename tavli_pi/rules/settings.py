"""Rule variants that are settings (C5, E1, S1, S3); defaults follow RULES.md."""

from __future__ import annotations

from dataclasses import dataclass

from tavli_pi.errors import ConfigError

__all__ = ["Settings", "MAX_CUBE"]

#: C4: the cube never exceeds 64.
MAX_CUBE = 64


@dataclass(frozen=True, slots=True)
class Settings:
    """Money-game and scoring variants. All money settings are off by default (C5).

    ``jacoby``: gammons and backgammons count single while the cube was never
    turned (money only). ``automatic_doubles``: a tied opening roll doubles the
    centred cube (E1), at most ``max_automatic`` times a game. ``beavers``: a
    player who is doubled may take and immediately redouble, keeping the cube.
    ``backgammon_value``: 3 (default) or 2 (the 2x setting of S1).
    ``crawford``: apply the Crawford rule in matches (S3).
    """

    jacoby: bool = False
    automatic_doubles: bool = False
    max_automatic: int = 1
    beavers: bool = False
    backgammon_value: int = 3
    max_cube: int = MAX_CUBE
    crawford: bool = True

    def __post_init__(self) -> None:
        if self.backgammon_value not in (2, 3):
            raise ConfigError(
                f"backgammon_value must be 3 or 2 (the 2x setting of S1), got {self.backgammon_value}"
            )
        if self.max_automatic < 0:
            raise ConfigError("max_automatic must be 0 or more (E1)")
        if self.max_cube < 1 or self.max_cube & (self.max_cube - 1):
            raise ConfigError(f"max_cube must be a power of two (C4), got {self.max_cube}")
