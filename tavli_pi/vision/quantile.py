"""``np.percentile(a, q)`` of one scalar ``q`` over a float image, and ``np.median(a, axis)`` of a small
one, to the bit, with less of numpy's machinery (issue 12).

numpy's default (linear) method takes the two order statistics round the rank ``(n - 1) q / 100``
and interpolates between them (``numpy/lib/_function_base_impl.py``, numpy 2: ``_quantile``,
``_lerp``). Its dispatch, the partition at four ranks (it adds the first and the last, the last to
find a NaN) and the index arrays cost ~40-80 us a call on a 64 x 64 crop, several times the
partition itself. :func:`percentile` does the same steps on one partition: the ranks and the weight
as numpy works them out (:func:`order_weights`), the two order statistics, then ``_lerp``'s
arithmetic in the array's own float type (a Python ``q`` makes numpy's weight a Python float,
so the sums stay in float32 for a float32 image): ``a + (b - a) t``, or ``b - (b - a)(1 - t)``
from t = 0.5. An array with a NaN, or not of floats, is left to ``np.percentile``.

:func:`median` partitions as ``np.median`` does (``_median``: the same ``np.partition`` call at the
same ranks, the last one too for floats, so even equal values end where numpy puts them), then
takes the middle one or averages the middle two as its ``mean`` does -- the sum in the array's
float type (float64 for integers), divided by the count, an ``intp`` -- without ``mean``'s and
the NaN check's dispatch: 9-27 us against 31-51 on a die crop's 40-1,500 pixels of three channels.
A NaN found at the end is left to ``np.median``.

:func:`mean_of` is ``float(np.mean(values))`` of a few floats or a float64 array, as ``mean`` works it
out -- the sum (``np.add.reduce`` of the float64 array) over the count -- without its dispatch.
:func:`float_mean` is ``a.mean(axis)`` of a float32 or float64 array (a numpy scalar or array of its
type) by ``mean``'s own steps (``numpy/_core/_methods.py``, ``_mean``): the same ``np.add.reduce``
over the axis, then divided by the count as an ``intp``, in place for an array, without the dispatch
round it (a third of a small array's mean).
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["float_mean", "mean_of", "median", "order_weights", "percentile"]


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


def median(a: np.ndarray, axis: int | None = None) -> Any:
    """``np.median(a, axis)`` for ``axis`` None or 0 of a 1-D or 2-D array of float32, float64 or
    integers: the same values, of the same type."""
    a = np.asarray(a)
    floats = a.dtype in (np.float32, np.float64)
    if not (floats or a.dtype.kind in "iu") or a.ndim > 2 or axis not in (None, 0) or a.size == 0:
        return np.median(a, axis=axis)
    v = a.ravel() if axis is None else a
    n = v.shape[0]
    kth = [n // 2 - 1, n // 2] if n % 2 == 0 else [(n - 1) // 2]
    if floats:
        kth.append(-1)  # a NaN sorts there
    part = np.partition(v, kth, axis=0)
    if floats and bool(np.isnan(part[-1]).any()):
        return np.median(a, axis=axis)
    mids = part[n // 2 - 1 : n // 2 + 1] if n % 2 == 0 else part[n // 2 : n // 2 + 1]
    # ``mean`` of the middle one or two (an integer's in float64: its one or two values exact there)
    return float_mean(mids if floats else mids.astype(np.float64), 0)


def mean_of(values: Sequence[float] | np.ndarray) -> float:
    """``float(np.mean(values))`` of a few floats or a 1-d float64 array, without ``mean``'s dispatch
    (issue 12): the same sum (``np.add.reduce`` of the float64 array) over the count, in float64."""
    return float(np.add.reduce(np.asarray(values, np.float64)) / len(values))


def float_mean(a: np.ndarray, axis: int | None = None) -> Any:
    """``a.mean(axis)`` of a float32 or float64 array, the same values of the same type, to the bit:
    ``mean``'s sum over the axis (all of them: None) and its division by the count, an ``intp``
    (in place for an array; a scalar's quotient made the sum's type). Any other array, or none to
    take the mean of, is left to ``mean``."""
    n = a.size if axis is None else a.shape[axis]
    if a.dtype not in (np.float32, np.float64) or n == 0:
        return a.mean(axis)
    s = np.add.reduce(a, axis=axis)
    if isinstance(s, np.ndarray):
        return np.true_divide(s, np.intp(n), out=s, casting="unsafe")
    return s.dtype.type(s / np.intp(n))
