"""The ring memo keeps a place's ring statistics until its own pixels change, and the kernels
that make the features give the values the plain numpy formulas give (issue 12: a cheaper read,
the same reading)."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.rules.position import Position
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import scene_from_position
from tavli_pi.vision import checkers as ck
from tavli_pi.vision.background import matched_change
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.incremental import KERNEL, GateView, changed_pixels
from tavli_pi.vision.ring_memo import RingMemo
from tavli_pi.vision.stacks import cv2_integral


def _board() -> tuple[np.ndarray, Calibration]:
    r = render(scene_from_position(Position.start()), 3)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    return r.image, cal


def _centres(cal: Calibration) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A search grid of candidate centres on two points' columns (one row a column)."""
    cols = cal.layout.columns
    r = np.float32(cols[0].width * cal.checker_r)
    x = np.asarray([cols[0].x, cols[5].x], np.float32)[:, None, None] + np.linspace(-4, 4, 7, dtype=np.float32)
    y = np.float32(cal.layout.top_y) + np.linspace(10, 30, 12, dtype=np.float32)[None, :, None] + 0 * x
    return np.broadcast_to(x, y.shape), y, np.full(y.shape, r, np.float32)


def _plain_features(g: ck.Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The features as first written: the samples scaled, then sorted."""
    rad = ck._raw_rings(g, cx, cy, r) / np.float32(g.scale)
    srt = np.sort(rad, axis=-1)
    p10, p25, p50, p75 = (srt[..., int(q * 31)] for q in (0.1, 0.25, 0.5, 0.75))
    up_s, dn_s = np.sort(rad[..., ck._UP], axis=-1), np.sort(rad[..., ck._DOWN], axis=-1)
    up, dn = up_s[..., int(0.25 * (up_s.shape[-1] - 1))], dn_s[..., int(0.25 * (dn_s.shape[-1] - 1))]
    return np.stack([p10, p25, p50, np.where(down, up, dn), np.where(down, dn, up), p25 / (p75 + 0.05)], axis=-1)


def test_features_from_unscaled_statistics_are_the_scaled_samples_features() -> None:
    image, cal = _board()
    canon = cal.warp(image)
    g = ck.gradients(canon)
    cx, cy, r = _centres(cal)
    down = np.asarray([True, False])[:, None, None]
    for scale in (g.scale, 1.0 + 1e-3, 37.25, 1234.5):
        gs = ck.Gradients(g.pair, scale)
        assert np.array_equal(ck.ring_features(gs, cx, cy, r, down), _plain_features(gs, cx, cy, r, down))


def test_kept_places_give_the_same_features_and_are_forgotten_only_where_their_pixels_changed() -> None:
    image, cal = _board()
    view = GateView(cal)
    canon = cal.warp(image)
    g = ck.gradients(canon)
    cx, cy, r = _centres(cal)
    down = np.asarray([True, True])[:, None, None]
    ids = np.asarray([0, 5])
    memo = RingMemo()
    memo.view = view(image)
    fresh = ck.ring_features(g, cx, cy, r, down, memo, ids)
    assert memo.misses == 2 and memo.hits == 0
    again = ck.ring_features(ck.Gradients(g.pair, g.scale * 1.5), cx, cy, r, down, memo, ids)
    assert memo.hits == 2  # the same places under another scale: kept
    assert np.array_equal(again, ck.ring_features(ck.Gradients(g.pair, g.scale * 1.5), cx, cy, r, down))
    assert np.array_equal(fresh, ck.ring_features(g, cx, cy, r, down))
    # a change far from both columns' rings forgets neither; one over column 5's rings forgets only it
    far, near = image.copy(), image.copy()
    fx, fy = (int(v) for v in cal.to_image(np.float32([[cal.layout.columns[11].x, cal.layout.bottom_y - 40]]))[0])
    cv2.circle(far, (fx, fy), 12, (0, 0, 255), -1)
    nx, ny = (int(v) for v in cal.to_image(np.float32([[float(cx[1, 5, 3]), float(cy[1, 5, 3])]]))[0])
    cv2.circle(near, (nx, ny), 12, (0, 0, 255), -1)
    memo.forget_changed(view(far), changed_pixels, SCALE, KERNEL)
    ck.ring_features(g, cx, cy, r, down, memo, ids)
    assert (memo.hits, memo.misses) == (4, 2)
    memo.forget_changed(view(near), changed_pixels, SCALE, KERNEL)
    ck.ring_features(g, cx, cy, r, down, memo, ids)
    assert (memo.hits, memo.misses) == (5, 3)


def test_places_seen_in_different_views_are_each_judged_against_their_own() -> None:
    # the memo looks every view's changed cells up at once (one tall mask, a band a view): a place
    # is forgotten by what changed since its own view, never by another view's band
    memo = RingMemo()
    h, w, box = 20, 30, (40.0, 40.0, 48.0, 48.0)  # canonical pixels: cells 10-12 each way (scale 4)
    base = np.zeros((h, w, 3), np.uint8)
    a, b = base.copy(), base.copy()
    b[10, 11] = 200  # view b differs from a inside the box
    for view, spot in ((a, 0), (b, 1)):
        memo.view = view
        memo.put(spot, b"p", np.zeros(6, np.float32), box)
    memo.put(2, b"q", np.zeros(6, np.float32), (100.0, 60.0, 104.0, 64.0))  # seen in b, cells 25-26 x 15-16
    now = b.copy()
    now[15, 25] = 90  # only q's box changed since b
    memo.forget_changed(now, changed_pixels, 4, 0.0)
    # spot 0 (seen in a) changed at (10, 11) since, spot 1 (seen in b) did not, q did
    assert [memo.get(s, p) is not None for s, p in ((0, b"p"), (1, b"p"), (2, b"q"))] == [False, True, False]


def test_int32_integral_box_means_are_the_float64_ones() -> None:
    image, cal = _board()
    canon = cal.warp(image)
    cx, cy, _ = _centres(cal)
    half = np.full(cx.shape, 9.3, np.float32)
    ii = cv2_integral(canon)
    assert ii.dtype == np.int32
    assert np.array_equal(ck.box_means(ii, cx, cy, half),
                          ck.box_means(np.asarray(cv2.integral(canon), np.float64), cx, cy, half))


def test_matched_change_is_numpys() -> None:
    rng = np.random.default_rng(5)
    small = rng.uniform(0, 255, (61, 83, 3)).astype(np.float32)
    bg = rng.uniform(0, 255, (61, 83, 3)).astype(np.float32)
    for gain in (np.float32([0.99, 1.03, 0.87]), np.float32([1.7, 0.5, 1.0]), np.float32([1 / 3, 2.0, 1.01])):
        want = np.abs(small * gain - bg).max(axis=2)
        assert np.array_equal(matched_change(small, bg, gain), want)
        assert np.array_equal(matched_change(small[5:40, 7:60], bg[5:40, 7:60], gain), want[5:40, 7:60])
