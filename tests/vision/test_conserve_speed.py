"""conserve's (max, +) convolution summed only over the pairs that fit in the table (issue 12)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import conserve

N = conserve.CHECKERS + 1


def _brute(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """out[l, d] = max over i <= l, j <= d of a[i, j] + b[l - i, d - j], term by term."""
    out = np.full((N, N), -np.inf)
    for l in range(N):
        for d in range(N):
            out[l, d] = max(float(a[i, j] + b[l - i, d - j]) for i in range(l + 1) for j in range(d + 1))
    return out


def test_the_pairs_are_every_pair_that_fits_once() -> None:
    pairs = set(zip(conserve._MAX_A.tolist(), conserve._MAX_B.tolist()))
    assert len(pairs) == conserve._MAX_A.size == sum((l + 1) * (d + 1) for l in range(N) for d in range(N))
    starts = conserve._MAX_AT.tolist()
    assert starts[0] == 0 and starts == sorted(set(starts)) and len(starts) == N * N
    # each run is one total's: its pairs' cells add up to that (l, d)
    ends = [*starts[1:], conserve._MAX_A.size]
    for cell, (s, e) in enumerate(zip(starts, ends)):
        for k in range(s, e):
            i, j = divmod(int(conserve._MAX_A[k]), N)
            p, q = divmod(int(conserve._MAX_B[k]), N)
            assert (i + p, j + q) == divmod(cell, N)


def test_maxconv_is_the_brute_force_convolution_to_the_bit() -> None:
    rng = np.random.default_rng(12)
    for trial in range(60):
        a, b = rng.normal(-20.0, 15.0, (N, N)), rng.normal(-20.0, 15.0, (N, N))
        for m, share in ((a, (0.0, 0.3, 0.9, 1.0)[trial % 4]), (b, (0.0, 0.5)[trial % 2])):
            m[rng.random((N, N)) < share] = -np.inf  # cells no board reaches
        got = conserve._maxconv(a, b)
        assert got.dtype == np.float64 and got.shape == (N, N)
        assert got.tobytes() == _brute(a, b).tobytes()
