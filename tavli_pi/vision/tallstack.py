"""Tall stacks by their period: 6-15 checkers squeezed onto one point (Plakoto and Fevga set-ups).

A squeezed stack shows one rim per checker, evenly spaced between the first
checker (at the point's base) and the last, fully visible one
(:func:`tavli_pi.vision.stacks.squeezed_loglik` finds both). When the rims
are too close for the rim-contrast test (13-15 checkers: under 0.7 radii
apart), their spacing still shows as the strongest period of the brightness
along the stack: n checkers make n - 1 periods between the two ends. This
module scores n = 6..15 by that period's share of the profile's energy in
the band, so a stack of 15 (all of a side on its 24-point, P1/F1) reads 15.
A row of separate checkers (2 radii apart: 2-4 periods) is left to the row
model: when its period is the strongest, no bonus is given; nor when the strongest is a
harmonic of a row's period holding ``ROW_HARMONIC`` of its power or more (sharp rims 2 radii
apart ring at twice and three times their period too: a start position's 5-stack with its
strongest period at 8 cycles read as 9 squeezed checkers on real-like table 7, seed 0, the set-up
board seen again; over the set-up boards seen again and the games of the first 40 real-like tables
of seeds 0 and 1, the 26 stacks of 5 whose strongest period was a harmonic held 0.16-0.99 of its
power at their own period, 23 of them 0.46 or more, and the 68 squeezed stacks of 6-13 at most 0.24).
"""

from __future__ import annotations

import numpy as np

__all__ = ["PERIOD_GAIN", "ROW_HARMONIC", "period_loglik"]

#: log-likelihood per unit of band-energy share at a count's period
PERIOD_GAIN = 12.0
#: the least share of the strongest period's power a row's period (2-4 cycles) it is a multiple of
#: holds for the strongest to be that row's harmonic, not a squeezed stack's period
ROW_HARMONIC = 0.4
_SAMPLES = 256
_COUNTS = np.arange(6, 16)


def period_loglik(
    image: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray, live: np.ndarray
) -> np.ndarray:
    """(C, 10) log-likelihood bonuses of n = 6..15 checkers between the first checker's centre (x0, y0)
    and the last one's (x1, y1) on each column where ``live``; 0 elsewhere. ``image``: grey, or colour
    (the profile then is the channels' mean, made only along it)."""
    C = len(x0)
    out = np.zeros((C, len(_COUNTS)))
    h, w = image.shape[:2]
    t = np.linspace(0.0, 1.0, _SAMPLES)
    cycles = np.arange(2, 15)  # 2-4: a row of separate checkers (2 radii apart); 5-14: n = 6..15 squeezed
    waves = np.exp(-2j * np.pi * np.outer(cycles, t))
    for i in np.flatnonzero(live):
        ys = np.clip(np.rint(y0[i] + (y1[i] - y0[i]) * t).astype(int), 0, h - 1)
        xc = int(np.clip(round(float(x0[i] + (x1[i] - x0[i]) * 0.5)), 2, w - 3))
        prof = _gray(image[ys, xc - 2: xc + 3]).mean(axis=1)
        prof = prof - prof.mean()
        power = np.abs(waves @ prof) ** 2
        total = power.sum()
        top = int(np.argmax(power))
        if total <= 0 or cycles[top] < 5:
            continue  # the strongest period is that of separate checkers: no squeezed stack here
        if any(cycles[top] % k == 0 and power[k - 2] >= ROW_HARMONIC * power[top] for k in (2, 3, 4)):
            continue  # the strongest period is a harmonic of separate checkers' (their sharp rims)
        out[i] = PERIOD_GAIN * power[3:] / total
    return out


def _gray(image: np.ndarray) -> np.ndarray:
    """``image.mean(axis=-1)`` of a colour image to the bit (uint8 channels sum exactly in float64),
    6x faster; a grey image as it is."""
    if image.ndim != 3:
        return image
    out = image[..., 0].astype(np.float64)
    for c in range(1, image.shape[2]):
        out += image[..., c]
    out /= image.shape[2]
    return out
