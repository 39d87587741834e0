"""gnubg Position IDs and eXtreme Gammon XGIDs.

gnubg Position ID (gnubg manual, "A technical description of the Position
ID"): an 80-bit key. For each player, first the player *not* on roll, then the
player on roll, for that player's own points 1..24 then the bar: as many 1-bits
as checkers, then one 0-bit. Bits fill bytes least significant bit first; the
10 bytes are Base64-encoded and the trailing ``==`` dropped (14 characters).
The starting position is ``4HPwATDgc/ABMA``.

XGID (eXtreme Gammon's position string, as documented in XG's help and used by
many tools): ``XGID=POS:CUBE:OWNER:TURN:DICE:SCORE1:SCORE2:CJ:LENGTH:MAXCUBE``.
``POS`` is 26 characters: [0] the top player's (O) bar, [1..24] points 1..24 in
the bottom player's (X) numbering, [25] X's bar; ``A``-``O`` are X's checkers,
``a``-``o`` O's, ``-`` empty. CUBE is log2 of the cube value; OWNER 1 = X,
-1 = O, 0 = centred; TURN 1 = X, -1 = O; DICE ``00`` before the roll (``D``,
``B``, ``R`` for a double, beaver, raccoon offered); SCORE1 is X's; CJ is the
Crawford flag in a match, Jacoby (1) + beaver (2) bits in money play; LENGTH 0
is money; MAXCUBE is log2 of the cube limit. Here X is White and O is Black,
so the XGID's point numbers are tavli-pi's physical (White's) numbering.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass
from operator import mul, neg, sub

from tavli_pi.errors import InvalidPositionError, PositionIdError
from tavli_pi.rules.position import CHECKERS, Position, Side

__all__ = [
    "position_id",
    "position_ids",
    "position_from_id",
    "XGInfo",
    "xgid",
    "parse_xgid",
    "parse_position",
]


def _own_counts(pos: Position, side: Side) -> list[int]:
    """``side``'s checkers on its own points 1..24, then its bar (25 entries)."""
    if side is Side.WHITE:
        pts = [v if v > 0 else 0 for v in pos.points]
    else:
        pts = [-v if v < 0 else 0 for v in pos.points[::-1]]
    pts.append(pos.bar[side])
    return pts


# The key's bits as binary text, most significant first: the runs ("1" * n
# + "0" per entry, least significant first) in reverse order, each reversed.
# The mover's runs come last in the key, so first here: its bar, then its
# points 24..1; then the other side's bar and points. A point's value v
# (White > 0, Black < 0) picks White's run or Black's (issue 12: a few C
# calls instead of a Python loop per point).
_REV_W = {v: "0" + "1" * v if v > 0 else "0" for v in range(-CHECKERS, CHECKERS + 1)}
_REV_B = {v: "0" + "1" * -v if v < 0 else "0" for v in range(-CHECKERS, CHECKERS + 1)}
_REV = ["0" + "1" * n for n in range(CHECKERS + 1)]


def position_id(pos: Position) -> str:
    """The gnubg Position ID of ``pos``, written as ``pos.turn`` being on roll.

    >>> position_id(Position.start())
    '4HPwATDgc/ABMA'
    """
    pts = pos.points
    bar_w, bar_b = pos.bar
    white = _REV[bar_w] + "".join(map(_REV_W.__getitem__, reversed(pts)))  # White's own points 24..1
    black = _REV[bar_b] + "".join(map(_REV_B.__getitem__, pts))  # Black's own points 24..1
    bits = white + black if pos.turn is Side.WHITE else black + white
    return binascii.b2a_base64(int(bits, 2).to_bytes(10, "little"), newline=False).decode("ascii")[:14]


def position_ids(positions: Iterable[Position]) -> list[str]:
    """:func:`position_id` of each position (one loop, its lookups hoisted: ``plays`` lists many)."""
    rev_w = _REV_W.__getitem__
    rev_b = _REV_B.__getitem__
    rev = _REV
    join = "".join
    b64 = binascii.b2a_base64
    white_turn = Side.WHITE
    out = []
    for pos in positions:
        pts = pos.points
        bar_w, bar_b = pos.bar
        white = rev[bar_w] + join(map(rev_w, reversed(pts)))
        black = rev[bar_b] + join(map(rev_b, pts))
        bits = white + black if pos.turn is white_turn else black + white
        out.append(b64(int(bits, 2).to_bytes(10, "little"), newline=False).decode("ascii")[:14])
    return out


def _position_id_reference(pos: Position) -> str:
    """:func:`position_id` bit by bit, as the manual describes it (tests compare the two)."""
    key = 0
    bit = 0
    for side in (pos.turn.other, pos.turn):
        for n in _own_counts(pos, side):
            if n:
                key |= ((1 << n) - 1) << bit
                bit += n
            bit += 1
    raw = key.to_bytes(10, "little")
    return base64.b64encode(raw).decode("ascii")[:14]


def position_from_id(pid: str, turn: Side = Side.WHITE) -> Position:
    """Decode a gnubg Position ID; the side on roll in the ID becomes ``turn``."""
    text = pid.strip()
    if text.lower().startswith("gnubgid="):
        text = text[8:]
    text = text.split(":", 1)[0]  # "PositionID:MatchID" as gnubg prints it
    if len(text) != 14:
        raise PositionIdError(
            f"a gnubg Position ID has 14 characters, got {len(text)} in {pid!r}: "
            "copy it again (e.g. 4HPwATDgc/ABMA)"
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError) as exc:
        raise PositionIdError(f"{pid!r} is not Base64: {exc}; copy the Position ID again") from None
    # the 80 bits, least significant first; runs of 1s ended by 0s are the counts
    runs = format(int.from_bytes(raw, "little"), "080b")[::-1].split("0")
    if len(runs) <= 50:  # fewer than 50 ends
        raise PositionIdError(f"{pid!r} runs out of bits: not a valid Position ID; "
                              "copy it again from gnubg (e.g. 4HPwATDgc/ABMA)")
    if "1" in "".join(runs[50:]):
        raise PositionIdError(f"{pid!r} has stray bits after the position: not a valid Position ID")
    opp = [len(r) for r in runs[:25]]
    mover = [len(r) for r in runs[25:50]]
    for counts in (opp, mover):
        if sum(counts) > CHECKERS:
            raise PositionIdError(
                f"{pid!r} gives a side {sum(counts)} checkers (max {CHECKERS}): not a valid Position ID"
            )
    # mover's own point i+1 and opponent's own point 24-i are the same point
    opp_here = opp[23::-1]
    if any(map(mul, mover[:24], opp_here)):
        raise PositionIdError(f"{pid!r} puts both sides on one point: not a valid Position ID")
    pts = tuple(map(sub, mover[:24], opp_here))
    if turn is Side.BLACK:
        pts = tuple(map(neg, pts[::-1]))
    bar = [0, 0]
    off = [0, 0]
    bar[turn] = mover[24]
    bar[1 - turn] = opp[24]
    off[turn] = CHECKERS - sum(mover)
    off[1 - turn] = CHECKERS - sum(opp)
    # valid by construction: 15 checkers a side at most (the rest off), no point held by both
    return Position._trusted(pts, (bar[0], bar[1]), (off[0], off[1]), turn)


@dataclass(frozen=True)
class XGInfo:
    """The XGID fields beyond the checkers (scores are (White, Black))."""

    cube_value: int = 1
    cube_owner: Side | None = None
    dice: tuple[int, int] = (0, 0)
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    match_length: int = 0
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 64
    cube_action: str = ""  # "", "D" (double offered), "B" (beaver), "R" (raccoon)


def _log2(v: int, what: str) -> int:
    if v < 1 or v & (v - 1):
        raise PositionIdError(f"{what} must be a power of two, got {v}")
    return v.bit_length() - 1


def xgid(pos: Position, info: XGInfo = XGInfo()) -> str:
    """The XGID of ``pos`` (X = White, bottom; turn from ``pos.turn``).

    >>> xgid(Position.start())
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:6'
    """
    board = _XG[-pos.bar[1]] + "".join(map(_XG.__getitem__, pos.points)) + _XG[pos.bar[0]]
    owner = 0 if info.cube_owner is None else (1 if info.cube_owner is Side.WHITE else -1)
    turn = 1 if pos.turn is Side.WHITE else -1
    if info.cube_action:
        dice = info.cube_action
    else:
        dice = f"{info.dice[0]}{info.dice[1]}"
    if info.match_length:
        cj = 1 if info.crawford else 0
    else:
        cj = (1 if info.jacoby else 0) + (2 if info.beaver else 0)
    fields = [
        board,
        str(_log2(info.cube_value, "the cube value")),
        str(owner),
        str(turn),
        dice,
        str(info.score[0]),
        str(info.score[1]),
        str(cj),
        str(info.match_length),
        str(_log2(info.max_cube, "the maximum cube")),
    ]
    return "XGID=" + ":".join(fields)


def _xg_char(v: int) -> str:
    if v == 0:
        return "-"
    return chr(ord("A") + v - 1) if v > 0 else chr(ord("a") - v - 1)


#: a point's value -> its XGID character
_XG = {v: _xg_char(v) for v in range(-CHECKERS, CHECKERS + 1)}


def _xg_int(text: str, field: str, s: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PositionIdError(f"XGID field {field} is {text!r}, not a number, in {s!r}") from None


def parse_xgid(s: str) -> tuple[Position, XGInfo]:
    """Parse an XGID (with or without the ``XGID=`` prefix)."""
    text = s.strip()
    if text.upper().startswith("XGID="):
        text = text[5:]
    parts = text.split(":")
    if len(parts) < 4:
        raise PositionIdError(
            f"an XGID has at least 4 ':'-separated fields (position:cube:owner:turn...), got {len(parts)} in {s!r}"
        )
    board = parts[0]
    if len(board) != 26:
        raise PositionIdError(f"the XGID position field needs 26 characters, got {len(board)} in {s!r}")
    vals: list[int] = []
    for ch in board:
        if ch == "-":
            vals.append(0)
        elif "A" <= ch <= "O":
            vals.append(ord(ch) - ord("A") + 1)
        elif "a" <= ch <= "o":
            vals.append(-(ord(ch) - ord("a") + 1))
        else:
            raise PositionIdError(f"{ch!r} is not a checker count (A-O, a-o or -) in XGID {s!r}")
    if vals[0] > 0 or vals[25] < 0:
        raise PositionIdError(f"XGID {s!r} puts a checker on the wrong bar")
    points = tuple(vals[1:25])
    bar = (vals[25], -vals[0])
    off_w = CHECKERS - bar[0] - sum(v for v in points if v > 0)
    off_b = CHECKERS - bar[1] - sum(-v for v in points if v < 0)
    if off_w < 0 or off_b < 0:
        raise PositionIdError(f"XGID {s!r} has more than {CHECKERS} checkers for a side")
    turn_v = _xg_int(parts[3], "4 (turn)", s)
    if turn_v not in (1, -1):
        raise PositionIdError(f"XGID turn must be 1 or -1, got {turn_v} in {s!r}")
    turn = Side.WHITE if turn_v == 1 else Side.BLACK
    pos = Position(points, bar, (off_w, off_b), turn)
    cube_log = _xg_int(parts[1], "2 (cube)", s)
    owner_v = _xg_int(parts[2], "3 (cube owner)", s)
    if not 0 <= cube_log <= 15 or owner_v not in (-1, 0, 1):
        raise PositionIdError(f"XGID cube fields out of range in {s!r}")
    owner = None if owner_v == 0 else (Side.WHITE if owner_v == 1 else Side.BLACK)
    dice = (0, 0)
    action = ""
    dfield = parts[4] if len(parts) > 4 else "00"
    if dfield in ("D", "B", "R"):
        action = dfield
    elif len(dfield) == 2 and dfield.isdigit():
        d1, d2 = int(dfield[0]), int(dfield[1])
        if (d1, d2) != (0, 0) and not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise PositionIdError(f"XGID dice {dfield!r} are not 1-6 in {s!r}")
        dice = (d1, d2)
    else:
        raise PositionIdError(f"XGID dice field {dfield!r} is not 00, two dice, D, B or R in {s!r}")
    rest = [_xg_int(p, str(i + 6), s) for i, p in enumerate(parts[5:10])]
    rest += [0] * (5 - len(rest))
    score1, score2, cj, length, maxlog = rest
    if len(parts) < 10:
        maxlog = 6
    info = XGInfo(
        cube_value=1 << cube_log,
        cube_owner=owner,
        dice=dice,
        score=(score1, score2),
        crawford=bool(cj & 1) if length else False,
        match_length=length,
        jacoby=bool(cj & 1) if not length else False,
        beaver=bool(cj & 2) if not length else False,
        max_cube=1 << maxlog,
        cube_action=action,
    )
    return pos, info


def parse_position(s: str) -> Position:
    """A gnubg Position ID (the side on roll is White) or an XGID."""
    text = s.strip()
    if text.upper().startswith("XGID=") or text.count(":") >= 3:
        try:
            return parse_xgid(text)[0]
        except InvalidPositionError as exc:
            raise PositionIdError(f"{s!r}: {exc}") from None
    if not text:
        raise PositionIdError("empty position: give a gnubg Position ID or an XGID")
    return position_from_id(text)
