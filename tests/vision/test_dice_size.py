"""A die's reported size is its body's, edge to edge (issue 9): on recordings at 640x360 the
outlines the search finds a die by ran 8-18 % under the die (a 9.8 px die reported "7 px, need
8"), so the size gates (``dice_vet.LEAST_PX``, ``NEED_PX``) took readable dice for unreadable ones.
``dice_body.edge_side`` measures the side where the body's colour gives way to the ground's."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scenes_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import learn_board


def _ratios(game: int, frames: int) -> list[float]:
    """Reported over true size of each still die read on the first ``frames`` frames with still dice
    of game ``game`` of ``bench_video.py --size 640`` (seed 0; its table, script and camera seed),
    the board learnt on its set-up frame with the true corners."""
    kw = reallike_game_tables(8, 0)[game]
    assert kw["width"] == 640
    moments = random_game(game, turns=8, plant_illegal=(2 + game % 6) if game % 2 == 0 else 0)
    out: list[float] = []
    cal: Calibration | None = None
    reader: BoardReader | None = None
    with SimCamera(list(scenes_of(moments, **kw))[:40], fps=10.0, seed=game) as cam:
        for i, f in enumerate(cam):
            truth = cam.last_truth
            assert truth is not None
            if i == 1:
                with contextlib.redirect_stdout(io.StringIO()):
                    cal = learn_board(f.image, Calibration(truth.corners, home=truth.home))
                reader = BoardReader(cal)
            still = [d for d in truth.dice if not d.moving]
            if reader is None or not still:
                continue
            for d in reader.read(f.image).dice:
                near = [t for t in still if np.hypot(t.xy[0] - d.xy[0], t.xy[1] - d.xy[1]) < 0.9 * t.size_px]
                if near and not d.moving and d.size_px:
                    out.append(d.size_px / near[0].size_px)
            frames -= 1
            if frames == 0:
                break
    return out


@pytest.mark.parametrize("game", [2, 4])  # beech (dice of 10.6 px), wood (10.2-11.4 px)
def test_small_dice_are_reported_at_their_size(game: int) -> None:
    r = np.asarray(_ratios(game, 8))
    assert len(r) >= 8
    # measured: beech median 1.03, wood 0.99 (the outlines': 0.88, 0.91)
    assert 0.95 <= float(np.median(r)) <= 1.08, np.round(r, 2)
    assert float(r.min()) >= 0.85, np.round(r, 2)
