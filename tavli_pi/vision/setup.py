"""Learn one board from a position the app knows, and check later frames against what was learnt.

At set-up the position is known (B3), so one frame of it teaches the reader
this board's look; so does any other position the app knows (a game in
progress the players confirmed or the referee adopted, a position given with a
photo: ``known.KnownBoard``), for what it shows:

- the field's edges, the bar and the point geometry (``refine``), and the
  checker radius, which is the stack pitch (from where the known position's checkers lie,
  ``known_radius``; else ``refine.learn_radius``);
- each colour's checker appearance, from the checkers the position puts on known points
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
set-up never deadlocks), then calls ``learn_board``; a game joined in progress
is learnt by the same function once its board is confirmed or adopted. Before reading with a
saved calibration it calls ``check_fit``: a calibration from another board, or
from before the camera moved, is refused with a clear message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.background import decode_background, encode_background, fit_score
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.hands import encode_mask, shrink, skin_prone
from tavli_pi.vision.stored_image import encode_image
from tavli_pi.vision.known import ROW, KnownBoard
from tavli_pi.vision.observation import DieReading, Observation
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.frame_views import FrameViews
from tavli_pi.vision.known_columns import position_geometries, start_geometry
from tavli_pi.vision.known_radius import known_radius
from tavli_pi.vision.refine import learn_radius, refine_edges
from tavli_pi.vision.setup_slots import known_slots, taught_rings
from tavli_pi.vision.spot_slots import spot_geometry
from tavli_pi.vision.stacks import cv2_integral, edge_overhang, spot_chains
from tavli_pi.vision.doubt import learnt_rings
from tavli_pi.vision.tray_sides import learn_tray_sides
from tavli_pi.vision.foreign import learn_checker_hue

__all__ = ["SetupAgreement", "setup_agreement", "in_progress", "learn_board", "fit_of", "check_fit", "FIT",
           "KNOWN_MISFIT"]

#: the most spots at which a frame the board is learnt from may be read otherwise than the known
#: position it shows (a checker the unlearnt reader misses, one hidden under a die); more, and
#: the frame does not show that position (or the position given is not the one photographed)
KNOWN_MISFIT = 2

#: the least edge correlation with the learnt board for a frame to be of the same board and view
#: (same board, other positions and hands: 0.67-1.0; other boards or corners 40 px off: below 0.45)
FIT = 0.55


@dataclass(frozen=True)
class SetupAgreement:
    """How a reading compares with a known position (the start position, B3, at set-up)."""

    #: (spot, expected (light, dark), read (light, dark)) for every spot that differs;
    #: spots are "1".."24", "bar", "off"
    differences: tuple[tuple[str, tuple[int, int], tuple[int, int]], ...]
    #: probability the reading gives the known position, spot by spot (geometric mean)
    fit: float
    hand: bool
    #: the known position, as the messages name it
    name: str = "the start position (B3)"

    @property
    def agrees(self) -> bool:
        return not self.differences and not self.hand

    def message(self) -> str:
        start = self.name == KnownBoard.start().name()
        if self.agrees:
            return "the board is set up to start (B3)" if start else f"the board reads as {self.name}"
        parts = [f"point {s}: expected L{e[0]} D{e[1]}, read L{r[0]} D{r[1]}" if s.isdigit()
                 else f"{s}: expected L{e[0]} D{e[1]}, read L{r[0]} D{r[1]}" for s, e, r in self.differences[:4]]
        more = f" (+{len(self.differences) - 4} more)" if len(self.differences) > 4 else ""
        hand = "a hand is over the board; " if self.hand else ""
        fix = "Fix the board, or confirm it is set up to start" if start else "Check the board and the position"
        return (f"{hand}the reading differs from {self.name} on {len(self.differences)} spot(s): "
                + "; ".join(parts) + more + ". " + fix)


def setup_agreement(obs: Observation, known: KnownBoard | None = None) -> SetupAgreement:
    """Where the reading ``obs`` differs from ``known`` (the start position, B3, when None), and how
    well it fits it."""
    board = known if known is not None else KnownBoard.start()
    light, dark = obs.best_counts()
    diffs = board.differences(light, dark, (obs.bar.light.best, obs.bar.dark.best),
                              (obs.off.light.best, obs.off.dark.best))
    logp = 0.0
    spots = [*obs.points, obs.bar, obs.off]
    for i, spot in enumerate(spots):
        logp += np.log(spot.light.p(board.light[i]) + 1e-9) + np.log(spot.dark.p(board.dark[i]) + 1e-9)
    return SetupAgreement(tuple(diffs), float(np.exp(logp / 52.0)), obs.hand, board.name())


#: a set-up board reading as a whole other position is a game in progress when every spot where it
#: differs from the start is read at least this sure in the one frame (a misread start is rarely a
#: whole position at all; the referee then checks its frames at ``illegal_confidence``)
IN_PROGRESS_CONFIDENCE = 0.75


def in_progress(obs: Observation, spots: int, confidence: float = IN_PROGRESS_CONFIDENCE, every: bool = True) -> bool:
    """Whether ``obs`` reads clearly as a game in progress, not a misread start (B3): a whole position
    (15 checkers a side on the points, the bar and off) differing from the start at ``spots`` spots or
    more, every differing spot read at ``confidence`` or more. Such a board teaches nothing about where
    the start's stacks stand: it is not learnt as a set-up board. ``every=False`` (an unattended table,
    where nobody confirms the board: referee/setup_check.py) asks only ``spots`` of the differing spots
    to be read so sure."""
    agreement = setup_agreement(obs)
    if len(agreement.differences) < spots:
        return False
    if obs.placed() != (15, 15):
        return False
    where = {str(i + 1): p for i, p in enumerate(obs.points)} | {"bar": obs.bar, "off": obs.off}
    sure = [min(where[s].light.confidence, where[s].dark.confidence) >= confidence for s, _, _ in agreement.differences]
    return all(sure) if every else sum(sure) >= spots


def _known_colours(cal: Calibration, canon: np.ndarray, known: KnownBoard
                   ) -> tuple[tuple[float, float, float] | None, tuple[float, float, float] | None]:
    """Median colour of the first checker on each point ``known`` gives to light, and to dark
    (None for a colour with no checker on the points)."""
    x, base, sign, r = spot_geometry(cal.layout, cal)
    out: list[tuple[float, float, float] | None] = []
    for counts in (known.light, known.dark):
        cols = []
        for i in range(24):
            if not counts[i]:
                continue
            cx, cy, rr = float(x[i]), float(base[i] + sign[i] * r[i]), float(r[i]) * 0.5
            patch = canon[max(0, int(cy - rr)) : int(cy + rr) + 1, max(0, int(cx - rr)) : int(cx + rr) + 1]
            if patch.size:
                cols.append(np.median(patch.reshape(-1, 3), axis=0))
        if not cols:
            out.append(None)
            continue
        m = np.median(np.asarray(cols, np.float32), axis=0)
        out.append((float(m[0]), float(m[1]), float(m[2])))
    return out[0], out[1]


def _unseen(known: KnownBoard, light: object, dark: object) -> tuple[str, ...]:
    """What ``known`` left unseen, so the learning did not learn it (said in the calibration)."""
    notes = []
    for colour, seen in (("light", light), ("dark", dark)):
        if seen is None:
            notes.append(f"no {colour} checker stood on a point: the {colour} checkers' look was not learnt "
                         "(the default is used)")
    for colour, n in zip(("light", "dark"), known.off):
        if n:
            notes.append(f"the {colour} tray held {n} checker(s): its empty look was not learnt (it is read "
                         "against its far end)")
    if any(known.off):
        notes.append("which sides have trays was judged with checkers off (on a board without trays they "
                     "lie beside it)")
    covered = [str(i + 1) for i in range(24) if known.light[i] + known.dark[i] > ROW]
    if covered:
        notes.append(f"point(s) {', '.join(covered)} held squeezed stacks: the board under their first {ROW} "
                     "slots was not seen")
    return tuple(notes)


def _radius(cal: Calibration, frame: np.ndarray, known: KnownBoard, views: FrameViews | None = None) -> Calibration:
    """The checker radius (the stack pitch) at the start, from where its checkers lie
    (``known_radius``; too few stacks: from the clearest discs, ``refine.learn_radius``). ``views``:
    ``frame``'s warps and gradients, shared by the steps of learning the board."""
    got = known_radius(cal, frame, known, views)
    return got if got is not None else learn_radius(cal, frame, views)


def _position_geometry(edges: Calibration, given: Calibration, frame: np.ndarray, known: KnownBoard,
                       views: FrameViews) -> Calibration:
    """The field's edges, bar and checker radius learnt from a position other than the start: of the
    geometries its stacks give (``known_columns.position_geometries``) and the middle band's
    (``edges``), each with the radius from where the position's checkers lie (``known_radius``) and
    from the clearest discs (``refine.learn_radius``), the one under which the frame reads most like
    the position it shows. A game in progress holds crowded stacks whose places may pull a fit a
    point off, and squeezed ones the pitch alone does not give (WTC frame0 learnt with the pitch
    alone read point 9's dark stack as 6 and was no position); the middle band takes a wide bar's
    lettering or checkers beside the bar for its edges (real-like tables learnt mid-game with the
    bar 1.3-1.4 points narrow, every colour learnt from the points' paint instead of checkers).
    Only the frame read as the position tells them apart."""
    firsts = position_geometries(edges, frame, given.with_(bar=edges.bar), given, known=known, views=views)
    places: list[Calibration] = []
    for c in (*firsts, edges):
        if not any((c.u0, c.u1, c.bar) == (p.u0, p.u1, p.bar) for p in places):
            places.append(c)
    tried: list[Calibration] = []
    for c in places:
        for got in (learn_radius(c, frame, views), known_radius(c, frame, known, views)):
            if got is not None and not any((got.u0, got.u1, got.bar, got.checker_r)
                                           == (t.u0, t.u1, t.bar, t.checker_r) for t in tried):
                tried.append(got)
    fits = [setup_agreement(BoardReader(c, still_photo=True, hide=False).read(frame), known).fit for c in tried]
    return tried[int(np.argmax(fits))]


def learn_board(frame: np.ndarray, calibration: Calibration, known: KnownBoard | None = None,
                dice: Sequence[DieReading] | None = None) -> Calibration:
    """``calibration`` with this board learnt from ``frame``, a view of ``known`` (the start
    position, B3, when None; or any position known to the app: a game in progress the players
    confirmed or the referee adopted, a position given with a photo).

    ``calibration`` gives where the field is (corners) and the home side; everything else is
    learnt here: the edges and the bar (from where the known stacks stand), the pitch, each
    colour's look (from the checkers the position puts on known points), the board as the
    background (the field and the trays, with the position's checkers in it: the reader knows
    which slots they filled), the checkers' hue spread, the tray sides and how far each edge's first
    checkers sit from where the geometry puts them (``Calibration.overhang``, vision/overhang.py). What the position
    leaves unseen (a colour with no checker on the points, a tray holding checkers) is not
    learnt, and ``Calibration.unseen`` says so. Call it on a frame the players (or the referee)
    have confirmed shows ``known`` with no hand over the board.

    ``dice``: the dice read on ``frame`` with no learnt board (the app's reading of its set-up frame),
    kept as the places where the learnt board is not known (``Calibration.setup_dice``); None: ``frame``
    is read for them here (a photo).
    """
    if frame is None or frame.ndim != 3 or frame.size == 0:
        raise CalibrationError("the frame to learn the board from is not a colour image; check the camera")
    known = known if known is not None else KnownBoard.start()
    given = calibration.with_(u0=0.0, u1=1.0)
    edges = refine_edges(given, frame)
    # the frame's warp and gradients, made once for every step below with the same warp
    views = FrameViews(frame)
    if known.is_start:
        # the points where the start's stacks stand (from the refined edges, else the corners as given)
        cal = _radius(start_geometry(edges, frame, given.with_(bar=edges.bar), given, known=known, views=views),
                      frame, known, views)
    else:
        # any other position's stacks may stand crowded, or one checker alone: the geometry kept is
        # the one under which the frame reads most like the position it shows
        cal = _position_geometry(edges, given, frame, known, views)
    canon = views.canon(cal)
    light, dark = _known_colours(cal, canon, known)
    learnt_light = light if light is not None else cal.light_bgr
    learnt_dark = dark if dark is not None else cal.dark_bgr
    if float(np.linalg.norm(np.subtract(learnt_light, learnt_dark))) < 12.0:
        raise CalibrationError(
            f"the light and dark checkers look the same on the board as {known.name()}: check that the board "
            "shows that position (light = White = X), that it is lit evenly, and that the home side (--home) "
            "is right"
        )
    if light is not None and dark is not None and float(np.mean(light)) < float(np.mean(dark)):
        # the light checkers are by name the lighter ones (``refine.learn_colours``): where the position
        # puts them the checkers are darker than where it puts the dark ones, so the board does not show
        # that position -- it is seen from the other long side, or the colours taken the other way round
        # (a clip joined mid-game, its seat untold: learnt as the start there, the pearl-white and grey
        # checkers were learnt swapped and every play after was read as the other colour's)
        raise CalibrationError(
            f"where {known.name()} puts the light checkers the board shows darker ones than where it puts "
            "the dark: the board does not show that position from this side (check the home side, --home, "
            "and that light = White = X)"
        )
    cal = cal.with_(light_bgr=learnt_light, dark_bgr=learnt_dark, position=known)
    g, integral = views.gradients(cal), cv2_integral(canon)
    # every slot as the known position shows it, traced to the end (its ring and its colour)
    chains = spot_chains(g, integral, cal.layout, cal)
    return cal.with_(
        first_ring=learnt_rings(g, integral, cal, known),
        taught_ring=taught_rings(chains),
        checker_hue=learn_checker_hue(chains.bgr, known_slots(cal), cal),
        skin=encode_mask(skin_prone(canon)),
        clear=encode_image(shrink(canon)),
        background=encode_background(canon, _playing_edges(cal)),
        trays=learn_tray_sides(frame, cal),
        source="setup" if known.is_start else "position",
        unseen=_unseen(known, light, dark),
        setup_dice=dice_places(frame, cal, dice),
        overhang=edge_overhang(canon, cal.layout, cal,
                               np.asarray([known.light[i] + known.dark[i] > 0 for i in range(24)])),
    )


def _playing_edges(cal: Calibration) -> tuple[float, float]:
    """The canonical x of the field's left and right playing edges (the trays lie outside them)."""
    lay = cal.layout
    return lay.mx + lay.u0 * lay.field_w, lay.mx + lay.u1 * lay.field_w


#: the share of a die's side (image px: ``DieReading.size_px``) round its centre where the learnt board
#: is not known (``dice_places``): a flat die's corners lie 0.71 of its side out, its blurred rim and
#: the shadow it casts a little further
DIE_REACH = 0.9


def dice_places(frame: np.ndarray, cal: Calibration, dice: Sequence[DieReading] | None = None
                ) -> tuple[tuple[float, float, float], ...]:
    """The discs (x, y, r canonical px) where a die lay on ``frame``, the frame the board is learnt
    from: there the learnt board shows the die, not the board (a die lying there later does not stand
    out from it). ``dice``: the dice read on ``frame`` with no learnt board; None: read here
    (``BoardReader`` with no background: a die vetted only against the field's edges). Only still dice
    with a face read, not on a checker (a die on a checker is learnt as that checker's look is). Nothing
    is taken out of the learnt board: what lies here may be a mark of the board's own read as a die
    (stop 25: real-like games 23 and 57, painted out, stood out as a die on every frame)."""
    if dice is None:
        dice = BoardReader(cal.with_(background=""), still_photo=True, hide=False).read(frame).dice
    kept = [d for d in dice if d.value and not d.moving and not d.on_checker and d.size_px > 0]
    out: list[tuple[float, float, float]] = []
    for d in kept:
        x, y = d.xy
        r = DIE_REACH * d.size_px
        ends = cal.to_canonical(np.asarray([[x, y], [x - r, y], [x + r, y]], np.float32))
        out.append((round(float(ends[0][0]), 1), round(float(ends[0][1]), 1),
                    round(0.5 * float(np.hypot(*(ends[2] - ends[1]))), 1)))
    return tuple(out)


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
