"""Game end, game value and resignations (S1, S4, C3, C5 Jacoby).

A game ends when a side bears off all 15 (S1), when a side resigns and the
opponent accepts (S4), or when a double is passed (C3). ``Outcome`` records
which, the winner, the kind of win and the points it is worth.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TYPE_CHECKING

from tavli_pi.errors import IllegalActionError
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.position import CHECKERS, Position, Side
from tavli_pi.rules.settings import Settings

if TYPE_CHECKING:
    from tavli_pi.rules.match import MatchState

__all__ = [
    "GameValue",
    "Termination",
    "Outcome",
    "Resignation",
    "game_winner",
    "game_kind",
    "game_value",
    "multiplier",
    "points_won",
    "outcome_borne_off",
    "outcome_passed",
]

_DEFAULT = Settings()


class GameValue(IntEnum):
    """The kind of win (S1); the int is the default multiplier."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class Termination(Enum):
    """How a game ended."""

    BORNE_OFF = "borne off"  # S1
    RESIGNED = "resigned"  # S4, accepted
    PASSED = "passed"  # C3, a double was passed


def game_winner(pos: Position) -> Side | None:
    """The side that has borne off all 15 checkers (S1), or None."""
    for side in Side:
        if pos.off[side] == CHECKERS:
            return side
    return None


def game_kind(pos: Position, winner: Side) -> GameValue:
    """Single, gammon or backgammon for ``winner`` in final position ``pos`` (S1).

    Gammon: the loser has borne off none. Backgammon: a gammon where the loser
    still has a checker on the bar or in the winner's home board (the loser's
    own points 19-24).
    """
    if pos.off[winner] != CHECKERS:
        raise IllegalActionError(
            f"{winner.name.lower()} has borne off {pos.off[winner]} of {CHECKERS}: "
            "the game is not over (S1)"
        )
    loser = winner.other
    if pos.off[loser] > 0:
        return GameValue.SINGLE
    if pos.bar[loser] > 0 or any(pos.count(loser, p) for p in range(19, 25)):
        return GameValue.BACKGAMMON
    return GameValue.GAMMON


def game_value(pos: Position, winner: Side, *, backgammon_counts: int = 3) -> int:
    """The multiplier (1, 2, or ``backgammon_counts``) of the win in ``pos`` (S1)."""
    kind = game_kind(pos, winner)
    return backgammon_counts if kind is GameValue.BACKGAMMON else int(kind)


def multiplier(
    value: GameValue,
    cube: CubeState,
    *,
    settings: Settings = _DEFAULT,
    match: MatchState | None = None,
) -> int:
    """The factor a win of kind ``value`` is worth before the cube.

    Backgammons count ``settings.backgammon_value`` (S1). With Jacoby in a
    money game, gammons and backgammons count single while the cube was never
    turned (C5); in a match gammons always count (S2).
    """
    money = match is None or match.length == 0
    if money and settings.jacoby and not cube.turned:
        return 1
    if value is GameValue.BACKGAMMON:
        return settings.backgammon_value
    return int(value)


def points_won(
    value: GameValue,
    cube: CubeState,
    *,
    settings: Settings = _DEFAULT,
    match: MatchState | None = None,
) -> int:
    """Points for a win of kind ``value`` with ``cube``: multiplier x cube value."""
    return multiplier(value, cube, settings=settings, match=match) * cube.value


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: who won, how, and for how many points."""

    winner: Side
    value: GameValue
    cube: int
    points: int
    termination: Termination


def outcome_borne_off(
    pos: Position,
    cube: CubeState,
    *,
    settings: Settings = _DEFAULT,
    match: MatchState | None = None,
) -> Outcome:
    """The outcome when a side has borne off all 15 in ``pos`` (S1)."""
    winner = game_winner(pos)
    if winner is None:
        raise IllegalActionError("nobody has borne off all 15 checkers yet (S1)")
    kind = game_kind(pos, winner)
    pts = points_won(kind, cube, settings=settings, match=match)
    return Outcome(winner, kind, cube.value, pts, Termination.BORNE_OFF)


def outcome_passed(doubler: Side, cube: CubeState) -> Outcome:
    """The outcome when ``doubler``'s double of ``cube`` is passed (C3).

    The passer loses a single game at the value before the double.
    """
    return Outcome(doubler, GameValue.SINGLE, cube.value, cube.value, Termination.PASSED)


@dataclass(frozen=True, slots=True)
class Resignation:
    """``by`` offers to resign a single game, a gammon or a backgammon (S4).

    The opponent accepts (the game ends: ``accepted()``) or plays on.
    """

    by: Side
    level: GameValue = GameValue.SINGLE

    @property
    def winner(self) -> Side:
        return self.by.other

    def points(
        self,
        cube: CubeState,
        *,
        settings: Settings = _DEFAULT,
        match: MatchState | None = None,
    ) -> int:
        """The points the resigning side gives up: level x cube (with Jacoby)."""
        return points_won(self.level, cube, settings=settings, match=match)

    def accepted(
        self,
        cube: CubeState,
        *,
        settings: Settings = _DEFAULT,
        match: MatchState | None = None,
    ) -> Outcome:
        """The outcome when the opponent accepts the resignation (S4)."""
        pts = self.points(cube, settings=settings, match=match)
        return Outcome(self.winner, self.level, cube.value, pts, Termination.RESIGNED)
