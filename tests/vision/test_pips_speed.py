"""The face reader's cheaper steps give numpy's values to the bit (issue 12)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.pips import _ENDS, _percentiles
from tavli_pi.vision.quantile import order_weights as _order_weights


def _with_order_stats(n: int, k: int, a: int, b: int) -> np.ndarray:
    """A 64 x 64 uint8 image whose k-th smallest value is ``a`` and the next ``b`` (a <= b)."""
    flat = np.empty(n, np.uint8)
    flat[: k + 1], flat[k + 1:] = a, b
    return flat.reshape(64, 64)  # (the order of the pixels does not matter to either)


def test_the_spread_percentiles_are_numpys_for_any_pair_of_order_statistics() -> None:
    # every value numpy's interpolation can give lies between the two order statistics round the
    # rank; the pairs with the largest steps, the equal pairs and a random share of the rest
    n = 64 * 64
    rng = np.random.default_rng(0)
    pairs = {(a, a) for a in range(256)} | {(0, b) for b in range(256)} | {(a, 255) for a in range(256)}
    pairs |= {(int(min(a, b)), int(max(a, b))) for a, b in rng.integers(0, 256, (400, 2))}
    for q in _ENDS:
        (k, _), = _order_weights(n, (q,))
        for a, b in sorted(pairs):
            img = _with_order_stats(n, k, a, b)
            got = _percentiles(img, (q,))[0]
            want = np.percentile(img, q)
            assert got == want, (q, a, b, got, want)


def test_the_spread_percentiles_of_any_image_are_numpys() -> None:
    rng = np.random.default_rng(1)
    for i in range(300):
        shape = (64, 64) if i % 3 else tuple(int(v) for v in rng.integers(2, 90, 2))
        lo, hi = sorted(int(v) for v in rng.integers(0, 256, 2))
        img = rng.integers(lo, hi + 1, shape).astype(np.uint8)
        got = _percentiles(img, _ENDS)
        want = np.percentile(img, _ENDS)
        assert got == tuple(want.tolist()), (i, got, want)
    # (not uint8: numpy's own)
    f = rng.random((64, 64)).astype(np.float32)
    assert _percentiles(f, _ENDS) == tuple(np.percentile(f, _ENDS).tolist())


def test_the_blob_masks_are_numpys_comparisons() -> None:
    """``find_pip_blobs``' masks from ``cv2.threshold`` are the grey levels above a level (or at
    most Otsu's threshold, dark), as numpy compares them, at whole and fractional levels."""
    import cv2

    from tavli_pi.vision.pips import find_pip_blobs

    rng = np.random.default_rng(2)
    for i in range(200):
        gray = cv2.GaussianBlur(rng.integers(0, 256, (64, 64)).astype(np.uint8), (0, 0), 1.5)
        back = cv2.medianBlur(gray, 21)
        level = [0.0, 3.0, 7.25, 12.5, 40.0, 254.5, 255.0, 300.0][i % 8]
        for dark in (True, False):
            diff = cv2.subtract(back, gray) if dark else cv2.subtract(gray, back)
            _, mask = find_pip_blobs(gray, dark, level, back)
            assert np.array_equal(mask, (diff > level).astype(np.uint8))
            t, _ = cv2.threshold(gray[8:-8, 8:-8], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            _, mask = find_pip_blobs(gray, dark, None)
            assert np.array_equal(mask, ((gray <= t) if dark else (gray > t)).astype(np.uint8))


def _drawn_face(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, bool, float]:
    """A 64 x 64 face with ``n`` pips of a standard layout (turned, scaled, off centre a little, some
    of the other places faintly pipped), noisy: (grey, the pips' centres, dark pips?, pip area)."""
    import cv2

    from tavli_pi.vision.pips import LAYOUTS

    dark = bool(rng.random() < 0.5)
    body, pip = (200, 40) if dark else (50, 220)
    img = np.full((64, 64), body, np.float64)
    ang, half = rng.uniform(0, np.pi), rng.uniform(9, 17)
    rot = np.asarray([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    centre = 32 + rng.uniform(-4, 4, 2)
    pts = centre + (np.asarray(LAYOUTS[n], np.float64) * half) @ rot.T
    rad = rng.uniform(2.0, 5.0)
    for x, y in pts:
        cv2.circle(img, (int(round(x * 16)), int(round(y * 16))), int(rad * 16), pip, -1, cv2.LINE_AA, 4)
    for x, y in centre + (np.asarray(LAYOUTS[6] + ((0, 0),), np.float64) * half) @ rot.T:
        if rng.random() < 0.2:  # a place where the value has no pip, half pipped
            cv2.circle(img, (int(round(x * 16)), int(round(y * 16))), int(rad * 16), (body + pip) / 2, -1, cv2.LINE_AA, 4)
    img += rng.normal(0, rng.uniform(1, 25), img.shape)
    gray = np.clip(img, 0, 255).astype(np.uint8)
    return gray, pts + rng.normal(0, 0.3, pts.shape), dark, float(np.pi * rad * rad * rng.uniform(0.7, 1.3))


def test_the_levels_of_two_sets_of_places_taken_in_one_call_are_each_sets_own() -> None:
    """``hidden_pips`` takes the pips' and the empty places' levels in one call (issue 12): each place's
    mean is its own, so the call over both sets is the two calls' values, to the bit (uint8 faces through
    ``disc_means``, float faces through ``pips._disc_means``)."""
    from tavli_pi.vision.disc_means import disc_means
    from tavli_pi.vision.pips import _disc_means

    rng = np.random.default_rng(4)
    for i in range(300):
        gray, pts, _, area = _drawn_face(rng, 1 + i % 6)
        level = disc_means
        if i % 3 == 2:
            gray, level = gray.astype(np.float32), _disc_means
        empty = rng.uniform(4, 60, (int(rng.integers(1, 8)), 2))
        rp = max(1.5, 0.6 * float(np.sqrt(area / np.pi)))
        both = np.asarray(level(gray, np.concatenate((pts, empty)), rp))
        apart = np.concatenate((level(gray, pts, rp), level(gray, empty, rp)))
        assert both.tobytes() == apart.tobytes(), i


def test_a_group_far_off_the_crop_centre_scores_as_plainly_worked_out() -> None:
    """``_score``'s quick test of a group's centre (beyond 0.3 of the crop's side: no face) gives what the
    plain computation gives (the quick test switched off), for groups round that distance and beyond."""
    import pytest

    from tavli_pi.vision import pips
    from tavli_pi.vision.pips import LAYOUTS

    rng = np.random.default_rng(5)
    cases = []
    for i in range(3000):
        n = 1 + i % 6
        far = 19.2 * (1 + rng.choice([rng.uniform(-0.08, 0.08), rng.uniform(-1e-9, 1e-9), rng.uniform(0.08, 0.5)]))
        ang = rng.uniform(0, 2 * np.pi)
        centre = 32 + far * np.asarray([np.cos(ang), np.sin(ang)])
        pts = centre + np.asarray(LAYOUTS[n], np.float64) * rng.uniform(5, 9)
        group = [(float(x), float(y), float(rng.uniform(30, 36))) for x, y in pts]
        mask = (rng.random((64, 64)) < 0.02).astype(np.uint8)
        cases.append((group, group + [(float(rng.uniform(8, 56)), float(rng.uniform(8, 56)), 33.0)], mask, bool(i % 2)))
    got = [pips._score(g, b, m, al) for g, b, m, al in cases]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pips, "_FAR_OFF", np.inf)
        want = [pips._score(g, b, m, al) for g, b, m, al in cases]
        assert got == want
        assert sum(w is not None for w in want) > 300  # groups near the line are scored
        mp.setattr(pips, "_FAR_OFF", 0.085)  # (a quick test too strict is told)
        assert [pips._score(g, b, m, al) for g, b, m, al in cases] != want


def _plain_read_face_evidence(crop: np.ndarray, aligned: bool = False) -> object:
    """``read_face_evidence`` as plainly worked out: every level's both masks, every shade's blobs
    grouped (none or not), each group scored in full (``_score`` without its quick far-off test)."""
    import math

    import cv2

    from tavli_pi.vision import pips as P

    if crop is None or crop.size == 0 or min(crop.shape[:2]) < 6:
        return P.Face(0, 0.0, None)
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    gray = cv2.resize(gray, (P._SIZE, P._SIZE), interpolation=cv2.INTER_AREA if min(gray.shape) > P._SIZE else cv2.INTER_CUBIC)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    hi, lo = (float(v) for v in np.percentile(gray, P._ENDS))
    span = float(hi - lo)
    if span < 25:
        return P.Face(0, 0.0, None)
    cands: dict[int, float] = {}
    centres: dict[int, tuple[float, float]] = {}
    pips: dict[int, list[tuple[float, float]]] = {}
    shade: dict[int, tuple[bool, float]] = {}
    back = cv2.medianBlur(gray, (P._SIZE // 3) | 1)
    for level in (0.25 * span, 0.4 * span, None):
        found = [P.find_pip_blobs(gray, dark, level, back) for dark in (True, False)]
        both = found[0][1] | found[1][1]
        for (blobs, _), dark in zip(found, (True, False)):
            if len(blobs) > 14:
                continue
            for g in P._groups(blobs):
                s = P._score(g, blobs, both, aligned, math.inf)
                if s is not None and s[0] < cands.get(s[1], 9.0):
                    cands[s[1]] = s[0]
                    pips[s[1]] = [(b[0], b[1]) for b in g]
                    shade[s[1]] = (dark, float(np.mean([b[2] for b in g])))
                    centres[s[1]] = (float(np.mean([b[0] for b in g])) / P._SIZE, float(np.mean([b[1] for b in g])) / P._SIZE)
    if not cands:
        return P.Face(0, 0.0, None)
    ranked = sorted(cands.items(), key=lambda kv: kv[1])
    value, bad = ranked[0]
    rivals = [b for v, b in ranked[1:] if not P._inside(pips[v], pips[value])]
    margin = (rivals[0] - bad) if rivals else 0.3
    hidden = P.hidden_pips(gray, np.asarray(pips[value], np.float64), shade[value][0], shade[value][1], aligned)
    conf = 1.0 - P.BAD_SLOPE * bad - (0.35 if margin < 0.03 else 0.15 if margin < 0.08 else 0.0)
    if hidden is not None:
        conf -= max(0.0, hidden - P.REGULAR)
    return P.Face(value, float(np.clip(conf, 0.05, 0.99)), centres[value], bad, margin, hidden)


def test_a_face_read_is_its_plain_computation() -> None:
    """``read_face_evidence`` (groups of no blobs skipped, the both-shade mask made when first needed,
    the groups' quick tests, ``hidden_pips``' one call) reads every face as the plain computation does,
    to the bit: drawn faces of every value, plain and noisy ones, crops of other sizes and colour."""
    import pytest

    from tavli_pi.vision import pips
    from tavli_pi.vision.pips import read_face_evidence

    import cv2

    rng = np.random.default_rng(6)
    read = 0
    with pytest.MonkeyPatch.context() as mp:
        for i in range(240):
            gray, _, _, _ = _drawn_face(rng, 1 + i % 6)
            if i % 8 == 7:
                gray = np.full((64, 64), 128, np.uint8) + rng.integers(0, 3, (64, 64)).astype(np.uint8)  # blank
            crop = gray if i % 3 else cv2.cvtColor(cv2.resize(gray, (48, 48), interpolation=cv2.INTER_AREA), cv2.COLOR_GRAY2BGR)
            aligned = bool(i % 2)
            got = read_face_evidence(crop, aligned)
            mp.setattr(pips, "_FAR_OFF", np.inf)
            want = _plain_read_face_evidence(crop, aligned)
            mp.undo()
            assert repr(got) == repr(want), (i, got, want)
            read += got.value > 0
    assert read > 150
