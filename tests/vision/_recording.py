"""The frames of one recording of ``bench_video.py --size 640`` (seed 0), read against the board learnt
at set-up: shared by the small-dice tests (not a test module)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator

import numpy as np

from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.render import Truth
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scenes_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import learn_board


def recording(game: int, frames: int = 40) -> Iterator[tuple[int, Truth, np.ndarray, BoardReader | None]]:
    """Game ``game`` of ``bench_video.py --size 640`` (seed 0: its 640x360 table, its script with the
    illegal play it plants, its camera seed), its first ``frames`` frames: (index, truth, image, a
    reader of the board learnt on the set-up frame -- frame 1 -- with the true corners; None before)."""
    kw = reallike_game_tables(8, 0)[game]
    assert kw["width"] == 640
    moments = random_game(game, turns=8, plant_illegal=(2 + game % 6) if game % 2 == 0 else 0)
    reader: BoardReader | None = None
    with SimCamera(list(scenes_of(moments, **kw))[:frames], fps=10.0, seed=game) as cam:
        for i, f in enumerate(cam):
            truth = cam.last_truth
            assert truth is not None
            if i == 1:
                with contextlib.redirect_stdout(io.StringIO()):
                    reader = BoardReader(learn_board(f.image, Calibration(truth.corners, home=truth.home)))
            yield i, truth, f.image, reader


def dice_read_from(game: int, first: int, frames: int) -> Iterator[tuple[int, Truth, list[DieReading]]]:
    """The dice the learnt board's reader reads on frames ``first`` to ``frames - 1`` of
    :func:`recording` (every frame from set-up on is read, so the reader remembers what lay still)."""
    for i, truth, image, reader in recording(game, frames=frames):
        if reader is None:
            continue
        dice = reader.read(image).dice
        if i >= first:
            yield i, truth, list(dice)
