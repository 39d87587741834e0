"""Things on the field that are no checker of this board: a dice cup, a pencil, a hand's sleeve.

At set-up the 30 checkers of the start position stand on known slots (B3), so
the board shows how far its own checkers' hue (chromaticity: a lamp's shadow
darkens a checker but keeps its hue) strays from the two checker colours it
learnt: the farthest of them is kept in the calibration (``checker_hue``, as
log(1 + distance)). Later, a slot whose hue is farther from both checker colours
than that by ``HUE_MARGIN`` (log units: about e times as far) holds no checker of
this board -- a red or brown dice cup read as a dark checker was the commonest
phantom with a board learnt at set-up (real-like set) -- and its occupancy is
held to ``FOREIGN_P``. Nothing is learnt from the frame being read, so a point
reads the same alone or with the others (the incremental reader).
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration

__all__ = ["HUE_MARGIN", "FOREIGN_P", "chroma", "hue_distance", "learn_checker_hue", "foreign"]

#: how much farther (log(1 + hue distance)) than any start checker's a slot's hue must be to be no checker
HUE_MARGIN = 1.0
#: the most a slot of no checker's hue may be occupied
FOREIGN_P = 0.1


def chroma(c: np.ndarray) -> np.ndarray:
    """Chromaticity scaled to 100 (a dark colour's is damped: its hue is noise)."""
    return np.asarray(100.0 * c / (c.sum(axis=-1, keepdims=True) + 30.0))


def hue_distance(bgr: np.ndarray, light: tuple[float, float, float], dark: tuple[float, float, float]) -> np.ndarray:
    """Chromaticity distance of colours ``bgr`` (..., 3) to the nearer of the two checker colours."""
    lt, dk = np.asarray(light, np.float32), np.asarray(dark, np.float32)
    return np.asarray(np.minimum(np.linalg.norm(chroma(bgr) - chroma(lt), axis=-1),
                                 np.linalg.norm(chroma(bgr) - chroma(dk), axis=-1)))


def learn_checker_hue(bgr: np.ndarray, filled: np.ndarray, cal: Calibration) -> float:
    """log(1 + the largest hue distance of the known position's checkers) on the frame the board is
    learnt from: ``bgr`` (26, K, 3) each slot's colour there (``checkers.Chains.bgr``), ``filled``
    (26, >= K) the slots the position fills (``setup_slots.known_slots``)."""
    hue = hue_distance(bgr[:24][filled[:24, : bgr.shape[1]]], cal.light_bgr, cal.dark_bgr)
    return float(np.log1p(hue.max())) if hue.size else 0.0


def foreign(log_hue: np.ndarray, cal: Calibration) -> np.ndarray:
    """Bool per slot: its hue (``log1p(hue_distance)``) is no checker's of this board (False where
    the calibration learnt none: ``checker_hue`` 0)."""
    if cal.checker_hue <= 0:
        return np.zeros(log_hue.shape, bool)
    return np.asarray(log_hue > cal.checker_hue + HUE_MARGIN)
