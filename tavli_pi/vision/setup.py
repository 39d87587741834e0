"""Learn one board at set-up, and check later frames against what was learnt.

At set-up the position is known (B3), so one frame of it teaches the reader
this board's look:

- the field's edges, the bar and the point geometry (``refine``), and the
  checker radius, which is the stack pitch (``learn_radius``);
- each colour's checker appearance, from the checkers B3 puts on known points
  (not from a guess at which discs are bright: pearl and grey checkers are
  told apart by where they stand);
- the board itself as the background model (``background.py``): the empty
  field, the trays, their inserts and anything printed on them;
- how far this board's own checkers' hue strays from the checker colours
  (``foreign.py``: a dice cup's hue is far from both);
- which sides of the field have trays at all (``tray_sides.py``): on a board
  without trays the borne-off checkers lie on the table, and their count is
  the one conservation implies, never one read from the wood.

The app reads the set-up frame, asks ``setup_agreement`` how far the reading
is from the start position, lets the players confirm when it disagrees (the
set-up never deadlocks), then calls ``learn_from_setup``. Before reading with a
saved calibration it calls ``check_fit``: a calibration from another board, or
from before the camera moved, is refused with a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.background import decode_background, encode_background, fit_score
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.hands import encode_mask, shrink, skin_prone
from tavli_pi.vision.stored_image import encode_image
from tavli_pi.vision.home import START_DARK, START_LIGHT
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.refine import learn_radius, refine_edges, start_geometry
from tavli_pi.vision.stacks import spot_geometry
from tavli_pi.vision.tray_sides import learn_tray_sides
from tavli_pi.vision.foreign import learn_checker_hue

__all__ = ["SetupAgreement", "setup_agreement", "in_progress", "learn_from_setup", "fit_of", "check_fit", "FIT"]

#: the least edge correlation with the learnt board for a frame to be of the same board and view
#: (same board, other positions and hands: 0.67-1.0; other boards or corners 40 px off: below 0.45)
FIT = 0.55


@dataclass(frozen=True)
class SetupAgreement:
    """How a set-up reading compares with the start position (B3)."""

    #: (spot, expected (light, dark), read (light, dark)) for every spot that differs;
    #: spots are "1".."24", "bar", "off"
    differences: tuple[tuple[str, tuple[int, int], tuple[int, int]], ...]
    #: probability the reading gives the start position, spot by spot (geometric mean)
    fit: float
    hand: bool

    @property
    def agrees(self) -> bool:
        return not self.differences and not self.hand

    def message(self) -> str:
        if self.agrees:
            return "the board is set up to start (B3)"
        parts = [f"point {s}: expected L{e[0]} D{e[1]}, read L{r[0]} D{r[1]}" if s.isdigit()
                 else f"{s}: expected L{e[0]} D{e[1]}, read L{r[0]} D{r[1]}" for s, e, r in self.differences[:4]]
        more = f" (+{len(self.differences) - 4} more)" if len(self.differences) > 4 else ""
        hand = "a hand is over the board; " if self.hand else ""
        return (f"{hand}the reading differs from the start position (B3) on {len(self.differences)} spot(s): "
                + "; ".join(parts) + more + ". Fix the board, or confirm it is set up to start")


def setup_agreement(obs: Observation) -> SetupAgreement:
    """Where the reading ``obs`` differs from the start position (B3), and how well it fits it."""
    light, dark = obs.best_counts()
    diffs: list[tuple[str, tuple[int, int], tuple[int, int]]] = []
    logp = 0.0
    for i in range(24):
        want = (START_LIGHT.get(i + 1, 0), START_DARK.get(i + 1, 0))
        if (light[i], dark[i]) != want:
            diffs.append((str(i + 1), want, (light[i], dark[i])))
        logp += np.log(obs.points[i].light.p(want[0]) + 1e-9) + np.log(obs.points[i].dark.p(want[1]) + 1e-9)
    for name, spot in (("bar", obs.bar), ("off", obs.off)):
        got = (spot.light.best, spot.dark.best)
        if got != (0, 0):
            diffs.append((name, (0, 0), got))
        logp += np.log(spot.light.p(0) + 1e-9) + np.log(spot.dark.p(0) + 1e-9)
    return SetupAgreement(tuple(diffs), float(np.exp(logp / 52.0)), obs.hand)


#: a set-up board reading as a whole other position is a game in progress when every spot where it
#: differs from the start is read at least this sure in the one frame (a misread start is rarely a
#: whole position at all; the referee then checks its frames at ``illegal_confidence``)
IN_PROGRESS_CONFIDENCE = 0.75


def in_progress(obs: Observation, spots: int, confidence: float = IN_PROGRESS_CONFIDENCE) -> bool:
    """Whether ``obs`` reads clearly as a game in progress, not a misread start (B3): a whole position
    (15 checkers a side on the points, the bar and off) differing from the start at ``spots`` spots or
    more, every differing spot read at ``confidence`` or more. Such a board teaches nothing about where
    the start's stacks stand: it is not learnt as a set-up board."""
    agreement = setup_agreement(obs)
    if len(agreement.differences) < spots:
        return False
    light, dark = obs.best_counts()
    if sum(light) + obs.bar.light.best + obs.off.light.best != 15 or sum(dark) + obs.bar.dark.best + obs.off.dark.best != 15:
        return False
    where = {str(i + 1): p for i, p in enumerate(obs.points)} | {"bar": obs.bar, "off": obs.off}
    return all(min(where[s].light.confidence, where[s].dark.confidence) >= confidence
               for s, _, _ in agreement.differences)


def _start_colours(cal: Calibration, canon: np.ndarray) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Median colour of the first checker on each point B3 gives to light, and to dark."""
    x, base, sign, r = spot_geometry(cal.layout, cal)
    out = []
    for start in (START_LIGHT, START_DARK):
        cols = []
        for p in start:
            i = p - 1
            cx, cy, rr = float(x[i]), float(base[i] + sign[i] * r[i]), float(r[i]) * 0.5
            patch = canon[max(0, int(cy - rr)) : int(cy + rr) + 1, max(0, int(cx - rr)) : int(cx + rr) + 1]
            if patch.size:
                cols.append(np.median(patch.reshape(-1, 3), axis=0))
        m = np.median(np.asarray(cols, np.float32), axis=0)
        out.append((float(m[0]), float(m[1]), float(m[2])))
    return out[0], out[1]


def learn_from_setup(frame: np.ndarray, calibration: Calibration) -> Calibration:
    """``calibration`` with this board learnt from ``frame``, a view of the start position (B3).

    ``calibration`` gives where the field is (corners) and the home side;
    everything else is learnt here. Call it on a frame the players have
    confirmed shows the start position with no hand over the board.
    """
    if frame is None or frame.ndim != 3 or frame.size == 0:
        raise CalibrationError("the set-up frame is not a colour image; check the camera")
    given = calibration.with_(u0=0.0, u1=1.0)
    cal = refine_edges(given, frame)
    # the points where the start position's stacks stand (from the refined edges, else the corners as given)
    cal = start_geometry(cal, frame, given.with_(bar=cal.bar), given)
    cal = learn_radius(cal, frame)
    canon = cal.warp(frame)
    light, dark = _start_colours(cal, canon)
    if float(np.linalg.norm(np.subtract(light, dark))) < 12.0:
        raise CalibrationError(
            "the light and dark checkers look the same on the set-up board: check that the board is "
            "set up to start (B3) and lit evenly, and that the home side (--home) is right"
        )
    cal = cal.with_(light_bgr=light, dark_bgr=dark)
    return cal.with_(
        checker_hue=learn_checker_hue(canon, cal),
        skin=encode_mask(skin_prone(canon)),
        clear=encode_image(shrink(canon)),
        background=encode_background(canon),
        trays=learn_tray_sides(frame, cal),
        source="setup",
    )


def fit_of(calibration: Calibration, frame: np.ndarray) -> float | None:
    """How well ``frame`` fits the board ``calibration`` learnt (None: it learnt no background)."""
    bg = decode_background(calibration.background)
    if bg is None:
        return None
    return fit_score(cv2.remap(frame, *calibration.warp_maps(), cv2.INTER_LINEAR), bg, calibration.layout)


def check_fit(calibration: Calibration, frame: np.ndarray) -> float | None:
    """``fit_of``, raising CalibrationError when the frame is not of the learnt board and view."""
    fit = fit_of(calibration, frame)
    if fit is not None and fit < FIT:
        raise CalibrationError(
            f"this calibration does not fit this board (fit {fit:.2f} < {FIT}): it was made on another "
            "board or before the camera moved; calibrate again from a photo of this board set up to start "
            "(`tavli-pi read SETUP_PHOTO --save-calibration FILE`)"
        )
    return fit
