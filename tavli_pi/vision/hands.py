"""Is a hand or an arm over the board?

Skin has a narrow range of chroma (YCrCb: Cr about 135-178, Cb about 80-130,
the range commonly used for skin segmentation). Parts of some boards share
it (wood, warm shadows along the frame), so the calibration stores where the
clear board is already skin-coloured (``skin_prone``, a quarter-scale mask,
dilated) and only skin elsewhere counts. A hand is a large connected skin
blob over the field.
"""

from __future__ import annotations

import base64

import cv2
import numpy as np

from tavli_pi.vision.layout import Layout

__all__ = ["shrink", "skin_view", "skin_mask", "skin_prone", "encode_mask", "decode_mask", "hand_cover", "SCALE"]

#: the stored skin-prone mask is 1/SCALE of the canonical image
SCALE = 4
_LO = np.array([40, 135, 80], np.uint8)
_HI = np.array([255, 178, 130], np.uint8)


def skin_mask(canon: np.ndarray) -> np.ndarray:
    """uint8 mask (255 = skin-coloured) of a BGR image."""
    ycc = cv2.cvtColor(canon, cv2.COLOR_BGR2YCrCb)
    return cv2.inRange(ycc, _LO, _HI)


def skin_prone(canon: np.ndarray) -> np.ndarray:
    """Quarter-scale bool mask of where a clear board is already skin-coloured."""
    h, w = canon.shape[:2]
    small = cv2.resize(skin_mask(canon), (w // SCALE, h // SCALE), interpolation=cv2.INTER_AREA)
    return cv2.dilate((small > 40).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def encode_mask(mask: np.ndarray) -> str:
    """``"HxW:base64"`` of a bool mask (for the calibration file)."""
    h, w = mask.shape
    return f"{h}x{w}:" + base64.b64encode(np.packbits(mask.ravel()).tobytes()).decode()


def decode_mask(text: str) -> np.ndarray:
    size, _, data = text.partition(":")
    h, w = (int(v) for v in size.split("x"))
    bits = np.unpackbits(np.frombuffer(base64.b64decode(data), np.uint8))[: h * w]
    return bits.reshape(h, w).astype(bool)


def shrink(canon: np.ndarray) -> np.ndarray:
    """The canonical image at 1/SCALE (INTER_AREA), as ``hand_cover`` looks at it."""
    h, w = canon.shape[:2]
    return cv2.resize(canon, (w // SCALE, h // SCALE), interpolation=cv2.INTER_AREA)


def skin_view(small: np.ndarray, prone: np.ndarray | None = None) -> np.ndarray:
    """uint8 skin mask of the quarter-scale view (``shrink``), skin-prone board removed, opened."""
    mask = skin_mask(small)
    if prone is not None and prone.shape == mask.shape:
        mask[prone] = 0
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def hand_cover(
    canon: np.ndarray,
    lay: Layout,
    prone: np.ndarray | None = None,
    small: np.ndarray | None = None,
    skin: np.ndarray | None = None,
) -> tuple[float, np.ndarray]:
    """(share of the field covered by a hand, hand mask in canonical pixels).

    ``small``: ``shrink(canon)`` and ``skin``: ``skin_view(small, prone)``
    when the caller already made them.
    """
    h, w = canon.shape[:2]
    if skin is None:
        skin = skin_view(shrink(canon) if small is None else small, prone)
    mask = skin
    x0, y0 = int((lay.mx + lay.u0 * lay.field_w) / SCALE), int(lay.top_y / SCALE)
    x1, y1 = int((lay.mx + lay.u1 * lay.field_w) / SCALE), int(lay.bottom_y / SCALE)
    field = mask[y0:y1, x0:x1]
    out: np.ndarray = np.zeros((h, w), np.uint8)
    if field.size == 0:
        return 0.0, out
    n, labels, stats, _ = cv2.connectedComponentsWithStats(field, connectivity=8)
    area = float(field.shape[0] * field.shape[1])
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 0.003 * area]
    share = float(sum(stats[i, cv2.CC_STAT_AREA] for i in big)) / area
    if big:
        keep: np.ndarray = np.zeros(mask.shape, np.uint8)
        keep[y0:y1, x0:x1] = np.isin(labels, big).astype(np.uint8) * 255
        keep = cv2.dilate(keep, np.ones((3, 3), np.uint8))
        out = cv2.resize(keep, (w, h), interpolation=cv2.INTER_NEAREST)
    return share, out
