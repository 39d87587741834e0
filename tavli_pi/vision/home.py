"""Which side's home is where (B4), learnt from the board set up to start.

The four corners say where the playing field is, not which long side the
light player sits on nor on which end their home board lies. On the set-up
board (B3) only one of the four arrangements (light at the bottom or at the
top of the image, home on the right or on the left) reads as the starting
position, so the calibration tries each and keeps the one the evidence
supports, by a clear margin.
"""

from __future__ import annotations

import math

import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.layout import Home
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine

__all__ = ["start_fit", "learn_home", "turned"]

#: a reading must give the starting position at least this mean probability per spot ...
MIN_FIT = math.log(0.3)
#: ... and beat every other arrangement by this much in total log-likelihood
MARGIN = 10.0


def start_fit(obs: Observation, known: KnownBoard | None = None) -> float:
    """Log-likelihood of the starting position (or of ``known``) under ``obs`` (24 points, bar, trays)."""
    board = known if known is not None else KnownBoard.start()
    total = 0.0
    for i, spot in enumerate((*obs.points, obs.bar, obs.off)):
        total += math.log(spot.light.p(board.light[i]) + 1e-9) + math.log(spot.dark.p(board.dark[i]) + 1e-9)
    return total


def turned(corners: np.ndarray) -> np.ndarray:
    """The same field seen from the other long side: TL, TR, BR, BL -> BR, BL, TL, TR."""
    return np.asarray(corners, np.float32)[[2, 3, 0, 1]]


def learn_home(corners: np.ndarray, image: np.ndarray, *, source: str = "corners",
               known: KnownBoard | None = None,
               homes: tuple[Home, ...] = ("bottom-right", "bottom-left")) -> Calibration:
    """The refined calibration whose arrangement reads ``image`` as the starting position (or as
    ``known``, a position the photo is known to show). ``homes``: the home sides tried (one when
    it is given and only the light player's long side is unknown: corners found in the picture)."""
    fits: list[tuple[float, Calibration]] = []
    for pts in (np.asarray(corners, np.float32), turned(corners)):
        for home in homes:
            cal = refine(Calibration(pts, home=home, source=source), image)
            fits.append((start_fit(BoardReader(cal, hide=False).read(image), known), cal))
    fits.sort(key=lambda f: f[0], reverse=True)
    (best, cal), (second, _) = fits[0], fits[1]
    spots = 2 * (24 + 2)
    if best / spots < MIN_FIT or best - second < MARGIN:
        if known is not None and not known.is_start:
            raise CalibrationError(
                "cannot tell where the light player's home board is from the position given: check that "
                "the photo shows it (light = White = X), or give --home and corners in the order top-left, "
                "top-right, bottom-right, bottom-left as seen with the light player at the bottom")
        raise CalibrationError(
            "cannot tell where the light player's home board is: set the checkers up to start "
            "(B3) with nothing else on the board and calibrate again, or give --home "
            "(config: table.home) and corners in the order top-left, top-right, bottom-right, "
            "bottom-left as seen with the light player at the bottom"
        )
    return cal
