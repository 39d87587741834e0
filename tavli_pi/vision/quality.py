"""Is the picture good enough to read a board from? One clear reason when it is not.

Checked before anything is searched for: a picture too small, too dark or too
blurred gets a message saying which and what would help, never a position.
The measures are of the picture, not of any board: its size, its brightness,
and the sharpness of its edges (``sharpness``: 0.12-0.29 on the real board
photos, 0.06-0.08 once blurred by sigma 2 px at 1280 px across, 0.03-0.05 at 4 px).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["MIN_SIDE", "MIN_FIELD_PX", "image_problem", "field_problem", "sharpness"]

#: the shorter side a photo must have (px)
MIN_SIDE = 160
#: the least width of the playing field in the photo (px): a point then spans ~12 px
MIN_FIELD_PX = 150
#: too dark: mean brightness below this and hardly anything bright
DARK_MEAN = 28.0
DARK_TOP = 60.0
#: too blurred below this sharpness
BLUR = 0.055


def sharpness(gray: np.ndarray) -> float:
    """How sharp the edges are, at 640 px across: the 90th percentile of |Laplacian| over that
    of the gradient, both on the strongest 5 % of edge pixels (a blur of sigma s px makes it
    fall roughly as 1/s; contrast cancels out)."""
    h, w = gray.shape[:2]
    s = 640.0 / max(h, w)
    g = cv2.resize(gray, (max(1, int(w * s)), max(1, int(h * s))),
                   interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR).astype(np.float32)
    lap = np.abs(cv2.Laplacian(g, cv2.CV_32F))
    gm = np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    edge = gm >= max(float(np.percentile(gm, 95)), 8.0)
    if int(edge.sum()) < 50:
        return 0.0
    return float(np.percentile(lap[edge], 90) / (np.percentile(gm[edge], 90) + 1e-6))


def image_problem(image: np.ndarray) -> str | None:
    """Why ``image`` cannot show a readable board, or None."""
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE:
        return (f"no board found: the photo is too small ({w}x{h} px, need at least {MIN_SIDE} px on "
                "its shorter side); take it closer or at a higher resolution")
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    mean, top = float(gray.mean()), float(np.percentile(gray, 99))
    if mean < DARK_MEAN and top < DARK_TOP:
        return (f"no board found: the photo is too dark (mean brightness {mean:.0f}/255); "
                "light the board or lengthen the exposure")
    sharp = sharpness(gray)
    if sharp < BLUR:
        return (f"no board found: the photo is too blurred (sharpness {sharp:.3f}, need {BLUR}); "
                "hold the camera still, focus on the board, or use more light for a shorter exposure")
    return None


def field_problem(corners: np.ndarray) -> str | None:
    """Why the field framed by ``corners`` (image px) is too small to read, or None."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    width = 0.5 * (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3]))
    height = 0.5 * (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1]))
    side = min(width, height)
    if side < MIN_FIELD_PX:
        return (f"no board found: the playing field is only {side:.0f} px across (need {MIN_FIELD_PX}); "
                "move the camera closer or use a higher resolution")
    return None
