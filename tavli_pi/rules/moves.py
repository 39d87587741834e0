"""Legal plays (M1-M7), their notation, and judging an observed play.

The generator works in the *mover's own* numbering on a flat list ``b`` of 27
ints (see :mod:`tavli_pi.rules._board`): ``b[1..24]`` the mover's points
(positive = mover, negative = opponent), ``b[25]`` the mover's bar, ``b[0]``
the mover's tray, ``b[26]`` the opponent's bar. A result is identified by an
integer key kept up to date move by move (balanced base 32, one digit per
slot), so de-duplication never builds a tuple; a :class:`Position` is built
only once per *distinct* result.

Non-doubles try both die orders; doubles enumerate moves in non-increasing
source order, which reaches every multiset of moves exactly once (moving from
higher points first is always at least as permissive: entering first (M4),
bringing checkers home first and emptying higher points first (M6)).
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli_pi.errors import InvalidDiceError, InvalidPlayError
from tavli_pi.rules._board import (
    BAR,
    OPP_BAR,
    far_below,
    from_own,
    furthest,
    to_own,
)
from tavli_pi.rules.position import Position, Side

__all__ = [
    "Move",
    "Play",
    "PlayResult",
    "Judgement",
    "legal_results",
    "legal_plays",
    "apply_play",
    "end_turn",
    "format_play",
    "parse_play",
    "is_legal",
    "judge",
    "distance",
    "wrong_points",
    "check_dice",
]


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die (or a longer hop when parsed from text).

    In the mover's own numbering: ``src`` 25 is the bar, ``dst`` 0 is off.
    """

    src: int
    dst: int
    hit: bool = False


Play = tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class PlayResult:
    """A distinct position after a legal play, and every play reaching it."""

    position: Position  # after the play; the turn is unchanged
    plays: tuple[Play, ...]  # first = canonical (sources high to low)


@dataclass(frozen=True)
class Judgement:
    """The referee's reading of one observed end position."""

    legal: bool
    result: PlayResult | None
    nearest: tuple[tuple[int, PlayResult], ...]
    wrong_points: tuple[int, ...]


# -- tables ------------------------------------------------------------------
_W: list[int] = [1 << (5 * i) for i in range(27)]  # balanced base 32 digits
_W26 = _W[OPP_BAR]
#: _MV[src][dst][hit]: every Move object, built once.
_MV: list[list[tuple[Move, Move]]] = [
    [(Move(s, d, False), Move(s, d, True)) for d in range(25)] for s in range(26)
]


def check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """Validate two dice 1-6; raise :class:`InvalidDiceError` otherwise."""
    if len(dice) != 2:
        raise InvalidDiceError(f"need exactly two dice, got {len(dice)}")
    d1, d2 = dice
    for d in (d1, d2):
        if type(d) is not int or not 1 <= d <= 6:
            raise InvalidDiceError(f"a die shows 1-6, got {d!r}: read the dice again")
    return d1, d2


def _sources(b: list[int], d: int, far: int, top: int) -> list[int]:
    """Points (<= top) from which die ``d`` can be played (M2, M4, M6)."""
    if far == BAR:
        # M4: with checkers on the bar only entering is allowed, point 25-d.
        return [BAR] if b[BAR - d] >= -1 else []
    hi = far if far < top else top
    res = [s for s in range(hi, d, -1) if b[s] > 0 and b[s - d] >= -1]
    if far <= 6 and far:
        # M6: all 15 home. Exact point first; else from the highest point
        # only when no checker stands above the die's point.
        if d <= hi:
            if b[d] > 0:
                res.append(d)
        elif far == hi:
            res.append(far)
    return res


def _raw_nondouble(b: list[int], hi: int, lo: int) -> dict[int, list[tuple[int, ...]]]:
    """key -> list of plays (src, dst, src, dst, ...), before canonical sort."""
    W = _W
    far0 = furthest(b)
    two: dict[int, list[tuple[int, ...]]] = {}
    single_hi: dict[int, list[tuple[int, ...]]] = {}
    single_lo: dict[int, list[tuple[int, ...]]] = {}
    for a, c in ((hi, lo), (lo, hi)):
        for s in _sources(b, a, far0, BAR):
            t = s - a
            if t < 0:
                t = 0
            b[s] -= 1
            k1 = -W[s]
            hit = False
            if t:
                v = b[t]
                if v == -1:
                    b[t] = 1
                    b[OPP_BAR] += 1
                    hit = True
                    k1 += 2 * W[t] + _W26
                else:
                    b[t] = v + 1
                    k1 += W[t]
            else:
                b[0] += 1
                k1 += 1
            far = far0
            if s == far0 and b[s] == 0:
                far = far_below(b, s)
            if t > far:
                far = t
            srcs = _sources(b, c, far, BAR)
            if srcs:
                for s2 in srcs:
                    t2 = s2 - c
                    if t2 > 0:
                        k2 = k1 - W[s2] + W[t2]
                        if b[t2] == -1:
                            k2 += W[t2] + _W26
                    else:
                        t2 = 0
                        k2 = k1 - W[s2] + 1
                    ent = two.get(k2)
                    if ent is None:
                        two[k2] = [(s, t, s2, t2)]
                    else:
                        ent.append((s, t, s2, t2))
            elif not two:
                dst = single_hi if a == hi else single_lo
                ent = dst.get(k1)
                if ent is None:
                    dst[k1] = [(s, t)]
                else:
                    ent.append((s, t))
            # undo
            if t:
                if hit:
                    b[t] = -1
                    b[OPP_BAR] -= 1
                else:
                    b[t] -= 1
            else:
                b[0] -= 1
            b[s] += 1
    if two:
        return two
    # M5: only one die playable: the larger one when it can be played.
    return single_hi if single_hi else single_lo


def _raw_double(b: list[int], d: int) -> dict[int, list[tuple[int, ...]]]:
    W = _W
    out: dict[int, list[tuple[int, ...]]] = {}
    best = [0]
    path: list[int] = []

    def rec(n: int, top: int, far: int, key: int) -> None:
        srcs = _sources(b, d, far, top) if n < 4 else []
        if not srcs:
            if n > best[0]:
                best[0] = n
                out.clear()
            if n == best[0] and n:
                out[key] = [tuple(path)]
            return
        for s in srcs:
            t = s - d
            if t < 0:
                t = 0
            b[s] -= 1
            k = key - W[s]
            hit = False
            if t:
                v = b[t]
                if v == -1:
                    b[t] = 1
                    b[OPP_BAR] += 1
                    hit = True
                    k += 2 * W[t] + _W26
                else:
                    b[t] = v + 1
                    k += W[t]
            else:
                b[0] += 1
                k += 1
            nf = far
            if s == far and b[s] == 0:
                nf = far_below(b, s)
            if t > nf:
                nf = t
            path.append(s)
            path.append(t)
            rec(n + 1, s, nf, k)
            del path[-2:]
            if t:
                if hit:
                    b[t] = -1
                    b[OPP_BAR] -= 1
                else:
                    b[t] -= 1
            else:
                b[0] -= 1
            b[s] += 1

    rec(0, BAR, furthest(b), 0)
    return out


def _canonical(code: tuple[int, ...]) -> tuple[int, ...]:
    if len(code) == 4 and (code[0], code[1]) < (code[2], code[3]):
        return (code[2], code[3], code[0], code[1])
    return code


def _to_play(b0: list[int], code: tuple[int, ...]) -> Play:
    """Move objects for a canonical code, hits from the board before the play."""
    mv = _MV
    if len(code) == 2:
        s, t = code
        return (mv[s][t][1 if t and b0[t] == -1 else 0],)
    moves: list[Move] = []
    landed: set[int] = set()
    for i in range(0, len(code), 2):
        s = code[i]
        t = code[i + 1]
        h = 1 if t and b0[t] == -1 and t not in landed else 0
        if t:
            landed.add(t)
        moves.append(mv[s][t][h])
    return tuple(moves)


def _apply_code(b: list[int], code: tuple[int, ...]) -> None:
    for i in range(0, len(code), 2):
        s = code[i]
        t = code[i + 1]
        b[s] -= 1
        if t:
            if b[t] == -1:
                b[t] = 1
                b[OPP_BAR] += 1
            else:
                b[t] += 1
        else:
            b[0] += 1


def _raw(pos: Position, dice: tuple[int, int]) -> tuple[list[int], dict[int, list[tuple[int, ...]]]]:
    d1, d2 = check_dice(dice)
    b = to_own(pos)
    if d1 == d2:
        return b, _raw_double(b, d1)
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    return b, _raw_nondouble(b, hi, lo)


def legal_results(pos: Position, dice: tuple[int, int]) -> tuple[PlayResult, ...]:
    """Every distinct position ``pos.turn`` may reach with ``dice`` (M1-M7).

    Empty when no die can be played (E7, M4).

    >>> len(legal_results(Position.start(), (3, 1)))
    16
    """
    b0, raw = _raw(pos, dice)
    turn = pos.turn
    opp_off = pos.off[1 - turn]
    double = dice[0] == dice[1]
    out: list[PlayResult] = []
    new = object.__new__
    setattr_ = object.__setattr__
    for codes in raw.values():
        if double:
            plays: tuple[Play, ...] = (_to_play(b0, codes[0]),)
        else:
            seen: list[tuple[int, ...]] = []
            for c in codes:
                c = _canonical(c)
                if c not in seen:
                    seen.append(c)
            plays = tuple([_to_play(b0, c) for c in seen])
        b = b0.copy()
        _apply_code(b, codes[0])
        r = new(PlayResult)
        setattr_(r, "position", from_own(b, turn, opp_off))
        setattr_(r, "plays", plays)
        out.append(r)
    return tuple(out)


def legal_plays(pos: Position, dice: tuple[int, int]) -> tuple[Play, ...]:
    """The canonical play of every distinct result."""
    return tuple(r.plays[0] for r in legal_results(pos, dice))


def apply_play(pos: Position, play: Play) -> Position:
    """Play ``play`` for ``pos.turn`` without checking legality; keeps the turn."""
    b = to_own(pos)
    for m in play:
        if b[m.src] <= 0:
            where = "the bar" if m.src == BAR else f"point {m.src}"
            raise InvalidPlayError(f"no checker of the mover on {where} for {_fmt(m)}")
        b[m.src] -= 1
        if m.dst > 0:
            if b[m.dst] == -1:
                b[m.dst] = 1
                b[OPP_BAR] += 1
            elif b[m.dst] < -1:
                raise InvalidPlayError(
                    f"point {m.dst} is held by the opponent (M2): {_fmt(m)} cannot land there"
                )
            else:
                b[m.dst] += 1
        else:
            b[0] += 1
    res = from_own(b, pos.turn, pos.off[1 - pos.turn])
    return Position(res.points, res.bar, res.off, res.turn)


def end_turn(pos: Position) -> Position:
    """The same checkers with the other side on roll."""
    return pos.with_turn(pos.turn.other)


# -- notation ---------------------------------------------------------------
def _fmt(m: Move) -> str:
    src = "bar" if m.src == BAR else str(m.src)
    dst = "off" if m.dst == 0 else str(m.dst)
    return f"{src}/{dst}{'*' if m.hit else ''}"


def format_play(play: Play) -> str:
    """``13/11 6/5*``, ``bar/22``, ``6/off``; repeated moves as ``8/5(2)``.

    An empty play (no legal move) is ``""``.
    """
    parts: list[str] = []
    counts: list[int] = []
    for m in play:
        s = _fmt(m)
        if parts and parts[-1] == s:
            counts[-1] += 1
        else:
            parts.append(s)
            counts.append(1)
    return " ".join(p if n == 1 else f"{p}({n})" for p, n in zip(parts, counts))


def _point(tok: str, text: str) -> int:
    t = tok.lower()
    if t == "bar":
        return BAR
    if t == "off":
        return 0
    if not t.isdigit() or not 1 <= int(t) <= 24:
        raise InvalidPlayError(
            f"{tok!r} in {text!r} is not a point: use 1-24, 'bar' or 'off' (mover's numbering)"
        )
    return int(t)


def parse_play(pos: Position, text: str) -> Play:
    """Parse ``"13/11 6/5*"``, ``"bar/22"``, ``"6/off"``, ``"8/5(2)"``, ``"24/18*/13"``.

    Points are in the mover's (``pos.turn``'s) own numbering. Hits are taken
    from the position; a ``*`` where no blot stands is an error.
    """
    moves: list[tuple[int, int, bool]] = []
    for tok in text.replace(",", " ").split():
        rep = 1
        if tok.endswith(")") and "(" in tok:
            tok, _, n = tok[:-1].partition("(")
            if not n.isdigit() or not 1 <= int(n) <= 4:
                raise InvalidPlayError(f"bad repeat count ({n}) in {text!r}: use (2), (3) or (4)")
            rep = int(n)
        segs = tok.split("/")
        if len(segs) < 2:
            raise InvalidPlayError(f"{tok!r} in {text!r} is not a move: write FROM/TO, e.g. 13/11")
        pts: list[tuple[int, bool]] = []
        for seg in segs:
            star = seg.endswith("*")
            pts.append((_point(seg.rstrip("*"), text), star))
        for _ in range(rep):
            for (a, _s), (z, star) in zip(pts, pts[1:]):
                if a == 0 or z == BAR or z >= a:
                    raise InvalidPlayError(
                        f"{tok!r} in {text!r} moves backwards or from off (M1): "
                        "checkers move from higher to lower points"
                    )
                moves.append((a, z, star))
    if not moves:
        raise InvalidPlayError("empty play: write moves such as 13/11 6/5")
    b = to_own(pos)
    out: list[Move] = []
    for a, z, star in moves:
        if b[a] <= 0:
            where = "the bar" if a == BAR else f"point {a}"
            raise InvalidPlayError(f"{text!r}: no checker on {where} to move (mover's numbering)")
        hit = z > 0 and b[z] == -1
        if star and not hit:
            raise InvalidPlayError(f"{text!r}: no blot on {z} to hit")
        b[a] -= 1
        if z > 0:
            b[z] = 1 if hit else b[z] + 1
            if hit:
                b[OPP_BAR] += 1
        else:
            b[0] += 1
        out.append(Move(a, z, hit))
    return tuple(out)


# -- judging ----------------------------------------------------------------
def is_legal(pos: Position, dice: tuple[int, int], after: Position) -> bool:
    """Whether ``after`` (checkers only) is reachable from ``pos`` with ``dice``."""
    b0, raw = _raw(pos, dice)
    if not raw:
        return after.layout_key() == pos.layout_key()
    a = to_own(after.with_turn(pos.turn))
    key = sum((x - y) * w for x, y, w in zip(a, b0, _W))
    return key in raw


def distance(a: Position, b: Position) -> int:
    """Checkers out of place: the fewest checkers to pick up to turn a into b."""
    n = 0
    for x, y in zip(a.points, b.points):
        if x != y:
            xw = x if x > 0 else 0
            yw = y if y > 0 else 0
            if xw > yw:
                n += xw - yw
            xb = -x if x < 0 else 0
            yb = -y if y < 0 else 0
            if xb > yb:
                n += xb - yb
    for s in (0, 1):
        if a.bar[s] > b.bar[s]:
            n += a.bar[s] - b.bar[s]
        if a.off[s] > b.off[s]:
            n += a.off[s] - b.off[s]
    return n


def wrong_points(observed: Position, expected: Position) -> tuple[int, ...]:
    """White-numbered slots where the two differ: 1-24, 0 = bar, 25 = tray."""
    out = [i + 1 for i, (x, y) in enumerate(zip(observed.points, expected.points)) if x != y]
    if observed.bar != expected.bar:
        out.insert(0, 0)
    if observed.off != expected.off:
        out.append(25)
    return tuple(out)


def judge(pos: Position, dice: tuple[int, int], observed: Position, k: int = 3) -> Judgement:
    """Is ``observed`` a legal end of the turn? If not, the nearest legal ends.

    With no legal move (E7) the only legal end is ``pos`` itself, reported as a
    result with one empty play.
    """
    results = legal_results(pos, dice)
    if not results:
        results = (PlayResult(pos, ((),)),)
    target = observed.layout_key()
    for r in results:
        if r.position.layout_key() == target:
            return Judgement(True, r, ((0, r),), ())
    scored = sorted(
        ((distance(observed, r.position), i) for i, r in enumerate(results)),
    )[: max(k, 1)]
    nearest = tuple((dist, results[i]) for dist, i in scored)
    return Judgement(False, None, nearest, wrong_points(observed, nearest[0][1].position))
