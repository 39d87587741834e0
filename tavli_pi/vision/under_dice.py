"""A die lying where a point's next checker would stand hides whether one stands there.

Checkers stand on a point in an unbroken row from the field's edge, so a point read as ``n``
checkers is sure of ``n`` only if the slot of an ``n + 1``-th checker is seen empty. A die
lying on that slot (thrown onto a checker, or onto an empty point's first slot) covers the
middle of the disc a checker there would show, and the checker's rim left round the die is
broken by the die's own edges: a light checker on a light point under a die reads as an empty
point at 0.98 (``bench_vision.py``'s simulated hard boards with a set-up calibration, table 15:
point 6's one light checker, the only count read wrong at 0.9 or more there). Nothing in the
stack's own reading says so; the die, found later in the frame, does.

So a point whose next slot holds a found die is no sure count (``doubt.temper``): its best
count is kept (a die on an empty point's first slot is the common case, and then 0 is right),
only not sure. On a point read empty, both colours are tempered (either could be under the
die); on a stack, the stack's colour (one more of it could be under the die; the other colour
cannot stand on top of it, P3's pinned checker aside, which is read apart). A die elsewhere on
a point (beyond its next slot, or on a checker inside the stack) hides no count: the row from the
base is seen whole before it.

"On the next slot": the die's centre lies within a checker's radius of where the next checker's
centre would be -- one checker's spacing (``SPACING`` radii, as ``checkers.trace_chains``
searches) beyond the last disc read, or at the first slot (``FIRST`` radii from the field's
edge) on a point read empty. Geometry alone, no fitted level.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavli_pi.vision.doubt import temper
from tavli_pi.vision.observation import SpotEvidence

__all__ = ["FIRST", "SPACING", "next_slots", "hidden_points", "die_hidden_tempered"]

#: a first checker's centre, in checker radii from the field's edge (touching it: 1.0; the
#: slot search of ``checkers.trace_chains`` looks 0.75-1.6 radii out)
FIRST = 1.1
#: one checker's centre to the next's along a stack, in checker radii (``trace_chains``: 1.8-2.35)
SPACING = 2.075

Site = tuple[float, float, float]


def next_slots(geometry: tuple[np.ndarray, ...], sites: Sequence[Sequence[Site]], counts: Sequence[int]) -> np.ndarray:
    """(P, 2) canonical centres of each point's next checker: past its last disc read, or its
    first slot when it holds none. ``geometry``: ``spot_slots.spot_geometry`` (x, base y, sign, r per
    spot); ``sites``: each point's discs read (x, y, r); ``counts``: each point's count read (a
    squeezed or tall stack whose discs were not all traced is placed by its count)."""
    x, base, sign, r = geometry
    out = np.zeros((len(counts), 2), np.float64)
    for i, n in enumerate(counts):
        if n and len(sites[i]) == n:
            # the disc furthest from the field's edge, one spacing on
            far = max(sites[i], key=lambda s: abs(s[1] - float(base[i])))
            out[i] = far[0], far[1] + float(sign[i]) * SPACING * float(r[i])
        else:
            out[i] = float(x[i]), float(base[i]) + float(sign[i]) * float(r[i]) * (FIRST + SPACING * n)
    return out


def hidden_points(geometry: tuple[np.ndarray, ...], sites: Sequence[Sequence[Site]], counts: Sequence[int],
                  dice: np.ndarray) -> list[int]:
    """The points (0-based) whose next slot holds a die: a die's centre (``dice``: (D, 2)
    canonical) within a checker's radius of where the point's next checker would stand."""
    d = np.asarray(dice, np.float64).reshape(-1, 2)
    if not len(d) or not len(counts):
        return []
    slots = next_slots(geometry, sites, counts)
    r = np.asarray(geometry[3], np.float64)[: len(counts)]
    dist = np.hypot(slots[:, None, 0] - d[None, :, 0], slots[:, None, 1] - d[None, :, 1])
    return [int(i) for i in np.flatnonzero((dist < r[:, None]).any(axis=1))]


def die_hidden_tempered(points: Sequence[SpotEvidence], geometry: tuple[np.ndarray, ...],
                        sites: Sequence[Sequence[Site]], dice: np.ndarray) -> list[SpotEvidence]:
    """``points`` with each point whose next slot holds a die (``hidden_points``) no sure count:
    both colours of a point read empty, the stack's colour of one read holding checkers."""
    counts = [max(s.light.best, s.dark.best) for s in points]
    out = list(points)
    for i in hidden_points(geometry, sites, counts, dice):
        s = out[i]
        t = temper(s)
        if s.light.best and not s.dark.best:
            out[i] = SpotEvidence(t.light, s.dark)
        elif s.dark.best and not s.light.best:
            out[i] = SpotEvidence(s.light, t.dark)
        elif not s.light.best and not s.dark.best:
            out[i] = t
    return out
