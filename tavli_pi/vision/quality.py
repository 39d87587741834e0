"""Is the picture good enough to read a board from? One clear reason when it is not.

Checked before anything is searched for: a picture too small, too dark or too
blurred gets a message saying which and what would help, never a position.
The measures are of the picture, not of any board: its size, its brightness,
and the sharpness of its edges (the strongest Laplacian response relative to
the strongest gradient, at a fixed working size: about 0.16-0.30 on sharp
photos, under 0.06 once blurred by ~2.5 px at 640 px across).
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
BLUR = 0.065


def sharpness(gray: np.ndarray) -> float:
    """99th percentile of |Laplacian| over the 99th percentile of the gradient, at 640 px."""
    h, w = gray.shape[:2]
    s = 640.0 / max(h, w)
    g = cv2.resize(gray, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    lap = np.abs(cv2.Laplacian(g, cv2.CV_32F))
    gm = np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    top = float(np.percentile(gm, 99))
    return float(np.percentile(lap, 99)) / top if top > 1.0 else 0.0


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
