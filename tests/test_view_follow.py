"""The field's corners kept on the picture (``tavli_pi/view_follow.py``); the whole app following a knocked,
turned or creeping picture is in ``tests/test_app_shift.py``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tavli_pi.record.store import MatchLog
from tavli_pi.view_follow import CALIBRATED_AT_KEY, MOVES_KEY, ViewFollow
from tavli_pi.vision.calibration import Calibration

CORNERS = [[100.0, 80.0], [1180.0, 80.0], [1180.0, 640.0], [100.0, 640.0]]


def _moved(dx: float) -> list[list[float]]:
    return [[x + dx, y] for x, y in CORNERS]


def test_a_resumed_run_reads_with_the_corners_in_force_at_its_frame(tmp_path: Path) -> None:
    cal = Calibration(np.asarray(CORNERS, np.float32))
    with MatchLog.open(tmp_path / "t.sqlite") as log:
        log.set_meta(CALIBRATED_AT_KEY, "10")
        # a move before the calibration's frame was made on another calibration; one after the resumed frame
        # had not happened yet at that frame
        log.set_meta(MOVES_KEY, json.dumps([[5, _moved(9.0)], [20, _moved(3.0)], [40, _moved(6.0)], [90, _moved(7.0)]]))
        follow = ViewFollow(log, lambda frame, moved: None)
        resumed = follow.logged(cal, start=60)
    assert follow.moves == [(20, _moved(3.0)), (40, _moved(6.0))]
    assert np.allclose(resumed.corners, _moved(6.0))


def test_with_no_moves_logged_the_calibration_stands(tmp_path: Path) -> None:
    cal = Calibration(np.asarray(CORNERS, np.float32))
    with MatchLog.open(tmp_path / "t.sqlite") as log:
        follow = ViewFollow(log, lambda frame, moved: None)
        assert follow.logged(cal, start=60) is cal
    assert follow.moves == [] and not follow.lost
    assert ViewFollow(None, lambda frame, moved: None).logged(cal, start=60) is cal
