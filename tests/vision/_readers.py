"""A full and an incremental reader of a simulated camera's board, calibrated as the app does (the
set-up frame is the training example): shared by the tests that compare the two (not a test module)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.render import Truth
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import learn_board


def full_and_incremental(cam: SimCamera, image: np.ndarray) -> tuple[BoardReader, BoardReader]:
    """Readers of ``cam``'s board learnt from ``image``, the frame ``cam`` just gave (its truth)."""
    truth = cam.last_truth
    assert truth is not None
    cal = learn_board(image, Calibration(truth.corners, home=truth.home))  # type: ignore[arg-type]
    return BoardReader(cal), BoardReader(cal, incremental=True)


def read_both(cam: SimCamera) -> Iterator[tuple[int, Observation, Observation, BoardReader]]:
    """Every frame of ``cam`` read by a full and an incremental reader (:func:`full_and_incremental`,
    learnt from its first frame): (frame index, full reading, incremental reading, the incremental reader)."""
    full = inc = None
    with cam:
        for frame in cam:
            if full is None or inc is None:
                full, inc = full_and_incremental(cam, frame.image)
            b = inc.read(frame.image, frame.index)
            yield frame.index, full.read(frame.image, frame.index), b, inc


def game_frame(game: int, at: int) -> tuple[Truth, Observation]:
    """(the truth, the reading) of frame ``at`` of real-like game ``game`` (seed 0, ``bench_reallike``'s
    table, script and camera), read against the board learnt from its still set-up frame (frame 2)."""
    from bench.bench_reallike import game_camera, game_plans, game_script

    kw, plant = game_plans(200, 0, 8)[game]
    cam = game_camera(game_script(game, 0, 8, plant), kw, game, 0)
    cal: Calibration | None = None
    with cam:
        for f in cam:
            if f.index == 2:
                t = cam.last_truth
                assert t is not None
                cal = learn_board(f.image, Calibration(t.corners, home=t.home))  # type: ignore[arg-type]
            if f.index == at and cal is not None and cam.last_truth is not None:
                return cam.last_truth, BoardReader(cal).read(f.image)
    raise AssertionError(f"game {game} has no frame {at} after its set-up frame")
