"""Borne-off counts that agree with conservation (15 = board + bar + off, per colour).

A tray is read by how far a run of colour reaches in it (``trays.py``); an
insert, a dice cup or the tray's own wood can look like such a run. The board
is read far more surely than a tray, so the tray reading is kept only where it
agrees with the count the board implies; otherwise the reported count is the
implied one, marked ``"implied"``. Where the board itself cannot be trusted
(more than 15 of a colour read on it, or a hand over it) and the tray does not
agree, the count is ``"unknown"``: flat evidence, no guess.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, SpotEvidence

__all__ = ["CHECKERS", "conserved_off", "UNKNOWN"]

#: checkers per colour (B1)
CHECKERS = 15
#: evidence that says nothing: every count 0..15 equally likely
UNKNOWN = CountEvidence(tuple(1.0 / (MAX_COUNT + 1) for _ in range(MAX_COUNT + 1)))


def _implied(n: int, conf: float) -> CountEvidence:
    """``conf`` on ``n``, the rest on its neighbours (a spot misread by one moves it by one)."""
    p = np.full(MAX_COUNT + 1, 1e-3)
    p[n] = conf
    rest = 1.0 - conf
    nbrs = [k for k in (n - 1, n + 1) if 0 <= k <= MAX_COUNT]
    for k in nbrs:
        p[k] += rest / len(nbrs)
    p /= p.sum()
    return CountEvidence(tuple(float(v) for v in p))


def _one(spots: Sequence[CountEvidence], tray: CountEvidence, hand: bool) -> tuple[CountEvidence, str]:
    on = sum(e.best for e in spots)
    implied = CHECKERS - on
    # the board's claim is as sure as its least sure spot of this colour
    sure = float(np.prod([e.confidence for e in spots]))
    if 0 <= implied <= MAX_COUNT and tray.best == implied and not hand:
        return tray, "tray"
    if implied < 0 or hand:
        if 0 <= implied <= MAX_COUNT and tray.best == implied:
            return _implied(implied, min(0.5, tray.confidence)), "implied"
        return UNKNOWN, "unknown"
    # the tray disagrees: a checker may be out of view (in a hand), so never sure
    return _implied(implied, max(0.2, min(0.6, sure))), "implied"


def conserved_off(
    points: Sequence[SpotEvidence], bar: SpotEvidence, tray: SpotEvidence, hand: bool
) -> tuple[SpotEvidence, tuple[str, str]]:
    """Tray evidence checked against conservation, and where each count comes from."""
    light, ls = _one([p.light for p in points] + [bar.light], tray.light, hand)
    dark, ds = _one([p.dark for p in points] + [bar.dark], tray.dark, hand)
    return SpotEvidence(light, dark), (ls, ds)
