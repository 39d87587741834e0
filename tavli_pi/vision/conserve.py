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

A board without trays (learnt at set-up, ``tray_sides.py``) has no tray to read:
the borne-off checkers lie on the table beside it. The count off is then the one
the board implies (marked ``"implied"``), never more probable than ``DISAGREE_MAX``
(a checker held in a hand beside the board looks the same as one borne off), and
under a hand no more than ``HAND_MAX``: the board may hide or hold checkers, so the
count is a low-confidence guess, not a reading.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, SpotEvidence

__all__ = ["CHECKERS", "KNOWN", "UNKNOWN", "HAND_MAX", "board_total", "conserved_off", "blame",
           "conserved_spots", "conserved_board"]

#: checkers per colour (B1)
CHECKERS = 15
#: the least posterior probability of the best count for the count to be known
KNOWN = 0.4
#: the most probable a count may be when the tray's reading and the count the board implies
#: differ (a lone checker's rim lost on a dark lining, or a checker out of view: one is misread)
DISAGREE_MAX = 0.8
#: the most probable a count implied by the board may be with a hand over it (a board without trays)
HAND_MAX = 0.5
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
        post = _doubted(post)  # the two witnesses disagree: one of them is misread, so neither is sure
    ev = CountEvidence(tuple(float(v) for v in post))
    return ev, "tray" if best == tray.best else "implied"


def _implied(spots: Sequence[CountEvidence], hand: bool) -> tuple[CountEvidence, str]:
    """The count off a board without trays: the one the board implies (see the module doc)."""
    on = board_total(spots)
    if on.sum() <= 1e-12:
        return UNKNOWN, "unknown"
    post = on[::-1] / on.sum()  # off = k  <=>  on the board and bar = 15 - k
    if post.max() < KNOWN:
        return UNKNOWN, "unknown"
    post = _doubted(post, HAND_MAX if hand else DISAGREE_MAX)
    return CountEvidence(tuple(float(v) for v in post)), "implied"


def _doubted(p: np.ndarray, most: float = DISAGREE_MAX) -> np.ndarray:
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
    count, tempered, shared with the other spots and the tray. All zero when they add up, or are
    further off (the reader then doubts every count)."""
    d = sum(e.best for e in spots) + off.best - CHECKERS
    if d not in (-1, 1):
        return [0.0] * len(spots)

    def odds(e: CountEvidence, n: int) -> float:
        return float((e.p(n) / max(e.confidence, 1e-12)) ** BLAME_TEMPER)

    r = [odds(e, e.best - d) for e in spots]
    total = sum(r) + odds(off, off.best + d)
    return [v / total if total > 0 else 0.0 for v in r]


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
        p = _doubted(np.asarray(e.probs, np.float64), max(most, 2.0 / len(e.probs)))
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
