"""Photographic effects on the camera image: light, glare, blur, noise, JPEG.

Everything is uint8 OpenCV arithmetic or built at low resolution and resized,
so a full 1280x720 frame with every effect stays within a few milliseconds.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

__all__ = ["lighting", "gaussian_blur", "noise", "jpeg", "motion_kernel", "shadow", "band", "panel"]

_LOW = (32, 18)  # low-resolution grid for light maps (w, h)


def lighting(img: np.ndarray, gradient: float, glare: float, rng: np.random.Generator) -> np.ndarray:
    """Uneven light (a tilted gain plane plus vignette) and one glare spot."""
    h, w = img.shape[:2]
    lw, lh = _LOW
    ys, xs = np.mgrid[0:lh, 0:lw].astype(np.float32)
    xs = xs / (lw - 1) - 0.5
    ys = ys / (lh - 1) - 0.5
    gain = np.ones((lh, lw), np.float32)
    if gradient > 0:
        a = rng.uniform(0, 2 * np.pi)
        gain += gradient * 0.9 * (np.cos(a) * xs + np.sin(a) * ys)
        gain -= gradient * 0.35 * (xs * xs + ys * ys)
    out = img
    if gradient > 0:
        g = cv2.resize(np.clip(gain * 128.0, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
        g3 = cv2.merge([g, g, g])
        out = cv2.multiply(out, g3, scale=1.0 / 128.0)
    if glare > 0:
        gx, gy = rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85)
        rad = rng.uniform(0.05, 0.14)
        asp = rng.uniform(0.6, 1.6)
        d2 = ((xs + 0.5 - gx) / asp) ** 2 + ((ys + 0.5 - gy) * asp * (h / w)) ** 2
        spot = np.exp(-d2 / (2 * rad * rad)).astype(np.float32)
        sp = cv2.resize(np.clip(spot * glare * 255.0, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_CUBIC)
        out = cv2.add(out, cv2.merge([sp, sp, sp]))
    return out


def gaussian_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    if sigma <= 0:
        return img
    return cv2.GaussianBlur(img, (0, 0), sigma)


_ROWS = 256  # vertical offsets into the noise bank
_UNIT = 16.0  # the bank stores 16 x a unit gaussian, as int16


@lru_cache(maxsize=2)
def _bank(h: int, w: int) -> np.ndarray:
    """Gaussian noise taller than the frame; a seeded row offset picks a window."""
    rng = np.random.default_rng(12345)
    g = rng.standard_normal((h + _ROWS, w, 3), dtype=np.float32) * _UNIT
    bank: np.ndarray = np.clip(g, -127, 127).astype(np.int16)
    return bank


def noise(img: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Gaussian sensor noise of ``sigma`` grey levels (saturating)."""
    if sigma <= 0:
        return img
    h, w = img.shape[:2]
    oy = int(rng.integers(0, _ROWS))
    window = _bank(h, w)[oy : oy + h]  # full rows: a contiguous block
    return cv2.addWeighted(img, 1.0, window, float(sigma) / _UNIT, 0.0, dtype=cv2.CV_8U)


def jpeg(img: np.ndarray, quality: int | None) -> np.ndarray:
    if quality is None:
        return img
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a BGR uint8 image
        return img
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A normalised line kernel for motion blur of ``length`` pixels."""
    n = max(int(np.ceil(length)) | 1, 3)
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = np.deg2rad(angle_deg)
    dx, dy = np.cos(a) * length / 2, np.sin(a) * length / 2
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
    return k / max(float(k.sum()), 1e-6)


def _box_px(img: np.ndarray, box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = box
    return (int(round(x0 * w)), int(round(y0 * h)), int(round(x1 * w)), int(round(y1 * h)))


def shadow(img: np.ndarray, box: tuple[float, float, float, float], alpha: float, angle: float) -> np.ndarray:
    """A lamp's soft shadow: the ellipse inscribed in ``box`` (image fractions),
    rotated by ``angle``, darkened by ``alpha`` (0-1) with a blurred edge. Built at
    an eighth of the resolution (a soft edge needs no more) and resized."""
    h, w = img.shape[:2]
    lw, lh = max(w // 8, 8), max(h // 8, 8)
    x0, y0, x1, y1 = box
    mask = np.zeros((lh, lw), np.uint8)
    centre = (int(round((x0 + x1) / 2 * lw)), int(round((y0 + y1) / 2 * lh)))
    axes = (max(int(round((x1 - x0) / 2 * lw)), 1), max(int(round((y1 - y0) / 2 * lh)), 1))
    cv2.ellipse(mask, centre, axes, angle, 0, 360, 255, -1, cv2.LINE_AA)
    soft = max(min(axes) * 0.35, 0.5)
    blurred = np.asarray(cv2.GaussianBlur(mask, (0, 0), soft), np.float32)
    gain = (255 - blurred * alpha).astype(np.uint8)
    g = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    out: np.ndarray = cv2.multiply(img, cv2.merge([g, g, g]), scale=1.0 / 255.0)
    return out


def band(img: np.ndarray, box: tuple[float, float, float, float], alpha: float,
         colour: tuple[int, int, int], text: str) -> np.ndarray:
    """A broadcast band over the picture: ``colour`` at opacity ``alpha`` over
    ``box`` (image fractions) with ``text`` in opaque white capitals."""
    x0, y0, x1, y1 = _box_px(img, box)
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    out = img.copy()
    if x1 <= x0 or y1 <= y0:
        return out
    roi = out[y0:y1, x0:x1]
    tint = np.empty_like(roi)
    tint[:] = colour
    out[y0:y1, x0:x1] = cv2.addWeighted(roi, 1.0 - alpha, tint, alpha, 0.0)
    if text:
        bh = y1 - y0
        scale = max(bh / 40.0, 0.3)
        thick = max(int(round(bh / 18)), 1)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
        if tw > x1 - x0 - 8:  # the text fits its band
            scale *= (x1 - x0 - 8) / tw
            thick = max(int(round(thick * (x1 - x0 - 8) / tw)), 1)
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
        org = (x0 + max((x1 - x0 - tw) // 2, 2), y0 + (bh + th) // 2)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, (245, 245, 245), thick, cv2.LINE_AA)
    return out


def panel(img: np.ndarray, box: tuple[float, float, float, float], colour: tuple[int, int, int], text: str) -> np.ndarray:
    """An opaque broadcast panel: ``colour`` over ``box`` (image fractions), lines of
    ``text`` (split at "|") in white, and two die-like logos (a red die showing 1 and
    a white one showing 3), as on the WTC 2022 stream."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _box_px(img, box)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    out = img.copy()
    if x1 - x0 < 8 or y1 - y0 < 8:
        return out
    out[y0:y1, x0:x1] = colour
    bw = x1 - x0
    s = max(bw // 7, 4)
    for k, (body, pip, pips) in enumerate((((40, 40, 200), (245, 245, 245), ((0, 0),)),
                                            ((240, 240, 240), (30, 30, 30), ((-1, -1), (0, 0), (1, 1))))):
        cx, cy = x0 + bw // 4 + k * bw // 2, y0 + s + 4
        cv2.rectangle(out, (cx - s // 2, cy - s // 2), (cx + s // 2, cy + s // 2), body, -1, cv2.LINE_AA)
        for a, b in pips:
            cv2.circle(out, (cx + a * s // 4, cy + b * s // 4), max(s // 9, 1), pip, -1, cv2.LINE_AA)
    lines = [t for t in text.split("|") if t]
    y = y0 + 2 * s + 12
    for t in lines:
        scale = 0.4
        (tw, th), _ = cv2.getTextSize(t, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
        scale *= min((bw - 8) / max(tw, 1), 2.0)
        (tw, th), _ = cv2.getTextSize(t, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
        y += th + 8
        if y > y1 - 4:
            break
        cv2.putText(out, t, (x0 + (bw - tw) // 2, y), cv2.FONT_HERSHEY_DUPLEX, scale, (240, 230, 230), 1, cv2.LINE_AA)
    return out
