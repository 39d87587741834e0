"""easy_set / hard_set: seeded, 15 checkers a colour, the variety the issue asks for."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.datasets import POSE_LIMITS, easy_scenes, easy_set, hard_scenes, hard_set, random_layout
from tavli_pi.sim.render import die_half


def _check_counts(light: tuple[int, ...], dark: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int]) -> None:
    assert sum(light) + bar[0] + off[0] == 15
    assert sum(dark) + bar[1] + off[1] == 15
    assert not any(a and b for a, b in zip(light, dark))  # never both colours on a point


def test_sets_are_deterministic_by_seed() -> None:
    a, b, c = easy_set(3, 4), easy_set(3, 4), easy_set(3, 5)
    assert all(np.array_equal(x.image, y.image) for x, y in zip(a, b))
    assert not np.array_equal(a[0].image, c[0].image)
    h1, h2 = hard_set(2, 9), hard_set(2, 9)
    assert all(np.array_equal(x.image, y.image) for x, y in zip(h1, h2))
    assert hard_scenes(20, 3) == hard_scenes(20, 3)


def test_random_layouts_account_for_every_checker() -> None:
    rng = np.random.default_rng(0)
    for cap, min_cap in ((5, 1), (15, 6)):
        for _ in range(200):
            light, dark, bar, off = random_layout(rng, cap=cap, max_bar=3, max_off=8, min_cap=min_cap)
            _check_counts(light, dark, bar, off)
            assert max(light + dark) <= cap


def test_easy_scenes_are_mild() -> None:
    for s in easy_scenes(40, 1):
        _check_counts(s.light, s.dark, s.bar, s.off)
        assert max(s.light + s.dark) <= 5
        assert s.pose.tilt_deg <= 3 and s.look.board == "tournament" and s.hand is None
        assert all(d.pose == "flat" and d.motion_blur == 0 for d in s.dice)
        assert len({die_half(d.u, d.v) for d in s.dice}) <= 1  # one roll lies in one half


def test_hard_scenes_cover_the_issue() -> None:
    scenes = hard_scenes(80, 2)
    poses = {d.pose for s in scenes for d in s.dice}
    halves = {die_half(d.u, d.v) for s in scenes for d in s.dice}
    assert poses == {"flat", "cocked", "leaning", "on_checker"}
    assert halves == {"left", "right", "bar", "outside"}
    assert any(d.motion_blur > 0 for s in scenes for d in s.dice)
    assert {s.look.board for s in scenes} == {"tournament", "wood", "green"}
    assert any(s.hand for s in scenes) and not all(s.hand for s in scenes)
    assert {s.cube.place for s in scenes if s.cube} == {"middle", "light", "dark", "none"}
    assert any(s.look.jpeg_quality for s in scenes) and any(s.look.glare for s in scenes)
    assert max(s.pose.tilt_deg for s in scenes) > 15
    for s in scenes:
        _check_counts(s.light, s.dark, s.bar, s.off)
        assert max(s.light + s.dark) >= 6  # a tall stack somewhere
        lo, hi = POSE_LIMITS["tilt_deg"]
        assert lo <= s.pose.tilt_deg <= hi


def test_hard_set_truth_matches_its_scenes() -> None:
    scenes = hard_scenes(6, 1)
    for s, r in zip(scenes, hard_set(6, 1)):
        t = r.truth
        assert (t.light, t.dark, t.bar, t.off) == (s.light, s.dark, s.bar, s.off)
        assert [d.half for d in t.dice] == [die_half(d.u, d.v) for d in s.dice]
        assert t.hand == (s.hand is not None)
        c = t.corners
        assert (c >= 0).all() and (c[:, 0] < s.width).all() and (c[:, 1] < s.height).all()
