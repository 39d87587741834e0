"""Checkers: find discs along each point's strip and turn them into count evidence.

A checker seen from above is a disc whose rim makes an edge all the way
round; a triangle, a die or the frame does not. For every candidate centre
along a strip we sample the radial gradient on a ring of about one checker
radius and keep a low percentile of it (edges must be there on most of the
ring). Peaks along the strip, at least ~0.7 pitch apart, are checkers; each is
coloured light or dark against the calibrated checker colours. A point's
count evidence is the Poisson-binomial distribution of its disc
probabilities, floored so the referee can always prefer a neighbouring count.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence

__all__ = [
    "Disc",
    "Gradients",
    "gradients",
    "ring_scores",
    "find_discs",
    "classify_discs",
    "count_evidence",
    "RING_ANGLES",
    "strip_for",
    "peaks_1d",
]

RING_ANGLES = 32
_COS = np.cos(np.linspace(0, 2 * np.pi, RING_ANGLES, endpoint=False)).astype(np.float32)
_SIN = np.sin(np.linspace(0, 2 * np.pi, RING_ANGLES, endpoint=False)).astype(np.float32)
#: ring-score percentile (edges must show on most of the ring; some may be hidden)
_PCT = 0.3


@dataclass(frozen=True)
class Disc:
    """A checker candidate in canonical pixels, with its ring score and mean colour."""

    x: float
    y: float
    r: float
    score: float
    bgr: tuple[float, float, float]
    p_real: float = 1.0
    p_light: float = 0.5


@dataclass(frozen=True)
class Gradients:
    gx: np.ndarray
    gy: np.ndarray
    scale: float  # a typical strong-edge magnitude, to normalise scores


def gradients(canon: np.ndarray) -> Gradients:
    """Sobel gradients of the canonical image's channel-max contrast (float32)."""
    small = cv2.GaussianBlur(canon, (5, 5), 0)
    gx3 = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3)
    gy3 = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3)
    # per pixel, take the channel with the strongest gradient (colour edges count too)
    mag = gx3 * gx3 + gy3 * gy3
    idx = np.argmax(mag, axis=2)[..., None]
    gx = np.take_along_axis(gx3, idx, axis=2)[..., 0]
    gy = np.take_along_axis(gy3, idx, axis=2)[..., 0]
    m = np.sqrt(gx * gx + gy * gy)
    scale = float(np.percentile(m[:: 4, :: 4], 97)) + 1.0
    return Gradients(gx, gy, scale)


def ring_scores(g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Low-percentile |radial gradient| on rings centred (cx, cy) of radius r (1-D arrays)."""
    h, w = g.gx.shape
    xs = (cx[:, None] + r[:, None] * _COS[None, :]).round().astype(np.int32)
    ys = (cy[:, None] + r[:, None] * _SIN[None, :]).round().astype(np.int32)
    np.clip(xs, 0, w - 1, out=xs)
    np.clip(ys, 0, h - 1, out=ys)
    rad = np.abs(g.gx[ys, xs] * _COS[None, :] + g.gy[ys, xs] * _SIN[None, :])
    k = int(_PCT * RING_ANGLES)
    return np.partition(rad, k, axis=1)[:, k] / g.scale


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


def _disc_colour(canon: np.ndarray, x: float, y: float, r: float) -> tuple[float, float, float]:
    rr = max(2, int(r * 0.45))
    xi, yi = int(round(x)), int(round(y))
    patch = canon[max(0, yi - rr) : yi + rr + 1, max(0, xi - rr) : xi + rr + 1]
    if patch.size == 0:
        return (0.0, 0.0, 0.0)
    m = patch.reshape(-1, 3).mean(axis=0)
    return (float(m[0]), float(m[1]), float(m[2]))


def find_discs(
    canon: np.ndarray,
    g: Gradients,
    x: float,
    y_from: float,
    y_to: float,
    width: float,
    threshold: float = 0.08,
    step: int = 2,
    offsets: tuple[float, ...] = (-0.28, -0.14, 0.0, 0.14, 0.28),
    radii: tuple[float, ...] = (0.44, 0.50, 0.56),
) -> list[Disc]:
    """Discs along a vertical strip centred at ``x`` between ``y_from`` and ``y_to``."""
    lo, hi = sorted((y_from, y_to))
    ys = np.arange(lo, hi + 1, step, dtype=np.float32)
    if len(ys) == 0:
        return []
    best = np.full(len(ys), -1.0, np.float32)
    best_x = np.full(len(ys), x, np.float32)
    best_r = np.full(len(ys), width * 0.46, np.float32)
    for off in offsets:
        for rf in radii:
            cx = np.full(len(ys), x + off * width, np.float32)
            rr = np.full(len(ys), rf * width, np.float32)
            s = ring_scores(g, cx, ys, rr)
            better = s > best
            best = np.where(better, s, best)
            best_x = np.where(better, cx, best_x)
            best_r = np.where(better, rr, best_r)
    min_gap = max(1, int(0.72 * width / step))
    out = []
    for i in peaks_1d(best, min_gap, threshold):
        cx_, cy_, r_ = float(best_x[i]), float(ys[i]), float(best_r[i])
        out.append(Disc(cx_, cy_, r_, float(best[i]), _disc_colour(canon, cx_, cy_, r_)))
    return out


def classify_discs(
    discs: list[Disc],
    light_bgr: tuple[float, float, float],
    dark_bgr: tuple[float, float, float],
    score_mid: float = 0.18,
    score_width: float = 0.04,
    backgrounds: tuple[tuple[float, float, float], ...] = (),
) -> list[Disc]:
    """Attach p_real (from the ring score and colour fit) and p_light to each disc."""
    light = np.asarray(light_bgr, np.float32)
    dark = np.asarray(dark_bgr, np.float32)
    sep = float(np.linalg.norm(light - dark)) + 1e-3
    out = []
    for d in discs:
        c = np.asarray(d.bgr, np.float32)
        dl = float(np.linalg.norm(c - light))
        dd = float(np.linalg.norm(c - dark))
        # logistic in the difference of distances, scaled by the colours' separation
        p_light = 1.0 / (1.0 + np.exp(np.clip((dl - dd) / (0.12 * sep), -30, 30)))
        # a disc whose colour is far from both checker colours is probably not a checker
        fit = min(dl, dd) / sep
        p_colour = 1.0 / (1.0 + np.exp(np.clip((fit - 0.3) / 0.05, -30, 30)))
        for bg in backgrounds:
            # a disc that looks more like the bare surface than a checker is no checker
            db = float(np.linalg.norm(c - np.asarray(bg, np.float32)))
            p_colour *= 1.0 / (1.0 + np.exp(np.clip((min(dl, dd) - db) / (0.04 * sep), -30, 30)))
        p_ring = 1.0 / (1.0 + np.exp(np.clip(-(d.score - score_mid) / score_width, -30, 30)))
        out.append(
            Disc(d.x, d.y, d.r, d.score, d.bgr, float(p_ring * p_colour), float(p_light))
        )
    return out


def count_evidence(probs: list[float], floor: float = 0.002) -> CountEvidence:
    """Poisson-binomial distribution of the number of real discs, floored and normalised."""
    dist = np.zeros(MAX_COUNT + 1)
    dist[0] = 1.0
    for p in probs:
        p = min(max(p, 0.0), 1.0)
        shifted = np.zeros_like(dist)
        shifted[1:] = dist[:-1]
        shifted[-1] += dist[-1]
        dist = dist * (1 - p) + shifted * p
    dist = dist + floor
    dist /= dist.sum()
    return CountEvidence(tuple(float(v) for v in dist))


def strip_for(layout: Layout, x: float, width: float, top: bool) -> tuple[float, float]:
    """y range of candidate disc centres for a point's strip (base to just past the middle)."""
    half = (layout.bottom_y - layout.top_y) / 2
    r = 0.40 * width
    if top:
        return layout.top_y + r, layout.top_y + half - 0.2 * width
    return layout.bottom_y - r, layout.bottom_y - half + 0.2 * width
