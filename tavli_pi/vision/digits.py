"""Reading the number on a doubling cube's top face by template matching.

The face (a square crop, any rotation by quarter turns) is split into body
and ink (Otsu on the face's inner part; the ink is the minority shade); the
ink's bounding box, turned by 0/90/180/270 degrees, is scaled to a small
square and correlated with the numbers 2, 4, 8, 16, 32, 64 drawn by
``cv2.putText`` in several Hershey fonts and stroke widths (the simulator
draws with ``FONT_HERSHEY_SIMPLEX``; real cubes use other faces, so plainer
and serif fonts are in the set too). The shape of the box (two digits are
wide, one digit is tall) is part of the score, which settles most turns.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

__all__ = ["FACES", "read_face", "ink_mask", "face_templates"]

#: The numbers on a doubling cube (the 64 face also stands for a centred cube at 1).
FACES: tuple[int, ...] = (2, 4, 8, 16, 32, 64)

_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)
_N = 20  # side of the normalised ink box


def _norm(mask: np.ndarray) -> np.ndarray:
    """An ink mask (any size) as a zero-mean unit-length vector of the _N x _N box."""
    small = cv2.resize(mask.astype(np.float32), (_N, _N), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0).ravel()
    small -= small.mean()
    n = float(np.linalg.norm(small))
    return np.asarray(small / n if n > 1e-6 else small, np.float32)


@lru_cache(maxsize=1)
def face_templates() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(vectors K x _N*_N, log aspect K, face value K) of every font and stroke width."""
    vecs, aspects, values = [], [], []
    for value in FACES:
        text = str(value)
        for font in _FONTS:
            scale = 2.4 if font != cv2.FONT_HERSHEY_PLAIN else 4.0
            for thick in (2, 4, 6):
                img = np.zeros((120, 200), np.uint8)
                cv2.putText(img, text, (10, 95), font, scale, 255, thick, cv2.LINE_AA)
                ys, xs = np.nonzero(img > 127)
                box = img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] > 127
                vecs.append(_norm(box))
                aspects.append(np.log(box.shape[1] / box.shape[0]))
                values.append(value)
    return np.stack(vecs), np.asarray(aspects, np.float32), np.asarray(values)


def ink_mask(face: np.ndarray) -> np.ndarray | None:
    """The number's strokes on a square grey face crop (bool, same size), or None.

    Otsu splits the inner face into two shades; the ink is the smaller part.
    Specks and marks touching the inner edge (the cube's rim, the table) are dropped.
    """
    n = face.shape[0]
    m = max(int(0.14 * n), 2)
    inner = face[m : n - m, m : n - m]
    if float(np.ptp(inner)) < 30:
        return None
    t, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = inner > t
    ink = bright if bright.mean() < 0.5 else ~bright
    cnt, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    keep = np.zeros(cnt, bool)
    h, w = ink.shape
    for i in range(1, cnt):
        x, y, bw, bh, a = (int(v) for v in stats[i])
        edge = x == 0 or y == 0 or x + bw >= w or y + bh >= h
        if a >= max(4, 0.004 * h * w) and not edge:
            keep[i] = True
    out = np.zeros_like(face, bool)
    out[m : n - m, m : n - m] = keep[labels]
    if out.sum() < 0.01 * n * n or out.sum() > 0.45 * n * n:
        return None
    return out


def read_face(face: np.ndarray) -> tuple[int, float, float]:
    """(face value or 0, match score 0-1, margin over the best other value) for a grey square crop."""
    ink = ink_mask(face)
    if ink is None:
        return 0, 0.0, 0.0
    ys, xs = np.nonzero(ink)
    box = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    if min(box.shape) < 3:
        return 0, 0.0, 0.0
    vecs, aspects, values = face_templates()
    best: dict[int, float] = {}
    for k in range(4):
        b = np.rot90(box, k)
        corr = vecs @ _norm(b)
        shape = np.abs(np.log(b.shape[1] / b.shape[0]) - aspects)
        score = corr - 0.35 * np.maximum(shape - 0.15, 0.0)
        for v in FACES:
            s = float(score[values == v].max())
            if s > best.get(v, -9.0):
                best[v] = s
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    value, score = ranked[0]
    return int(value), max(score, 0.0), score - ranked[1][1]
