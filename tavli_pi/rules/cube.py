"""The doubling cube (C1-C5).

The cube is a value and an owner: ``owner is None`` is the middle of the
board. A centred cube at 1 shows 64 (C1). Whoever owns the cube (or anyone,
when it is centred) may double on their turn before rolling (C2); the
opponent takes (owns it at twice the value) or passes (loses at the value
before the double) (C3). The cube never exceeds 64 (C4).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from tavli_pi.errors import IllegalActionError, InvalidPositionError
from tavli_pi.rules.position import Side
from tavli_pi.rules.settings import MAX_CUBE, Settings

if TYPE_CHECKING:
    from tavli_pi.rules.match import MatchState

__all__ = ["CubeAction", "CubeState", "automatic_double"]

#: The gnubg Match ID stores log2(cube) in 4 bits, so 2**15 is the most any
#: cube value can be; C4's 64 is enforced by the actions, not the type.
_LARGEST_VALUE = 2**15


class CubeAction(Enum):
    """What a player can do with the cube (C2, C3, C5 beavers)."""

    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube's value and owner (``None`` = centred).

    >>> c = CubeState()
    >>> c.face, c.can_double(Side.WHITE)
    (64, True)
    >>> c.doubled(Side.BLACK)
    CubeState(value=2, owner=<Side.BLACK: 1>)
    """

    value: int = 1
    owner: Side | None = None

    def __post_init__(self) -> None:
        v = self.value
        if v < 1 or v > _LARGEST_VALUE or v & (v - 1):
            raise InvalidPositionError(
                f"a cube value must be a power of two from 1 up (C1, C4), got {v}"
            )

    @property
    def centred(self) -> bool:
        return self.owner is None

    @property
    def face(self) -> int:
        """The number shown on the cube: 64 for a centred cube at 1 (C1)."""
        return 64 if self.value == 1 and self.owner is None else self.value

    @property
    def turned(self) -> bool:
        """True once a double was taken: only then does the cube have an owner.

        Automatic doubles (E1) leave the cube centred, so they do not count as
        turned for the Jacoby rule (C5).
        """
        return self.owner is not None

    def can_double(
        self,
        side: Side,
        *,
        match: MatchState | None = None,
        max_cube: int = MAX_CUBE,
    ) -> bool:
        """May ``side`` double now (before rolling on its turn)?

        C2: the cube is centred or owned by ``side``. C4: the doubled value
        stays within ``max_cube``. S3: no cube in the Crawford game or in a
        1-point match (``match.cube_allowed``).
        """
        if self.owner is not None and self.owner is not side:
            return False
        if self.value * 2 > max_cube:
            return False
        return match is None or match.cube_allowed

    def check_double(
        self,
        side: Side,
        *,
        match: MatchState | None = None,
        max_cube: int = MAX_CUBE,
    ) -> None:
        """Raise ``IllegalActionError`` saying why ``side`` may not double."""
        if self.owner is not None and self.owner is not side:
            raise IllegalActionError(
                f"{side.name.lower()} cannot double: {self.owner.name.lower()} owns the cube (C2)"
            )
        if self.value * 2 > max_cube:
            raise IllegalActionError(
                f"the cube is at {self.value}; it never exceeds {max_cube} (C4)"
            )
        if match is not None and not match.cube_allowed:
            why = "a 1-point match" if match.length == 1 else "the Crawford game"
            raise IllegalActionError(f"no cube in {why} (S3): play on without doubling")

    def doubled(self, taker: Side, *, max_cube: int = MAX_CUBE) -> CubeState:
        """The cube after a take (C3): twice the value, owned by ``taker``."""
        if self.owner is taker:
            raise IllegalActionError(
                f"{taker.name.lower()} owns the cube and cannot be doubled by the opponent (C2)"
            )
        if self.value * 2 > max_cube:
            raise IllegalActionError(f"the cube never exceeds {max_cube} (C4)")
        return CubeState(self.value * 2, taker)

    def can_beaver(
        self,
        taker: Side,
        *,
        settings: Settings,
        match: MatchState | None = None,
    ) -> bool:
        """May ``taker``, just doubled, beaver (take and redouble at once)? C5."""
        money = match is None or match.length == 0
        return (
            settings.beavers
            and money
            and self.owner is not taker
            and self.value * 4 <= settings.max_cube
        )

    def beavered(
        self,
        taker: Side,
        *,
        settings: Settings,
        match: MatchState | None = None,
    ) -> CubeState:
        """The cube after ``taker`` beavers the double of this cube (C5).

        The taker keeps the cube at four times the value before the double.
        """
        if not self.can_beaver(taker, settings=settings, match=match):
            raise IllegalActionError(
                "a beaver needs the beavers setting, a money game and a cube "
                f"within {settings.max_cube} (C5, C4): take or pass instead"
            )
        return CubeState(self.value * 4, taker)


def automatic_double(
    cube: CubeState,
    doubles_so_far: int,
    settings: Settings,
    *,
    match: MatchState | None = None,
) -> CubeState:
    """The cube after a tied opening roll (E1, C5).

    With ``settings.automatic_doubles`` in a money game the centred cube
    doubles, at most ``settings.max_automatic`` times a game and never beyond
    ``settings.max_cube``; otherwise the cube is unchanged (the tie is just
    rerolled).
    """
    money = match is None or match.length == 0
    if (
        settings.automatic_doubles
        and money
        and cube.owner is None
        and doubles_so_far < settings.max_automatic
        and cube.value * 2 <= settings.max_cube
    ):
        return CubeState(cube.value * 2, None)
    return cube
