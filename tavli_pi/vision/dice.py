"""Dice: find small square blobs that stand out from the board, read their pips.

``read_pips(crop)`` reads one die's top face from a crop around it, whatever
the colours: Otsu's threshold splits face and pips, the pips are the
minority class, and the value is the number of small, round, pip-sized
blobs on the face. ``find_dice`` looks in the canonical image for blobs of
about a die's size (between a third and three fifths of a checker) that
differ from their surroundings and are not checkers, then reads each.
A die that lies flat shows a square; a cocked or leaning one shows a skewed
outline (two faces), which lowers its squareness.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import DieReading

__all__ = ["read_pips", "find_dice", "PipReading"]

PipReading = tuple[int, float]  # (value 1-6 or 0 when unreadable, confidence)

_SIZE = 64


def read_pips(crop: np.ndarray) -> PipReading:
    """(pips on the face, confidence) for a BGR crop centred on one die's top face."""
    if crop is None or crop.size == 0:
        return 0, 0.0
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    gray = cv2.resize(gray, (_SIZE, _SIZE), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    m = int(_SIZE * 0.12)
    inner = gray[m:-m, m:-m]
    t, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = (inner <= t).astype(np.uint8)
    # pips are the minority class of the face
    pips = dark if dark.mean() < 0.5 else 1 - dark
    contrast = abs(float(inner[pips == 1].mean()) - float(inner[pips == 0].mean())) if 0 < pips.mean() < 1 else 0.0
    n, _, stats, cents = cv2.connectedComponentsWithStats(pips, connectivity=8)
    area = float(inner.size)
    good: list[float] = []
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA]
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if not (0.006 * area <= a <= 0.09 * area):
            continue
        if max(w, h) > 2.2 * min(w, h):
            continue
        fill = a / float(w * h)
        if fill < 0.45:
            continue
        x0, y0 = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
        if x0 == 0 or y0 == 0 or x0 + w >= inner.shape[1] or y0 + h >= inner.shape[0]:
            continue  # touches the crop edge: the die's outline or a neighbour, not a pip
        good.append(float(a))
    if not good or len(good) > 6:
        return 0, 0.0
    sizes = np.asarray(good)
    # pips on one face are all the same size
    uniform = 1.0 - min(1.0, float(sizes.std() / (sizes.mean() + 1e-6)))
    conf = float(np.clip(0.35 + 0.4 * uniform + 0.25 * min(1.0, contrast / 80.0), 0.0, 1.0))
    return len(good), conf


def find_dice(
    canon: np.ndarray,
    lay: Layout,
    cal: Calibration,
    discs: list[tuple[float, float, float]],
    hand_mask: np.ndarray,
) -> list[DieReading]:
    """Dice in the canonical image, reported in image pixels."""
    pitch = lay.pitch
    k = int(pitch * 1.1) | 1
    small = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    back = cv2.medianBlur(small, min(k, 31) | 1)
    diff = cv2.absdiff(small, back)
    _, mask = cv2.threshold(diff, 45, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # blank out checkers and hands
    for x, y, r in discs:
        cv2.circle(mask, (int(x), int(y)), int(r * 1.05), 0, -1)
    if hand_mask is not None and hand_mask.shape == mask.shape:
        mask[hand_mask > 0] = 0
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out: list[DieReading] = []
    lo, hi = (0.28 * pitch) ** 2, (0.75 * pitch) ** 2
    for i in range(1, n):
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if not (lo <= w * h <= hi) or max(w, h) > 1.8 * min(w, h):
            continue
        ys, xs = np.nonzero(labels[stats[i, 1] : stats[i, 1] + h, stats[i, 0] : stats[i, 0] + w] == i)
        pts = np.stack([xs + stats[i, 0], ys + stats[i, 1]], axis=1).astype(np.float32)
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(pts)
        if min(rw, rh) < 0.25 * pitch:
            continue
        squareness = min(rw, rh) / max(rw, rh)
        fill = len(pts) / max(rw * rh, 1.0)
        side = max(rw, rh)
        x0, y0 = int(cx - side * 0.5), int(cy - side * 0.5)
        crop = canon[max(0, y0) : y0 + int(side) + 1, max(0, x0) : x0 + int(side) + 1]
        value, conf = read_pips(crop)
        if value == 0:
            continue
        flat = squareness > 0.8 and fill > 0.7
        on_checker = any(
            np.hypot(cx - dx, cy - dy) < dr + 0.45 * side for dx, dy, dr in discs
        )
        u, v = lay.to_uv(cx, cy)
        xy = cal.to_image(np.asarray([[cx, cy]], np.float32))[0]
        out.append(
            DieReading(
                xy=(float(xy[0]), float(xy[1])),
                value=value,
                value_confidence=conf,
                flat=bool(flat and not on_checker),
                on_checker=bool(on_checker),
                half=lay.half_of(u, v),  # type: ignore[arg-type]
            )
        )
    return out
