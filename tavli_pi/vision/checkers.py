"""Checkers: ring features of disc candidates, traced slot by slot along a stack.

A checker seen from above is a disc whose rim makes an edge all the way
round; a triangle, a die or the frame does not. For a candidate centre we
sample the radial gradient on a ring of one checker radius (32 angles) and
keep low percentiles of it: over the whole ring, and over the half facing the
stack's base and the half facing its tip (a squeezed stack hides the tip-side
half of every checker but the last).

Checkers on a point lie in a row from the point's base, each about one
diameter past the last. ``trace_chains`` follows that row for all columns at
once (vectorised): slot 0 is searched near the base, slot k about one
diameter past where slot k-1 was found, each within a small window in x and
y. Every slot yields its features and its interior colour; ``stacks`` turns
them into count likelihoods.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = [
    "Gradients",
    "gradients",
    "ring_features",
    "N_FEATURES",
    "box_means",
    "Chains",
    "trace_chains",
    "p_light",
    "peaks_1d",
    "RING_ANGLES",
]

RING_ANGLES = 32
_ANG = np.linspace(0, 2 * np.pi, RING_ANGLES, endpoint=False)
_COS = np.cos(_ANG).astype(np.float32)
_SIN = np.sin(_ANG).astype(np.float32)
#: angles whose ring sample faces +y (down in the canonical image)
_DOWN = _SIN > 0.2
_UP = _SIN < -0.2


@dataclass(frozen=True)
class Gradients:
    gx: np.ndarray
    gy: np.ndarray
    scale: float  # a typical strong-edge magnitude, to normalise scores


def gradients(canon: np.ndarray) -> Gradients:
    """Sobel gradients of the strongest colour channel, lightly smoothed (float32).

    Per pixel the channel with the strongest gradient is kept, so colour
    edges (red on green, gold on wood) count as well as brightness edges.
    """
    small = cv2.GaussianBlur(canon, (5, 5), 0)
    gx3 = cv2.Sobel(small, cv2.CV_16S, 1, 0, ksize=3)
    gy3 = cv2.Sobel(small, cv2.CV_16S, 0, 1, ksize=3)
    mag = cv2.add(cv2.convertScaleAbs(gx3, alpha=0.25), cv2.convertScaleAbs(gy3, alpha=0.25))
    m0, m1, m2 = cv2.split(mag)
    gxs, gys = cv2.split(gx3), cv2.split(gy3)
    gx, gy = gxs[0].copy(), gys[0].copy()
    best = m0.copy()
    for m, cx, cy in ((m1, gxs[1], gys[1]), (m2, gxs[2], gys[2])):
        take = m > best
        gx[take], gy[take] = cx[take], cy[take]
        best = np.maximum(best, m)
    gx = gx.astype(np.float32)
    gy = gy.astype(np.float32)
    m = np.abs(gx[::4, ::4]) + np.abs(gy[::4, ::4])
    scale = float(np.percentile(m, 97)) * 0.8 + 1.0
    return Gradients(gx, gy, scale)


def _ring_samples(g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """|radial gradient| / scale at RING_ANGLES points round each centre: shape (..., A)."""
    h, w = g.gx.shape
    xs = (cx[..., None] + r[..., None] * _COS).round().astype(np.int32)
    ys = (cy[..., None] + r[..., None] * _SIN).round().astype(np.int32)
    np.clip(xs, 0, w - 1, out=xs)
    np.clip(ys, 0, h - 1, out=ys)
    rad = np.abs(g.gx[ys, xs] * _COS + g.gy[ys, xs] * _SIN)
    return rad / g.scale


def _pct(a: np.ndarray, q: float) -> np.ndarray:
    k = int(q * (a.shape[-1] - 1))
    return np.partition(a, k, axis=-1)[..., k]


def ring_features(
    g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray, down: np.ndarray
) -> np.ndarray:
    """Ring features for each centre, stacked on a last axis of length N_FEATURES.

    Order: whole-ring 10th, 25th, 50th percentiles, base-side and tip-side
    25th percentiles (``down``: the stack grows downwards, so its base side
    is up), and the 25th / 75th percentile ratio (an even rim all round, not
    a few strong crossings).
    """
    inner = _ring_samples(g, cx, cy, r * 0.94)
    mid = _ring_samples(g, cx, cy, r * 1.02)
    outer = _ring_samples(g, cx, cy, r * 1.10)
    rad = np.maximum(np.maximum(inner, outer), mid)
    srt = np.sort(rad, axis=-1)
    n = rad.shape[-1]
    p10, p25, p50, p75 = (srt[..., int(q * (n - 1))] for q in (0.1, 0.25, 0.5, 0.75))
    up = _pct(rad[..., _UP], 0.25)
    dn = _pct(rad[..., _DOWN], 0.25)
    base = np.where(down, up, dn)
    tip = np.where(down, dn, up)
    rel = p25 / (p75 + 0.05)
    return np.stack([p10, p25, p50, base, tip, rel], axis=-1)


N_FEATURES = 6


def box_means(integral: np.ndarray, cx: np.ndarray, cy: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Mean colour of the boxes of half-size ``half`` round each centre, from cv2.integral."""
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    x0 = np.clip((cx - half).round().astype(np.int32), 0, w - 1)
    x1 = np.clip((cx + half).round().astype(np.int32) + 1, x0 + 1, w)
    y0 = np.clip((cy - half).round().astype(np.int32), 0, h - 1)
    y1 = np.clip((cy + half).round().astype(np.int32) + 1, y0 + 1, h)
    s = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    area = ((x1 - x0) * (y1 - y0)).astype(np.float64)
    return np.asarray(s / area[..., None], np.float32)


@dataclass(frozen=True)
class Chains:
    """Per column (C) and slot (K): where the slot's best disc was found and its features."""

    x: np.ndarray  # (C, K)
    y: np.ndarray
    feats: np.ndarray  # (C, K, N_FEATURES), see ring_features
    bgr: np.ndarray  # (C, K, 3)

    @property
    def full(self) -> np.ndarray:
        return np.asarray(self.feats[..., 1])


def trace_chains(
    g: Gradients,
    integral: np.ndarray,
    x0: np.ndarray,
    base: np.ndarray,
    sign: np.ndarray,
    r: np.ndarray,
    slots: int,
    first: tuple[float, float] = (0.75, 1.6),
    x_search: float = 0.42,
) -> Chains:
    """Follow C stacks slot by slot from their bases (all columns vectorised).

    ``x0``, ``base``, ``sign`` (+1: grows down), ``r`` are (C,) arrays: the
    column's centre x, base y, direction and checker radius. Slot 0's centre
    is searched ``first`` radii from the base (times r), slot k at 1.8-2.35
    radii past slot k-1; x within ``x_search`` radii of the column centre
    (slot 0) or 0.25 radii of the previous slot.
    """
    C = len(x0)
    down = (sign > 0)[:, None, None]
    dy = np.linspace(0.0, 1.0, 12, dtype=np.float32)
    xs = np.zeros((C, slots), np.float32)
    ys = np.zeros((C, slots), np.float32)
    feats = np.zeros((C, slots, N_FEATURES), np.float32)
    bgr = np.zeros((C, slots, 3), np.float32)
    px, pd = x0.astype(np.float32), np.zeros(C, np.float32)
    ci = np.arange(C)
    for k in range(slots):
        if k == 0:
            d = (first[0] + (first[1] - first[0]) * dy)[None, :] * r[:, None]
            offs = np.linspace(-x_search, x_search, 7, dtype=np.float32)
            cxs = x0[:, None] + offs[None, :] * r[:, None]
        else:
            d = pd[:, None] + (1.8 + 0.55 * dy)[None, :] * r[:, None]
            offs = np.linspace(-0.25, 0.25, 5, dtype=np.float32)
            cxs = px[:, None] + offs[None, :] * r[:, None]
        cy = base[:, None, None] + sign[:, None, None] * d[:, :, None]  # (C, Y, 1)
        cx = np.broadcast_to(cxs[:, None, :], (C, d.shape[1], cxs.shape[1]))
        cy = np.broadcast_to(cy, cx.shape)
        rr = np.broadcast_to(r[:, None, None], cx.shape)
        f = ring_features(g, cx, cy, rr, down)
        # prefer the whole ring; a squeezed stack shows only the base side
        score = f[..., 1] + 0.5 * f[..., 2] + 0.25 * f[..., 3]
        flat = score.reshape(C, -1).argmax(axis=1)
        iy, ix = np.unravel_index(flat, score.shape[1:])
        bx, by = cx[ci, iy, ix], cy[ci, iy, ix]
        xs[:, k], ys[:, k] = bx, by
        feats[:, k] = f[ci, iy, ix]
        bgr[:, k] = box_means(integral, bx, by, 0.42 * r)
        px, pd = bx, d[ci, iy]
    return Chains(xs, ys, feats, bgr)


def p_light(
    bgr: np.ndarray, light_bgr: tuple[float, float, float], dark_bgr: tuple[float, float, float]
) -> np.ndarray:
    """Probability that discs of mean colour ``bgr`` (..., 3) are light rather than dark checkers."""
    light = np.asarray(light_bgr, np.float32)
    dark = np.asarray(dark_bgr, np.float32)
    sep = float(np.linalg.norm(light - dark)) + 1e-3
    dl = np.linalg.norm(bgr - light, axis=-1)
    dd = np.linalg.norm(bgr - dark, axis=-1)
    z = np.clip((dl - dd) / (0.1 * sep), -30, 30)
    return np.asarray(1.0 / (1.0 + np.exp(z)))


def peaks_1d(scores: np.ndarray, min_gap: int, threshold: float) -> list[int]:
    """Greedy 1-D non-maximum suppression."""
    order = np.argsort(-scores)
    taken = np.zeros(len(scores), bool)
    out: list[int] = []
    for i in order:
        if scores[i] < threshold:
            break
        if taken[i]:
            continue
        out.append(int(i))
        taken[max(0, i - min_gap + 1) : i + min_gap] = True
    return sorted(out)
