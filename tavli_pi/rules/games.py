"""One rules API across Portes, Plakoto and Fevga, for the referee and the commands.

A referee asks, for any game of a tavli match, the same questions:

* :func:`legal_ends` ``(variant, position, dice, settings)``: every legal end
  position of the turn (turn unchanged), each with one play written in the
  mover's own numbering; with no legal play the one V8/E7 entry (empty moves,
  position unchanged);
* :func:`judge_end`: is an observed end position legal, else the nearest
  legal ends (``legal``, ``nearest`` as ``(distance, End)``, ``wrong_points``);
* :func:`game_result` ``(variant, position, settings)``: None while the game
  goes on, else who won (None = a P6 draw), the points and why.

Portes positions are :class:`~tavli_pi.rules.position.Position` (gnubg Position
ID / XGID); Plakoto and Fevga positions are
:class:`~tavli_pi.rules.tavli_position.TavliPosition` (the RULES-TAVLI.md
notation). :func:`parse_game_position` / :func:`format_game_position` pick the
right notation for the variant.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli_pi.errors import InvalidPositionError
from tavli_pi.rules import moves as portes
from tavli_pi.rules import tavli_moves as tavli
from tavli_pi.rules.ids import parse_position, position_id
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import GameValue, game_kind, game_winner
from tavli_pi.rules.tavli_position import (
    TavliPosition,
    format_tavli_position,
    parse_tavli_position,
)
from tavli_pi.rules.tavli_scoring import game_over
from tavli_pi.rules.tavli_settings import MatchSettings, TavliSettings, Variant

__all__ = [
    "GamePosition",
    "End",
    "EndJudgement",
    "GameResult",
    "legal_ends",
    "judge_end",
    "game_result",
    "start_position",
    "parse_game_position",
    "format_game_position",
]

GamePosition = Position | TavliPosition
_DEFAULT = TavliSettings()
_MATCH = MatchSettings()


@dataclass(frozen=True, slots=True)
class End:
    """A legal end of a turn: the play (mover's own numbering) and the position (turn unchanged)."""

    moves: str
    position: GamePosition


@dataclass(frozen=True, slots=True)
class EndJudgement:
    legal: bool
    end: End | None
    nearest: tuple[tuple[int, End], ...]
    wrong_points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: ``winner`` None for a P6 draw; ``points`` to the winner; ``reason``."""

    winner: Side | None
    points: int
    reason: str


def _portes(pos: GamePosition) -> Position:
    if not isinstance(pos, Position):
        raise InvalidPositionError("a Portes position is a gnubg Position ID or XGID, not the tavli notation")
    return pos


def _tavli(pos: GamePosition) -> TavliPosition:
    if not isinstance(pos, TavliPosition):
        raise InvalidPositionError("a Plakoto or Fevga position is in the RULES-TAVLI.md notation")
    return pos


def legal_ends(
    variant: Variant, pos: GamePosition, dice: tuple[int, int], settings: TavliSettings = _DEFAULT
) -> tuple[End, ...]:
    """Every legal end of the turn; with no legal play the one unchanged entry (V8, E7)."""
    if variant is Variant.PORTES:
        p = _portes(pos)
        rs = portes.legal_results(p, dice)
        if not rs:
            return (End("", p),)
        return tuple(End(portes.format_play(r.plays[0]), r.position) for r in rs)
    return tuple(
        End(tavli.format_tavli_play(r.play), r.position)
        for r in tavli.results_or_pass(variant, _tavli(pos), dice, settings)
    )


def judge_end(
    variant: Variant,
    pos: GamePosition,
    dice: tuple[int, int],
    observed: GamePosition,
    settings: TavliSettings = _DEFAULT,
    k: int = 3,
) -> EndJudgement:
    """Whether ``observed`` is a legal end of the turn, else the ``k`` nearest legal ends."""
    if variant is Variant.PORTES:
        j = portes.judge(_portes(pos), dice, _portes(observed), k)

        def conv(r: portes.PlayResult) -> End:
            return End(portes.format_play(r.plays[0]), r.position)

        return EndJudgement(
            j.legal, conv(j.result) if j.result else None,
            tuple((d, conv(r)) for d, r in j.nearest), j.wrong_points,
        )
    t = tavli.judge(variant, _tavli(pos), dice, _tavli(observed), settings, k)

    def tconv(r: tavli.TavliResult) -> End:
        return End(tavli.format_tavli_play(r.play), r.position)

    return EndJudgement(
        t.legal, tconv(t.result) if t.result else None,
        tuple((d, tconv(r)) for d, r in t.nearest), t.wrong_points,
    )


def game_result(
    variant: Variant,
    pos: GamePosition,
    settings: TavliSettings = _DEFAULT,
    match: MatchSettings = _MATCH,
) -> GameResult | None:
    """The end of the game (V5, P6; Portes S1 with T3's backgammon value), or None."""
    if variant is Variant.PORTES:
        p = _portes(pos)
        w = game_winner(p)
        if w is None:
            return None
        kind = game_kind(p, w)
        pts = match.portes_backgammon if kind is GameValue.BACKGAMMON else int(kind)
        return GameResult(w, pts, kind.name.lower())
    over = game_over(variant, _tavli(pos), settings)
    if over is None:
        return None
    reason = "mars" if over.mars else over.reason.value
    return GameResult(over.winner, over.points, reason)


def start_position(variant: Variant, turn: Side = Side.WHITE) -> GamePosition:
    """The set-up of ``variant`` (B3, P1, F1)."""
    if variant is Variant.PORTES:
        return Position.start(turn)
    return TavliPosition.start(variant, turn)


def parse_game_position(variant: Variant, text: str) -> GamePosition:
    """A Position ID / XGID for Portes, the RULES-TAVLI.md notation otherwise."""
    if variant is Variant.PORTES:
        return parse_position(text)
    return parse_tavli_position(text, variant)


def format_game_position(variant: Variant, pos: GamePosition) -> str:
    if variant is Variant.PORTES:
        return position_id(_portes(pos))
    return format_tavli_position(_tavli(pos))
