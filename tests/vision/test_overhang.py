"""An edge's first checkers overhanging the field's edge, learnt from the photo (vision/overhang.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tavli_pi.vision import checkers as ck
from tavli_pi.vision import stacks
from tavli_pi.vision.calibrate import calibrate_image
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.setup import learn_board
from tavli_pi.vision.overhang import REACH, SEATED, SLACK, edge_shifts, per_point
from tavli_pi.vision.reader import BoardReader
from tests.vision._eval import known_of_label, real_frames, score_real


def test_an_edge_moves_by_its_own_sure_checkers_only() -> None:
    top = np.r_[np.zeros(12, bool), np.ones(12, bool)]
    d = np.r_[np.full(12, 0.6), np.full(12, 1.3)]
    p = np.full(24, 0.99)
    p[0] = 0.2  # not sure: not measured
    d[0] = 0.2
    shifts = edge_shifts(d, p, top)
    assert np.allclose(shifts[:12], 0.6 - (SEATED - SLACK))  # the bottom edge overhangs
    assert np.all(shifts[12:] == 0.0)  # the top edge's checkers sit further in: left alone
    # too few sure checkers on an edge to tell: nothing moves
    few = np.zeros(24)
    few[[1, 2]] = 0.99
    assert np.all(edge_shifts(d, few, top) == 0.0)
    # seated checkers, or further in: nothing moves
    assert np.all(edge_shifts(np.full(24, SEATED - SLACK), p, top) == 0.0)
    assert np.all(edge_shifts(np.full(24, SEATED + 0.3), p, top) == 0.0)


def test_an_edges_offset_follows_its_checkers_smoothly() -> None:
    """A field found a pixel higher or lower moves the first checkers' median a little: the offset moves
    as little (stop 39: a median just under 0.8 radii gave -0.2, just over it 0 -- WTC frame1's
    near-edge blot read 0.52-0.95 with 2 px of field)."""
    top = np.r_[np.zeros(12, bool), np.ones(12, bool)]
    p = np.full(24, 0.99)
    medians = np.linspace(0.3, 1.3, 101)
    got = np.array([edge_shifts(np.r_[np.full(12, m), np.full(12, 1.2)], p, top)[0] for m in medians])
    assert np.all(np.abs(np.diff(got)) <= np.diff(medians) + 1e-6)  # no step anywhere
    assert np.all(np.diff(got) >= -1e-6)  # nearer the base, never less of an offset
    assert np.isclose(got[0], REACH) and got[-1] == 0.0  # (clipped where the measuring window begins)
    # the window never reaches nearer the base than the measuring window begins
    assert np.all(per_point((-2.0, -0.1), top) >= REACH)


def test_the_wtc_near_edge_blot_is_read_with_the_field_found(real_data: Path) -> None:
    """WTC 2022 frame1 read as ``tavli-pi read`` reads it (no corners): the near edge's checkers
    overhang the found field, and the dark blot on point 12 was read as none (P(0) = 0.69)."""
    f = next(f for f in real_frames(real_data) if f.name == "frame1.jpg")
    obs = BoardReader(calibrate_image(f.image), still_photo=True).read(f.image)
    assert obs.points[11].dark.best == 1 and obs.points[11].light.best == 0
    assert obs.points[11].dark.confidence >= 0.9
    assert score_real(f, obs, 0.025 * max(f.image.shape[:2])).perfect


def _frame1(real_data: Path) -> Any:
    return next(f for f in real_frames(real_data) if f.name == "frame1.jpg")


def test_the_board_learns_its_edges_overhang_at_set_up_and_reads_with_it(real_data: Path) -> None:
    """At set-up (here: WTC frame1's labelled position, with the field found as ``tavli-pi read`` finds
    it) the board learns how far each edge's first checkers overhang (``Calibration.overhang``), and a
    reader with that calibration moves the near edge's window by it: the blot on point 12 is read."""
    f = _frame1(real_data)
    cal = learn_board(f.image, calibrate_image(f.image), known_of_label(f.truth))
    assert cal.overhang is not None
    top, bottom = cal.overhang
    # the picture's bottom edge is the near one, whichever edge of the canonical view it is
    ends = cal.to_image(np.float32([cal.layout.to_px(0.5, 0.0), cal.layout.to_px(0.5, 1.0)]))
    near, far = (top, bottom) if ends[0][1] > ends[1][1] else (bottom, top)
    assert near < -0.1 and far > near + 0.1, cal.overhang
    obs = BoardReader(cal, still_photo=True).read(f.image)
    assert obs.points[11].dark.best == 1 and obs.points[11].dark.confidence >= 0.9
    assert score_real(f, obs, 0.025 * max(f.image.shape[:2])).perfect
    assert Calibration.from_dict(cal.to_dict()).overhang == cal.overhang


@pytest.mark.parametrize("way", ["photo", "learnt"])
def test_the_near_edge_blot_is_read_alike_with_the_field_a_few_px_off(real_data: Path, way: str) -> None:
    """The field found is a few px off the board's (the WTC labels' field is itself a rough rectangle):
    with WTC frame1's found field moved 1-4 px up or down, the near edge's dark blot on point 12 is read,
    surely, and so is the whole board -- as a photo (the overhang measured on it) and with the board
    learnt from it (``Calibration.overhang``) -- and the learnt offset moves smoothly with the field
    (stop 38: it jumped 0 / -0.29 / -0.42, the blot read 0 or 1 at 0.52-0.95)."""
    f = _frame1(real_data)
    found = calibrate_image(f.image)
    near = []
    for dy in (-4, -3, -2, -1, 0, 1, 2, 3, 4):
        cal = found.with_(corners=np.float32(found.corners) + np.float32([0, dy]))
        if way == "learnt":
            cal = learn_board(f.image, cal, known_of_label(f.truth))
            assert cal.overhang is not None
            ends = cal.to_image(np.float32([cal.layout.to_px(0.5, 0.0), cal.layout.to_px(0.5, 1.0)]))
            near.append(cal.overhang[0] if ends[0][1] > ends[1][1] else cal.overhang[1])
        obs = BoardReader(cal, still_photo=True).read(f.image)
        blot = obs.points[11].dark
        assert blot.best == 1 and blot.confidence >= 0.9 and obs.points[11].light.best == 0, (dy, blot)
        assert score_real(f, obs, 0.025 * max(f.image.shape[:2])).perfect, dy
    if way == "learnt":
        # a px of field moves the checkers about 0.05 radii: the offset follows, no step of a fifth of one
        assert np.all(np.abs(np.diff(near)) < 0.15), near


def test_with_a_learnt_overhang_a_point_reads_alone_as_with_the_others(real_data: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A learnt overhang is not measured again per frame (a point's reading would depend on the other
    points' checkers, and the incremental reader keeps unchanged points' readings): every point read
    on its own (``only``) reads as in the whole read."""
    f = _frame1(real_data)
    cal = learn_board(f.image, calibrate_image(f.image), known_of_label(f.truth))

    def measured(*args: Any, **kw: Any) -> np.ndarray:
        raise AssertionError("measured again with a learnt overhang")

    monkeypatch.setattr(stacks, "overhang_shifts", measured)
    canon = cal.warp(f.image)
    g, integral = ck.gradients(canon), stacks.cv2_integral(canon)
    whole = stacks.read_spots_pinned(canon, g, cal.layout, cal, integral)[0]
    for p in range(24):
        alone = stacks.read_spots_pinned(canon, g, cal.layout, cal, integral, only={p})[0][0]
        assert alone == whole[p], p


def test_a_calibration_saved_before_has_no_learnt_overhang() -> None:
    cal = Calibration(np.float32([[0, 0], [100, 0], [100, 80], [0, 80]]), overhang=(-0.3, 0.0))
    assert Calibration.from_dict(cal.to_dict()).overhang == (-0.3, 0.0)
    old = {k: v for k, v in cal.to_dict().items() if k != "overhang"}
    assert Calibration.from_dict(old).overhang is None


@pytest.mark.parametrize("thickness", [0.25, 0.0])
def test_thick_checkers_seen_from_a_leaning_camera_give_the_far_edge_an_overhang(thickness: float) -> None:
    """The simulator's thick checkers (sim/render.py): with the camera leaning over the bottom edge, the
    top faces move up the board, away from it -- towards the base on the far (top) edge, away from it on
    the near one. Set-up learns the far edge's overhang and leaves the near edge; flat checkers learn none."""
    import dataclasses

    from tavli_pi.rules.position import Position
    from tavli_pi.sim.render import render
    from tavli_pi.sim.scene import Build, CameraPose, scene_from_position
    from tavli_pi.vision.refine import refine

    scene = dataclasses.replace(scene_from_position(Position.start()), pose=CameraPose(tilt_deg=25.0, height=1.1),
                                build=Build(thickness=thickness))
    r = render(scene, 0)
    cal = learn_board(r.image, refine(Calibration(r.truth.corners, home=r.truth.home), r.image))
    assert cal.overhang is not None
    top, bottom = cal.overhang
    assert bottom == 0.0
    assert (top < -0.1) if thickness else (top == 0.0), cal.overhang
