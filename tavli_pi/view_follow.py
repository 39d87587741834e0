"""The field's corners kept on the picture while a table is read: the table or the camera knocked, the
camera turned or zoomed on its stand, the stand creeping under a pixel a frame, or the camera moved
while the referee was stopped.

:class:`ViewFollow` watches the frames (``vision.shift``, ``vision.refollow``, ``vision.register``) and,
when the field has moved, hands the calibration with its corners where the picture now has them to
its ``on_move`` (the app reads on through it) and keeps the move in the log (``MOVES_KEY``), so that a
resumed run reads with the corners in force at the frame it resumes from.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tavli_pi.errors import CalibrationError, TavliWarning
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Frame

if TYPE_CHECKING:
    from tavli_pi.record.store import MatchLog
    from tavli_pi.vision.refollow import Refollow
    from tavli_pi.vision.register import CreepWatch
    from tavli_pi.vision.shift import ShiftWatch

__all__ = ["ViewFollow", "Move", "CALIBRATION_KEY", "CALIBRATED_AT_KEY", "MOVES_KEY", "REFIND_EVERY", "BG_NEAR"]

#: the log's meta key for the calibration learnt at set-up (a resumed match reads with it)
CALIBRATION_KEY = "calibration"
#: ... and the camera frame it was learnt on: a run killed after calibrating, before its next
#: commit, resumes reading from that frame (the referee saw none before it)
CALIBRATED_AT_KEY = "calibrated_at"
#: ... and where the picture moved since (the table or the camera knocked, ``vision.shift``): a JSON
#: list of [frame, corners] -- from that frame on the calibration's corners are these (a resumed run
#: reads with the corners in force at the frame it resumes from)
MOVES_KEY = "calibration_moves"
#: a resumed run whose picture does not fit the board learnt looks for the field by it every so many frames
#: (~0.1 s a look)
REFIND_EVERY = 10
#: ... and a field found so within this many px of where it was is where it was (the board learnt is a
#: half-scale view: it places the field within a pixel or two)
BG_NEAR = 3.0

#: one move of the field: (the frame it was seen on, the corners from then on)
Move = tuple[int, list[list[float]]]


class ViewFollow:
    """Follows the field's corners over the frames of one run; ``on_move(frame, moved)`` reads on through
    ``moved`` (the calibration with the corners moved) from ``frame`` on."""

    def __init__(self, log: MatchLog | None, on_move: Callable[[Frame, Calibration], None]) -> None:
        self.log = log
        self.on_move = on_move
        self.watch: ShiftWatch | None = None  # once reading: has the picture moved as a whole?
        self._refollow: Refollow | None = None  # while the picture moved and no shift explains it
        self._creep: CreepWatch | None = None  # once reading: has the picture crept under a pixel?
        self._misfit_frames = 0  # a resumed run's frames in a row the board learnt did not fit
        self._misfit_said = False
        self.moves: list[Move] = []  # where it moved: (frame, corners from then on)
        self._lost_said = False  # the picture moved unmeasured: said once until it is found again

    def logged(self, cal: Calibration, start: int) -> Calibration:
        """A resumed run reads with the corners in force at the frame it resumes from (``start``): the
        last move the log keeps (``MOVES_KEY``) after the calibration's frame and by that frame."""
        if self.log is None or (raw := self.log.meta(MOVES_KEY)) is None:
            return cal
        at = self.log.meta(CALIBRATED_AT_KEY)
        base = int(at) if at is not None and at.isdigit() else -1
        self.moves = [(int(f), c) for f, c in json.loads(raw) if base < int(f) <= start]
        if self.moves:
            return cal.with_(corners=np.asarray(self.moves[-1][1], np.float32))
        return cal

    @property
    def lost(self) -> bool:
        """The picture moved and could not be followed yet."""
        return self.watch is not None and self.watch.lost

    def follow_shift(self, frame: Frame, cal: Calibration) -> bool:
        """Follow the picture moving as a whole (``vision.shift``): the calibration's corners moved
        by the shift measured (the canonical view, and all that was learnt in it, the same as before),
        kept in the log, and a new reader from this frame on (its motion gate and memory start
        anew). A picture turned or zoomed, which no shift explains, is followed by its own features
        once it holds still (``vision.refollow``), when the board seen through the corners carried
        fits the board learnt. True while the picture moved and could not be followed (said once)."""
        from tavli_pi.vision.calibration import check_corners
        from tavli_pi.vision.shift import ShiftWatch

        if self.watch is None:
            self.watch = ShiftWatch(cal.corners, frame.image.shape)
        got = self.watch.look(frame.image)
        if got is None:
            if not self.watch.lost:
                self._lost_said = False
                self._refollow = None
                self._follow_creep(frame, cal)
            return self.watch.lost
        corners = cal.corners + np.asarray([got.dx, got.dy], np.float32)
        why = got.why
        if got.measured:
            try:
                check_corners(corners, frame.image.shape)
            except CalibrationError as exc:
                why = f"the picture moved off the field ({exc})"
        how = f"the picture moved {got.dx:+.1f},{got.dy:+.1f} px (the table or the camera knocked)"
        if why:
            carried = self._refollowed(frame, cal)
            if carried is None:
                if not self._lost_said:
                    self._lost_said = True
                    warnings.warn(f"frame {frame.index}: {why}: the board is not read until it stands where it "
                                  "did or holds still where it can be followed; check the camera, or restart to "
                                  "find the field again", TavliWarning, stacklevel=2)
                return True
            corners, how = carried
        self._move(frame, cal.with_(corners=corners), how)
        return False

    def _follow_creep(self, frame: Frame, cal: Calibration) -> None:
        """Follow the picture creeping under a pixel (``vision.register``: a camera's stand sagging or
        warming), which the shift watch never sees: the corners moved by the creep, as for a knock."""
        from tavli_pi.vision.register import CreepWatch, crept_corners

        if self._creep is None:
            self._creep = CreepWatch(frame.index)
        got = self._creep.look(cal, frame.image, frame.index)
        if got is not None:
            self._move(frame, cal.with_(corners=crept_corners(cal, *got)),
                       f"the picture crept {got[0]:+.2f},{got[1]:+.2f} px from the board learnt "
                       "(the camera's stand sagging or warming)")

    def view_fits(self, frame: Frame, cal: Calibration) -> bool:
        """Whether the board learnt fits ``frame`` through the calibration's corners (a resumed run: the
        camera may have been moved while the referee was stopped). When it does not, the field is looked
        for by the board learnt (``refollow.corners_from_background``, every ``REFIND_EVERY`` frames);
        found, it is read on through the corners found, as a board never learnt (those corners are a
        pixel or two off what was learnt: learnt again from the position in play) and kept in the log.
        False while it fits nowhere: nothing is read until it does (said once)."""
        from tavli_pi.vision.refollow import corners_from_background
        from tavli_pi.vision.setup import FIT, fit_of
        from tavli_pi.vision.shift import MIN_SHIFT

        fit = fit_of(cal, frame.image)
        if fit is None or fit >= FIT:
            return True
        self._misfit_frames += 1
        if self._misfit_frames == 1:
            carried = self._carried_from_log(frame, cal)
            if carried is not None and float(np.abs(carried[0] - cal.corners).max()) < MIN_SHIFT:
                self._misfit_frames = 0
                return True  # the camera stands where it did: what misfits is on the board (a hand, an arm)
            if carried is not None:
                self._move(frame, cal.with_(corners=carried[0]), (
                    f"the board learnt does not fit the picture (fit {fit:.2f} < {FIT}: the camera moved while "
                    f"the referee was stopped); the field was followed from the last frame the log kept "
                    f"(fit {carried[1]:.2f})"))
                self._misfit_frames = 0
                return True
        if (self._misfit_frames - 1) % REFIND_EVERY == 0:
            corners = corners_from_background(cal, frame.image)
            found = None
            if corners is not None:
                plausible, found = _fit_through(cal, corners, frame.image)
                corners = corners if plausible else None
            if corners is not None and float(np.abs(corners - cal.corners).max()) < BG_NEAR:
                self._misfit_frames = 0
                return True  # found where it was (within what the board learnt can tell): no move to follow
            if corners is not None and found is not None and found >= FIT:
                moved = cal.with_(corners=corners).unlearnt()
                if self.log is not None:
                    self.log.set_meta(CALIBRATION_KEY, json.dumps(moved.to_dict()))
                self._move(frame, moved, f"the board learnt does not fit the picture (fit {fit:.2f} < "
                           f"{FIT}: the camera moved while the referee was stopped); the field was found "
                           f"again by the board learnt (fit {found:.2f}), read as a board never learnt "
                           "until it is learnt again from the position in play")
                self._misfit_frames = 0
                return True
        if not self._misfit_said:
            self._misfit_said = True
            warnings.warn(f"frame {frame.index}: the board learnt does not fit the picture (fit {fit:.2f} < {FIT}): "
                          "the camera moved while the referee was stopped, and the board was not found again; "
                          "nothing is read until it fits: put the camera back where it was, or start a new match "
                          "log to calibrate again", TavliWarning, stacklevel=2)
        return False

    def _carried_from_log(self, frame: Frame, cal: Calibration) -> tuple[np.ndarray, float] | None:
        """The field's corners carried into ``frame`` from the last frame the log kept (``vision.refollow``:
        the features the two pictures share), with the fit of the board learnt through them; None when the
        log kept no frame, too few features agree, or the board does not fit there."""
        import cv2

        from tavli_pi.vision.refollow import carried_from
        from tavli_pi.vision.setup import FIT

        if self.log is None:
            return None
        saved = self.log.last_saved_frame()
        if saved is None:
            return None
        at, jpeg = saved
        anchor = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        if anchor is None or anchor.shape != frame.image.shape:
            return None
        before = [c for f, c in self.moves if f <= at]
        base = self.log.meta(CALIBRATION_KEY)
        if before:
            then = np.asarray(before[-1], np.float32)
        elif base is not None:
            then = Calibration.from_dict(json.loads(base)).corners
        else:
            return None
        corners = carried_from(anchor, frame.image, then)
        if corners is None:
            return None
        plausible, fit = _fit_through(cal, corners, frame.image)
        return None if not plausible or fit is None or fit < FIT else (corners, fit)

    def _refollowed(self, frame: Frame, cal: Calibration) -> tuple[np.ndarray, str] | None:
        """The field's corners followed into a picture turned or zoomed (``vision.refollow``), and how it
        is said; None until the picture holds still where its features carry them, and while the board
        seen through them does not fit the board learnt (``setup.fit_of``)."""
        from tavli_pi.vision.refollow import Refollow
        from tavli_pi.vision.setup import FIT
        from tavli_pi.vision.shift import MIN_SHIFT

        assert self.watch is not None
        if self._refollow is None:
            anchor = self.watch.anchor
            if anchor is None:
                return None
            self._refollow = Refollow(anchor[0], anchor[1], cal.corners)
        corners = self._refollow.look(frame.image)
        if corners is None or float(np.abs(corners - cal.corners).max()) < MIN_SHIFT:
            return None  # nothing to follow, or it stands where it did (changed everywhere: the light)
        plausible, fit = _fit_through(cal, corners, frame.image)
        if not plausible or (fit is not None and fit < FIT):
            return None
        fits = "" if fit is None else f", fit {fit:.2f} to the board learnt"
        return corners, f"the picture turned or zoomed (the camera moved{fits})"

    def _move(self, frame: Frame, moved: Calibration, how: str) -> None:
        """Read on through ``moved`` (the calibration with the field's corners where the picture now has
        them) from ``frame`` on, the move kept in the log for a resumed run."""
        from tavli_pi.vision.shift import ShiftWatch

        self.on_move(frame, moved)
        self.watch = ShiftWatch(moved.corners, frame.image.shape)
        self.watch.look(frame.image)
        self._refollow = None
        self._creep = None
        self._lost_said = False
        self.moves = [m for m in self.moves if m[0] < frame.index] + [(frame.index, moved.corners.tolist())]
        if self.log is not None:
            self.log.set_meta(MOVES_KEY, json.dumps(self.moves))
        warnings.warn(f"frame {frame.index}: {how}: the field's corners follow it", TavliWarning, stacklevel=3)


def _fit_through(cal: Calibration, corners: np.ndarray, image: np.ndarray) -> tuple[bool, float | None]:
    """(whether ``corners`` are a plausible field in ``image``, and if so how well the board ``cal``
    learnt fits through them: ``setup.fit_of``, None when it learnt no background)."""
    from tavli_pi.vision.calibration import check_corners
    from tavli_pi.vision.setup import fit_of

    try:
        check_corners(corners, image.shape)
    except CalibrationError:
        return False, None
    return True, fit_of(cal.with_(corners=corners), image)
