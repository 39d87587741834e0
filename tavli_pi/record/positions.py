"""The gnubg Position ID and XGID of every position of a match (via tavli_pi.rules.ids).

One line per turn: the position before the play, with the dice rolled, as
gnubg (``set board <id>``) and eXtreme Gammon (paste the XGID) take it::

    game 1 turn 3 white 52 4HPwATDgc/ABMA XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli_pi.record.game_record import CubeAction, MatchRecord, Turn
from tavli_pi.rules.ids import XGInfo, position_id, xgid
from tavli_pi.rules.position import Side

__all__ = ["TurnPosition", "turn_positions", "format_positions"]


@dataclass(frozen=True, slots=True)
class TurnPosition:
    game: int
    turn: int
    side: Side
    dice: tuple[int, int]
    position_id: str
    xgid: str


def turn_positions(record: MatchRecord) -> list[TurnPosition]:
    h = record.header
    out: list[TurnPosition] = []
    for g in record.games:
        cube, owner = 1, None
        n = 0
        for a in g.actions:
            if isinstance(a, CubeAction) and a.action == "take":
                cube, owner = a.value, a.side
            if not isinstance(a, Turn) or a.before is None:
                continue
            n += 1
            info = XGInfo(cube_value=cube, cube_owner=owner, dice=a.dice, score=g.score,
                          crawford=g.crawford, match_length=h.match_length, jacoby=h.jacoby,
                          beaver=h.beavers, max_cube=h.cube_limit)
            out.append(TurnPosition(g.number, n, a.side, a.dice, position_id(a.before),
                                    xgid(a.before, info)))
    return out


def format_positions(record: MatchRecord) -> str:
    return "".join(
        f"game {t.game} turn {t.turn} {t.side.name.lower()} {t.dice[0]}{t.dice[1]} "
        f"{t.position_id} XGID={t.xgid.removeprefix('XGID=')}\n"
        for t in turn_positions(record)
    )
