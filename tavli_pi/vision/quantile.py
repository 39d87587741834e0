"""``np.percentile(a, q)`` of one scalar ``q`` over a float image, to the bit, by one partition (issue 12).

numpy's default (linear) method takes the two order statistics round the rank ``(n - 1) q / 100``
and interpolates between them (``numpy/lib/_function_base_impl.py``, numpy 2: ``_quantile``,
``_lerp``). Its dispatch, the partition at four ranks (it adds the first and the last, the last to
find a NaN) and the index arrays cost ~40-80 us a call on a 64 x 64 crop, several times the
partition itself. :func:`percentile` does the same steps on one partition: the ranks and the weight
as numpy works them out (:func:`order_weights`), the two order statistics, then ``_lerp``'s
arithmetic in the array's own float type (a Python ``q`` makes numpy's weight a Python float,
so the sums stay in float32 for a float32 image): ``a + (b - a) t``, or ``b - (b - a)(1 - t)``
from t = 0.5. An array with a NaN, or not of floats, is left to ``np.percentile``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

__all__ = ["order_weights", "percentile"]


@lru_cache(maxsize=32)
def order_weights(n: int, q: tuple[float, ...]) -> tuple[tuple[int, float], ...]:
    """Per percentile ``q`` of ``n`` values, the 0-based rank of the lower order statistic and the
    weight of the next one, worked out as ``np.percentile``'s default (linear) method does (numpy 2:
    ``(n - 1) * q / 100``, its floor and the rest; the rank clipped to the array)."""
    qs = np.true_divide(np.asarray(q, np.float64), 100)
    virtual = (n - 1) * qs
    below = np.floor(virtual)
    return tuple((min(max(int(b), 0), n - 1), float(v - b)) for v, b in zip(virtual.tolist(), below.tolist()))


def percentile(a: np.ndarray, q: float) -> Any:
    """``np.percentile(a, q)`` for a Python number ``q`` (a numpy scalar of ``a``'s float type), the
    same value to the bit."""
    flat = np.ravel(a)
    n = flat.size
    if flat.dtype.kind != "f" or n < 2 or not 0 <= q <= 100:
        return np.percentile(a, q)
    (k, t), = order_weights(n, (float(q),))
    k1 = min(k + 1, n - 1)
    part = np.partition(flat, (k, k1, n - 1))  # the last: a NaN sorts there
    if np.isnan(part[n - 1]):
        return np.percentile(a, q)
    lo, hi = part[k], part[k1]
    d = hi - lo
    return hi - d * (1 - t) if t >= 0.5 else lo + d * t
