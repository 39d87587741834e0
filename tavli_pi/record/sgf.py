"""``.sgf`` match files in the dialect GNU Backgammon writes (``save match``) and loads.

SGF is FF[4] with ``GM[6]`` (backgammon, https://www.red-bean.com/sgf/); the
backgammon properties follow gnubg's ``sgf.c`` (``SaveGame``/``WriteMove``)
and its own output: one game tree per game, root properties
``MI[length:N][game:i][ws:a][bs:b]`` (game index from 0, the score before it),
``PW``/``PB`` the names of player 0 (our White) and player 1 (Black), on the
first game ``DT``/``EV``/``RO``/``PC``, ``RU[Crawford]`` or
``RU[Crawford:CrawfordGame]`` (``RU[Jacoby]`` in money play) and
``RE[W+2]``/``RE[B+1R]`` (the winner, points, ``R`` when resigned). Then one
node per action: ``;W[52mhxv]`` (the dice, then a from/to letter pair per
hop), ``;B[double]``, ``;W[take]``, ``;W[drop]``; ``;B[65]`` is a roll with no
legal move. Points are letters in player 0's numbering: ``a`` is player 0's
1-point, ``x`` its 24-point; ``y`` is the bar and ``z`` off. So White's own
point p is ``a``+p-1 and Black's own point p is ``x``-(p-1).
"""

from __future__ import annotations

import os
from pathlib import Path

from tavli_pi import __version__ as _version
from tavli_pi.record.game_record import CubeAction, GameRecord, MatchRecord, Resignation, Turn
from tavli_pi.record.header import MatchHeader
from tavli_pi.files import write_atomic
from tavli_pi.rules.moves import Move
from tavli_pi.rules.position import Side

__all__ = ["format_sgf", "write_sgf", "sgf_point", "sgf_escape"]


def sgf_escape(text: str) -> str:
    """Escape ``\\`` and ``]`` in an SGF text value (SGF FF[4] "Text" type)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def sgf_point(side: Side, own_point: int) -> str:
    """The letter of ``side``'s own point (25 = bar -> ``y``, 0 = off -> ``z``)."""
    if own_point == 25:
        return "y"
    if own_point == 0:
        return "z"
    if side is Side.WHITE:
        return chr(ord("a") + own_point - 1)
    return chr(ord("x") - (own_point - 1))


def _hops(side: Side, play: tuple[Move, ...]) -> str:
    return "".join(sgf_point(side, m.src) + sgf_point(side, m.dst) for m in play)


def _root(h: MatchHeader, g: GameRecord, index: int) -> str:
    parts = [
        f"(;FF[4]GM[6]CA[UTF-8]AP[tavli-pi:{_version}]",
        f"MI[length:{h.match_length}][game:{index}][ws:{g.score[0]}][bs:{g.score[1]}]",
        f"PW[{sgf_escape(h.players[0])}]PB[{sgf_escape(h.players[1])}]",
    ]
    if index == 0:
        for prop, value in (("DT", h.date), ("EV", h.event), ("RO", h.round), ("PC", h.site)):
            if value:
                parts.append(f"{prop}[{sgf_escape(value)}]")
    if h.match_length and h.crawford:
        parts.append("RU[Crawford:CrawfordGame]" if g.crawford else "RU[Crawford]")
    elif not h.match_length and h.jacoby:
        parts.append("RU[Jacoby]")
    if g.winner is not None:
        who = "W" if g.winner is Side.WHITE else "B"
        parts.append(f"RE[{who}+{g.points}{'R' if g.resigned else ''}]")
    return "".join(parts)


def _game(h: MatchHeader, g: GameRecord, index: int) -> str:
    lines = [_root(h, g, index)]
    for a in g.actions:
        who = "W" if a.side is Side.WHITE else "B"
        if isinstance(a, Turn):
            lines.append(f";{who}[{a.dice[0]}{a.dice[1]}{_hops(a.side, a.play)}]")
        elif isinstance(a, CubeAction):
            lines.append(f";{who}[{a.action}]")
        elif isinstance(a, Resignation):
            continue  # gnubg writes a resignation only as the R of RE[]
    return "\n".join(lines) + ")\n"


def format_sgf(record: MatchRecord) -> str:
    """The whole match as gnubg-dialect SGF (one game tree per game)."""
    return "".join(_game(record.header, g, i) for i, g in enumerate(record.games))


def write_sgf(record: MatchRecord, path: str | os.PathLike[str]) -> Path:
    """Write ``record`` to ``path`` atomically."""
    return write_atomic(path, format_sgf(record))
