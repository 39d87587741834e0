"""Legal plays of Plakoto and Fevga (V1-V8, P2-P7, F2-F7), their notation, and judging.

The generator works in the mover's own numbering on a flat list ``v`` of 25
ints: ``v[i] = 4 * m + f`` for own point ``i`` (``m`` the mover's checkers
there, pinned one included; ``f`` 0, 1 = the mover's checker is pinned there,
2 = an opposing checker is pinned there under the mover's) and ``v[0] = 4 *``
the mover's borne-off count. The opponent never moves during the turn, so its
counts ``o`` and the points closed to the mover (P2, F2) are fixed for the
whole turn; so are the mover's pinned checkers (P4) and with them P5.

Moves are searched layer by layer (one die per layer, both orders of a
non-double), the states of a layer de-duplicated by their key, so every order
of every checker is tried once per distinct intermediate position. This
matters here, unlike Portes, because legality depends on the order: F3 is
judged before each single move, a checker that touches down on a lone
opposing checker pins it and frees it when moving on (P3), a game-ending
move stops the play (V6) and F4/F5 may be judged after every move (F7).
V7 is applied last: of the plays that pass F4/F5 at their end, those using
the most dice (a game-ending play counts as using all); with one die of a
non-double, the larger where possible.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli_pi.errors import IllegalActionError, InvalidPlayError
from tavli_pi.rules.moves import check_dice
from tavli_pi.rules.position import CHECKERS, Side
from tavli_pi.rules.tavli_position import TavliPosition, own_to_physical, physical_to_own
from tavli_pi.rules.tavli_scoring import game_over
from tavli_pi.rules.tavli_settings import (
    BlockCheck,
    Mother,
    Prime,
    TavliSettings,
    Variant,
)

__all__ = [
    "TavliMove",
    "TavliPlay",
    "TavliResult",
    "TavliJudgement",
    "legal_results",
    "results_or_pass",
    "format_tavli_play",
    "parse_tavli_play",
    "apply_tavli_play",
    "play_to_physical",
    "play_from_physical",
    "breaks_blocks",
    "distance",
    "wrong_points",
    "judge",
    "end_turn",
]

_DEFAULT = TavliSettings()
_FULL = 4 * CHECKERS


@dataclass(frozen=True, slots=True)
class TavliMove:
    """One checker moved by one die, in the mover's own numbering (``dst`` 0 = off).

    ``pin``: it landed on a lone opposing checker and pinned it (P3).
    """

    src: int
    dst: int
    pin: bool = False


TavliPlay = tuple[TavliMove, ...]


@dataclass(frozen=True, slots=True)
class TavliResult:
    """A distinct end position of a legal play (the turn unchanged) and one play reaching it.

    ``play`` is in the order played (F3 and P3 depend on it).
    """

    position: TavliPosition
    play: TavliPlay


@dataclass(frozen=True, slots=True)
class TavliJudgement:
    """The referee's reading of one observed end position, as for Portes."""

    legal: bool
    result: TavliResult | None
    nearest: tuple[tuple[int, TavliResult], ...]
    wrong_points: tuple[int, ...]


# -- the mover's view -----------------------------------------------------------
def _own_map(variant: Variant, side: Side) -> list[int]:
    """own point -> index into ``points`` (index 0 unused)."""
    return [0] + [own_to_physical(variant, side, i) - 1 for i in range(1, 25)]


_MAPS = {(v, s): _own_map(v, s) for v in (Variant.PLAKOTO, Variant.FEVGA) for s in Side}


class _Turn:
    """Everything fixed for one turn, and the board conversions."""

    __slots__ = ("variant", "turn", "ix", "o", "closed", "mine_pinned", "opp_off",
                 "plakoto", "mother", "through", "every_move", "route", "check_prime", "v0",
                 "pts0", "pins0", "sg")

    def __init__(self, variant: Variant, pos: TavliPosition, st: TavliSettings) -> None:
        self.variant = variant
        turn = self.turn = pos.turn
        ix = self.ix = _MAPS[(variant, turn)]
        sg = turn.sign
        v = [4 * pos.off[turn]]
        o = [0]
        mine_pinned = False
        for i in range(1, 25):
            j = ix[i]
            top = pos.points[j] * sg
            pin = pos.pinned[j] * sg  # +1 mover pinned, -1 opponent pinned
            if pin == 1:
                v.append(4 + 1)
                o.append(-top)
                mine_pinned = True
            elif pin == -1:
                v.append(4 * top + 2)
                o.append(1)
            elif top >= 0:
                v.append(4 * top)
                o.append(0)
            else:
                v.append(0)
                o.append(-top)
        self.v0 = v
        self.pts0 = pos.points
        self.pins0 = pos.pinned
        self.sg = sg
        self.o = o
        self.opp_off = pos.off[turn.other]
        self.mine_pinned = mine_pinned
        self.plakoto = variant is Variant.PLAKOTO
        if self.plakoto:
            # P2: two or more opposing checkers, or one pinning the mover's
            self.closed = [False] + [o[i] >= 2 or v[i] == 5 for i in range(1, 25)]
        else:
            self.closed = [False] + [o[i] >= 1 for i in range(1, 25)]  # F2
        self.mother = st.mother if self.plakoto else Mother.OFF
        self.through = st.first_checker.through
        self.every_move = (not self.plakoto) and st.block_check is BlockCheck.EVERY_MOVE
        # F5: the mover's points along the opponent's route in front of all its checkers
        self.check_prime = (not self.plakoto) and st.prime is Prime.NOT_IN_FRONT_OF_ALL \
            and self.opp_off == 0
        route: list[int] = []
        if self.check_prime:
            # the opponent's own point y is the mover's y + 12 (mod 24) in Fevga
            ymin = 25
            for y in range(1, 25):
                x = y + 12 if y <= 12 else y - 12
                if o[x]:
                    ymin = y
                    break
            route = [(y + 12 if y <= 12 else y - 12) for y in range(1, ymin)]
        self.route = route

    def position(self, v: list[int]) -> TavliPosition:
        """The physical position of the mover's-view board ``v`` (turn unchanged).

        Only the points that differ from the start of the turn are rewritten.
        """
        pts = list(self.pts0)
        pins = list(self.pins0)
        sg = self.sg
        o = self.o
        ix = self.ix
        v0 = self.v0
        for i in [i for i in range(1, 25) if v[i] != v0[i]]:
            x = v[i]
            j = ix[i]
            if x:
                f = x & 3
                if f == 1:  # (never changes within a turn; kept for completeness)
                    pts[j] = -sg * o[i]
                    pins[j] = sg
                else:
                    pts[j] = sg * (x >> 2)
                    pins[j] = -sg if f == 2 else 0
            else:
                pts[j] = -sg * o[i]
                pins[j] = 0
        off = (v[0] >> 2, self.opp_off) if self.turn is Side.WHITE else (self.opp_off, v[0] >> 2)
        return TavliPosition._trusted(tuple(pts), tuple(pins), off, self.turn)

    def blocks(self, v: list[int]) -> bool:
        """Whether ``v`` breaks F4 or F5 (Fevga only)."""
        if v[19] >= 4 and v[20] >= 4 and v[21] >= 4 and v[22] >= 4 and v[23] >= 4 and v[24] >= 4:
            return True  # F4: all six points of the own starting quarter
        run = 0
        for x in self.route:
            if v[x] >= 4:
                run += 1
                if run == 6:
                    return True  # F5: a prime in front of every opposing checker
            else:
                run = 0
        return False

    def terminal(self, v: list[int]) -> bool:
        """The last move ended the game (V6): 15 off, or a deciding mother pin (P6)."""
        if v[0] == _FULL:
            return True
        if self.mother is Mother.OFF:
            return False
        opp_m = (v[1] & 3) == 2  # the opponent's 24-point is the mover's 1-point
        my_m = v[24] == 5
        if not opp_m and not my_m:
            return False
        if opp_m and my_m or self.mother is Mother.TWO_POINTS:
            return True
        if opp_m:
            return v[24] < 4  # no free checker left on the mover's own 24-point
        return self.o[1] == 0

    def step(self, v: list[int], s: int, d: int) -> tuple[list[int], TavliMove]:
        """The board after moving one checker from ``s`` by ``d`` (P3 pins and frees)."""
        w = v.copy()
        w[s] -= 4
        if w[s] == 2:
            w[s] = 0  # the opposing checker it pinned is free again (P4)
        t = s - d
        pin = False
        if t >= 1:
            if w[t] == 0 and self.o[t] == 1:
                w[t] = 6  # P3: pins the lone opposing checker
                pin = True
            else:
                w[t] += 4
        else:
            t = 0
            w[0] += 4
        return w, TavliMove(s, t, pin)


#: state key (``v`` packed 6 bits a slot, kept up to date move by move) -> (``v``, play)
_Layer = dict[int, tuple[list[int], TavliPlay]]
#: bit offset of each slot of ``v`` in a state key (every slot value is below 64)
_SH = [6 * i for i in range(25)]


def _key(v: list[int]) -> int:
    return sum(x << sh for x, sh in zip(v, _SH))


#: _MV[src][dst][pin]: every TavliMove, built once
_MV: list[list[tuple[TavliMove, TavliMove]]] = [
    [(TavliMove(a, b, False), TavliMove(a, b, True)) for b in range(25)] for a in range(25)
]


def _expand(tn: _Turn, layer: _Layer, d: int, terminal: _Layer) -> _Layer:
    """Every state one move of ``d`` away from ``layer``; game-ending ones go to ``terminal``.

    The generator's inner loop: which checkers may move (V1, V4/M6, P2-P5, F2, F3)
    and the move itself (P3 pins, P4 frees), as :meth:`_Turn.step` does it, inline.
    A child's key is derived from its parent's, so a duplicate costs no copy.
    """
    out: _Layer = {}
    every = tn.every_move
    closed = tn.closed
    o = tn.o
    fevga = not tn.plakoto
    mine_pinned = tn.mine_pinned
    through = tn.through
    mother = tn.mother is not Mother.OFF
    mv = _MV
    sh = _SH
    for k, (v, play) in layer.items():
        far = 24
        while far and v[far] < 4:
            far -= 1
        bear = far <= 6 and not mine_pinned  # V4/M6 all home; P5 none pinned
        for s in range(far, 0, -1):
            x = v[s]
            if x < 4 or x == 5:  # none of the mover's, or its one checker pinned (P4)
                continue
            t = s - d
            if t >= 1:
                if closed[t]:
                    continue
            elif not bear or (t < 0 and s != far):
                continue
            if s == 24 and fevga and x < _FULL:
                # F3: the first checker off the 24-point must be through first
                if x == _FULL - 4:
                    r = 23
                    while v[r] < 4:
                        r -= 1
                    if r > through:
                        continue
            x -= 4
            if x == 2:
                x = 0  # the opposing checker it pinned is free again (P4)
            pin = False
            if t >= 1:
                y = v[t]
                if y == 0 and o[t] == 1:
                    z = 6  # P3: pins the lone opposing checker
                    pin = True
                else:
                    z = y + 4
                key = k + ((x - v[s]) << sh[s]) + ((z - y) << sh[t])
            else:
                t = 0
                z = v[0] + 4
                key = k + ((x - v[s]) << sh[s]) + 4
            if key in out or key in terminal:
                continue
            w = v.copy()
            w[s] = x
            w[t] = z
            if (z == _FULL and not t or mother and (t == 1 or s == 24)) and tn.terminal(w):
                terminal[key] = (w, play + (mv[s][t][pin],))
                continue
            if every and tn.blocks(w):
                continue  # F7 every-move: F4/F5 after each single move
            out[key] = (w, play + (mv[s][t][pin],))
    return out


def _passing(tn: _Turn, layer: _Layer) -> list[tuple[list[int], TavliPlay]]:
    """The states of ``layer`` that pass F4/F5 at the end of the play (F6, F7)."""
    if tn.plakoto or tn.every_move:
        return list(layer.values())
    return [e for e in layer.values() if not tn.blocks(e[0])]


def _generate(
    variant: Variant, pos: TavliPosition, dice: tuple[int, int], st: TavliSettings
) -> tuple[_Turn, list[tuple[list[int], TavliPlay]]]:
    if variant is Variant.PORTES:
        raise InvalidPlayError("Portes plays come from tavli_pi.rules.moves (M1-M7), not the tavli generator")
    d1, d2 = check_dice(dice)
    over = game_over(variant, pos, st)
    if over is not None:
        who = "a draw" if over.winner is None else f"won by {over.winner.name.lower()}"
        raise IllegalActionError(
            f"the game is over ({who}, {over.reason.value}: V5/P6): no play; start the next game"
        )
    tn = _Turn(variant, pos, st)
    start: _Layer = {_key(tn.v0): (tn.v0, ())}
    terminal: _Layer = {}
    if d1 == d2:
        layers = [start]
        for _ in range(4):
            layers.append(_expand(tn, layers[-1], d1, terminal))
        full = _passing(tn, layers[4])
        for k, e in terminal.items():
            if k not in layers[4]:
                full.append(e)
        if full:
            return tn, full
        for n in (3, 2, 1):
            got = _passing(tn, layers[n])
            if got:
                return tn, got
        return tn, []
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    one_hi = _expand(tn, start, hi, terminal)
    one_lo = _expand(tn, start, lo, terminal)
    two = _expand(tn, one_hi, lo, terminal)
    for k, e in _expand(tn, one_lo, hi, terminal).items():
        if k not in two:
            two[k] = e
    full = _passing(tn, two)
    full.extend(e for k, e in terminal.items() if k not in two)
    if full:
        return tn, full
    return tn, _passing(tn, one_hi) or _passing(tn, one_lo)


def legal_results(
    variant: Variant, pos: TavliPosition, dice: tuple[int, int], settings: TavliSettings = _DEFAULT
) -> tuple[TavliResult, ...]:
    """Every distinct position ``pos.turn`` may reach with ``dice`` (V1-V7, P2-P5, F2-F7).

    Empty when no play is legal (V8: see :func:`results_or_pass`). A finished
    game (V5, P6) has no plays: :class:`IllegalActionError`.

    >>> from tavli_pi.rules.tavli_position import TavliPosition
    >>> len(legal_results(Variant.PLAKOTO, TavliPosition.start(Variant.PLAKOTO), (6, 5)))
    2
    """
    tn, ends = _generate(variant, pos, dice, settings)
    return tuple(TavliResult(tn.position(v), play) for v, play in ends)


def results_or_pass(
    variant: Variant, pos: TavliPosition, dice: tuple[int, int], settings: TavliSettings = _DEFAULT
) -> tuple[TavliResult, ...]:
    """:func:`legal_results`, or the one start position with the empty play (V8, P7)."""
    return legal_results(variant, pos, dice, settings) or (TavliResult(pos, ()),)


def end_turn(pos: TavliPosition) -> TavliPosition:
    """The same checkers with the other side on roll."""
    return pos.with_turn(pos.turn.other)


def breaks_blocks(pos: TavliPosition, side: Side, settings: TavliSettings = _DEFAULT) -> bool:
    """Whether ``side`` holds a formation F4 or F5 forbids (Fevga) in ``pos``."""
    tn = _Turn(Variant.FEVGA, pos.with_turn(side), settings)
    return tn.blocks(tn.v0)


# -- notation -------------------------------------------------------------------
def _pt(n: int) -> str:
    return "off" if n == 0 else str(n)


def format_tavli_play(play: TavliPlay) -> str:
    """``24/19/14/9 24/19``, ``13/7*`` (``*`` a pin, P3), ``6/off``; ``""`` for no move.

    Every die's hop is written, in the order played: one checker's consecutive
    hops are joined (``24/19 19/14`` -> ``24/19/14``). Re-applying the hops in
    the written order repeats the play exactly.
    """
    chains: list[list[str]] = []
    last = -1
    for m in play:
        hop = _pt(m.dst) + ("*" if m.pin else "")
        if chains and m.src == last:
            chains[-1].append(hop)
        else:
            chains.append([_pt(m.src), hop])
        last = m.dst
    return " ".join("/".join(c) for c in chains)


def parse_tavli_play(text: str) -> list[tuple[int, int]]:
    """The hops ``(src, dst)`` of a play written as :func:`format_tavli_play` writes it.

    ``dst`` 0 is off. ``*`` marks are accepted and ignored (pins follow from
    the position). Points are whatever numbering the text uses.
    """
    hops: list[tuple[int, int]] = []
    for tok in text.replace(",", " ").split():
        pts: list[int] = []
        for seg in tok.split("/"):
            s = seg.rstrip("*").lower()
            if s == "off":
                pts.append(0)
            elif s.isdigit() and 1 <= int(s) <= 24:
                pts.append(int(s))
            else:
                raise InvalidPlayError(
                    f"{seg!r} in {tok!r} is not a point: use 1-24 or 'off', e.g. 24/19/14"
                )
        if len(pts) < 2:
            raise InvalidPlayError(f"{tok!r} is not a move: write FROM/TO, e.g. 24/19")
        if 0 in pts[:-1]:
            raise InvalidPlayError(f"{tok!r}: nothing moves on from 'off'")
        hops.extend(zip(pts, pts[1:]))
    return hops


def play_to_physical(variant: Variant, side: Side, play: TavliPlay) -> list[tuple[int, int]]:
    """The hops of ``play`` in White's numbering (the position notation's), 0 = off."""
    return [
        (own_to_physical(variant, side, m.src), own_to_physical(variant, side, m.dst) if m.dst else 0)
        for m in play
    ]


def play_from_physical(variant: Variant, side: Side, hops: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """White-numbered hops in ``side``'s own numbering."""
    return [
        (physical_to_own(variant, side, s), physical_to_own(variant, side, t) if t else 0)
        for s, t in hops
    ]


def apply_tavli_play(
    variant: Variant, pos: TavliPosition, hops: list[tuple[int, int]]
) -> tuple[TavliPosition, TavliPlay]:
    """Play own-numbered hops for ``pos.turn`` (pins and frees as P3), checking only
    that each checker exists, is free and lands on an open point; keeps the turn.

    Legality of the whole play (dice, V7, F3-F5) is :func:`legal_results`' job.
    """
    tn = _Turn(variant, pos, _DEFAULT)
    v = tn.v0
    play: list[TavliMove] = []
    for s, t in hops:
        if not 1 <= s <= 24 or not 0 <= t < s:
            raise InvalidPlayError(f"{s}/{_pt(t)}: checkers move from higher to lower points (V1)")
        if v[s] < 4:
            raise InvalidPlayError(f"{s}/{_pt(t)}: no checker of the mover on point {s} (mover's numbering)")
        if v[s] == 5:
            raise InvalidPlayError(f"{s}/{_pt(t)}: the checker on {s} is pinned and cannot move (P4)")
        if t and tn.closed[t]:
            raise InvalidPlayError(f"{s}/{t}: point {t} is closed to the mover (P2, F2)")
        v, mv = tn.step(v, s, s - t if t else s)
        if not t and mv.dst != 0:  # pragma: no cover - step clamps
            raise InvalidPlayError(f"{s}/off")
        play.append(mv)
    return tn.position(v), tuple(play)


# -- judging --------------------------------------------------------------------
def distance(a: TavliPosition, b: TavliPosition) -> int:
    """Checkers out of place: the fewest to pick up to turn ``a`` into ``b``.

    A point with the same counts but the other colour pinned counts 1.
    """
    n = 0
    for i in range(1, 25):
        wa, ba, pa = a.stack(i)
        wb, bb, pb = b.stack(i)
        d = max(0, wa - wb) + max(0, ba - bb)
        if d == 0 and pa != pb and (wa, ba) == (wb, bb):
            d = 1
        n += d
    for s in (0, 1):
        n += max(0, a.off[s] - b.off[s])
    return n


def wrong_points(observed: TavliPosition, expected: TavliPosition) -> tuple[int, ...]:
    """White-numbered points where the two differ; 25 = a tray."""
    out = [
        i + 1
        for i in range(24)
        if (observed.points[i], observed.pinned[i]) != (expected.points[i], expected.pinned[i])
    ]
    if observed.off != expected.off:
        out.append(25)
    return tuple(out)


def judge(
    variant: Variant,
    pos: TavliPosition,
    dice: tuple[int, int],
    observed: TavliPosition,
    settings: TavliSettings = _DEFAULT,
    k: int = 3,
) -> TavliJudgement:
    """Is ``observed`` a legal end of the turn? If not, the ``k`` nearest legal ends.

    With no legal play (V8) the only legal end is ``pos`` itself, with the empty play.
    """
    results = results_or_pass(variant, pos, dice, settings)
    target = observed.layout_key()
    for r in results:
        if r.position.layout_key() == target:
            return TavliJudgement(True, r, ((0, r),), ())
    scored = sorted((distance(observed, r.position), i) for i, r in enumerate(results))[: max(k, 1)]
    nearest = tuple((dist, results[i]) for dist, i in scored)
    return TavliJudgement(False, None, nearest, wrong_points(observed, nearest[0][1].position))
