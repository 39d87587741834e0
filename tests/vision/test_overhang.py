"""An edge's first checkers overhanging the field's edge, learnt from the photo (vision/overhang.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tavli_pi.vision.calibrate import calibrate_image
from tavli_pi.vision.overhang import OVERHANG, SEATED, edge_shifts
from tavli_pi.vision.reader import BoardReader
from tests.vision._eval import real_frames, score_real


def test_an_edge_moves_by_its_own_sure_checkers_only() -> None:
    top = np.r_[np.zeros(12, bool), np.ones(12, bool)]
    d = np.r_[np.full(12, 0.6), np.full(12, 1.3)]
    p = np.full(24, 0.99)
    p[0] = 0.2  # not sure: not measured
    d[0] = 0.2
    shifts = edge_shifts(d, p, top)
    assert np.allclose(shifts[:12], 0.6 - SEATED)  # the bottom edge overhangs
    assert np.all(shifts[12:] == 0.0)  # the top edge's checkers sit further in: left alone
    # too few sure checkers on an edge to tell: nothing moves
    few = np.zeros(24)
    few[[1, 2]] = 0.99
    assert np.all(edge_shifts(d, few, top) == 0.0)
    # seated checkers: nothing moves
    assert np.all(edge_shifts(np.full(24, OVERHANG + 0.05), p, top) == 0.0)


def test_the_wtc_near_edge_blot_is_read_with_the_field_found(real_data: Path) -> None:
    """WTC 2022 frame1 read as ``tavli-pi read`` reads it (no corners): the near edge's checkers
    overhang the found field, and the dark blot on point 12 was read as none (P(0) = 0.69)."""
    f = next(f for f in real_frames(real_data) if f.name == "frame1.jpg")
    obs = BoardReader(calibrate_image(f.image), still_photo=True).read(f.image)
    assert obs.points[11].dark.best == 1 and obs.points[11].light.best == 0
    assert obs.points[11].dark.confidence >= 0.9
    assert score_real(f, obs, 0.025 * max(f.image.shape[:2])).perfect
