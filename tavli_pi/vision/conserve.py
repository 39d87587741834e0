"""Borne-off counts that agree with conservation (15 = board + bar + off, per colour).

A tray is read by how far a run of colour reaches in it (``trays.py``); an
insert, a dice cup or the tray's own wood can look like such a run, and a tall
stack on the board can be misread. Neither witness is trusted alone: the count
off is scored by both at once,

    P(off = k)  ~  P_tray(k) * P_board(board + bar = 15 - k),

where ``P_board`` is the distribution of the number of that colour's checkers
on the points and the bar (the spots' count evidence convolved). A sure board
overrules a tray that holds an insert; a tray read clearly overrules a board
whose tall stack is in doubt; where they disagree and neither is sure the
result is spread, so it is not confident; and whenever the tray's reading and
the count the board implies differ, no count is surer than ``DISAGREE_MAX``
(one witness is misread, and which is not always plain). Each count is marked:

- ``"tray"``: the tray's own reading is the answer;
- ``"implied"``: the answer is the count the board implies, not the tray's reading;
- ``"unknown"``: no count is likely enough (below ``KNOWN``), or a hand covers
  the board and the tray, read without a learnt empty tray, disagrees with it;
  the evidence is then flat: no guess.

Under a hand the board is no witness (checkers may be in the hand). A tray read
against its empty look learnt at set-up (``tray_learnt``) that holds checkers is
still read: its own reading is given (marked ``"tray"``; the reader tempers every
count under a hand). An empty reading is no such evidence (on a board without
trays the borne-off checkers lie elsewhere), nor is a tray read without a learnt
empty look (an insert could be counted as checkers): these are given only where
they agree with the board.

The board itself is read against its trays the same way (``balanced_board``): with the trays'
empty look learnt and no hand over the board, a reading whose colours do not add up to 15 with
their trays is read as the likeliest board that does (each spot's and each tray's evidence
multiplied, the best such board found by a max-product pass over the (light, dark) totals). A dark
checker on a dark point read as none, a print read as a checker, a squeezed stack a few short:
the place least sure of its reading takes the change -- points, bar and trays alike, each count one
off a reading given at least a share of its doubt (``ONE_OFF``), a point's empty share at least what
its two colours' readings of none leave together -- and the change is never sure (``DISAGREE_MAX``).

A board without trays (learnt at set-up, ``tray_sides.py``) has no tray to read:
the borne-off checkers lie on the table beside it. The count off is then the one
the board implies (marked ``"implied"``), never more probable than ``DISAGREE_MAX``
(a checker held in a hand beside the board looks the same as one borne off), and
under a hand no more than ``HAND_MAX``: the board may hide or hold checkers, so the
count is a low-confidence guess, not a reading. Where no total is likely enough (below
``KNOWN``: many spots each a little unsure), the count is still the one the points as read
leave when no hand is over the board (the reading as a whole then adds up to 15), with no weight
of its own (the points, its only witness, are in the reading already); under a hand it is unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, SpotEvidence

__all__ = ["CHECKERS", "KNOWN", "AS_READ_TILT", "UNKNOWN", "HAND_MAX", "ONE_OFF", "board_total", "conserved_off",
           "blame", "conserved_spots", "conserved_board", "Balanced", "balance", "balanced_board", "balanced_off",
           "no_surer"]

#: checkers per colour (B1)
CHECKERS = 15
#: the least posterior probability of the best count for the count to be known
KNOWN = 0.4
#: the most probable a count may be when the tray's reading and the count the board implies
#: differ (a lone checker's rim lost on a dark lining, or a checker out of view: one is misread)
DISAGREE_MAX = 0.8
#: the most probable a count implied by the board may be with a hand over it (a board without trays)
HAND_MAX = 0.5
#: how much likelier than any other the count a board without trays implies is made when its total is
#: in doubt: enough to be the count given, no weight in a sum of frames (a thousand frames make one nat)
AS_READ_TILT = 1.001
#: evidence that says nothing: every count 0..15 equally likely
UNKNOWN = CountEvidence(tuple(1.0 / (MAX_COUNT + 1) for _ in range(MAX_COUNT + 1)))


def board_total(spots: Sequence[CountEvidence]) -> np.ndarray:
    """P(total = j) for j = 0..15 of the counts on ``spots`` (independent), unnormalised
    (the mass above 15 is dropped: more than 15 of a colour cannot be)."""
    total = np.zeros(CHECKERS + 1)
    total[0] = 1.0
    for e in spots:
        total = np.convolve(total, np.asarray(e.probs))[: CHECKERS + 1]
    return total


def _one(spots: Sequence[CountEvidence], tray: CountEvidence, hand: bool,
         tray_learnt: bool = False) -> tuple[CountEvidence, str]:
    implied = CHECKERS - sum(e.best for e in spots)
    if hand:
        # checkers under a hand (or in it) are not on the board as read: the board is no witness
        if (tray_learnt and tray.best > 0) or (0 <= implied <= MAX_COUNT and tray.best == implied):
            return tray, "tray"
        return UNKNOWN, "unknown"
    on = board_total(spots)
    post = np.asarray(tray.probs) * on[::-1]  # off = k  <=>  on the board and bar = 15 - k
    if post.sum() <= 1e-12:
        return UNKNOWN, "unknown"
    post = post / post.sum()
    best = int(np.argmax(post))
    if post[best] < KNOWN:
        return UNKNOWN, "unknown"
    if tray.best != implied:
        post = no_surer(post)  # the two witnesses disagree: one of them is misread, so neither is sure
    ev = CountEvidence(tuple(float(v) for v in post))
    return ev, "tray" if best == tray.best else "implied"


def _implied(spots: Sequence[CountEvidence], hand: bool) -> tuple[CountEvidence, str]:
    """The count off a board without trays: the one the board implies (see the module doc)."""
    on = board_total(spots)
    if on.sum() <= 1e-12:
        return UNKNOWN, "unknown"
    post = on[::-1] / on.sum()  # off = k  <=>  on the board and bar = 15 - k
    if post.max() < KNOWN:
        return (UNKNOWN, "unknown") if hand else _as_read(spots)
    post = no_surer(post, HAND_MAX if hand else DISAGREE_MAX)
    return CountEvidence(tuple(float(v) for v in post)), "implied"


def _as_read(spots: Sequence[CountEvidence]) -> tuple[CountEvidence, str]:
    """The count off a board without trays and without a hand whose total is in doubt (no count
    ``KNOWN``): the one the spots' likeliest counts leave (B1: 15 = board + bar + off), so the
    reading as a whole adds up -- with no weight of its own (``AS_READ_TILT``): the image shows no
    count off such a board, the points are its only witness, and they are in the reading already.
    (Given the weight of the total convolved, a points' misread counted twice cost the referee six
    of game 69's eight plays: bench/RESULTS.md, stop 22.) The reading stays in doubt
    (``doubt.py``); unknown where the counts leave none (more than 15 on the board)."""
    implied = CHECKERS - sum(e.best for e in spots)
    if not 0 <= implied <= MAX_COUNT:
        return UNKNOWN, "unknown"
    p = np.ones(MAX_COUNT + 1)
    p[implied] *= AS_READ_TILT
    return CountEvidence(tuple(float(v) for v in p / p.sum())), "implied"


def no_surer(p: np.ndarray, most: float = DISAGREE_MAX) -> np.ndarray:
    """``p`` (normalised) with the same best count, mixed with the flat evidence just enough that
    none is above ``most``."""
    m, flat = float(p.max()), 1.0 / len(p)
    if m <= most:
        return p
    a = (m - most) / (m - flat)
    out: np.ndarray = (1.0 - a) * p + a * flat
    return out


def conserved_off(
    points: Sequence[SpotEvidence], bar: SpotEvidence, tray: SpotEvidence, hand: bool, tray_learnt: bool = False,
    trays: bool = True,
) -> tuple[SpotEvidence, tuple[str, str]]:
    """Tray evidence checked against conservation, and where each count comes from
    (``tray_learnt``: the trays were read against their empty look learnt at set-up;
    ``trays``: False on a board without trays, whose counts off are implied by the board).

    A board with no checker of either colour on it is no game position (both sides cannot have
    borne off all 15): the trays are then unknown, never "15 off".
    """
    if all(s.light.best == 0 and s.dark.best == 0 for s in (*points, bar)):
        return SpotEvidence(UNKNOWN, UNKNOWN), ("unknown", "unknown")
    if not trays:
        light, ls = _implied([p.light for p in points] + [bar.light], hand)
        dark, ds = _implied([p.dark for p in points] + [bar.dark], hand)
        return SpotEvidence(light, dark), (ls, ds)
    light, ls = _one([p.light for p in points] + [bar.light], tray.light, hand, tray_learnt)
    dark, ds = _one([p.dark for p in points] + [bar.dark], tray.dark, hand, tray_learnt)
    return SpotEvidence(light, dark), (ls, ds)


#: the power each witness's odds are taken to when the blame for a total one off is shared (each
#: count was read on its own, and a lone misread is sure of itself: a phantom checker read at 0.97
#: must still take its share)
BLAME_TEMPER = 0.5


def blame(spots: Sequence[CountEvidence], off: CountEvidence) -> list[float]:
    """Per spot, the chance it is the one misread when the spots and the tray (``off``) add up to
    one more or one fewer than 15 (B1): its odds of one checker fewer (more) against its best
    count, shared with the other spots and the tray -- the larger of two shares: of the odds
    tempered (``BLAME_TEMPER``: a lone misread sure of itself still takes its share) and of the
    odds as read (a spot whose own evidence singles it out among many sure ones takes the share
    that evidence gives it: a checker cut by a misplaced field's edge read as none at 0.97, one
    more at 0.02, beside 24 spots at 0.98-0.99, is left 0.93 sure by the tempered share, 0.85 by
    its own).
    All zero when they add up, or are further off (the reader then doubts every count)."""
    d = sum(e.best for e in spots) + off.best - CHECKERS
    if d not in (-1, 1):
        return [0.0] * len(spots)

    def shares(power: float) -> list[float]:
        # (the tray's term is its odds of ``off.best + d`` as since this was written; the mirror of
        # the spots' term would be ``off.best - d``: not changed here, a reading change of its own)
        def odds(e: CountEvidence, n: int) -> float:
            return float((e.p(n) / max(e.confidence, 1e-12)) ** power)

        r = [odds(e, e.best - d) for e in spots]
        total = sum(r) + odds(off, off.best + d)
        return [v / total if total > 0 else 0.0 for v in r]

    return [max(a, b) for a, b in zip(shares(BLAME_TEMPER), shares(1.0))]


def conserved_spots(spots: Sequence[CountEvidence], off: CountEvidence) -> list[CountEvidence]:
    """The spots' evidence with the same best counts, none surer than conservation allows.

    ``off``: the tray as read there (against its empty look learnt at set-up, no hand over the
    board). Where the spots and the tray add up to one more or one fewer than 15, one of them is
    misread: a spot is no surer than it is not to blame (:func:`blame`), so a lone phantom
    checker, or a checker lost under a band, is not a confident count. Where they add up,
    nothing changes."""
    out = []
    for e, b in zip(spots, blame(spots, off)):
        most = 1.0 - b
        if most >= e.confidence:
            out.append(e)
            continue
        # (never down to flat: the best count stays the best)
        p = no_surer(np.asarray(e.probs, np.float64), max(most, 2.0 / len(e.probs)))
        out.append(CountEvidence(tuple(float(v) for v in p)))
    return out


def conserved_board(points: Sequence[SpotEvidence], bar: SpotEvidence,
                    tray: SpotEvidence) -> tuple[list[SpotEvidence], SpotEvidence]:
    """``conserved_spots`` for both colours of the points and the bar, against ``tray`` (the trays as
    read there, learnt empty at set-up, no hand over the board)."""
    spots = [*points, bar]
    light = conserved_spots([s.light for s in spots], tray.light)
    dark = conserved_spots([s.dark for s in spots], tray.dark)
    out = [SpotEvidence(a, b) for a, b in zip(light, dark)]
    return out[:-1], out[-1]


_N = CHECKERS + 1
_I = np.arange(_N)


def _with_floor(b: np.ndarray) -> np.ndarray:
    """A (16, 16) log table flattened, with the extra -inf cell the shifted indices point at past
    its edge (``_AT``). (``np.concatenate``: the same float64 values ``np.r_`` gives, at a tenth of
    its call's cost -- ``balanced_board`` makes some 120 of these a frame, issue 12.)"""
    return np.concatenate((b.ravel(), _FLOOR))


#: the extra cell of ``_with_floor``
_FLOOR = np.asarray([-np.inf])
# every pair of cells (i, j) of a and (l - i, d - j) of b that adds up to (l, d), as flat indices,
# sorted by (l, d); _MAX_AT: where each (l, d)'s run of pairs starts (every run holds (0, 0))
_PAIRS = sorted((l * _N + d, i * _N + j, (l - i) * _N + (d - j))
                for l in range(_N) for d in range(_N) for i in range(l + 1) for j in range(d + 1))
_MAX_A = np.asarray([a for _, a, _ in _PAIRS], np.intp)
_MAX_B = np.asarray([b for _, _, b in _PAIRS], np.intp)
_MAX_AT = np.searchsorted(np.asarray([o for o, _, _ in _PAIRS]), np.arange(_N * _N))
del _PAIRS


def _maxconv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The (max, +) convolution of two (16, 16) log tables over (light, dark) totals, cut at 15:
    out[l, d] = max over a + b = (l, d) of a's entry plus b's. Only the 18,496 pairs that add up to
    a total within the table are summed (a quarter of all 65,536, the rest only -inf): each the
    same float64 sum, and a maximum is the same whichever order its terms are taken in."""
    got = a.ravel()[_MAX_A] + b.ravel()[_MAX_B]
    return np.asarray(np.maximum.reduceat(got, _MAX_AT).reshape(_N, _N))


# _DOWN[k, l] = 15 + l - k: row l - k of a table with 15 rows of -inf above it (k = 1..15)
_DOWN = (CHECKERS + _I[None, :] - _I[1:, None])
# the 15 rows of -inf above a table that _DOWN's rows start in (read only)
_PAD = np.full((CHECKERS, _N), -np.inf)
_PAD.flags.writeable = False
# the totals (15 - l, 15) and (15, 15 - d) the rest must make beside one colour's count on a spot
_EDGE = [(CHECKERS - k, CHECKERS) for k in range(_N)] + [(CHECKERS, CHECKERS - k) for k in range(1, _N)]
_AT = np.asarray([[[(x - i) * _N + (y - j) if x >= i and y >= j else _N * _N for j in range(_N)]
                   for i in range(_N)] for x, y in _EDGE])


def _add(f: np.ndarray, t: np.ndarray, exclusive: bool) -> np.ndarray:
    """``_maxconv(f, t)``; for a spot holding one colour (``t`` only in its first row and column)
    by the two shifts alone."""
    if not exclusive:
        return _maxconv(f, t)
    rows = (np.concatenate((_PAD, f))[_DOWN] + t[1:, 0, None, None]).max(axis=0)
    cols = (np.concatenate((_PAD, f.T))[_DOWN] + t[0, 1:, None, None]).max(axis=0).T
    return np.asarray(np.maximum(np.maximum(f + t[0, 0], rows), cols))


def _rest(before: np.ndarray, after: np.ndarray, exclusive: bool) -> np.ndarray:
    """rest[l, d]: the best the other spots (``before`` and ``after`` it) can do while this one
    holds l light and d dark and all hold 15 of each; for a spot holding one colour, only where l
    or d is 0 (elsewhere -inf)."""
    if not exclusive:
        return np.asarray(_maxconv(before, after)[::-1, ::-1])
    got = (before[None] + _with_floor(after)[_AT]).max(axis=(1, 2))
    out = np.full((_N, _N), -np.inf)
    out[:, 0] = got[:_N]
    out[0, 1:] = got[_N:]
    return out


#: the least share of a reading's doubt (1 - its confidence) each count one off its best is given
#: when the balance weighs where a checker goes (``_one_off``)
ONE_OFF = 0.25


def _one_off(e: CountEvidence) -> np.ndarray:
    """``e``'s probabilities with each count one off its best at least ``ONE_OFF`` of the reading's
    doubt. A count one off is the commonest misread of every place, and each place's reading spreads
    its doubt in its own way: a tray read by how far a run of colour reaches may put its doubt one
    checker over and almost none one short (real-like frame 116: 6 at 0.50, 7 at 0.34, 5 at 0.03),
    where a stack's slots put theirs one short. Weighed by those tails alone, a tray read at 0.50
    kept its count and a stack read at 0.90 gave one up; with the floor, the place least sure of
    its reading takes the change, trays, bar and points alike."""
    p = np.asarray(e.probs, np.float64).copy()
    b, floor = e.best, ONE_OFF * (1.0 - e.confidence)
    for n in (b - 1, b + 1):
        if 0 <= n <= MAX_COUNT:
            p[n] = max(p[n], floor)
    out: np.ndarray = p / p.sum()
    return out


def _table(light: CountEvidence, dark: CountEvidence, exclusive: bool) -> np.ndarray:
    """One spot's log evidence over its (light, dark) counts (``_one_off`` of each): exclusive (a point
    holds one colour: P(no light) is P(empty) plus P(some dark)) or independent per colour (the bar's
    two halves, a pinned point, the trays). The empty share of a point is the chance neither colour's
    reading finds a checker there -- at least the product of the two chances of none: the two
    readings are made apart and need not add up (a light checker read at 0.94 with none at 0.03, and
    no dark at 0.95, leave nothing to the empty point by their difference: emptying it then cost as
    much as nine checkers moved elsewhere, and its phantom turned dark or a sure stack gave one up
    instead, real-like frames 59, 116, 187)."""
    lt, dk = _one_off(light), _one_off(dark)
    if not exclusive:
        return np.asarray(np.log(np.maximum(lt[:, None] * dk[None, :], 1e-300)))
    t = np.full((_N, _N), -np.inf)
    t[1:, 0] = np.log(np.maximum(lt[1:], 1e-300))
    t[0, 1:] = np.log(np.maximum(dk[1:], 1e-300))
    t[0, 0] = np.log(max(float(lt[0] - dk[1:].sum()), float(lt[0] * dk[0]), 1e-6))
    return t


class Balanced(NamedTuple):
    """A board read so that it adds up (``balance``): its points, its bar, and the trays as that board
    leaves them."""

    points: list[SpotEvidence]
    bar: SpotEvidence
    off: SpotEvidence


def balanced_board(points: Sequence[SpotEvidence], bar: SpotEvidence, tray: SpotEvidence,
                   pinned: Sequence[int] = ()) -> tuple[list[SpotEvidence], SpotEvidence]:
    """``balance``'s points and bar."""
    got = balance(points, bar, tray, pinned)
    return got.points, got.bar


def balance(points: Sequence[SpotEvidence], bar: SpotEvidence, tray: SpotEvidence,
            pinned: Sequence[int] = ()) -> Balanced:
    """The points and the bar read so that each colour's checkers add up to 15 with its tray (B1).

    ``tray``: the trays as read there (against their empty look learnt at set-up; the reader
    balances a frame with a hand too when the hand hides no spot, its counts all tempered after);
    ``pinned``: per point, a pinned checker under the other colour's (P3; such a point holds both
    colours). Every spot's counts become those of the likeliest board whose spots
    and trays hold 15 of each colour, each spot read as its own evidence says (where a reading
    is two short, the two likeliest missed checkers are found; where it holds a phantom, the
    least sure checker goes). A spot whose best count changes was read otherwise, so it is no
    surer than ``DISAGREE_MAX``; the others keep their reading, no surer than its share among the
    boards that add up (each count of the spot beside the best the others can do): a spot that could
    as well have held the checker another was given is not sure it holds none. The trays (``off``) are
    weighed the same way: per colour, the count off the likeliest board leaves (15 less its points and
    bar), as sure as its share among the boards that add up, no surer than ``DISAGREE_MAX`` where the
    tray was read otherwise. Unchanged when the reading adds up, or when no board can."""
    if all(sum(getattr(s, c).best for s in (*points, bar)) + getattr(tray, c).best == CHECKERS
           for c in ("light", "dark")):
        return Balanced(list(points), bar, tray)
    one = [not (i < len(pinned) and pinned[i]) for i in range(len(points))] + [False, False]
    tables = [_table(s.light, s.dark, o) for s, o in zip((*points, bar, tray), one)]
    n = len(tables)
    start = np.full((_N, _N), -np.inf)
    start[0, 0] = 0.0
    before, after = [start] * (n + 1), [start] * (n + 1)
    for i in range(n):
        before[i + 1] = _add(before[i], tables[i], one[i])
    for i in range(n - 1, -1, -1):
        after[i] = _add(after[i + 1], tables[i], one[i])
    if not np.isfinite(before[n][CHECKERS, CHECKERS]):
        return Balanced(list(points), bar, tray)
    out = [*points, bar, tray]
    for i, old in enumerate(out):
        # each of this spot's counts with the best the other spots and the trays can do beside it
        rest = _rest(before[i], after[i + 1], one[i])
        joint = np.exp(tables[i] + rest - float(np.max(tables[i] + rest)))
        ev = []
        # the count each colour takes is the likeliest board's (the best board beside each count:
        # summed over the other colour's counts, an exclusive point's "none" gathered every count of
        # the other colour and could outweigh the board's own count -- real-like frame 187: point 6's
        # phantom kept, point 1 gave one up and yet point 6 came out empty, 14 light); how sure, the
        # share the counts summed leave it (no surer than the boards that add up make it)
        kept = np.unravel_index(int(np.argmax(joint)), joint.shape)
        for p, was, best in zip((joint.sum(axis=1), joint.sum(axis=0)), (old.light, old.dark), kept):
            p = p / p.sum()
            if int(best) == was.best:
                # kept, but no surer than the board that adds up makes it: a spot that could as well
                # have held the checker another one was given (a missed single beside a phantom)
                # shares the doubt, however sure its own reading was
                most = max(float(p[was.best]), 2.0 / len(p))
                ev.append(was if most >= was.confidence else
                          CountEvidence(tuple(float(v) for v in no_surer(np.asarray(was.probs, np.float64), most))))
            else:  # read otherwise: the count the board needs, no surer than DISAGREE_MAX
                p = p + 1e-6
                p[int(best)] = max(float(p[int(best)]), float(p.max()) * (1.0 + 1e-6))  # the board's count is best
                ev.append(CountEvidence(tuple(float(v) for v in no_surer(p / p.sum()))))
        out[i] = SpotEvidence(ev[0], ev[1])
    return Balanced(out[:-2], out[-2], out[-1])


def balanced_off(points: Sequence[SpotEvidence], bar: SpotEvidence, tray: SpotEvidence,
                 read: Sequence[SpotEvidence], balanced: SpotEvidence | None = None,
                 hand: bool = False) -> tuple[SpotEvidence, tuple[str, str]]:
    """``conserved_off`` of a board ``balance`` made add up (``points``, ``bar``), the trays read
    against their learnt empty look; ``read``: the points and the bar as read; ``balanced``: the trays
    as ``balance`` left them; ``hand``: a hand over the board. Where a colour's reading and its tray
    disagreed, one of them was misread, and the balanced board agreeing with the tray now does not make
    it sure: that count off is no surer than ``DISAGREE_MAX``. A count the balancing kept is counted
    as read: ``balance`` makes it no surer than its share among the boards that add up, a doubt about
    that spot, which lent to the trays would move the count off toward the boards the trays' own (often
    weaker) reading favours.

    Where that count off is not the one the balanced board leaves (``balanced``: the likeliest board's,
    as sure as its share among the boards that add up), the balanced board's is given where it is the
    likelier of the two (the surer) and one off the tray's reading (a tray's commonest misread, as
    ``ONE_OFF`` has it): the reading given then adds up (B1). Weighed against the board's total, every
    spot's small chance of one checker more or fewer is summed, and the sum outweighed the tray's own
    reading of one more where the board as read was right (real-like frames 94, 101, 116: the tray
    read 1, 2, 6 for 2, 3, 5, given at 0.61, 0.56, 0.48 where the balance left the right count at
    0.71, 0.80, 0.57). Further off the tray's reading, the balanced board is one that lost a whole
    stack as read and gave its checkers to the tray (seed 1 frames 86, 115: a stack of 8 read 0, 14
    off left at 0.72 where the tray read its 6 right); and with a hand over the board checkers may be
    in the hand: the board is no witness of the count off (frames 23, 50, 122). There, and where the
    balanced board's count is the less sure, the trays' reading against the board's total stands."""
    counted = [SpotEvidence(*(r if r.best == s.best else s for s, r in ((b.light, a.light), (b.dark, a.dark))))
               for b, a in zip((*points, bar), read)]
    # the tray weighed as the balance weighed it (``_one_off``): a tray read unsure that gave up its
    # checker to the board is not taken back by the tail of its own reading (real-like frame 116)
    weighed = SpotEvidence(*(CountEvidence(tuple(float(v) for v in _one_off(e))) for e in (tray.light, tray.dark)))
    off, source = conserved_off(counted[:-1], counted[-1], weighed, hand=False, tray_learnt=True)
    out, sources = [], []
    for c, src in zip(("light", "dark"), source):
        e = getattr(off, c)
        left = CHECKERS - sum(getattr(s, c).best for s in (*points, bar))
        if sum(getattr(s, c).best for s in read) + getattr(tray, c).best != CHECKERS:
            e = CountEvidence(tuple(float(v) for v in no_surer(np.asarray(e.probs, np.float64))))
        b = getattr(balanced, c) if balanced is not None else None
        if (b is not None and not hand and src != "unknown" and e.best != left == b.best
                and abs(left - getattr(tray, c).best) <= 1 and b.confidence > e.confidence):
            # the count the balanced board leaves, one off the tray's reading and the likelier: the
            # reading given adds up
            e, src = b, "tray" if left == getattr(tray, c).best else "implied"
        out.append(e)
        sources.append(src)
    return SpotEvidence(out[0], out[1]), (sources[0], sources[1])
