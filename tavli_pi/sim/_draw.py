"""Drawing checkers, tray stripes, the cube and a hand on the canonical board."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tavli_pi.sim import _layout as L
from tavli_pi.sim._boards import BGR, Design

__all__ = ["checker", "stripe", "cube", "hand", "SHIFT"]

SHIFT = 4  # fixed-point bits for sub-pixel drawing
_ONE = 1 << SHIFT


def _p(x: float, y: float) -> tuple[int, int]:
    return (int(round(x * _ONE)), int(round(y * _ONE)))


def _r(r: float) -> int:
    return int(round(r * _ONE))


def _mix(a: BGR, b: BGR, t: float) -> BGR:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


def checker(img: np.ndarray, x: float, y: float, body: BGR, rim: BGR) -> None:
    """A checker seen from above: shadow, rim, body, groove ring, highlight."""
    r = L.R
    aa = cv2.LINE_AA
    cv2.circle(img, _p(x + 2.5, y + 3), _r(r), (20, 20, 20), -1, aa, SHIFT)
    cv2.circle(img, _p(x, y), _r(r), rim, -1, aa, SHIFT)
    cv2.circle(img, _p(x, y), _r(r - 3.5), body, -1, aa, SHIFT)
    groove = _mix(body, rim, 0.45)
    cv2.circle(img, _p(x, y), _r(r * 0.72), groove, 1, aa, SHIFT)
    hi = _mix(body, (255, 255, 255), 0.18)
    cv2.ellipse(img, _p(x - r * 0.25, y - r * 0.3), (_r(r * 0.35), _r(r * 0.18)), -35, 0, 360, hi, -1, aa, SHIFT)


def stripe(img: np.ndarray, x: float, y: float, body: BGR, rim: BGR) -> None:
    """A checker standing on edge in a tray: a thin rounded bar."""
    w = L.R - 3
    h = L.STRIPE / 2
    cv2.rectangle(img, _p(x - w, y - h), _p(x + w, y + h), rim, -1, cv2.LINE_AA, SHIFT)
    cv2.rectangle(img, _p(x - w + 2, y - h + 1.5), _p(x + w - 2, y + h - 2), body, -1, cv2.LINE_AA, SHIFT)


def cube(img: np.ndarray, x: float, y: float, value: int, d: Design, angle: float = 0.0) -> None:
    """The doubling cube from above with its number (1 shows 64)."""
    s = L.CUBE
    box = cv2.boxPoints(((x + 3, y + 4), (s, s), angle))
    cv2.fillConvexPoly(img, _fix(box), (20, 20, 20), cv2.LINE_AA, SHIFT)
    box = cv2.boxPoints(((x, y), (s, s), angle))
    cv2.fillConvexPoly(img, _fix(box), _mix(d.cube_body, (0, 0, 0), 0.3), cv2.LINE_AA, SHIFT)
    inner = cv2.boxPoints(((x, y), (s - 5, s - 5), angle))
    cv2.fillConvexPoly(img, _fix(inner), d.cube_body, cv2.LINE_AA, SHIFT)
    text = str(64 if value == 1 else value)
    scale = 0.75 if len(text) == 1 else 0.6
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    org = (int(round(x - tw / 2)), int(round(y + th / 2)))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, d.cube_text, 2, cv2.LINE_AA)


def _fix(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts, np.float64) * _ONE).astype(np.int32)


_SKIN = (118, 150, 205)
_SKIN_DARK = (84, 112, 168)
_SLEEVE = (90, 60, 50)


def hand(img: np.ndarray, hx: float, hy: float, size_px: float, sx: float, sy: float) -> None:
    """An arm reaching from (sx, sy) (anywhere off the board) to a palm at (hx, hy).

    Drawn in image space (the hand is above the board, not on its plane); the
    arm is extended past the image edge so it never ends in mid-air.
    """
    ang0 = math.atan2(sy - hy, sx - hx)
    far = 4.0 * (img.shape[0] + img.shape[1])
    sx, sy = hx + math.cos(ang0) * far, hy + math.sin(ang0) * far
    ang = math.atan2(hy - sy, hx - sx)
    dx, dy = math.cos(ang), math.sin(ang)
    nx, ny = -dy, dx
    arm_w = size_px * 0.7
    # shadow of the arm on the board
    off = size_px * 0.12
    mask = np.zeros(img.shape[:2], np.uint8)
    _capsule(mask, sx + off, sy + off, hx + off, hy + off, arm_w, (255, 255, 255))
    cv2.ellipse(mask, _p(hx + off, hy + off), (_r(size_px * 0.6), _r(size_px * 0.5)), math.degrees(ang), 0, 360, 255, -1, cv2.LINE_AA, SHIFT)
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw and bh:
        roi = img[by : by + bh, bx : bx + bw]
        m = mask[by : by + bh, bx : bx + bw]
        dark = cv2.multiply(roi, cv2.merge([m, m, m]), scale=0.45 / 255.0)
        roi[:] = cv2.subtract(roi, dark)
    # forearm (skin) up to a sleeve about two palm lengths behind the wrist
    wx, wy = hx - dx * size_px * 2.2, hy - dy * size_px * 2.2
    _capsule(img, sx, sy, hx, hy, arm_w, _SKIN_DARK)
    _capsule(img, sx, sy, hx, hy, arm_w * 0.86, _SKIN)
    _capsule(img, sx, sy, wx, wy, arm_w * 1.25, _SLEEVE)
    cv2.ellipse(img, _p(hx, hy), (_r(size_px * 0.55), _r(size_px * 0.45)), math.degrees(ang), 0, 360, _SKIN_DARK, -1, cv2.LINE_AA, SHIFT)
    cv2.ellipse(img, _p(hx, hy), (_r(size_px * 0.5), _r(size_px * 0.4)), math.degrees(ang), 0, 360, _SKIN, -1, cv2.LINE_AA, SHIFT)
    for k, spread in enumerate((-0.33, -0.11, 0.11, 0.33)):
        base_x = hx + dx * size_px * 0.35 + nx * spread * size_px
        base_y = hy + dy * size_px * 0.35 + ny * spread * size_px
        length = size_px * (0.55 + (0.12 if k in (1, 2) else 0.0))
        tip_x = base_x + (dx + nx * spread * 0.4) * length
        tip_y = base_y + (dy + ny * spread * 0.4) * length
        _capsule(img, base_x, base_y, tip_x, tip_y, size_px * 0.13, _SKIN_DARK)
        _capsule(img, base_x, base_y, tip_x, tip_y, size_px * 0.105, _SKIN)
    # thumb
    tb_x = hx + nx * size_px * 0.45
    tb_y = hy + ny * size_px * 0.45
    _capsule(img, tb_x, tb_y, tb_x + (nx * 0.7 + dx * 0.5) * size_px * 0.5, tb_y + (ny * 0.7 + dy * 0.5) * size_px * 0.5, size_px * 0.12, _SKIN)


def _capsule(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, width: float, colour: BGR) -> None:
    thick = max(int(round(width)), 1)
    cv2.line(img, (int(x0), int(y0)), (int(x1), int(y1)), colour, thick, cv2.LINE_AA)
