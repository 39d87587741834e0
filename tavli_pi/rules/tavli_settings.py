"""The games of a tavli match and their rule settings (RULES-TAVLI.md).

Where sources disagree a rule is a setting with a named default: P6
(``plakoto.mother``), F3 (``fevga.first_checker``), F5 (``fevga.prime``), F7
(``fevga.block_check``), and the match keys of V3 and T1-T3. The keys and
values are written exactly as RULES-TAVLI.md names them; a missing key takes
its default, an unknown key or value is a :class:`ConfigError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from tavli_pi.errors import ConfigError

__all__ = [
    "Variant",
    "Mother",
    "FirstChecker",
    "Prime",
    "BlockCheck",
    "TavliSettings",
    "MatchSettings",
    "parse_variant",
    "settings_from_mapping",
    "match_settings_from_mapping",
    "RULE_KEYS",
    "MATCH_KEYS",
]


class Variant(Enum):
    """The three games of tavli (T2)."""

    PORTES = "portes"
    PLAKOTO = "plakoto"
    FEVGA = "fevga"


class Mother(Enum):
    """P6: what a pinned mother does."""

    TWO_POINTS_UNLESS_OWN_MOTHER = "two-points-unless-own-mother"
    TWO_POINTS = "two-points"
    OFF = "off"


class FirstChecker(Enum):
    """F3: where the first checker counts as through."""

    PAST_START_POINT = "past-start-point"  # own point 11 or lower
    IN_START_QUARTER = "in-start-quarter"  # own point 12 or lower

    @property
    def through(self) -> int:
        """The highest own point on which the first checker is through."""
        return 11 if self is FirstChecker.PAST_START_POINT else 12


class Prime(Enum):
    """F5: six-point primes in the opponent's route."""

    NOT_IN_FRONT_OF_ALL = "not-in-front-of-all"
    ALLOWED = "allowed"


class BlockCheck(Enum):
    """F7: when F4 and F5 are judged."""

    END_OF_PLAY = "end-of-play"
    EVERY_MOVE = "every-move"


@dataclass(frozen=True, slots=True)
class TavliSettings:
    """The Plakoto and Fevga rule settings; defaults as RULES-TAVLI.md names them."""

    mother: Mother = Mother.TWO_POINTS_UNLESS_OWN_MOTHER
    first_checker: FirstChecker = FirstChecker.PAST_START_POINT
    prime: Prime = Prime.NOT_IN_FRONT_OF_ALL
    block_check: BlockCheck = BlockCheck.END_OF_PLAY

    def as_mapping(self) -> dict[str, str]:
        """The settings under their RULES-TAVLI.md keys (all of them)."""
        return {
            "plakoto.mother": self.mother.value,
            "fevga.first_checker": self.first_checker.value,
            "fevga.prime": self.prime.value,
            "fevga.block_check": self.block_check.value,
        }


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """The tavli match settings (V3, T1-T3)."""

    match_length: int = 5
    games: tuple[Variant, ...] = (Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA)
    winner_starts: bool = True
    portes_backgammon: int = 2

    def __post_init__(self) -> None:
        if type(self.match_length) is not int or self.match_length < 1:
            raise ConfigError(
                f"tavli.match_length must be a whole number of points >= 1 (T1), got {self.match_length!r}"
            )
        if not self.games or not all(isinstance(g, Variant) for g in self.games):
            raise ConfigError("tavli.games must list at least one of portes, plakoto, fevga (T2)")
        if self.portes_backgammon not in (2, 3):
            raise ConfigError(
                f"tavli.portes_backgammon must be 2 or 3 (T3), got {self.portes_backgammon!r}"
            )


_RULE_ENUMS: dict[str, tuple[str, type[Enum]]] = {
    "plakoto.mother": ("mother", Mother),
    "fevga.first_checker": ("first_checker", FirstChecker),
    "fevga.prime": ("prime", Prime),
    "fevga.block_check": ("block_check", BlockCheck),
}
#: the rule setting keys of RULES-TAVLI.md
RULE_KEYS = tuple(_RULE_ENUMS)
#: the match setting keys of RULES-TAVLI.md
MATCH_KEYS = ("tavli.match_length", "tavli.games", "tavli.winner_starts", "tavli.portes_backgammon")


def parse_variant(name: object) -> Variant:
    """``"portes" | "plakoto" | "fevga"`` (any case) as a :class:`Variant`."""
    if isinstance(name, Variant):
        return name
    if isinstance(name, str):
        for v in Variant:
            if v.value == name.strip().lower():
                return v
    raise ConfigError(
        f"unknown variant {name!r}: use portes, plakoto or fevga (T2)"
    )


def _no_cube(key: str) -> None:
    if "cube" in key.lower():
        raise ConfigError(
            f"setting {key!r}: there is no doubling cube in Plakoto, Fevga or a tavli match (V2, T3): "
            "remove the key"
        )


def _enum_value(key: str, cls: type[Enum], value: object) -> Enum:
    for member in cls:
        if member.value == value:
            return member
    allowed = " | ".join(str(m.value) for m in cls)
    raise ConfigError(f"setting {key} cannot be {value!r}: use {allowed} (RULES-TAVLI.md)")


def settings_from_mapping(values: Mapping[str, object]) -> TavliSettings:
    """Rule settings from their RULES-TAVLI.md keys; unknown keys or values are errors.

    >>> settings_from_mapping({"fevga.block_check": "every-move"}).block_check.value
    'every-move'
    """
    kwargs: dict[str, object] = {}
    for key, value in values.items():
        _no_cube(key)
        if key not in _RULE_ENUMS:
            raise ConfigError(
                f"unknown setting {key!r}: the rule settings are {', '.join(RULE_KEYS)} (RULES-TAVLI.md)"
            )
        field, cls = _RULE_ENUMS[key]
        kwargs[field] = _enum_value(key, cls, value)
    return TavliSettings(**kwargs)  # type: ignore[arg-type]


def match_settings_from_mapping(values: Mapping[str, object]) -> MatchSettings:
    """Match settings from their ``tavli.*`` keys; unknown keys or values are errors."""
    ms = MatchSettings()
    length, games, starts, bg = ms.match_length, ms.games, ms.winner_starts, ms.portes_backgammon
    for key, value in values.items():
        _no_cube(key)
        if key == "tavli.match_length":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"tavli.match_length must be a whole number, got {value!r} (T1)")
            length = value
        elif key == "tavli.games":
            if isinstance(value, str):
                value = [v for v in value.replace(",", " ").split()]
            if not isinstance(value, (list, tuple)):
                raise ConfigError(f"tavli.games must be a list such as [portes, plakoto, fevga], got {value!r} (T2)")
            games = tuple(parse_variant(v) for v in value)
        elif key == "tavli.winner_starts":
            if not isinstance(value, bool):
                raise ConfigError(f"tavli.winner_starts must be true or false, got {value!r} (V3)")
            starts = value
        elif key == "tavli.portes_backgammon":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"tavli.portes_backgammon must be 2 or 3, got {value!r} (T3)")
            bg = value
        else:
            raise ConfigError(
                f"unknown setting {key!r}: the match settings are {', '.join(MATCH_KEYS)} (RULES-TAVLI.md)"
            )
    return MatchSettings(length, games, starts, bg)
