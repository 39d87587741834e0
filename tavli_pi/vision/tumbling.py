"""Tumbling dice: die-sized smudges that are not a still die.

A die still rolling is smeared along its path (motion blur): its pips turn
into streaks that no pip finder rings, but its body still stands out from
the board as a compact blob a little larger than a die. ``find_tumbling``
looks for such blobs at half resolution (a top-hat and a black-hat with a
disc larger than a die but smaller than a checker, so checkers and points'
bodies drop out), keeps the die-sized, compact ones with soft edges away
from checkers, hands, the bar and dice already read and not one of a row of
like blobs (``lettering.in_a_row``: the letters of a word, fingers), and reports each as a
moving die (value 0, confidence 0) so the referee waits for the roll to
settle (E3).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision.components import components
from tavli_pi.vision.disc_morph import blackhat, tophat
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.lettering import in_a_row

__all__ = ["find_tumbling", "hat_blobs", "hat_images", "hat_disc", "half", "coherence", "HatBlob", "Blob"]

Blob = tuple[float, float, float]  # canonical x, y, size (px)

#: grey levels a smudge must stand out (half-resolution top-hat)
CONTRAST = 24
#: gradient coherence of a smear: above a still die's (about 0.1-0.2), below a lone
#: straight edge's (a point's side, the frame: 0.5-1)
COHERENCE = (0.23, 0.5)


class HatBlob(NamedTuple):
    """A die-sized blob standing out from the board (canonical px)."""

    x: float
    y: float
    long_: float  # the longer side of its upright bounding box
    short: float
    area: float
    fill: float  # area over bounding box area
    dark: bool = False  # darker than its surroundings (found in the black-hat)
    changed: bool = False  # a patch changed from the learnt board, not a hat blob (``dice_scale.changed_bodies``)


def hat_blobs(gray: np.ndarray, lay: Layout, hats: np.ndarray | None = None) -> list[HatBlob]:
    """Blobs brighter or darker than their surroundings, larger than a pip and smaller
    than a checker, inside the field and off the bar (canonical grey image, found at
    half resolution: a top-hat and a black-hat with a disc larger than a die). ``hats``:
    ``hat_images(gray, lay)`` when already made."""
    pitch = lay.pitch
    if hats is None:
        hats = hat_images(half(gray), lay)
    out: list[HatBlob] = []
    x0, y0 = lay.to_px(lay.u0, lay.v0)
    x1, y1 = lay.to_px(lay.u1, lay.v1)
    b0, b1 = lay.bar_x
    for i_op in range(2):
        _, mask = cv2.threshold(np.ascontiguousarray(hats[..., i_op]), CONTRAST, 1, cv2.THRESH_BINARY)
        _, _, stats, cents = components(mask)
        w, h, a = (stats[1:, j].astype(np.float64) for j in (2, 3, 4))
        cx, cy = 2.0 * cents[1:, 0], 2.0 * cents[1:, 1]
        long_, short = 2.0 * np.maximum(w, h), 2.0 * np.minimum(w, h)
        keep = ((0.3 * pitch) ** 2 <= 4.0 * a) & (long_ <= 1.25 * pitch) & (short >= 0.3 * pitch)
        keep &= (x0 + 0.15 * pitch < cx) & (cx < x1 - 0.15 * pitch) & (y0 + 0.15 * pitch < cy) & (cy < y1 - 0.15 * pitch)
        keep &= ~((b0 - 0.2 * pitch < cx) & (cx < b1 + 0.2 * pitch))  # the bar's hinges and checkers
        for i in np.flatnonzero(keep).tolist():
            out.append(HatBlob(float(cx[i]), float(cy[i]), float(long_[i]), float(short[i]), float(4.0 * a[i]),
                               float(a[i] / (w[i] * h[i])), bool(i_op)))
    return out


def half(gray: np.ndarray) -> np.ndarray:
    """The grey image at half resolution (area-averaged), as ``hat_blobs`` looks at it."""
    return cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)


def hat_disc(lay: Layout) -> int:
    """The diameter (half-resolution px) of the disc ``hat_images`` opens and closes with."""
    return max(int(round(0.85 * lay.pitch / 2)) | 1, 5)


def hat_images(small: np.ndarray, lay: Layout) -> np.ndarray:
    """The top-hat and the black-hat (channels 0 and 1) of the half-resolution grey image; each
    pixel depends on ``small`` within ``hat_disc(lay) // 2 * 2`` of it."""
    d = hat_disc(lay)
    # (``disc_morph``: ``cv2.morphologyEx``'s top-hat and black-hat with the disc, pixel for pixel)
    return np.dstack([tophat(small, d), blackhat(small, d)])


def find_tumbling(
    gray: np.ndarray,
    lay: Layout,
    discs: list[tuple[float, float, float]],
    hand_mask: np.ndarray | None,
    taken: list[tuple[float, float]],
    pips: list[tuple[float, float]] = (),  # type: ignore[assignment]
    blobs: list[HatBlob] | None = None,
) -> list[Blob]:
    """Die-sized blurred blobs in the canonical grey image (canonical px), away from
    ``taken`` (dice already read) and ``pips`` (sharp pip spots). ``blobs``: the
    frame's ``hat_blobs`` if already found."""
    pitch = lay.pitch
    out: list[Blob] = []
    found = hat_blobs(gray, lay) if blobs is None else blobs
    for b in found:
        cx, cy = b.x, b.y
        if in_a_row((b.x, b.y, b.long_), [(o.x, o.y, o.long_) for o in found if o is not b and o.dark == b.dark]):
            continue  # one of a row of like blobs of its shade: lettering (or fingers), not a die
        if any(np.hypot(cx - tx, cy - ty) < 0.6 * pitch for tx, ty in taken):
            continue
        if any(np.hypot(cx - sx, cy - sy) < 0.35 * pitch for sx, sy in pips):
            continue  # ringed pips: a still die the pip reader could not outline
        if any(np.hypot(cx - dx, cy - dy) < dr + 0.1 * pitch for dx, dy, dr in discs):
            continue
        if hand_mask is not None and hand_mask.shape == gray.shape and hand_mask[int(cy), int(cx)]:
            continue
        if b.fill < 0.5:
            continue  # a thin wedge (a point's tip) or a ring, not a body
        if not COHERENCE[0] <= coherence(gray, cx, cy, 0.5 * b.long_ + 2) <= COHERENCE[1]:
            continue  # edges every which way (a still object) or one straight edge: no smear
        out.append((cx, cy, b.long_))
    return out


def coherence(gray: np.ndarray, cx: float, cy: float, r: float) -> float:
    """How much the gradients round (cx, cy) share one direction (0 none - 1 all).

    A smear along the die's path leaves edges only across the path (the pips'
    streaks, the body's long sides); a still die, a checker or a screw shows
    edges in every direction.
    """
    x0, y0 = max(int(cx - r), 0), max(int(cy - r), 0)
    x1, y1 = min(int(cx + r) + 1, gray.shape[1]), min(int(cy + r) + 1, gray.shape[0])
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    if min(patch.shape) < 5:
        return 0.0
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    jxx, jyy, jxy = float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum())
    tr = jxx + jyy
    if tr <= 1e-6:
        return 0.0
    return float(np.sqrt((jxx - jyy) ** 2 + 4.0 * jxy * jxy) / tr)
