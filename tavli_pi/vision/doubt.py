"""Is the reading to be doubted as a whole? Then no count in it may be confident.

Two checks that need no knowledge of the board:

- **seating**: checkers stand on the points from the field's edge, so on a
  field placed right the first checker of each occupied point is a clear ring
  exactly where the layout expects it. When the corners are off (by hand, or a
  field found in the picture) stacks still seem to appear, but their first
  checkers do not sit in the slots: fewer than ``SEATED`` of the occupied
  points have a clear first ring.
- **conservation**: each colour's checkers on the points, the bar and the tray
  (as read there) add up to 15 (B1). A reading short of checkers or over 15 has
  missed or imagined some.

``doubts`` returns the reasons; ``temper`` flattens every count's evidence so
that none reaches the confidence at which a wrong count would do harm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.conserve import KNOWN
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.observation import CountEvidence, SpotEvidence
from tavli_pi.vision.stacks import spot_chains

__all__ = ["SEATED", "RING", "LEARNT_SHARE", "ONE_OVER", "Doubt", "seating", "learnt_rings", "first_rings", "doubts",
           "temper"]

#: the least share of occupied points whose first checker is a clear ring where expected
SEATED = 0.6
#: a first slot with a ring fit above this holds a clear checker
RING = 0.3
#: ... or, on a board learnt at set-up whose checkers of a colour rang fainter there, above this share
#: of their ring there (``Calibration.first_ring``; a field placed wrong rings at about 0)
LEARNT_SHARE = 0.5
#: more checkers of a colour than this neither on the board nor seen in its tray make a reading doubtful
#: (one or two may be in a player's hand, or lie in a tray that does not show them)
MISSING = 2
#: the most any count's probability may be in a doubted reading
DOUBTED_MAX = 0.75
#: a colour read this many checkers over 15 on a board weighed against its learnt trays doubts only the
#: spots that may hold the error, not the whole reading (``doubts``)
ONE_OVER = 1


def seating(g: ck.Gradients, integral: np.ndarray, cal: Calibration, points: Sequence[SpotEvidence],
            rings: np.ndarray | None = None) -> tuple[int, int]:
    """(occupied points whose first checker rings clearly in its slot, occupied points).

    Clearly: above ``RING``, or above ``LEARNT_SHARE`` of how its colour's first checkers rang on the
    frame the board was learnt from, where that was fainter (``Calibration.first_ring``: on a board
    whose dark checkers ring faintly on its points even where the players confirmed them, every
    reading was doubted as if the field were off).
    ``rings``: each point's first-slot ring (``first_rings``) when already known."""
    ring = first_rings(g, integral, cal) if rings is None else rings
    occ = [i for i, s in enumerate(points) if s.light.best or s.dark.best]
    least = (RING, RING) if cal.first_ring is None else tuple(min(RING, LEARNT_SHARE * r) for r in cal.first_ring)
    seated = [i for i in occ if ring[i] > least[0 if points[i].light.best >= points[i].dark.best else 1]]
    return len(seated), len(occ)


def learnt_rings(g: ck.Gradients, integral: np.ndarray, cal: Calibration, known: KnownBoard
                 ) -> tuple[float, float] | None:
    """How clearly each colour's first checkers ring in their slots on a frame showing ``known``
    (``Calibration.first_ring``): the median of ``first_rings`` over the points ``known`` fills with
    that colour alone; None when it leaves a colour off the points."""
    ring = first_rings(g, integral, cal)
    out = []
    for mine, other in ((known.light, known.dark), (known.dark, known.light)):
        on = [float(ring[i]) for i in range(24) if mine[i] > 0 and other[i] == 0]
        if not on:
            return None
        out.append(float(np.median(on)))
    return out[0], out[1]


def first_rings(g: ck.Gradients, integral: np.ndarray, cal: Calibration, cols: Sequence[int] | None = None) -> np.ndarray:
    """How clearly a checker rings in each point's first slot (all 24, or ``cols`` in order; float32)."""
    which = np.arange(24) if cols is None else np.asarray(cols, np.int64)
    ch = spot_chains(g, integral, cal.layout, cal, slots=1, cols=which)
    return np.asarray(ch.full[:, 0])


@dataclass(frozen=True)
class Doubt:
    """A reason to doubt the reading (one line, for the user), and whether it doubts every count in it
    (the reader then tempers them all, ``temper``)."""

    reason: str
    whole: bool = True


def doubts(seated: tuple[int, int], points: Sequence[SpotEvidence], bar: SpotEvidence,
           tray: SpotEvidence, hand: bool, off_source: tuple[str, str] = ("tray", "tray"),
           trays: bool = True, weighed: bool = False) -> list[Doubt]:
    """The reasons to doubt the reading, each marked with whether it doubts the reading as a whole.

    ``tray``: the trays as read there (before conservation); ``off_source``: where the
    conserved tray counts came from (``conserve.conserved_off``). ``trays``: False on a board
    without trays, ``tray`` then being the counts off the board implies: one below ``KNOWN`` is
    the points' total in doubt, as an unknown count is.

    Every reason doubts the whole reading but one: a colour read one checker over 15 (``ONE_OVER``) on
    a board the reader weighs against its trays' empty look learnt at set-up (``weighed``:
    ``conserve.balanced_board``). That is one count wrong somewhere, and the balanced board makes the
    spots that may hold it unsure; the others keep their confidence. Not on a board read without that
    witness (a photo alone, ``conserve.blame`` only): with its corners 40 px off, a reading one over
    had counts wrong at >= 0.9 that blame left sure (the real photos, stop 39). Doubting all 26 spots for it cost the referee a planted play (real-like game 20: a
    phantom dark checker made every spot 0.5 sure for 50 frames, the board balanced right on each).
    Over by one with a checker seen in that colour's tray is two off: the reader doubts it whole.
    """
    out: list[Doubt] = []
    n_seated, n_occ = seated
    if n_occ >= 3 and n_seated < SEATED * n_occ:
        out.append(Doubt(f"the checkers do not sit where the field's points are ({n_seated} of {n_occ} stacks "
                         "start in their slot): the field's corners are probably off; give --corners or "
                         "calibrate from a set-up photo"))
    if hand:
        return out  # checkers under or in a hand are not on the board as read
    for colour in ("light", "dark"):
        on = sum(getattr(s, colour).best for s in (*points, bar))
        seen = getattr(tray, colour).best
        if on > 15:
            out.append(Doubt(f"{on} {colour} checkers read on the board: more than 15 (B1)",
                             whole=not (trays and weighed) or on - 15 > ONE_OVER))
        elif 0 < on < 15 and (off_source[0 if colour == "light" else 1] == "unknown"
                              or (not trays and getattr(tray, colour).confidence < KNOWN)):
            out.append(Doubt(f"{on} {colour} checkers read on the board, and neither the board nor the tray "
                             "says where the others are (B1)"))
        elif on < 15 and abs(on + seen - 15) > MISSING:
            out.append(Doubt(f"{on} {colour} checkers read on the board and {seen} seen in the tray: "
                             f"{abs(15 - on - seen)} {'missing' if on + seen < 15 else 'too many'} (B1)"))
    return out


def _flatten(e: CountEvidence) -> CountEvidence:
    p = np.asarray(e.probs, np.float64)
    for power in (0.6, 0.4, 0.25, 0.15, 0.08):
        if p.max() <= DOUBTED_MAX:
            break
        p = np.asarray(e.probs, np.float64) ** power
        p = p / p.sum()
    return CountEvidence(tuple(float(v) for v in p))


def temper(spot: SpotEvidence) -> SpotEvidence:
    """The same best counts, none more probable than ``DOUBTED_MAX``."""
    return SpotEvidence(_flatten(spot.light), _flatten(spot.dark))
