"""The labelled real photos as another camera would have taken them (``bench/bench_real_variants.py``).

Each variant changes the picture the way a different table, camera or room does -- a smaller
frame, a harder JPEG, the camera turned round, a quarter or tilted, dimmer or warmer light, a softer focus,
a camera at a slant -- and moves the labels' picture coordinates (the field's corners, the dice)
with it, so a variant is scored exactly as the photo is. The board, its checkers and its counts
are the photo's: only the view changes, so every change in the figures is the reader's.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from tests.vision._eval import RealFrame

__all__ = ["VARIANTS", "variant", "variant_frames"]

#: a picture change: image -> (new image, the 3x3 map of picture points old -> new)
Change = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def _same(img: np.ndarray, out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return out, np.eye(3)


def _width(w: int) -> Change:
    """Scaled down to ``w`` px wide (a 640x360 camera, a phone photo sent small)."""
    def change(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = w / img.shape[1]
        if s >= 1:
            return img.copy(), np.eye(3)
        out = cv2.resize(img, (w, round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
        # pixel centres: x' + 0.5 = s (x + 0.5)
        return out, np.array([[s, 0, 0.5 * s - 0.5], [0, s, 0.5 * s - 0.5], [0, 0, 1]])
    return change


def _rot180(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The camera turned round: the light player at the other edge of the picture."""
    h, w = img.shape[:2]
    return cv2.rotate(img, cv2.ROTATE_180), np.array([[-1, 0, w - 1], [0, -1, h - 1], [0, 0, 1]], dtype=float)


def _rot90(clockwise: bool) -> Change:
    """The camera at an end of the table, or a phone photo in portrait: the picture turned a quarter
    (``clockwise`` as ``cv2.ROTATE_90_CLOCKWISE`` turns it), the players at its left and right edges."""
    def change(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = img.shape[:2]
        if clockwise:  # (x, y) -> (h - 1 - y, x)
            return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), np.array([[0, -1, h - 1], [1, 0, 0], [0, 0, 1]], dtype=float)
        # (x, y) -> (y, w - 1 - x)
        return cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE), np.array([[0, 1, 0], [-1, 0, w - 1], [0, 0, 1]], dtype=float)
    return change


def _tilt(deg: float) -> Change:
    """The camera turned ``deg`` degrees about its axis (a phone held askew), shrunk to keep the field
    in the picture; the border filled with the picture's own edge."""
    def change(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), deg, 0.88)
        out = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return out, np.vstack([m, [0, 0, 1]])
    return change


def _slant(narrower: float) -> Change:
    """A camera over the near edge looking across: the far edge of the picture ``narrower`` (a share)
    narrower, and brought down a quarter of that share of the height (16 %: a camera on a stand over the
    table; 35 %: a spectator's photo from a chair)."""
    def change(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = img.shape[:2]
        src = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
        d, top = narrower / 2 * w, narrower / 4 * h
        dst = np.float32([[d, top], [w - 1 - d, top], [w - 1, h - 1], [0, h - 1]])
        m = cv2.getPerspectiveTransform(src, dst)
        return cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), m
    return change


def _jpeg(q: int) -> Change:
    """Re-encoded as a JPEG of quality ``q`` (a streaming camera, a messaging app)."""
    def change(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        assert ok
        return _same(img, cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return change


def _dim(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A room at 45 % of the light, the camera's noise brought up with it (sigma 3 grey levels)."""
    noise = np.random.default_rng(7).normal(0, 3, img.shape)
    return _same(img, np.clip(img.astype(np.float64) * 0.45 + noise, 0, 255).astype(np.uint8))


#: tungsten light, B, G, R: blue down to 70 %, red up 10 % (the white balance not corrected)
WARM = np.array([0.70, 0.95, 1.10])


def _warm(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tungsten light (``WARM``)."""
    return _same(img, np.clip(img.astype(np.float64) * WARM, 0, 255).astype(np.uint8))


def _soft(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A softer focus (Gaussian, sigma 1.5 px at 1280 px wide; in proportion to the picture)."""
    sigma = 1.5 * img.shape[1] / 1280
    return _same(img, cv2.GaussianBlur(img, (0, 0), sigma))


#: name -> change, in the order the figures print them
VARIANTS: dict[str, Change] = {
    "640 wide": _width(640),
    "turned round": _rot180,
    "turned 90 cw": _rot90(True),
    "turned 90 ccw": _rot90(False),
    "tilted 6 deg": _tilt(6.0),
    "slanted": _slant(0.16),
    "slanted 35 %": _slant(0.35),
    "jpeg q30": _jpeg(30),
    "dim": _dim,
    "warm light": _warm,
    "soft focus": _soft,
}


def _moved(xy: Any, m: np.ndarray) -> list[float]:
    p = m @ np.array([float(xy[0]), float(xy[1]), 1.0])
    return [float(p[0] / p[2]), float(p[1] / p[2])]


def variant(frame: RealFrame, name: str) -> RealFrame:
    """``frame`` as the variant ``name`` shows it: its picture changed, its labels' corners and dice
    moved with it (the counts, hand and the rest as labelled)."""
    image, m = VARIANTS[name](frame.image)
    label = copy.deepcopy(frame.label)
    label["corners"] = [_moved(c, m) for c in label["corners"]]
    for d in label.get("dice", []):
        d["xy"] = _moved(d["xy"], m)
    return dataclasses.replace(frame, label=label, image=image)


def variant_frames(frames: list[RealFrame], name: str) -> list[RealFrame]:
    return [variant(f, name) for f in frames]
