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

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.vision.quantile import percentile
from tavli_pi.vision.ring_memo import RingMemo

__all__ = [
    "FIRST",
    "place_score",
    "Gradients",
    "strongest_gradients",
    "gradients",
    "ring_features",
    "N_FEATURES",
    "box_means",
    "box_sums",
    "Chains",
    "trace_chains",
    "p_light",
    "RING_ANGLES",
]

RING_ANGLES = 32
_ANG = np.linspace(0, 2 * np.pi, RING_ANGLES, endpoint=False)
_COS = np.cos(_ANG).astype(np.float32)
_SIN = np.sin(_ANG).astype(np.float32)
#: angles whose ring sample faces +y (down in the canonical image)
_DOWN = _SIN > 0.2
_UP = _SIN < -0.2


class Gradients:
    """Per-pixel Sobel gradients of a canonical image.

    ``pair`` holds (gx, gy) interleaved as H x W x 2 int16 (what the ring
    sampler gathers from); ``gx`` and ``gy`` are float32 views of it, built
    on first use; ``scale`` is a typical strong-edge magnitude, to normalise
    scores.
    """

    __slots__ = ("pair", "scale", "_gx", "_gy")

    def __init__(self, pair: np.ndarray, scale: float) -> None:
        self.pair = pair
        self.scale = scale
        self._gx: np.ndarray | None = None
        self._gy: np.ndarray | None = None

    @property
    def gx(self) -> np.ndarray:
        if self._gx is None:
            self._gx = self.pair[..., 0].astype(np.float32)
        return self._gx

    @property
    def gy(self) -> np.ndarray:
        if self._gy is None:
            self._gy = self.pair[..., 1].astype(np.float32)
        return self._gy


def gradients(canon: np.ndarray) -> Gradients:
    """Sobel gradients of the strongest colour channel, lightly smoothed.

    Per pixel the channel with the strongest gradient is kept (the first of
    equals), so colour edges (red on green, gold on wood) count as well as
    brightness edges. All of it runs in OpenCV kernels (masked copies, no
    numpy boolean indexing): about 2 ms for the 740 x 592 canonical image.
    """
    gx, gy = strongest_gradients(cv2.GaussianBlur(canon, (5, 5), 0))
    m = np.abs(gx[::4, ::4].astype(np.float32)) + np.abs(gy[::4, ::4].astype(np.float32))
    scale = float(percentile(m, 97)) * 0.8 + 1.0  # np.percentile's value (vision/quantile.py)
    return Gradients(cv2.merge([gx, gy]), scale)


def strongest_gradients(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(gx, gy) int16 3 x 3 Sobels of a (blurred) BGR image, each pixel's from the channel whose
    |gx| + |gy| is largest there (the first of equals)."""
    # per channel (split while still 8-bit: cheaper than splitting the 16-bit gradients; the
    # same values, a Sobel of one channel being that channel of the Sobel)
    gxs, gys, mags = [], [], []
    for c in cv2.split(small):
        gx, gy = cv2.spatialGradient(c)  # both 3 x 3 Sobels in one pass (the same int16 values)
        gxs.append(gx)
        gys.append(gy)
        mags.append(cv2.add(cv2.convertScaleAbs(gxs[-1], alpha=0.25), cv2.convertScaleAbs(gys[-1], alpha=0.25)))
    m0, m1, m2 = mags
    gx, gy = gxs[0], gys[0]
    take = cv2.compare(m1, m0, cv2.CMP_GT)
    cv2.copyTo(gxs[1], take, gx)
    cv2.copyTo(gys[1], take, gy)
    take = cv2.compare(m2, cv2.max(m0, m1), cv2.CMP_GT)
    cv2.copyTo(gxs[2], take, gx)
    cv2.copyTo(gys[2], take, gy)
    return gx, gy


#: ring radii relative to the checker radius: just inside, on and just outside the rim
_RHO = np.asarray([0.94, 1.02, 1.10], np.float32)


def _compact(a: np.ndarray) -> np.ndarray:
    """``a`` without its broadcast (stride 0) axes repeated: length 1 there, same values."""
    a = np.asarray(a)
    return a[tuple(slice(0, 1) if st == 0 and n > 1 else slice(None) for st, n in zip(a.strides, a.shape))]


#: chunk of rings per cv2.remap call (a map has at most 32767 rows)
_REMAP_ROWS = 32000


def _ring_samples(g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """|radial gradient| (unscaled) at RING_ANGLES points on three rings round each centre.

    Shape (..., 3, A): the rings at 0.94, 1.02 and 1.10 ``r``. Sample points
    are rounded to the nearest pixel (half to even) and clamped to the image;
    one ``cv2.remap`` (nearest, replicated border) gathers gx and gy together.
    Broadcast inputs (one radius per column) are offset once, not per centre.
    """
    cx, cy, r = _compact(cx), _compact(cy), _compact(r)
    off = r[..., None, None] * _RHO[:, None]  # (..., 3, 1)
    shape = np.broadcast_shapes((*cx.shape, 1, 1), (*cy.shape, 1, 1), (*off.shape[:-1], RING_ANGLES))
    n = int(np.prod(shape[:-1]))
    # the places (float32, as cv2.remap takes them): one radius a centre, the offsets made straight in
    # the maps and the centres added in place -- ``cx + off cos`` in the same precision as a sum into a
    # float32 map of the offsets made apart (float64 centres: added in float64, then rounded), to the
    # bit, without the offsets' own arrays (issue 12)
    if off.shape[:-1] == shape[:-1]:
        mx = np.multiply(off, _COS, out=np.empty(shape, np.float32))
        mx += cx[..., None, None]
        my = np.multiply(off, _SIN, out=np.empty(shape, np.float32))
        my += cy[..., None, None]
    else:  # (one radius a column: its few offsets made apart, each centre's sums made once)
        mx = np.add(cx[..., None, None], off * _COS, out=np.empty(shape, np.float32))
        my = np.add(cy[..., None, None], off * _SIN, out=np.empty(shape, np.float32))
    mx, my = mx.reshape(n, RING_ANGLES), my.reshape(n, RING_ANGLES)
    parts = [
        cv2.remap(g.pair, mx[i : i + _REMAP_ROWS], my[i : i + _REMAP_ROWS], cv2.INTER_NEAREST,
                  borderMode=cv2.BORDER_REPLICATE)
        for i in range(0, max(n, 1), _REMAP_ROWS)
    ]
    # gx cos + gy sin in float32: the (gx, gy) pairs made float32 together and each times its (cos,
    # sin), then the two added (the same roundings as gx and gy split, each made float32 and scaled)
    pair = (parts[0] if len(parts) == 1 else np.concatenate(parts)).astype(np.float32).reshape(*shape, 2)
    pair *= _COS_SIN
    rad = np.add(pair[..., 0], pair[..., 1])
    out: np.ndarray = np.abs(rad, out=rad)
    return out


#: (cos, sin) of each ring angle, side by side as ``Gradients.pair`` holds (gx, gy)
_COS_SIN = np.stack([_COS, _SIN], axis=-1)


def _raw_rings(g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Per centre, the strongest of the three rings' |radial gradient| at each angle (unscaled)."""
    rings = _ring_samples(g, cx, cy, r)
    out: np.ndarray = np.maximum(np.maximum(rings[..., 0, :], rings[..., 2, :]), rings[..., 1, :])
    return out


#: the order statistics of a ring (unscaled) the features are made of: whole-ring 10th, 25th, 50th
#: and 75th percentiles, then the 25th of the angles facing up and of those facing down
N_STATS = 6
_K = [int(q * (RING_ANGLES - 1)) for q in (0.1, 0.25, 0.5, 0.75)]
_K_UP = int(0.25 * (int(_UP.sum()) - 1))
_K_DOWN = int(0.25 * (int(_DOWN.sum()) - 1))
#: the angles facing up (row 0) and down (row 1), as indices: as many each way, and the same rank
#: of each taken (``_raw_stats`` takes both in one partition)
_UP_DOWN = np.stack([np.flatnonzero(_UP), np.flatnonzero(_DOWN)])
assert _K_UP == _K_DOWN


def _raw_stats(g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Per centre, the ring's order statistics (``N_STATS``, unscaled; float32)."""
    rad = _raw_rings(g, cx, cy, r)
    srt = np.sort(rad, axis=-1)  # (np.sort beats a multi-kth np.partition on rows of 32)
    out = np.empty((*rad.shape[:-1], N_STATS), np.float32)
    out[..., :4] = srt[..., _K]
    # the up and the down angles' values side by side, one partition at their common rank: the value
    # there is the sorted one's (issue 12: half the cost of two sorts)
    ends = np.partition(np.take(rad, _UP_DOWN, axis=-1), _K_UP, axis=-1)
    out[..., 4] = ends[..., 0, _K_UP]
    out[..., 5] = ends[..., 1, _K_DOWN]
    return out


#: how far a ring reaches past its centre (outer ring, radii) and past that for the nearest pixel
_REACH = float(_RHO.max())


def _kept_stats(g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray, memo: RingMemo,
                ids: np.ndarray) -> np.ndarray:
    """``_raw_stats`` with the first axis one spot per row (``ids``): each row's from ``memo``
    when its places were sampled before, else sampled now (and kept with the box its rings reach)."""
    shape = np.broadcast_shapes(cx.shape, cy.shape, r.shape)
    xs, ys, rs = (np.ascontiguousarray(np.broadcast_to(a, shape)) for a in (cx, cy, r))
    out = np.empty((*shape, N_STATS), np.float32)
    head = repr(shape[1:]).encode()
    rows = np.concatenate([a.reshape(shape[0], -1) for a in (xs, ys, rs)], axis=1)
    places = [head + row.tobytes() for row in rows]
    miss = []
    for i, place in enumerate(places):
        got = memo.get(int(ids[i]), place)
        if got is None:
            miss.append(i)
        else:
            out[i] = got
    if miss:
        m = np.asarray(miss, np.int64)
        raw = _raw_stats(g, xs[m], ys[m], rs[m])
        out[m] = raw
        n = len(miss)
        reach = rs[m].reshape(n, -1).max(axis=1) * _REACH + 1.0
        x0, x1 = xs[m].reshape(n, -1).min(axis=1) - reach, xs[m].reshape(n, -1).max(axis=1) + reach
        y0, y1 = ys[m].reshape(n, -1).min(axis=1) - reach, ys[m].reshape(n, -1).max(axis=1) + reach
        for j, i in enumerate(miss):
            memo.put(int(ids[i]), places[i], raw[j].copy(), (float(x0[j]), float(y0[j]), float(x1[j]), float(y1[j])))
    return out


def ring_features(
    g: Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray, down: np.ndarray,
    memo: RingMemo | None = None, ids: np.ndarray | None = None,
) -> np.ndarray:
    """Ring features for each centre, stacked on a last axis of length N_FEATURES.

    Order: whole-ring 10th, 25th, 50th percentiles, base-side and tip-side
    25th percentiles (``down``: the stack grows downwards, so its base side
    is up), and the 25th / 75th percentile ratio (an even rim all round, not
    a few strong crossings).

    The percentiles are taken of the unscaled samples and then divided by the gradients' scale:
    a division by a positive number keeps the order, so they are the percentiles of the scaled
    samples, to the bit. ``memo`` with ``ids`` (the spot of each centre's first axis,
    vision/ring_memo.py): the percentiles of places sampled before are taken from it.
    """
    if memo is not None and ids is not None:
        st = _kept_stats(g, cx, cy, r, memo, ids)
    else:
        st = _raw_stats(g, cx, cy, r)
    st /= g.scale
    p10, p25, p50, p75, up, dn = (st[..., i] for i in range(N_STATS))
    base = np.where(down, up, dn)
    tip = np.where(down, dn, up)
    rel = p25 / (p75 + 0.05)
    return np.stack([p10, p25, p50, base, tip, rel], axis=-1)


N_FEATURES = 6


def box_sums(integral: np.ndarray, cx: np.ndarray, cy: np.ndarray, half: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sums, pixel counts) of the boxes of half-size ``half`` round each centre, from cv2.integral
    (the box clipped to the picture, at least one pixel)."""
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    # (np.minimum / np.maximum: np.clip's dispatch costs more than the clipping on these few boxes)
    x0 = np.minimum(np.maximum((cx - half).round().astype(np.int32), 0), w - 1)
    x1 = np.minimum(np.maximum((cx + half).round().astype(np.int32) + 1, x0 + 1), w)
    y0 = np.minimum(np.maximum((cy - half).round().astype(np.int32), 0), h - 1)
    y1 = np.minimum(np.maximum((cy + half).round().astype(np.int32) + 1, y0 + 1), h)
    s = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    return s, ((x1 - x0) * (y1 - y0)).astype(np.float64)


def box_means(integral: np.ndarray, cx: np.ndarray, cy: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Mean colour of the boxes of half-size ``half`` round each centre, from cv2.integral."""
    s, area = box_sums(integral, cx, cy, half)
    return np.asarray(s / area[..., None], np.float32)


@dataclass(frozen=True)
class Chains:
    """Per column (C) and slot (K): where the slot's best disc was found and its features."""

    x: np.ndarray  # (C, K)
    y: np.ndarray
    feats: np.ndarray  # (C, K, N_FEATURES), see ring_features
    bgr: np.ndarray  # (C, K, 3)
    searched: np.ndarray | None = None  # (C,) slots searched before the column stopped (K: all)

    @property
    def full(self) -> np.ndarray:
        return np.asarray(self.feats[..., 1])


#: where slot 0 is searched (radii from the base) unless the caller gives another window
FIRST = (0.75, 1.6)


def place_score(f: np.ndarray) -> np.ndarray:
    """How well a place's ring features (..., N_FEATURES) fit a checker, the score a slot's place is
    chosen by: the whole ring preferred; a squeezed stack shows only the base side."""
    return np.asarray(f[..., 1] + 0.5 * f[..., 2] + 0.25 * f[..., 3])


def _first_window(first: tuple[float, float], dy: np.ndarray, shift: np.ndarray | None, moved: bool = False
                  ) -> np.ndarray:
    """The (C, n) places (radii from the base) slot 0 is searched at: ``first`` at ``dy`` (its
    fractions), and with ``shift`` (C,) < 0 the window reaches ``-shift`` radii nearer the base: the
    same places, more of the window's steps below them and the window's new end itself. So a checker
    seated where the geometry puts it is found as without the shift (the window is not moved off
    it), and the window's reach grows smoothly with the shift (a learnt overhang a little smaller
    or larger moves no place but the end). Columns with fewer places repeat their last one.
    ``moved``: the window moved by ``shift`` instead, its places with it."""
    lo, hi = first
    d = lo + (hi - lo) * dy
    if shift is None:
        return np.asarray(d[None, :], np.float32)
    if moved:
        return np.asarray(d[None, :] + np.asarray(shift, np.float32)[:, None], np.float32)
    ext = np.minimum(np.asarray(shift, np.float32), 0.0)
    step = float(d[1] - d[0])
    n = np.ceil(-ext / step - 1e-6).astype(np.int64)  # places below the window: the steps, the last at the end
    extra = int(n.max(initial=0))
    if extra == 0:
        return np.asarray(np.broadcast_to(d, (len(ext), len(d))), np.float32)
    k = np.arange(1, extra + 1)[None, :]
    below = np.maximum(lo - k * step, (lo + ext)[:, None])  # the steps down, clipped at the window's new end
    below = np.where(k <= n[:, None], below, d[-1])  # a column with fewer places repeats its last
    return np.asarray(np.concatenate([np.broadcast_to(d, (len(ext), len(d))), below], axis=1), np.float32)


def trace_chains(
    g: Gradients,
    integral: np.ndarray,
    x0: np.ndarray,
    base: np.ndarray,
    sign: np.ndarray,
    r: np.ndarray,
    slots: int,
    first: tuple[float, float] = FIRST,
    x_search: float = 0.42,
    empty: Callable[[np.ndarray], np.ndarray] | None = None,
    memo: RingMemo | None = None,
    ids: np.ndarray | None = None,
    shift: np.ndarray | None = None,
    moved: bool = False,
) -> Chains:
    """Follow C stacks slot by slot from their bases (all columns vectorised).

    ``x0``, ``base``, ``sign`` (+1: grows down), ``r`` are (C,) arrays: the
    column's centre x, base y, direction and checker radius. Slot 0's centre
    is searched ``first`` radii from the base (times r), slot k at 1.8-2.35
    radii past slot k-1; x within ``x_search`` radii of the column centre
    (slot 0) or 0.25 radii of the previous slot.

    ``empty`` (features (n, N_FEATURES) -> bool (n,)) stops a column once
    two slots in a row are plainly empty: checkers lie in an unbroken row
    from the base, so nothing further along can hold one. Its later slots
    get zero features (what an empty slot looks like) at the expected
    places, and are not searched -- most columns of a game hold few
    checkers, so this skips about half of the work.

    ``memo`` and ``ids`` (each column's spot): see ``ring_features``.
    ``shift`` (C,), in radii: each column's slot-0 window reaches so much nearer the base (an edge
    whose checkers sit nearer the base than the geometry puts them, ``vision/overhang.py``;
    ``_first_window``); ``moved``: the window moved by it instead.
    """
    C = len(x0)
    dy = np.linspace(0.0, 1.0, 12, dtype=np.float32)
    offs0 = np.linspace(-x_search, x_search, 7, dtype=np.float32)
    offs1 = np.linspace(-0.25, 0.25, 5, dtype=np.float32)
    xs = np.zeros((C, slots), np.float32)
    ys = np.zeros((C, slots), np.float32)
    feats = np.zeros((C, slots, N_FEATURES), np.float32)
    px, pd = x0.astype(np.float32), np.zeros(C, np.float32)
    quiet = np.zeros(C, np.int32)  # plainly empty slots in a row
    searched = np.zeros(C, np.int32)
    for k in range(slots):
        live = np.flatnonzero(quiet < 2)
        dead = np.flatnonzero(quiet >= 2)
        if len(dead):
            # stopped columns: the slot where a checker would be, not searched
            pd[dead] += 2.075 * r[dead]
            ys[dead, k] = base[dead] + sign[dead] * pd[dead]
            xs[dead, k] = px[dead]
        if len(live):
            rl, bl, sl = r[live], base[live], sign[live]
            if k == 0:
                d = _first_window(first, dy, None if shift is None else shift[live], moved) * rl[:, None]
                cxs = x0[live, None] + offs0[None, :] * rl[:, None]
            else:
                d = pd[live, None] + (1.8 + 0.55 * dy)[None, :] * rl[:, None]
                cxs = px[live, None] + offs1[None, :] * rl[:, None]
            n = len(live)
            cy = np.broadcast_to((bl[:, None] + sl[:, None] * d)[:, :, None], (n, d.shape[1], cxs.shape[1]))
            cx = np.broadcast_to(cxs[:, None, :], cy.shape)
            rr = np.broadcast_to(rl[:, None, None], cy.shape)
            f = ring_features(g, cx, cy, rr, (sl > 0)[:, None, None], memo, None if ids is None else ids[live])
            score = place_score(f)
            flat = score.reshape(n, -1).argmax(axis=1)
            iy, ix = np.unravel_index(flat, score.shape[1:])
            li = np.arange(n)
            xs[live, k], ys[live, k] = cx[li, iy, ix], cy[li, iy, ix]
            feats[live, k] = f[li, iy, ix]
            px[live], pd[live] = xs[live, k], d[li, iy]
            if empty is not None:
                quiet[live] = np.where(empty(feats[live, k]), quiet[live] + 1, 0)
        searched[live] += 1
    # every slot's disc colour in one go (box_means is elementwise: the values slot by slot)
    bgr = box_means(integral, xs, ys, (0.42 * r)[:, None])
    return Chains(xs, ys, feats, bgr, searched)


def p_light(
    bgr: np.ndarray, light_bgr: tuple[float, float, float] | np.ndarray,
    dark_bgr: tuple[float, float, float] | np.ndarray, blur: np.ndarray | float = 0.0,
) -> np.ndarray:
    """Probability that discs of mean colour ``bgr`` (..., 3) are light rather than dark checkers.

    ``light_bgr`` and ``dark_bgr``: the two colours, one pair for every disc, or a pair per disc
    ((..., 3) arrays like ``bgr``: the colours where each disc lies, ``lighting.slot_colours``);
    ``blur`` (BGR units, per disc or one for all): how unsure those colours are, added to the
    scale over which the probability goes from one colour to the other."""
    light = np.asarray(light_bgr, np.float32)
    dark = np.asarray(dark_bgr, np.float32)
    if light.ndim > 1 or dark.ndim > 1 or np.any(np.asarray(blur) != 0):
        seps = np.linalg.norm(light - dark, axis=-1) + np.float32(1e-3)
        zs = np.clip((np.linalg.norm(bgr - light, axis=-1) - np.linalg.norm(bgr - dark, axis=-1))
                     / (0.1 * seps + np.asarray(blur, np.float32)), -30, 30)
        return np.asarray(1.0 / (1.0 + np.exp(zs)))
    sep = float(np.linalg.norm(light - dark)) + 1e-3
    dl = np.linalg.norm(bgr - light, axis=-1)
    dd = np.linalg.norm(bgr - dark, axis=-1)
    z = np.clip((dl - dd) / (0.1 * sep), -30, 30)
    return np.asarray(1.0 / (1.0 + np.exp(z)))
