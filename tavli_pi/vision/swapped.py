"""A slot the set-up position filled that now holds the other colour's checker.

The set-up slot model (``setup_slots.setup_slot_probability``) reads a slot the known position filled
by how little it changed since set-up: a big change is the checker gone. When a checker of the
other colour stands there instead (the light mid-point taken by dark, a dark checker hit on the
light 6-point) the change is as big, and the slot read empty: on the real-like set (issue 9, seed 0)
five of the fifteen dark checkers missed in plain view were such, a stack of five on the light
mid-point among them (bench/RESULTS.md, stop 19).

Such a slot is read again against the empty point as this board showed it at set-up: the same
slot of the nearest point of the same row and colour (every other point, B3's alternating
triangles) that the known position left empty, under the light learnt for each place
(``lighting.light_at``). The empty-slot kind of the model then reads it, with the change, the
distance to the set-up colour and the set-up colour's likeness to a checker taken against that
empty point; the slot keeps the likelier of the two readings. A slot that differs less from the set-up view
than from the empty point is left as read, and so is a chain whose first disc is larger than a
checker (a dice cup, ``oversize.py``); a slot is lifted no higher than the slots below it. Only slots whose colour is nearer
the other colour's checker (where they lie, ``lighting.slot_colours``) than the one the set-up put
there are read again: a slot still holding its set-up checker is untouched, and a slot emptied
since set-up is read against the point it now shows, not taken for a checker.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.background import BG_SCALE
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.lighting import light_at, slot_colours

__all__ = ["CHG", "BOARD", "LOOK", "empty_beside", "setup_colours", "swapped_slots", "empty_point_features"]

#: indices of the set-up features taken against the empty point (``setup_slots.setup_slot_features``)
CHG, BOARD, LOOK, TAUGHT = ck.N_FEATURES, ck.N_FEATURES + 3, ck.N_FEATURES + 5, ck.N_FEATURES + 7


def setup_colours(known: KnownBoard) -> np.ndarray:
    """(26,) the colour the known position put on each spot: +1 light, -1 dark, 0 none (the bar's
    halves: light below, dark above, as ``KnownBoard.slots``)."""
    out = np.zeros(26, np.int8)
    for i in range(24):
        out[i] = 1 if known.light[i] else (-1 if known.dark[i] else 0)
    out[24], out[25] = (1 if known.light[24] else 0), (-1 if known.dark[24] else 0)
    return out


def swapped_slots(ch: ck.Chains, cal: Calibration, filled: np.ndarray, held: np.ndarray) -> np.ndarray:
    """(C, K) bool: slots filled at set-up (``filled``, of ``ch``'s columns) whose colour is nearer
    the other colour's checker than the set-up one's (``held``: +1 light, -1 dark per column)."""
    light, dark, _ = slot_colours(cal, ch.x, ch.y)
    d_light = np.linalg.norm(ch.bgr - light, axis=-1)
    d_dark = np.linalg.norm(ch.bgr - dark, axis=-1)
    other_nearer = np.where(held[:, None] > 0, d_dark < d_light, d_light < d_dark)
    return np.asarray(filled & (held[:, None] != 0) & other_nearer)


def empty_beside(lay: Layout, column: int, slot: int, empty_at_setup: np.ndarray) -> int | None:
    """The nearest point to ``column`` of the same row and colour (every other point) whose
    ``slot`` the known position left empty (``empty_at_setup``: (26, K) bool), or None."""
    if column >= 24:
        return None
    top = lay.columns[column].top
    best: tuple[float, int] | None = None
    for j in range(column % 2, 24, 2):
        if j == column or lay.columns[j].top != top or not empty_at_setup[j, slot]:
            continue
        d = abs(lay.columns[j].x - lay.columns[column].x)
        if best is None or d < best[0]:
            best = (d, j)
    return None if best is None else best[1]


def _box(c: float, half: float, size: int) -> slice:
    """``checkers.box_means``' box along one axis."""
    a = min(max(int(round(c - half)), 0), size - 1)
    return slice(a, min(max(int(round(c + half)) + 1, a + 1), size))


def empty_point_features(feats: np.ndarray, ch: ck.Chains, cal: Calibration, lay: Layout, cols: np.ndarray,
                         slots: np.ndarray, empty_at_setup: np.ndarray, now: np.ndarray, background: np.ndarray,
                         gain: np.ndarray, radii: np.ndarray, taught: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """For each slot (i, k) of ``slots`` ((C, K) bool over ``ch``'s columns ``cols``): its set-up
    features (``feats``) with the change, the distance to the set-up colour and that colour's
    likeness to a checker taken against the empty point (``empty_beside``) instead of the set-up view
    there -- only for the slots nearer the empty point than the set-up view. ``now``, ``background``: the frame and the set-up board on the background's grid (float32);
    ``gain``: the brightness match (set-up / now); ``radii``: per column, the checker radius;
    ``taught``: (26, K) each slot's ring when the board was learnt (``setup_slots._taught``): the empty
    point's is taken."""
    out: list[tuple[int, int, np.ndarray]] = []
    light_c, dark_c = np.asarray(cal.light_bgr, np.float32), np.asarray(cal.dark_bgr, np.float32)
    h, w = background.shape[:2]
    for i, k in zip(*np.nonzero(slots)):
        s = empty_beside(lay, int(cols[i]), int(k), empty_at_setup)
        if s is None:
            continue
        x, y = float(ch.x[i, k]), float(ch.y[i, k])
        sx = x + lay.columns[s].x - lay.columns[int(cols[i])].x
        lit = light_at(cal, np.asarray([x, sx]), np.asarray([y, y]))
        ratio = 1.0 if lit is None else float(lit[0][0] / max(float(lit[0][1]), 1e-3))
        half = 0.5 * float(radii[i]) / BG_SCALE
        ys = _box(y / BG_SCALE, half, h)
        xs = _box(x / BG_SCALE, half, w)
        shift = int(round((sx - x) / BG_SCALE))
        if xs.start + shift < 0 or xs.stop + shift > w:
            continue  # the empty point's box runs off the board's grid
        xs_sub = slice(xs.start + shift, xs.stop + shift)
        empty = background[ys, xs_sub] * np.float32(ratio)  # the empty point, in this slot's light
        chg = float(np.abs(now[ys, xs] * gain - empty).max(axis=-1).mean())
        if np.log1p(chg) >= feats[i, k, CHG]:
            continue  # the slot is no further from the set-up view than from the empty point
        learnt = empty.reshape(-1, 3).mean(axis=0)
        f = feats[i, k].copy()
        f[CHG] = np.log1p(chg)
        f[BOARD] = np.log1p(np.linalg.norm(ch.bgr[i, k] - learnt / gain))
        f[LOOK] = np.log1p(min(np.linalg.norm(learnt - light_c), np.linalg.norm(learnt - dark_c)))
        f[TAUGHT] = taught[s, k]
        out.append((int(i), int(k), f))
    return out
