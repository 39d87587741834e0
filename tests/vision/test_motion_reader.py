"""Observation.motion from a BoardReader fed SimCamera frames in order (no sleeps: fake clock).

The referee never gives a verdict from a frame with motion in it (verdict.py,
referee.py); the reader sets the flag when the picture changed since the
previous frame or a die is reported tumbling.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.scene import DieSpec, HandSpec, Look, Scene, scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.motion import BOARD_SHARE, MotionGate
from tavli_pi.vision.reader import BoardReader
from tavli_pi.sim.render import render

# sensor noise of up to 8 grey levels, new every frame (the hard set's worst), JPEG
LOOK = Look(noise=8.0, jpeg_quality=60, light_gradient=0.3)


def _scene(**kw: object) -> Scene:
    return dataclasses.replace(scene_from_position(Position.start()), look=LOOK, **kw)  # type: ignore[arg-type]


def _reader(scene: Scene) -> BoardReader:
    truth = render(scene, 0).truth
    return BoardReader(Calibration(truth.corners, home=truth.home))  # type: ignore[arg-type]


def _motion(scenes: list[Scene]) -> list[bool]:
    reader = _reader(scenes[0])
    with SimCamera(scenes, fps=10.0, seed=3) as cam:
        return [reader.read(f.image, f.index).motion for f in cam]


def test_a_still_board_is_still_despite_sensor_noise() -> None:
    scene = _scene()
    assert _motion([scene] * 5) == [False] * 5


def test_a_hand_reaching_in_and_out_is_motion() -> None:
    still = _scene()
    hands = [_scene(hand=HandSpec(u=0.7, v=v, size=0.2, from_side="bottom")) for v in (1.1, 0.85, 0.6)]
    got = _motion([still, still, *hands, still, still, still])
    # frame 2: the hand enters; 3-4: it moves; 5: it has gone -- the change is the hand's
    # leaving, the board is at rest again (checkers do not move by themselves)
    assert got == [False, False, True, True, True, False, False, False]


def test_checkers_that_change_with_no_hand_seen_are_motion() -> None:
    """Something changed on the board and no hand or die explains it: not at rest."""
    start = _scene()
    light = list(start.light)
    light[5] -= 1  # one light checker from point 6 to point 5
    light[4] += 1
    moved = dataclasses.replace(start, light=tuple(light))
    assert _motion([start, start, moved, moved]) == [False, False, True, False]


def test_a_die_thrown_and_tumbling_is_motion_until_it_settles() -> None:
    still = _scene()
    rolling = [
        _scene(dice=(DieSpec(4, u=u, v=0.5, angle=a, motion_blur=blur),))
        for u, a, blur in ((0.62, 10.0, 22.0), (0.70, 55.0, 14.0), (0.76, 80.0, 6.0))
    ]
    settled = _scene(dice=(DieSpec(4, u=0.78, v=0.5, angle=85.0),))
    got = _motion([still, *rolling, settled, settled, settled])
    # thrown and tumbling: motion; landed: the change is round a die whose pips are
    # sharp (not moving during the exposure), so the board is at rest again
    assert got == [False, True, True, True, False, False, False]


def test_a_die_reported_tumbling_counts_unless_the_picture_stands_still() -> None:
    """First frame: nothing to compare with, so a die the dice finder calls moving sets motion.
    The same smear in the next, unchanged pictures is no rolling die: no motion, so a
    misread smudge cannot stall the referee."""
    scene = _scene(dice=(DieSpec(3, u=0.7, v=0.45, angle=30.0, motion_blur=24.0),))
    reader = _reader(scene)
    with SimCamera([(scene, 3)], seed=1) as cam:
        obs = [reader.read(f.image, f.index) for f in cam]
    assert any(d.moving for d in obs[0].dice)  # the smear is seen as a tumbling die
    assert [o.motion for o in obs] == [True, False, False]
    assert all(o.extras["motion_share"] < BOARD_SHARE for o in obs)


def test_reset_forgets_the_previous_frame() -> None:
    start = _scene()
    light = list(start.light)
    light[5] -= 1
    light[4] += 1
    a = render(start, 0).image
    b = render(dataclasses.replace(start, light=tuple(light)), 0).image
    reader = _reader(start)
    assert reader.read(a).motion is False
    reader.reset_motion()
    assert reader.read(b).motion is False  # nothing to compare with after a reset
    assert reader.read(a).motion is True
    assert reader.read(a).extras["motion_share"] == 0.0


def test_motion_gate_ignores_small_flicker_and_sees_a_die_sized_change() -> None:
    rng = np.random.default_rng(2)
    base = rng.integers(60, 200, (148, 185, 3), dtype=np.uint8)
    gate = MotionGate(share=BOARD_SHARE)  # as the reader runs it on the quarter-scale board
    assert gate(base) is False
    flicker = np.clip(base.astype(int) + rng.integers(-6, 7, base.shape), 0, 255).astype(np.uint8)
    assert gate(flicker) is False
    moved = flicker.copy()
    moved[70:76, 90:96] = 255 - moved[70:76, 90:96]  # a die-sized patch at quarter scale
    assert gate(moved) is True



def _gained(image: np.ndarray, gain: float) -> np.ndarray:
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def test_motion_gate_takes_the_picture_brightening_as_a_whole_for_the_camera() -> None:
    """A camera's automatic exposure stepping, or a mains-lit room flickering, brightens or darkens
    every pixel by one share: nothing moved. A die-sized change in such a frame is still motion."""
    rng = np.random.default_rng(4)
    base = rng.integers(60, 220, (148, 185, 3), dtype=np.uint8)
    gate = MotionGate(share=BOARD_SHARE)
    assert gate(base) is False
    for gain in (1.05, 0.95, 1.1, 1.0):
        assert gate(_gained(base, gain)) is False, gain
        assert gate(base) is False, gain
    moved = _gained(base, 1.06)
    moved[70:76, 90:96] = 255 - moved[70:76, 90:96]
    assert gate(moved) is True
    assert gate(base) is True  # the die's patch changed back


def test_a_board_under_flickering_light_is_still_and_a_moved_checker_is_not() -> None:
    """The reader on frames whose brightness alternates by 6 % (a room lit by the mains): the still
    board is still; a checker moved between two such frames is motion."""
    start = _scene()
    light = list(start.light)
    light[5] -= 1
    light[4] += 1
    a, b = render(start, 0).image, render(dataclasses.replace(start, light=tuple(light)), 0).image
    reader = _reader(start)
    frames = [_gained(a, 1.0 + 0.06 * (-1) ** i) for i in range(4)]
    assert [reader.read(f).motion for f in frames] == [False] * 4
    assert reader.read(_gained(b, 1.06)).motion is True


def test_a_die_reported_tumbling_where_it_lay_last_frame_is_still(monkeypatch: pytest.MonkeyPatch) -> None:
    """Traced real-like game 2 (seed 0, 640 px beech table): a 9 px die the dice finder called
    tumbling frame after frame while it lay still set motion on every frame (the picture never
    stands quite still there), so the roll never settled and the planted illegal play beside it was
    never judged. A die reported tumbling where a die lay the frame before has not moved: the
    frames after it landed are still; a thrown die that travels is motion (tests above).

    That die is a six whose pips blur into two bars: the dice finder now reads it as a still die
    (``six_bars``, stop 15). With that recognition off, the finder reports it tumbling as it did,
    which is the case this test is about: any die the finder cannot read as a face (a smear, a
    cocked die) may be reported tumbling where it lay."""
    import tavli_pi.vision.dice_face as dice_face

    monkeypatch.setattr(dice_face, "bar_six", lambda crop, span: 0.0)
    from tavli_pi.sim.datasets import reallike_game_tables
    from tavli_pi.sim.script import random_game
    from tavli_pi.sim.table import scene_of, scenes_of

    kw = reallike_game_tables(3, 0)[2]
    moments = random_game(2, turns=8, plant_illegal=5)[30:35]  # still; Black throws; the dice lie
    truth = render(scene_of(moments[0], **kw)).truth
    reader = BoardReader(Calibration(truth.corners, home=kw["home"]))  # type: ignore[arg-type]
    with SimCamera(scenes_of(moments, **kw), fps=10.0, seed=2) as cam:
        obs = [reader.read(f.image, f.index) for f in cam]
    assert [d.moving for d in obs[3].dice].count(True) == 1 and len(obs[3].dice) == 2
    assert obs[1].motion  # the throw
    assert [o.motion for o in obs[3:]] == [False, False]  # lying where they lay


def test_a_jpeg_camera_s_still_frames_are_still_and_its_rolls_still_move() -> None:
    """Real-like game 103 (beech, 640 px JPEG): on the still frames after dice landed, a few dozen
    scattered pixels passed the gate's level (JPEG block errors), so the frames were motion and the
    play made with them was never judged. Block means within the camera's learnt floor are no
    motion; the dice thrown still are."""
    from bench.bench_reallike import game_camera, game_plans, game_script
    from tavli_pi.vision.setup import learn_board

    kw, plant = game_plans(200, 0, 8)[103]
    cam = game_camera(game_script(103, 0, 8, plant), kw, 103, 0)
    moving: dict[int, bool] = {}
    tumbling: dict[int, bool] = {}
    with cam:
        for f in cam:
            if f.index == 2:  # the set-up board, still
                t = cam.last_truth
                reader = BoardReader(learn_board(f.image, Calibration(t.corners, home=t.home)), incremental=True)
            if f.index >= 2:
                moving[f.index] = reader.read(f.image, f.index).motion
                tumbling[f.index] = any(d.moving for d in cam.last_truth.dice)
            if f.index == 34:
                break
    # the dice landed at 25 (6-4) and 32 (3-6); the frames after them, no hand, are still
    assert not any(moving[i] for i in (26, 27, 33, 34))
    # and every frame with a die tumbling is motion
    assert all(moving[i] for i in moving if tumbling[i] and i > 2)
