"""A full and an incremental reader of a simulated camera's board, calibrated as the app does (the
set-up frame is the training example): shared by the tests that compare the two (not a test module)."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.camera import SimCamera
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import learn_board


def full_and_incremental(cam: SimCamera, image: np.ndarray) -> tuple[BoardReader, BoardReader]:
    """Readers of ``cam``'s board learnt from ``image``, the frame ``cam`` just gave (its truth)."""
    truth = cam.last_truth
    assert truth is not None
    cal = learn_board(image, Calibration(truth.corners, home=truth.home))  # type: ignore[arg-type]
    return BoardReader(cal), BoardReader(cal, incremental=True)
