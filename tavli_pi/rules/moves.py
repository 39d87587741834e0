"""Legal plays (M1-M7), their notation, and judging an observed play.

The generator works in the *mover's own* numbering on a flat list ``b`` of 27
ints (see :mod:`tavli_pi.rules._board`): ``b[1..24]`` the mover's points
(positive = mover, negative = opponent), ``b[25]`` the mover's bar, ``b[0]``
the mover's tray, ``b[26]`` the opponent's bar. A result is identified by an
integer key kept up to date move by move (balanced base 32, one digit per
slot), so de-duplication never builds a tuple.

Speed (bench/bench_plays.py, bench/RESULTS.md): the ``Position`` of a
*distinct* result is built once, when its key is first met, from a copy of
the physical points with the play applied, through the slot descriptors (no
``__post_init__``: it is derived from a valid position by legal moves). The
``Move`` tuples of ``PlayResult.plays`` are built only when first read, from
the stored raw codes (``src, dst, ...``, a negative ``dst`` marks a hit).

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
    "canonical_play",
    "canonical_text",
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


@dataclass(frozen=True, slots=True, eq=False)
class PlayResult:
    """A distinct position after a legal play, and every play reaching it."""

    position: Position  # after the play; the turn is unchanged
    plays: tuple[Play, ...]  # first = canonical (sources high to low)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayResult):
            return NotImplemented
        return self.position == other.position and self.plays == other.plays

    def __hash__(self) -> int:
        return hash((self.position, self.plays))


_PLAYS_SLOT = PlayResult.__dict__["plays"]


class _LazyResult(PlayResult):
    """A generated result: ``plays`` are built from the raw codes on first use.

    ``legal_results`` builds every distinct ``Position`` eagerly; the ``Move``
    tuples of its plays are only built when somebody reads ``plays``.
    """

    __slots__ = ("_codes",)
    #: one code, or several (one per move order): ``(src, dst, src, dst, ...)``
    #: in the mover's numbering, ``dst`` negated where that move hit a blot
    _codes: tuple[int, ...] | list[tuple[int, ...]] | None  # None once plays are built

    @property
    def plays(self) -> tuple[Play, ...]:
        codes = self._codes
        if codes is None:  # built before
            built: tuple[Play, ...] = _PLAYS_SLOT.__get__(self, PlayResult)
            return built
        if isinstance(codes, tuple):
            plays: tuple[Play, ...] = (_to_play(_canonical(codes)),)
        else:
            seen: list[tuple[int, ...]] = []
            for c in codes:
                c = _canonical(c)
                if c not in seen:
                    seen.append(c)
            plays = tuple([_to_play(c) for c in seen])
        _PLAYS_SLOT.__set__(self, plays)
        _RES_SET[1](self, None)
        return plays

    @plays.setter
    def plays(self, value: tuple[Play, ...]) -> None:
        # only reachable through object.__setattr__ (dataclasses.replace): frozen otherwise
        _PLAYS_SLOT.__set__(self, value)
        _RES_SET[1](self, None)

    def __repr__(self) -> str:
        return f"PlayResult(position={self.position!r}, plays={self.plays!r})"

    def __reduce__(self) -> tuple[type[PlayResult], tuple[Position, tuple[Play, ...]]]:
        # copy / pickle as a plain PlayResult (equal to this one)
        return (PlayResult, (self.position, self.plays))


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
#: own point -> index into ``Position.points`` (0 unused: bar and tray)
_IX_W: list[int] = [0] + [s - 1 for s in range(1, 25)]
_IX_B: list[int] = [0] + [24 - s for s in range(1, 25)]
_new = object.__new__
#: every valid roll
_DICE_OK = frozenset((a, b) for a in range(1, 7) for b in range(1, 7))
_POS_SET = tuple(Position.__dict__[f].__set__ for f in ("points", "bar", "off", "turn"))
_RES_SET = (
    PlayResult.__dict__["position"].__set__,
    _LazyResult.__dict__["_codes"].__set__,
)


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


def _add_code(r: _LazyResult, code: tuple[int, ...]) -> None:
    """Another play (move order) reaching ``r``."""
    codes = r._codes
    if isinstance(codes, list):
        codes.append(code)
    elif codes is not None:  # (plays are only read after generation)
        _RES_SET[1](r, [codes, code])


def _result(
    pl: list[int], b: list[int], turn: Side, opp_off: int, code: tuple[int, ...]
) -> _LazyResult:
    """A result from the physical points ``pl`` and the mover's-view board ``b``."""
    set_points, set_bar, set_off, set_turn = _POS_SET
    p = _new(Position)
    set_points(p, tuple(pl))
    if turn is Side.WHITE:
        set_bar(p, (b[BAR], b[OPP_BAR]))
        set_off(p, (b[0], opp_off))
    else:
        set_bar(p, (b[OPP_BAR], b[BAR]))
        set_off(p, (opp_off, b[0]))
    set_turn(p, turn)
    set_position, set_codes = _RES_SET
    r: _LazyResult = _new(_LazyResult)
    set_position(r, p)
    set_codes(r, code)
    return r


def _gen_nondouble(
    b: list[int], hi: int, lo: int, pts0: tuple[int, ...], turn: Side, opp_off: int
) -> dict[int, _LazyResult]:
    """Result key -> result, for a non-double roll (M1-M5).

    ``b`` is mutated while searching and restored before returning.
    """
    W = _W
    W26 = _W26
    white = turn is Side.WHITE
    ix = _IX_W if white else _IX_B
    sg = 1 if white else -1
    new = _new
    set_points, set_bar, set_off, set_turn = _POS_SET
    set_position, set_codes = _RES_SET
    far0 = furthest(b)
    two: dict[int, _LazyResult] = {}
    single_hi: dict[int, _LazyResult] = {}
    single_lo: dict[int, _LazyResult] = {}
    # With no checker on the bar and none bearing off yet (6 < far0 < BAR),
    # a play "lo from s, then hi from s2" where s2 could already move hi at
    # the start reaches the same position as "hi from s2, then lo from s"
    # (same canonical play too), found in the first pass: skip it.
    plain = 6 < far0 < BAR
    lo0 = _sources(b, lo, far0, BAR) if plain else []
    first_hi = _sources(b, hi, far0, BAR)
    for a, c in ((hi, lo), (lo, hi)):
        srcs1 = first_hi if a == hi else lo0 if plain else _sources(b, a, far0, BAR)
        for s in srcs1:
            t = s - a
            if t < 0:
                t = 0
            if a == lo and plain and two and not (t <= 6 and s == far0 and b[s] == 1):
                # nothing can bear off after this move, so the checker that
                # lands on t is the only possible new source (see below)
                if t <= c or t in first_hi or b[t - c] < -1:
                    continue
            pl = list(pts0)
            b[s] -= 1
            k1 = -W[s]
            if s != BAR:
                pl[ix[s]] -= sg
            hit = False
            if t:
                v = b[t]
                if v == -1:
                    b[t] = 1
                    b[OPP_BAR] += 1
                    hit = True
                    k1 += 2 * W[t] + W26
                    pl[ix[t]] = sg
                else:
                    b[t] = v + 1
                    k1 += W[t]
                    pl[ix[t]] += sg
            else:
                b[0] += 1
                k1 += 1
            tc = -t if hit else t  # t as written in codes
            far = far0
            if s == far0 and b[s] == 0:
                far = far_below(b, s)
            if t > far:
                far = t
            if a == hi and plain and far > 6:
                # the low die's sources at the start, less s if it emptied,
                # plus t if the checker that landed there can go on
                srcs = lo0
                if b[s] == 0 and s in lo0:
                    srcs = [x for x in srcs if x != s]
                if t > c and t not in lo0 and b[t - c] >= -1:
                    i = 0
                    for x in srcs:
                        if x < t:
                            break
                        i += 1
                    srcs = srcs[:i] + [t] + srcs[i:]
            elif a == lo and plain:
                # Sources of the high die differ from the start only by s (maybe
                # emptied) and t (maybe new): t is the only candidate left. If
                # some skipped source could move, the first pass found a
                # two-dice play, so "srcs empty" still means a single only
                # when no two-dice play exists (M5).
                if far > 6:
                    srcs = [t] if t > c and t not in first_hi and b[t - c] >= -1 else []
                else:
                    srcs = [x for x in _sources(b, c, far, BAR) if x not in first_hi]
            else:
                srcs = _sources(b, c, far, BAR)
            if srcs:
                if white:
                    bar1 = (b[BAR], b[OPP_BAR])
                    off1 = (b[0], opp_off)
                else:
                    bar1 = (b[OPP_BAR], b[BAR])
                    off1 = (opp_off, b[0])
                for s2 in srcs:
                    t2 = s2 - c
                    if t2 > 0:
                        h2 = b[t2] == -1
                        k2 = k1 - W[s2] + W[t2]
                        if h2:
                            k2 += W[t2] + W26
                    else:
                        t2 = 0
                        h2 = False
                        k2 = k1 - W[s2] + 1
                    r = two.get(k2)
                    if r is None:
                        q = pl.copy()
                        if s2 != BAR and t2 and not h2:  # the usual case
                            q[ix[s2]] -= sg
                            q[ix[t2]] += sg
                            bar_p = bar1
                            off_p = off1
                        else:
                            mb = b[BAR]
                            if s2 == BAR:
                                mb -= 1
                            else:
                                q[ix[s2]] -= sg
                            ob = b[OPP_BAR]
                            mo = b[0]
                            if t2:
                                j = ix[t2]
                                if h2:
                                    q[j] = sg
                                    ob += 1
                                else:
                                    q[j] += sg
                            else:
                                mo += 1
                            if white:
                                bar_p = (mb, ob)
                                off_p = (mo, opp_off)
                            else:
                                bar_p = (ob, mb)
                                off_p = (opp_off, mo)
                        p = new(Position)
                        set_points(p, tuple(q))
                        set_bar(p, bar_p)
                        set_off(p, off_p)
                        set_turn(p, turn)
                        r = new(_LazyResult)
                        set_position(r, p)
                        set_codes(r, (s, tc, s2, -t2 if h2 else t2))
                        two[k2] = r
                    else:
                        _add_code(r, (s, tc, s2, -t2 if h2 else t2))
            elif not two:
                single = single_hi if a == hi else single_lo
                r = single.get(k1)
                if r is None:
                    single[k1] = _result(pl, b, turn, opp_off, (s, tc))
                else:
                    _add_code(r, (s, tc))
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


def _gen_double(
    b: list[int], d: int, pts0: tuple[int, ...], turn: Side, opp_off: int
) -> dict[int, _LazyResult]:
    """Result key -> result for a double: up to four moves of ``d`` (M1, M5).

    Moves are enumerated in non-increasing source order, so every multiset
    of moves is met once; the first play reaching a key is its canonical one.
    Away from the bar and the bear-off, a move's child sources are the
    parent's from the same point down, less the point it emptied, plus the
    point it newly occupied: no rescan of the board.
    """
    W = _W
    W26 = _W26
    white = turn is Side.WHITE
    ix = _IX_W if white else _IX_B
    sg = 1 if white else -1
    out: dict[int, _LazyResult] = {}
    best = [0]
    path: list[int] = []
    pl = list(pts0)
    new = _new
    set_points, set_bar, set_off, set_turn = _POS_SET
    set_position, set_codes = _RES_SET

    def last(srcs: list[int], key: int) -> None:
        """The fourth move: build each result from a copy, no recursion."""
        if best[0] < 4:
            best[0] = 4
            out.clear()
        head = tuple(path)
        if white:
            bar1 = (b[BAR], b[OPP_BAR])
            off1 = (b[0], opp_off)
        else:
            bar1 = (b[OPP_BAR], b[BAR])
            off1 = (opp_off, b[0])
        for s in srcs:
            t = s - d
            q = pl.copy()
            k = key - W[s]
            if t > 0 and s != BAR and b[t] != -1:  # the usual case
                q[ix[s]] -= sg
                q[ix[t]] += sg
                k += W[t]
                bar_p = bar1
                off_p = off1
                tc = t
            else:
                tc = t
                mb = b[BAR]
                if s == BAR:
                    mb -= 1
                else:
                    q[ix[s]] -= sg
                ob = b[OPP_BAR]
                mo = b[0]
                if t > 0:
                    j = ix[t]
                    if b[t] == -1:
                        q[j] = sg
                        ob += 1
                        k += 2 * W[t] + W26
                        tc = -t
                    else:
                        q[j] += sg
                        k += W[t]
                else:
                    tc = 0
                    mo += 1
                    k += 1
                if white:
                    bar_p = (mb, ob)
                    off_p = (mo, opp_off)
                else:
                    bar_p = (ob, mb)
                    off_p = (opp_off, mo)
            if k in out:
                continue
            p = new(Position)
            set_points(p, tuple(q))
            set_bar(p, bar_p)
            set_off(p, off_p)
            set_turn(p, turn)
            r = new(_LazyResult)
            set_position(r, p)
            set_codes(r, head + (s, tc))
            out[k] = r

    def rec(n: int, far: int, key: int, srcs: list[int]) -> None:
        """``n`` moves made; ``srcs`` the sources for the next (non-increasing)."""
        if not srcs:
            if n > best[0]:
                best[0] = n
                out.clear()
            if n == best[0] and n and key not in out:
                out[key] = _result(pl, b, turn, opp_off, tuple(path))
            return
        if n == 3:
            last(srcs, key)
            return
        plain = 6 < far < BAR
        i = 0
        for s in srcs:
            t = s - d
            if t < 0:
                t = 0
            b[s] -= 1
            k = key - W[s]
            if s != BAR:
                pl[ix[s]] -= sg
            hit = False
            if t:
                v = b[t]
                if v == -1:
                    b[t] = 1
                    b[OPP_BAR] += 1
                    hit = True
                    k += 2 * W[t] + W26
                    pl[ix[t]] = sg
                else:
                    b[t] = v + 1
                    k += W[t]
                    pl[ix[t]] += sg
            else:
                b[0] += 1
                k += 1
            nf = far
            if s == far and b[s] == 0:
                nf = far_below(b, s)
            if t > nf:
                nf = t
            if plain and nf > 6:
                child = srcs[i + 1:] if b[s] == 0 else srcs[i:]
                if t > d and b[t] == 1 and b[t - d] >= -1:
                    # t newly occupied: insert it in descending order
                    j = 0
                    for x in child:
                        if x < t:
                            break
                        j += 1
                    child = child[:j] + [t] + child[j:]
            else:
                child = _sources(b, d, nf, s)
            path.append(s)
            path.append(-t if hit else t)
            rec(n + 1, nf, k, child)
            del path[-2:]
            if t:
                if hit:
                    b[t] = -1
                    b[OPP_BAR] -= 1
                    pl[ix[t]] = -sg
                else:
                    b[t] -= 1
                    pl[ix[t]] -= sg
            else:
                b[0] -= 1
            if s != BAR:
                pl[ix[s]] += sg
            b[s] += 1
            i += 1

    far0 = furthest(b)
    rec(0, far0, 0, _sources(b, d, far0, BAR))
    return out


def _canonical(code: tuple[int, ...]) -> tuple[int, ...]:
    """A two-move code in gnubg's order (source, then destination, highest first).

    When both moves land on the point the first one hit, the hit passes to
    the one that now lands first.
    """
    if len(code) == 4:
        s, t, s2, t2 = code
        if (s, abs(t)) < (s2, abs(t2)):
            if t < 0 and t2 == -t:
                return (s2, t, s, t2)
            return (s2, t2, s, t)
    return code


def _to_play(code: tuple[int, ...]) -> Play:
    """The Move objects of a code (a negative destination marks a hit)."""
    mv = _MV
    if len(code) == 4:
        s, t, s2, t2 = code
        return (
            mv[s][-t][1] if t < 0 else mv[s][t][0],
            mv[s2][-t2][1] if t2 < 0 else mv[s2][t2][0],
        )
    it = iter(code)
    return tuple([mv[s][-t][1] if t < 0 else mv[s][t][0] for s, t in zip(it, it)])


def _generate(pos: Position, dice: tuple[int, int]) -> dict[int, _LazyResult]:
    """Result key (see module doc) -> result, for ``pos.turn`` and ``dice``."""
    try:
        d1, d2 = dice
        ok = dice in _DICE_OK and type(d1) is int and type(d2) is int  # not bools
    except (TypeError, ValueError):  # unhashable (a list), or not two values
        ok = False
    if not ok:
        d1, d2 = check_dice(dice)
    b = to_own(pos)
    turn = pos.turn
    opp_off = pos.off[1 - turn]
    if d1 == d2:
        return _gen_double(b, d1, pos.points, turn, opp_off)
    if d1 > d2:
        return _gen_nondouble(b, d1, d2, pos.points, turn, opp_off)
    return _gen_nondouble(b, d2, d1, pos.points, turn, opp_off)


def legal_results(pos: Position, dice: tuple[int, int]) -> tuple[PlayResult, ...]:
    """Every distinct position ``pos.turn`` may reach with ``dice`` (M1-M7).

    Empty when no die can be played (E7, M4). Each result's ``Position`` is
    built here; the ``Move`` tuples of its ``plays`` when first read.

    >>> len(legal_results(Position.start(), (3, 1)))
    16
    """
    return tuple(_generate(pos, dice).values())


def canonical_text(r: PlayResult) -> str:
    """``format_play(r.plays[0])``, remembered per raw code for generated results (``plays --jsonl``)."""
    if type(r) is _LazyResult:
        codes = r._codes
        if codes is not None:
            code = _canonical(codes if isinstance(codes, tuple) else codes[0])
            text = _CODE_TEXT.get(code)
            if text is None:
                if len(_CODE_TEXT) >= _FORMATTED_MAX:
                    _CODE_TEXT.clear()
                text = _CODE_TEXT[code] = format_play(_to_play(code)) if len(code) <= 4 else _format_code(code)
            return text
    return format_play(r.plays[0])


#: canonical raw code -> its text (bounded: cleared when full)
_CODE_TEXT: dict[tuple[int, ...], str] = {}


def canonical_play(r: PlayResult) -> Play:
    """``r.plays[0]`` (the canonical play), without building the other plays of a generated result."""
    if type(r) is _LazyResult:
        codes = r._codes
        if codes is not None:
            return _to_play(_canonical(codes if isinstance(codes, tuple) else codes[0]))
    return r.plays[0]


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
    return f"{_pt(m.src)}/{_pt(m.dst)}{'*' if m.hit else ''}"


def _pt(n: int) -> str:
    return "bar" if n == BAR else "off" if n == 0 else str(n)


def format_play(play: Play) -> str:
    """The usual (gnubg) notation: ``13/8``, ``24/18*/13``, ``8/5(2) 6/5*``, ``bar/22``, ``6/off``.

    As gnubg's hint list prints a play (checked against gnubg 1.07 on
    thousands of plays, tests/rules/test_moves_notation.py): the moves sorted
    by source then destination, highest first; each checker's consecutive
    hops merged into one move (``13/11 11/8`` -> ``13/8``), an intermediate
    point shown only where it hit (``13/7*/5``); the first move landing on a
    blot marked ``*``; identical moves grouped as ``(n)``. An empty play (no
    legal move) is ``""``. The per-die steps stay in the :data:`Play` itself.

    Speed (issue 12, ``plays --jsonl``): one and two moves (every non-double)
    take a direct path; three and four moves (doubles) the general one,
    remembered per play. Both give the same text (tests/rules/test_moves_notation.py).
    """
    n = len(play)
    if n == 2:
        a, b = play
        s1, d1, s2, d2 = a.src, a.dst, b.src, b.dst
        h1, h2 = a.hit, b.hit
        if (s1, d1) < (s2, d2):  # sorted by (source, destination), highest first
            s1, d1, h1, s2, d2, h2 = s2, d2, h2, s1, d1, h1
        pt = _PT
        # hit points: d1 if h1 (or h2 with d2 == d1); the first chain to reach a hit point gets the star
        star1 = h1 or (h2 and d2 == d1)
        star2 = h2 and d2 != d1
        if d1 and s2 == d1:  # one checker, two hops: s1/d1/d2 (d1 shown only where it hit)
            if star1:
                return f"{pt[s1]}/{pt[d1]}*/{pt[d2]}{'*' if star2 else ''}"
            return f"{pt[s1]}/{pt[d2]}{'*' if star2 else ''}"
        if s1 == s2 and d1 == d2:
            return f"{pt[s1]}/{pt[d1]}{'*' if star1 else ''}(2)"
        return f"{pt[s1]}/{pt[d1]}{'*' if star1 else ''} {pt[s2]}/{pt[d2]}{'*' if star2 else ''}"
    if n == 1:
        m = play[0]
        return f"{_PT[m.src]}/{_PT[m.dst]}{'*' if m.hit else ''}"
    text = _FORMATTED.get(play)
    if text is None:
        if len(_FORMATTED) >= _FORMATTED_MAX:
            _FORMATTED.clear()
        text = _FORMATTED[play] = _format_general(play)
    return text


#: point number -> its notation (0 is off, 25 the bar)
_PT = ["off", *(str(i) for i in range(1, 25)), "bar"]
#: plays of three or four moves already written (bounded: cleared when full)
_FORMATTED: dict[Play, str] = {}
_FORMATTED_MAX = 1 << 16


def _format_general(play: Play) -> str:
    """:func:`format_play` for any number of moves (the one-line rules in its doc, step by step)."""
    return _format_moves(sorted([(m.src, m.dst) for m in play], reverse=True), {m.dst for m in play if m.hit})


def _format_code(code: tuple[int, ...]) -> str:
    """:func:`format_play` of a raw code (``src, dst, ...``; a negative ``dst`` hit), no ``Move`` built."""
    dsts = code[1::2]
    return _format_moves(sorted(zip(code[0::2], map(abs, dsts)), reverse=True), {-t for t in dsts if t < 0})


def _format_moves(moves: list[tuple[int, int]], hit_points: set[int]) -> str:
    """The text of moves sorted by (source, destination), highest first, and the points hit."""
    chains = [[s, d] for s, d in moves]
    # Join a move ending where another starts (one checker), the first such in order. A chain
    # can only go on with a later one (sources are sorted high to low and every hop goes down),
    # so one pass, each chain extended as far as it goes, joins as a restart after each join would.
    i = 0
    while i < len(chains):
        a = chains[i]
        end = a[-1]
        while end:
            for j in range(i + 1, len(chains)):
                if chains[j][0] == end:
                    a.extend(chains.pop(j)[1:])
                    end = a[-1]
                    break
            else:
                break
        i += 1
    pt = _PT
    if not hit_points:  # no stars: each chain is its first and last point
        texts = [f"{pt[c[0]]}/{pt[c[-1]]}" for c in chains]
    else:
        starred: set[int] = set()
        texts = []
        for c in chains:
            text = pt[c[0]]
            last = len(c) - 1
            for k in range(1, last + 1):
                p = c[k]
                if p in hit_points and p not in starred:  # the first landing on a hit point
                    starred.add(p)
                    text += f"/{pt[p]}*"
                elif k == last:
                    text += f"/{pt[p]}"
            texts.append(text)
    # identical chains in a row are one group "(n)", written as the first of them
    # (which took any star: the later ones find their points starred)
    out: list[str] = []
    prev: list[int] | None = None
    first = ""
    n = 0
    for c, text in zip(chains, texts):
        if c == prev:
            n += 1
            continue
        if prev is not None:
            out.append(first if n == 1 else f"{first}({n})")
        prev, first, n = c, text, 1
    if prev is not None:
        out.append(first if n == 1 else f"{first}({n})")
    return " ".join(out)


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


def parse_play(pos: Position, text: str, dice: tuple[int, int] | None = None) -> Play:
    """Parse ``"13/11 6/5*"``, ``"bar/22"``, ``"6/off"``, ``"8/5(2)"``, ``"24/18*/13"``, ``"13/8"``.

    Points are in the mover's (``pos.turn``'s) own numbering. Both the
    per-die form (``13/11 11/8``) and gnubg's merged form (``13/8``) are
    accepted; a merged move stays one :class:`Move` unless ``dice`` are
    given. Hits are taken from the position; a ``*`` where no blot stood at
    the start of the play is an error.

    With ``dice``, the play must be legal (M1-M7) and the per-die play is
    returned: the one written, if it was written die by die, else the
    canonical play of the result it reaches.
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
    b0 = to_own(pos)
    b = b0.copy()
    out: list[Move] = []
    for a, z, star in moves:
        if b[a] <= 0:
            where = "the bar" if a == BAR else f"point {a}"
            raise InvalidPlayError(f"{text!r}: no checker on {where} to move (mover's numbering)")
        hit = z > 0 and b[z] == -1
        if star and not hit and not (z > 0 and b0[z] == -1):
            raise InvalidPlayError(f"{text!r}: no blot on {z} to hit")
        b[a] -= 1
        if z > 0:
            b[z] = 1 if hit else b[z] + 1
            if hit:
                b[OPP_BAR] += 1
        else:
            b[0] += 1
        out.append(Move(a, z, hit))
    play = tuple(out)
    if dice is None:
        return play
    after = apply_play(pos, play).layout_key()
    for r in legal_results(pos, dice):
        if r.position.layout_key() == after:
            return play if play in r.plays else r.plays[0]
    raise InvalidPlayError(
        f"{text!r} is not a legal play of {dice[0]}-{dice[1]} (M1-M7): "
        "list the legal plays with `tavli-pi plays`"
    )


# -- judging ----------------------------------------------------------------
def is_legal(pos: Position, dice: tuple[int, int], after: Position) -> bool:
    """Whether ``after`` (checkers only) is reachable from ``pos`` with ``dice``."""
    raw = _generate(pos, dice)
    if not raw:
        return after.layout_key() == pos.layout_key()
    a = to_own(after.with_turn(pos.turn))
    key = sum((x - y) * w for x, y, w in zip(a, to_own(pos), _W))
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
