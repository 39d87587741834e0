"""Count evidence for one point's stack, and for the trays.

Up to about five checkers lie in a row from the point's base, each fully
visible: the ring detector finds each one. A longer stack is squeezed into
the same length, each checker overlapping the last; then only the rims show,
one per checker, evenly spaced, and the count comes from that spacing (the
strongest period of the edge profile along the stack) rather than from
separate discs.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, SpotEvidence

__all__ = ["column_evidence", "stack_period", "spread_evidence", "tray_evidence", "ZERO"]

ZERO = ck.count_evidence([])


def spread_evidence(n: float, sigma: float, floor: float = 0.002) -> CountEvidence:
    """A count distribution centred on a continuous estimate ``n``."""
    k = np.arange(MAX_COUNT + 1, dtype=np.float64)
    p = np.exp(-0.5 * ((k - n) / max(sigma, 1e-3)) ** 2) + floor
    p /= p.sum()
    return CountEvidence(tuple(float(v) for v in p))


def stack_period(profile: np.ndarray, lo: int, hi: int) -> tuple[float, float]:
    """Dominant period (in samples) of a 1-D edge profile between lags lo..hi, and its strength."""
    x = profile - profile.mean()
    denom = float((x * x).sum()) + 1e-6
    hi = min(hi, len(x) - 2)
    if hi <= lo:
        return 0.0, 0.0
    ac = np.array([float((x[:-k] * x[k:]).sum()) / denom for k in range(lo, hi + 1)])
    # local maxima; take the smallest lag that is nearly as strong as the best
    peaks = [i for i in range(1, len(ac) - 1) if ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1]]
    if not peaks:
        return 0.0, 0.0
    best = max(ac[i] for i in peaks)
    for i in peaks:
        if ac[i] >= 0.8 * best:
            # parabolic refinement
            a, b, c = ac[i - 1], ac[i], ac[i + 1]
            d = a - 2 * b + c
            off = 0.5 * (a - c) / d if abs(d) > 1e-9 else 0.0
            return lo + i + off, float(b)
    return 0.0, 0.0


def column_evidence(
    canon: np.ndarray,
    g: ck.Gradients,
    lay: Layout,
    x: float,
    width: float,
    top: bool,
    cal: Calibration,
) -> tuple[SpotEvidence, list[ck.Disc]]:
    """Light and dark count evidence for the point whose strip is centred at ``x``."""
    y0, y1 = ck.strip_for(lay, x, width, top)
    discs = ck.classify_discs(ck.find_discs(canon, g, x, y0, y1, width), cal.light_bgr, cal.dark_bgr)
    light_p = [d.p_real * d.p_light for d in discs]
    dark_p = [d.p_real * (1 - d.p_light) for d in discs]
    light, dark = ck.count_evidence(light_p), ck.count_evidence(dark_p)
    base = lay.top_y if top else lay.bottom_y
    good = [d for d in discs if d.p_real > 0.5]
    if good:
        far = max(good, key=lambda d: abs(d.y - base))
        reach = abs(far.y - base) / width  # in checker diameters (~column widths)
        expected = int(round(reach - 0.5)) + 1
        if reach > 3.6 and len(good) < expected - 0.5 + 0.01:
            n = _squeezed_count(g, x, width, base, far.y)
            if n is not None:
                is_light = sum(light_p) >= sum(dark_p)
                ev = spread_evidence(n, 0.45 + 0.06 * n)
                if is_light:
                    light, dark = ev, ZERO
                else:
                    light, dark = ZERO, ev
    return SpotEvidence(light, dark), discs


def _squeezed_count(
    g: ck.Gradients, x: float, width: float, base: float, last_y: float
) -> float | None:
    """Count checkers in an overlapping stack from the spacing of their rims."""
    first_y = base + (0.5 * width if last_y > base else -0.5 * width)
    lo_y, hi_y = sorted((first_y - 0.4 * width, last_y + 0.1 * width))
    ya, yb = int(max(0, lo_y)), int(min(g.gy.shape[0], hi_y))
    xa, xb = int(x - 0.2 * width), int(x + 0.2 * width) + 1
    if yb - ya < width:
        return None
    prof = np.abs(g.gy[ya:yb, xa:xb]).mean(axis=1)
    period, strength = stack_period(prof, max(3, int(0.22 * width)), int(1.05 * width))
    if period <= 0 or strength < 0.05:
        return None
    n = 1.0 + abs(last_y - first_y) / period
    return float(min(n, MAX_COUNT))


def tray_evidence(canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration) -> SpotEvidence:
    """Checkers standing on edge in the trays, counted by their edges.

    Each checker on edge shows as a thin bar with an edge on either side, so
    the count is half the number of strong horizontal edges along the tray.
    Trays sit beside the field on one side; both sides are searched (light in
    the lower half, dark in the upper half) and the fuller side wins.
    """
    fw, mx = lay.field_w, lay.mx
    out: dict[str, float] = {"light": 0.0, "dark": 0.0}
    mid = (lay.top_y + lay.bottom_y) / 2
    for side in ("left", "right"):
        if side == "right":
            xa, xb = mx + lay.u1 * fw + 0.06 * fw, mx + lay.u1 * fw + 0.11 * fw
        else:
            xa, xb = mx + lay.u0 * fw - 0.11 * fw, mx + lay.u0 * fw - 0.06 * fw
        xa, xb = max(0, int(xa)), min(canon.shape[1], int(xb))
        if xb - xa < 4:
            continue
        for colour, (ya, yb) in (("light", (mid + 0.1 * lay.pitch, lay.bottom_y - 2)), ("dark", (lay.top_y + 2, mid - 0.1 * lay.pitch))):
            prof = np.abs(g.gy[int(ya) : int(yb), xa:xb]).mean(axis=1) / g.scale
            peaks = ck.peaks_1d(prof, 3, 0.25)
            out[colour] = max(out[colour], max(0.0, (len(peaks) - 2) / 2.0))
    return SpotEvidence(
        spread_evidence(out["light"], 0.8 + 0.1 * out["light"]),
        spread_evidence(out["dark"], 0.8 + 0.1 * out["dark"]),
    )
