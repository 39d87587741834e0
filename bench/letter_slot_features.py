"""Letter slots: where the board learnt at set-up itself rings like a checker (issue 9) -- features.

A measuring tool of stop 26 (bench/RESULTS.md, branch bands26; used by bench/fit_letter_slots.py):
the reader read letter slots by these in 924b35c and the change was taken out again (a planted
play in game 142 became a wrong board accepted).

An overlay band's letters or a print on the field ring like a checker's rim on the empty board
itself, so the set-up slot model (``setup_slots.SETUP_W``) reads such a slot as a checker whenever
the letters show, and a checker under letters that ring less than the letters alone as empty
(bench/RESULTS.md, stop 25, bands25). What tells them apart is the change since set-up at that
slot against its column's: a letter unchanged moves no more than the plain slots beside it (a
pixel's shift aside), a checker laid on it changes the slot's colour. A letter slot is a slot
the start position left empty (B3: the reader knows which), searched, whose learnt board rings
above ``LETTER_RING`` there, in a column with at least ``REFERENCES`` other set-up-empty
searched slots to measure its noise by.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.background import BG_SCALE, decode_background

#: the least number of other set-up-empty searched slots of a column that give its noise
REFERENCES = 2
#: a slot is a letter slot when the ring model (``spot_slots.SLOT_W``) on the learnt empty board there
#: gives a logit above this
LETTER_RING = 0.0
#: the number of letter-slot features (``letter_features``)
N_LETTER = 7


@lru_cache(maxsize=4)
def learnt_gradients(text: str, shape: tuple[int, int]) -> ck.Gradients | None:
    """The ring gradients of the board learnt at set-up (``Calibration.background``), brought to the
    canonical view's ``shape`` (height, width); made once a calibration (None: no board stored)."""
    bg = decode_background(text)
    if bg is None:
        return None
    return ck.gradients(cv2.resize(bg, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR))


def _box(shape: tuple[int, ...], x: float, y: float, half: float) -> tuple[int, int, int, int] | None:
    h, w = shape[:2]
    x0, x1 = max(int(round(x - half)), 1), min(int(round(x + half)) + 1, w - 1)
    y0, y1 = max(int(round(y - half)), 1), min(int(round(y + half)) + 1, h - 1)
    return None if x1 <= x0 or y1 <= y0 else (x0, x1, y0, y1)


def slot_change(now: np.ndarray, bg: np.ndarray, gain: np.ndarray, x: float, y: float,
                half: float) -> tuple[float, float]:
    """(shift-tolerant change, colour shift) of the box of half-size ``half`` round (``x``, ``y``)
    (the background's grid) from the learnt board ``bg``, after the brightness match ``gain``.
    The first: each pixel's least largest-channel change over the board shifted by up to one pixel
    (a letter's sharp edges, stored at half scale, differ from themselves by a pixel's shift; a
    checker laid there differs whatever the shift), averaged. The second: the distance between
    the box's mean colours (a shift moves no mean)."""
    b = _box(bg.shape, x, y, half)
    if b is None:
        return 0.0, 0.0
    x0, x1, y0, y1 = b
    seen = now[y0:y1, x0:x1].astype(np.float32) * gain
    least = np.full(seen.shape[:2], np.inf, np.float32)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            d = np.abs(seen - bg[y0 + dy:y1 + dy, x0 + dx:x1 + dx]).max(axis=2)
            np.minimum(least, d, out=least)
    shift = seen.reshape(-1, 3).mean(axis=0) - bg[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)
    return float(least.mean()), float(np.linalg.norm(shift))


def letter_features(ch: ck.Chains, learnt: ck.Gradients, radii: np.ndarray, down: np.ndarray,
                    filled: np.ndarray, searched: np.ndarray, now: np.ndarray, bg: np.ndarray,
                    gain: np.ndarray, typical: float, ring_now: np.ndarray,
                    ring_w: np.ndarray, ring_b: float) -> list[tuple[int, int, np.ndarray]]:
    """(column, slot, features (N_LETTER,)) of each letter slot of ``ch``.

    ``learnt``: ``learnt_gradients`` of the board; ``radii``, ``down`` (C,): each column's checker
    radius and whether its stack grows down; ``filled``, ``searched`` (C, K) bool: the slots the
    set-up position filled, and those the column searched; ``now``, ``bg``, ``gain``, ``typical``:
    the frame and the learnt board on the background's grid, the brightness match and the
    frame's typical change (``setup_slots.SetupView``); ``ring_now`` (C, K): each slot's ring logit in
    this frame; ``ring_w``, ``ring_b``: the ring model.

    Features: the learnt board's ring logit there, and the frame's (both clipped to +-10); log(1 +
    the slot's shift-tolerant change) and that less log(1 + the median of its column's other
    set-up-empty slots'); log(1 + its colour shift) and that less the column's median; the frame's
    typical change."""
    K = min(filled.shape[1], ch.x.shape[1])
    ref = searched[:, :K] & ~filled[:, :K]
    enough = ref.sum(axis=1) > REFERENCES
    ii, kk = np.nonzero(ref & enough[:, None])
    if len(ii) == 0:
        return []
    f = ck.ring_features(learnt, ch.x[ii, kk], ch.y[ii, kk], radii[ii], down[ii])
    was = np.clip(f @ ring_w + ring_b, -10.0, 10.0)
    half = 0.5 * radii / BG_SCALE
    seen: dict[tuple[int, int], tuple[float, float]] = {}

    def change(i: int, k: int) -> tuple[float, float]:
        if (i, k) not in seen:
            seen[i, k] = slot_change(now, bg, gain, float(ch.x[i, k]) / BG_SCALE, float(ch.y[i, k]) / BG_SCALE,
                                     float(half[i]))
        return seen[i, k]

    out = []
    for i, k, w in zip(ii.tolist(), kk.tolist(), was.tolist()):
        if w <= LETTER_RING:
            continue
        others = np.asarray([change(i, j) for j in np.flatnonzero(ref[i]).tolist() if j != k])
        tol, col = np.log1p(change(i, k))
        tol_ref, col_ref = np.log1p(np.median(others, axis=0))
        out.append((i, k, np.asarray([w, float(np.clip(ring_now[i, k], -10.0, 10.0)), tol, tol - tol_ref, col,
                                      col - col_ref, typical], np.float64)))
    return out


def inner_texture(g: ck.Gradients, x: float, y: float, r: float) -> float:
    """The mean gradient magnitude (over the gradients' scale) inside the inner 0.6 ``r`` of the disc
    at (``x``, ``y``) of ``g``: a plain checker's face is smooth, letters across it are not."""
    h, w = g.pair.shape[:2]
    rr = 0.6 * r
    x0, x1 = max(int(x - rr), 0), min(int(x + rr) + 1, w)
    y0, y1 = max(int(y - rr), 0), min(int(y + rr) + 1, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    m = np.abs(g.pair[y0:y1, x0:x1].astype(np.float32)).sum(axis=2)
    return float(m.mean()) / g.scale


def filled_features(ch: ck.Chains, learnt: ck.Gradients, radii: np.ndarray, filled: np.ndarray,
                    searched: np.ndarray, now: np.ndarray, bg: np.ndarray, gain: np.ndarray, typical: float,
                    ring_now: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """(column, slot, features) of each searched slot the set-up position filled, in a column with
    at least ``REFERENCES`` set-up-empty searched slots: the learnt checker's inner texture there,
    the frame's ring logit, log(1 + the shift-tolerant change) and that less the column's empty
    slots' median, log(1 + the colour shift) and that less theirs, the typical change."""
    K = min(filled.shape[1], ch.x.shape[1])
    ref = searched[:, :K] & ~filled[:, :K]
    enough = ref.sum(axis=1) >= REFERENCES
    ii, kk = np.nonzero(searched[:, :K] & filled[:, :K] & enough[:, None])
    half = 0.5 * radii / BG_SCALE
    out = []
    for i, k in zip(ii.tolist(), kk.tolist()):
        def change(j: int) -> tuple[float, float]:
            return slot_change(now, bg, gain, float(ch.x[i, j]) / BG_SCALE, float(ch.y[i, j]) / BG_SCALE,
                               float(half[i]))
        others = np.asarray([change(j) for j in np.flatnonzero(ref[i]).tolist()])
        tol, col = np.log1p(change(k))
        tol_ref, col_ref = np.log1p(np.median(others, axis=0))
        tex = inner_texture(learnt, float(ch.x[i, k]), float(ch.y[i, k]), float(radii[i]))
        out.append((i, k, np.asarray([tex, float(np.clip(ring_now[i, k], -10.0, 10.0)), tol, tol - tol_ref, col,
                                      col - col_ref, typical], np.float64)))
    return out
