"""Pinned stacks (Plakoto, RULES-TAVLI.md P3): one checker at a point's base under the other colour's.

A Plakoto point may hold a pinned checker of one colour at the bottom of the
stack (nearest the board's edge) with the pinner's checkers on top. The
stack reader (:mod:`tavli_pi.vision.stacks`) scores one-colour hypotheses;
this module adds the two-colour ones of a row of checkers: n checkers, the
base slot one colour and slots 1..n-1 the other, scored with the same slot
occupancy and colour probabilities:

    log L(pin c, n) = sum_{k<n} log p_k + sum_{k>=n} log (1 - p_k)
                      + log P(colour_0 = c) + sum_{0<k<n} log P(colour_k = other)

All hypotheses share one posterior, so a pinned stack gives light count 1
and dark count n-1 (or the reverse) as the marginals, and the point's
pinned colour is reported when its hypotheses hold most of the posterior.
Squeezed stacks (more than a row of checkers) are read one-colour only: a
pinner stack that tall is reported as its top colour's count plus flat doubt.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.observation import MAX_COUNT

__all__ = ["PIN_PRIOR", "pinned_loglik", "posterior_with_pins"]

#: log prior of a two-colour stack against a one-colour one (pins are rarer than plain stacks)
PIN_PRIOR = float(np.log(0.05))


def _log(p: np.ndarray) -> np.ndarray:
    return np.asarray(np.log(np.clip(p, 1e-4, 1 - 1e-4)))


def pinned_loglik(p_occ: np.ndarray, p_lt: np.ndarray) -> np.ndarray:
    """(C, 2, K + 1) log-likelihoods of n = 0..K checkers in a row with the base one pinned:
    row 0 a light checker pinned under dark ones, row 1 a dark one under light ones (n >= 2)."""
    C, K = p_occ.shape
    z = np.zeros((C, 1))
    occ = np.concatenate([z, np.cumsum(_log(p_occ), axis=1)], axis=1)
    emp = np.concatenate([np.cumsum(_log(1 - p_occ)[:, ::-1], axis=1)[:, ::-1], z], axis=1)
    cl = np.concatenate([z, np.cumsum(_log(p_lt), axis=1)], axis=1)
    cd = np.concatenate([z, np.cumsum(_log(1 - p_lt), axis=1)], axis=1)
    base_l, base_d = _log(p_lt[:, :1]), _log(1 - p_lt[:, :1])
    light_pinned = occ + emp + base_l + (cd - cd[:, 1:2])
    dark_pinned = occ + emp + base_d + (cl - cl[:, 1:2])
    out = np.stack([light_pinned, dark_pinned], axis=1)
    out[:, :, :2] = -np.inf
    return out + PIN_PRIOR


def posterior_with_pins(
    single: np.ndarray, counts: np.ndarray, pinned: np.ndarray, temper: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One posterior over the one-colour hypotheses ``single`` (C, 2, H) of ``counts`` and the pinned ones
    (C, 2, K + 1) of n = 0..K: the light and dark count marginals (C, MAX_COUNT + 1) each, and per spot
    +1 (a light checker pinned), -1 (a dark one) or 0 (no pin) by the posterior's majority."""
    C = single.shape[0]
    zs = single * temper
    zp = pinned * temper
    top = np.maximum(np.where(np.isfinite(zs), zs, -np.inf).max(axis=(1, 2)),
                     np.where(np.isfinite(zp), zp, -np.inf).max(axis=(1, 2)))
    ps = np.exp(zs - top[:, None, None])
    pp = np.exp(zp - top[:, None, None])
    total = ps.sum(axis=(1, 2)) + pp.sum(axis=(1, 2))
    ps /= total[:, None, None]
    pp /= total[:, None, None]
    onehot = np.zeros((len(counts), MAX_COUNT + 1))
    onehot[np.arange(len(counts)), np.minimum(counts, MAX_COUNT)] = 1.0
    light = ps[:, 0] @ onehot
    dark = ps[:, 1] @ onehot
    light[:, 0] += ps[:, 1].sum(axis=1)
    dark[:, 0] += ps[:, 0].sum(axis=1)
    n = np.arange(pinned.shape[2])
    rest = np.minimum(np.maximum(n - 1, 0), MAX_COUNT)
    for c in range(C):
        # a light checker pinned: light 1, dark n - 1; a dark one: dark 1, light n - 1
        light[c, 1] += pp[c, 0].sum()
        np.add.at(dark[c], rest, pp[c, 0])
        dark[c, 1] += pp[c, 1].sum()
        np.add.at(light[c], rest, pp[c, 1])
    share_l = pp[:, 0].sum(axis=1)
    share_d = pp[:, 1].sum(axis=1)
    pins = np.where(share_l > 0.5, 1, np.where(share_d > 0.5, -1, 0)).astype(np.int64)
    return light, dark, pins
