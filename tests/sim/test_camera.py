"""SimCamera: frames from scenes, a fake clock, lazy input, idempotent close."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from tavli_pi.errors import CameraError
from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import SimCamera, open_sim_camera
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec, Scene, scene_from_position
from tavli_pi.sources import register_sources
from tavli_pi.vision.camera import Camera, open_camera

START = scene_from_position(Position.start())
ROLLED = scene_from_position(Position.start(), dice=(DieSpec(3, 0.7, 0.5), DieSpec(1, 0.8, 0.5)))


def test_plays_scenes_and_repeats_with_index_time() -> None:
    cam = SimCamera([START, (ROLLED, 2)], fps=4.0, seed=10)
    assert isinstance(cam, Camera)
    frames = list(cam)
    assert [(f.index, f.t) for f in frames] == [(0, 0.0), (1, 0.25), (2, 0.5)]
    assert np.array_equal(frames[0].image, render(START, 10, 10).image)
    assert np.array_equal(frames[2].image, render(ROLLED, 10, 12).image)
    assert cam.last_truth is not None and len(cam.last_truth.dice) == 2
    assert cam.read() is None


def test_hold_shows_the_last_scene_again_before_the_scenes_to_come() -> None:
    cam = SimCamera([START, ROLLED], fps=4.0, seed=10)
    assert not cam.hold(1)  # no frame read yet: nothing to hold
    first = cam.read()
    assert first is not None and cam.hold(2)
    held = [cam.read(), cam.read()]
    assert [(f.index, f.t) for f in held if f is not None] == [(1, 0.25), (2, 0.5)]  # time goes on
    assert all(f is not None and np.array_equal(f.image, render(START, 10, 10 + f.index).image) for f in held)
    last = cam.read()
    assert last is not None and np.array_equal(last.image, render(ROLLED, 10, 13).image)
    assert cam.read() is None


def test_injected_clock_stamps_frames() -> None:
    now = [100.0]

    def clock() -> float:
        now[0] += 0.5
        return now[0]

    with SimCamera([(START, 3)], clock=clock) as cam:
        assert [f.t for f in cam] == [100.5, 101.0, 101.5]


def test_scenes_are_consumed_lazily() -> None:
    pulled: list[int] = []

    def script() -> Iterator[Scene]:
        for i in range(1000):
            pulled.append(i)
            yield START

    cam = SimCamera(script())
    cam.read()
    cam.read()
    assert pulled == [0, 1]


def test_still_scene_only_the_noise_moves_and_vary_false_freezes_it() -> None:
    import dataclasses

    from tavli_pi.sim.scene import Look

    noisy = dataclasses.replace(ROLLED, look=Look(noise=3, glare=0.5))
    live = list(SimCamera([(noisy, 2)]))
    diff = np.abs(live[0].image.astype(int) - live[1].image.astype(int))
    assert 0.5 < diff.mean() < 6
    frozen = list(SimCamera([(noisy, 2)], vary=False))
    assert np.array_equal(frozen[0].image, frozen[1].image)


def test_close_is_idempotent_and_reading_after_close_fails() -> None:
    cam = SimCamera([(START, 5)])
    cam.read()
    cam.close()
    cam.close()
    assert cam.closed
    with pytest.raises(CameraError):
        cam.read()


def test_bad_inputs() -> None:
    with pytest.raises(CameraError):
        SimCamera([START], fps=0)
    with pytest.raises(CameraError):
        list(SimCamera([("not a scene", 2)]))  # type: ignore[list-item]
    with pytest.raises(CameraError):
        open_sim_camera("nonsense")


def test_open_camera_sim_specs() -> None:
    register_sources()  # what the app does before it opens its configured camera
    with open_camera("sim:start:2", fps=2.0) as cam:
        assert [f.t for f in cam] == [0.0, 0.5]
    endless = open_camera("sim:")
    assert all(endless.read() is not None for _ in range(3))
    endless.close()
    with open_sim_camera("easy:3", seed=5) as cam:
        assert len(list(cam)) == 3
