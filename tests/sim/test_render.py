"""render(): determinism, exact truth, every pose and board, layout numbering."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from tavli_pi.errors import ConfigError
from tavli_pi.rules.position import Position, Side
from tavli_pi.sim import _layout as L
from tavli_pi.sim.render import BAR_U, die_half, render
from tavli_pi.sim.scene import (
    BOARDS,
    CameraPose,
    CubeSpec,
    DieSpec,
    HandSpec,
    Look,
    Scene,
    scene_from_position,
)
from tests.sim.helpers import canon_to_image

EMPTY = (0,) * 24


def _empty(**kw: object) -> Scene:
    kw.setdefault("cube", None)
    return Scene(light=EMPTY, dark=EMPTY, **kw)  # type: ignore[arg-type]


def test_same_seed_same_pixels_other_seed_other_noise() -> None:
    scene = scene_from_position(
        Position.start(),
        dice=(DieSpec(4, 0.7, 0.5, 10, "cocked"), DieSpec(2, 0.8, 0.5, motion_blur=12)),
        hand=HandSpec(0.3, 0.7),
        look=Look(light_gradient=0.4, glare=0.3, noise=4, blur=0.8, jpeg_quality=70),
        pose=CameraPose(12, 3, 1.15, (0.01, -0.02), 40),
    )
    a, b, c = render(scene, 7), render(scene, 7), render(scene, 8)
    assert np.array_equal(a.image, b.image)
    assert np.array_equal(a.truth.corners, b.truth.corners)
    assert not np.array_equal(a.image, c.image)
    assert a.image.shape == (720, 1280, 3) and a.image.dtype == np.uint8


def test_output_size_follows_scene() -> None:
    r = render(scene_from_position(Position.start(), width=640, height=480))
    assert r.image.shape == (480, 640, 3)
    assert (r.truth.corners >= 0).all() and (r.truth.corners[:, 0] < 640).all()


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("pose", ["flat", "cocked", "leaning", "on_checker", "tumbling"])
def test_every_die_pose_on_every_board_draws_the_die(board: str, pose: str) -> None:
    kw = {"motion_blur": 15.0} if pose == "tumbling" else {"pose": pose}
    die = DieSpec(5, 0.75, 0.5, 30, **kw)  # type: ignore[arg-type]
    plain = render(_empty(look=Look(board=board)), 3)
    with_die = render(_empty(look=Look(board=board), dice=(die,)), 3)
    x, y = (int(round(c)) for c in with_die.truth.dice[0].xy)
    diff = cv2.absdiff(plain.image, with_die.image).max(axis=2)
    assert diff[y - 20 : y + 20, x - 20 : x + 20].mean() > 10  # the die is there
    assert diff[:, : x - 60].max() == 0  # and nothing else changed
    t = with_die.truth.dice[0]
    assert t.value == 5 and t.half == "right"
    assert t.flat == (pose == "flat")
    assert t.on_checker == (pose in ("leaning", "on_checker"))
    assert t.moving == (pose == "tumbling") == with_die.truth.motion


@pytest.mark.parametrize(
    "pose",
    [CameraPose(), CameraPose(20, 8, 1.2, (0.03, -0.03), 120), CameraPose(15, -6, 1.1, (-0.02, 0.0), 300)],
)
def test_die_truth_xy_is_where_the_die_is_drawn(pose: CameraPose) -> None:
    dice = (DieSpec(6, 0.25, 0.5, 0), DieSpec(1, 0.78, 0.45, 45))
    plain = render(_empty(pose=pose), 0)
    r = render(_empty(pose=pose, dice=dice), 0)
    diff = cv2.absdiff(plain.image, r.image).max(axis=2) > 30
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(diff.astype(np.uint8))
    blobs = [centroids[i] for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 60]
    assert len(blobs) == 2
    for t in r.truth.dice:
        # the shadow pulls the blob's centroid a little down-right of the die centre
        assert min(np.hypot(*(b - np.array(t.xy))) for b in blobs) < 3.5


def _field_vs_frame(image: np.ndarray, corners: np.ndarray) -> tuple[float, float]:
    """Share of bright pixels just inside the field, and of dark ones just outside."""
    c = corners.astype(np.float64)
    centre = c.mean(axis=0)
    def poly(k: float) -> np.ndarray:
        m = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(centre + (c - centre) * k).astype(np.int32), 1)
        return m
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ring_out = (poly(1.025) - poly(1.006)).astype(bool)
    return float((grey[ring_out] < 70).mean()), float(grey[poly(0.95).astype(bool)].mean())


@pytest.mark.parametrize("home", ["bottom-right", "bottom-left"])
def test_corners_are_the_field_edges_under_any_allowed_pose(home: str) -> None:
    rng = np.random.default_rng(4)
    for _ in range(4):
        pose = CameraPose(
            float(rng.uniform(0, 20)), float(rng.uniform(-8, 8)), float(rng.uniform(1.1, 1.35)),
            (float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03))), float(rng.uniform(0, 360)),
        )
        r = render(_empty(pose=pose, home=home))  # type: ignore[arg-type]
        dark_out, bright_in = _field_vs_frame(r.image, r.truth.corners)
        assert dark_out > 0.97, pose  # a thin ring just outside the corners is all frame
        assert bright_in > 120, pose  # inside is the cream field


@pytest.mark.parametrize("home,first_col", [("bottom-right", 11), ("bottom-left", 0)])
def test_point_numbering_and_stacking(home: str, first_col: int) -> None:
    light = [0] * 24
    dark = [0] * 24
    light[0] = 3  # light's point 1
    dark[23] = 2  # light's point 24, top row on the same side
    r = render(Scene(light=tuple(light), dark=tuple(dark), home=home, cube=None))  # type: ignore[arg-type]
    lay = L.layout(home)
    assert lay.column(1) == first_col == lay.column(24)
    grey = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
    stack1 = lay.stack(1, 4)  # where a 4th checker would go
    for k, (x, y) in enumerate(stack1):
        gx, gy = canon_to_image(r.truth, x, y)
        if k < 3:
            assert grey[gy, gx] > 200  # a white checker
        else:
            assert grey[gy, gx] < 100  # the bare (black) point
        assert gy > 360  # bottom half
    for x, y in lay.stack(24, 2):
        gx, gy = canon_to_image(r.truth, x, y)
        assert grey[gy, gx] < 60 and gy < 360  # black checkers along the top
    assert (canon_to_image(r.truth, *stack1[0])[0] > 640) == (home == "bottom-right")


def test_tall_stacks_compress_toward_the_middle() -> None:
    lay = L.layout("bottom-right")
    five, fifteen = lay.stack(6, 5), lay.stack(6, 15)
    assert five[-1] == pytest.approx(fifteen[-1])  # 15 reach no farther than 5
    assert fifteen[1][1] - fifteen[0][1] > -2 * L.R  # they overlap


@pytest.mark.parametrize("home", ["bottom-right", "bottom-left"])
@pytest.mark.parametrize("trays", ["home", "away"])
def test_bar_halves_and_tray_stripes(home: str, trays: str) -> None:
    r = render(_empty(bar=(2, 1), off=(5, 0), home=home, trays=trays))
    lay = L.layout(home, trays)
    tray_right = (home == "bottom-right") == (trays == "home")
    assert (lay.tray_x0 > lay.fx0) == tray_right
    grey = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
    for x, y in lay.bar_stack(True, 2):
        gx, gy = canon_to_image(r.truth, x, y)
        assert grey[gy, gx] > 200 and gy > 360
    (x, y), = lay.bar_stack(False, 1)
    gx, gy = canon_to_image(r.truth, x, y)
    assert gy < 360
    stripes = lay.tray_stripes(True, 5)
    for x, y in stripes:
        gx, gy = canon_to_image(r.truth, x, y)
        assert grey[gy, gx] > 180  # a white checker standing on edge
    gx, gy = canon_to_image(r.truth, *lay.tray_stripes(True, 7)[6])
    assert grey[gy, gx] < 100  # nothing beyond the fifth


def test_hand_changes_the_pixels_around_it() -> None:
    base = scene_from_position(Position.start())
    plain = render(base, 2)
    import dataclasses

    r = render(dataclasses.replace(base, hand=HandSpec(0.3, 0.5, 0.2, "left")), 2)
    assert r.truth.hand and not plain.truth.hand
    lay = L.layout("bottom-right")
    x, y = canon_to_image(r.truth, *lay.uv_to_px(0.3, 0.5))
    diff = cv2.absdiff(plain.image, r.image).max(axis=2)
    assert diff[y - 30 : y + 30, x - 30 : x + 30].mean() > 40
    assert (diff > 30).mean() > 0.03  # an arm, not a speck


def test_die_halves_follow_u_v() -> None:
    assert die_half(0.2, 0.5) == "left"
    assert die_half(0.9, 0.1) == "right"
    assert die_half((BAR_U[0] + BAR_U[1]) / 2, 0.4) == "bar"
    assert die_half(1.05, 0.5) == "outside" and die_half(0.5, -0.02) == "outside"
    dice = (DieSpec(1, 0.2, 0.5), DieSpec(2, 0.5, 0.3), DieSpec(3, 1.06, 0.5), DieSpec(4, 0.7, 0.5))
    r = render(_empty(dice=dice))
    assert [t.half for t in r.truth.dice] == ["left", "bar", "outside", "right"]
    inside = r.truth.corners
    assert cv2.pointPolygonTest(inside, r.truth.dice[2].xy, False) < 0
    assert cv2.pointPolygonTest(inside, r.truth.dice[0].xy, False) > 0


@pytest.mark.parametrize("place", ["middle", "light", "dark"])
def test_cube_places_and_faces(place: str) -> None:
    plain = render(_empty())
    for value in (1, 8, 64):
        r = render(_empty(cube=CubeSpec(value, place)))  # type: ignore[arg-type]
        assert (r.truth.cube_place, r.truth.cube_value) == (place, value)
        x, y = canon_to_image(r.truth, *L.layout("bottom-right").cube_xy(place))
        diff = cv2.absdiff(plain.image, r.image).max(axis=2)
        assert diff[y - 12 : y + 12, x - 12 : x + 12].mean() > 30
    assert render(_empty(cube=CubeSpec(2, "none"))).truth.cube_place == "none"


def test_effects_change_pixels_not_truth() -> None:
    base = scene_from_position(Position.start(), dice=(DieSpec(3, 0.7, 0.5),))
    clean = render(base, 1)
    import dataclasses

    for look in (Look(noise=6), Look(blur=1.5), Look(jpeg_quality=30), Look(glare=0.6), Look(light_gradient=0.6)):
        r = render(dataclasses.replace(base, look=look), 1)
        assert cv2.absdiff(clean.image, r.image).mean() > 0.3, look
        assert r.truth.dice == clean.truth.dice and np.array_equal(r.truth.corners, clean.truth.corners)


def test_scene_from_position_in_both_numberings() -> None:
    pos = Position.from_counts({6: 5, 8: 3, 13: 5}, {1: 2, 11: 5, 16: 3, 20: 5}, bar=(1, 0))
    s = scene_from_position(pos)
    assert s.light[5] == 5 and s.dark[23] == 2 and s.bar == (1, 0) and s.off == (1, 0)
    flipped = scene_from_position(pos, light_is_white=False)
    # Black is light now: Black's own point 1 is the light player's point 1
    assert flipped.light[0] == pos.count(Side.BLACK, 1) == 2
    assert flipped.dark[18] == 5  # White's 6-point is Black's (light's) 19
    assert flipped.bar == (0, 1) and flipped.totals() == (15, 15)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: DieSpec(7, 0.5, 0.5),
        lambda: DieSpec(3, 0.5, 0.5, pose="rolling"),  # type: ignore[arg-type]
        lambda: CubeSpec(3, "middle"),
        lambda: Look(board="plastic"),
        lambda: Scene(light=(0,) * 23, dark=EMPTY),
        lambda: CameraPose(tilt_deg=70),
    ],
)
def test_bad_specs_say_what_to_fix(bad: object) -> None:
    with pytest.raises(ConfigError):
        bad()  # type: ignore[operator]


def test_pose_extremes_keep_the_field_in_view() -> None:
    from tavli_pi.sim.datasets import POSE_LIMITS

    lim = POSE_LIMITS
    for tilt, rot, height, sx, sy, tdir in itertools.product(
        lim["tilt_deg"], lim["rotation_deg"], lim["height"], lim["shift"], lim["shift"], (0, 45, 90, 135, 180, 225, 270, 315)
    ):
        for home in ("bottom-right", "bottom-left"):
            from tavli_pi.sim._pose import homography, project

            lay = L.layout(home)
            h = homography(CameraPose(tilt, rot, height, (sx, sy), tdir), lay, 1280, 720)
            c = project(h, np.array(lay.field_corners))
            assert (c >= 0).all() and (c[:, 0] < 1280).all() and (c[:, 1] < 720).all()


def test_noise_seed_changes_only_the_noise_and_dice_keep_their_faces() -> None:
    import dataclasses

    one = scene_from_position(
        Position.start(), dice=(DieSpec(4, 0.7, 0.5, 0, "cocked"),), look=Look(glare=0.5, light_gradient=0.5, noise=3)
    )
    a, b = render(one, 3, noise_seed=1), render(one, 3, noise_seed=2)
    d = cv2.absdiff(a.image, b.image).astype(np.float32)
    assert 1.0 < d.mean() < 6.0  # sensor noise, not a moved glare spot or a re-rolled die
    smooth_a = cv2.GaussianBlur(a.image, (0, 0), 6).astype(int)
    smooth_b = cv2.GaussianBlur(b.image, (0, 0), 6).astype(int)
    assert np.abs(smooth_a - smooth_b).max() < 8  # the light and glare did not move
    two = dataclasses.replace(one, dice=one.dice + (DieSpec(2, 0.2, 0.5),), look=Look())
    c, e = render(dataclasses.replace(one, look=Look()), 3), render(two, 3)
    x, y = (int(v) for v in c.truth.dice[0].xy)
    assert np.array_equal(c.image[y - 25 : y + 25, x - 25 : x + 25], e.image[y - 25 : y + 25, x - 25 : x + 25])


def test_truth_as_a_perfect_observation() -> None:
    pos = Position.from_counts({6: 5, 8: 3, 13: 5}, {1: 2, 11: 5, 16: 3, 20: 5}, bar=(1, 0))
    dice = (DieSpec(3, 0.2, 0.5), DieSpec(5, 0.3, 0.45, pose="cocked"))
    r = render(scene_from_position(pos, dice=dice, cube=CubeSpec(2, "dark")))
    obs = r.truth.to_observation(frame_index=7)
    light, dark = obs.best_counts()
    assert tuple(light) == r.truth.light and tuple(dark) == r.truth.dark
    assert (obs.bar.light.best, obs.off.light.best) == (1, 1)
    assert [(d.value, d.flat, d.half) for d in obs.dice] == [(3, True, "left"), (5, False, "left")]
    assert obs.cube is not None and (obs.cube.value, obs.cube.place) == (2, "dark")
    assert obs.frame_index == 7 and not obs.hand
