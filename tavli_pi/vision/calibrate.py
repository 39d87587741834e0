"""One table's calibration from what the installer gives: a saved file, the
field's corners, the printed markers, or -- with none of these -- the field
found in the picture itself; and the home side (B4), given or learnt from the
set-up board (``home="auto"``).

Shared by ``tavli-pi read`` and ``tavli-pi run``. A saved calibration that
learnt its board at set-up is checked against the picture first: one made on
another board (or before the camera moved) is refused, never read through.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.autocorners import ADVICE, field_candidates
from tavli_pi.vision.fieldfit import (KnownField, field_fit, field_still_there, fitted_fields, known_field, prepared,
                                      with_hidden_end)
from tavli_pi.vision.calibration import Calibration, check_corners, find_marker_corners, parse_corners
from tavli_pi.vision.home import learn_home, turned
from tavli_pi.vision.known import CHECKERS, KnownBoard
from tavli_pi.vision.layout import DEFAULT_BAR, Home
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.refine import refine
from tavli_pi.vision.seat import Seat, seat_of
from tavli_pi.vision.setup import KNOWN_MISFIT, check_fit, learn_board, setup_agreement

__all__ = ["HOMES", "ASSUMED", "SEAT_FROM_PLAY", "HOME_ASSUMED", "calibrate_image", "told_by_play", "locate_field",
           "FieldMemory", "seated", "shows_start", "check_quarter"]

#: the values ``home`` takes: a side, or "auto" to learn it from the set-up board
HOMES = ("bottom-right", "bottom-left", "auto")
#: the source of a field found in the picture whose seat and home side could not be learnt
ASSUMED = "found, seat assumed"
#: the source of a field found in the picture whose light player's seat a game in progress told
#: (``seat.seat_of``: the checkers are further on from that side), the home side given ...
SEAT_FROM_PLAY = "found, seat from the play"
#: ... or assumed
HOME_ASSUMED = "found, seat from the play, home side assumed"


#: field candidates (best fit first) read to choose among
CANDIDATES = 4
#: the least fit of a quadrilateral to the points (``fieldfit.field_fit``) for it to be read
FIT_ACCEPT = 1.5
#: candidates read are those that fit at least this share of the best fit
NEAR = 0.9
#: checkers unaccounted for that tell a field in doubt from a better seated one: a column cut off with
#: the stack the start places there at the least (5), not a stack or two misread by one or two
COLUMN_MISSED = 5
#: an empty board (no checker to confirm it) is taken at this fit or more ...
EMPTY_ACCEPT = 4.0
#: ... when no candidate elsewhere fits more than this share of it
EMPTY_MARGIN = 0.8
#: a picture none of whose candidates fits as well as an empty board is taken (``EMPTY_ACCEPT``) is searched
#: turned a quarter too (``_quarter_fields``); on the labelled real photos the fields fit 4.9-7.1 (one 2.0),
#: the best candidate of a photo turned a quarter (its points running up and down) 1.6-2.3
QUARTER_BELOW = EMPTY_ACCEPT
#: corners given (``--corners``) are refused as a quarter off when the same corners taken a quarter round fit
#: the points (``fieldfit.field_fit``) by this much more: on the 13 labelled real photos in five views each
#: (as they are, turned round, a quarter either way, slanted 35 %), the labelled order fits 0.91-5.9 (the
#: WTC frame4, its points under an arm and its field's ends in black, 0.15-0.19) and its quarter-off order
#: -0.21-0.21; the least gap where the fit tells them apart is 0.73
QUARTER_GAP = 0.5


def _plausibility(image: np.ndarray, corners: np.ndarray) -> tuple[int, float, int, int]:
    """How plausible the reading through ``corners`` is: (no doubt about it, share of stacks seated
    in their slots, stacks, checkers it leaves unaccounted for) -- the field whose checkers sit in
    its slots, 15 a side, is the field."""
    from tavli_pi.vision import checkers as ck
    from tavli_pi.vision.doubt import seating
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.stacks import cv2_integral

    cal = refine(Calibration(corners, source="found"), image)
    obs = BoardReader(cal, still_photo=True, hide=False).read(image)
    canon = cal.warp(image)
    seated, occ = seating(ck.gradients(canon), cv2_integral(canon), cal, obs.points)
    return int(not obs.problems), seated / max(occ, 1), occ, _unaccounted(obs)


def _columns_apart(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether field ``b`` ends half a point or more from where field ``a`` does along the points' row
    (a column cut off or added at an edge), as ``a``'s field fractions place ``b``'s corners; not two
    outlines of one field a few pixels apart, whose readings differ by a stack misread or two."""
    square = np.asarray([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    hom = cv2.getPerspectiveTransform(np.asarray(a, np.float32).reshape(4, 2), square)
    u = cv2.perspectiveTransform(np.asarray(b, np.float32).reshape(-1, 1, 2), hom)[:, 0, 0]
    point = (1.0 - (DEFAULT_BAR[1] - DEFAULT_BAR[0])) / 12
    return bool(np.abs(u - np.clip(np.round(u), 0, 1)).max() >= 0.5 * point)


def _unaccounted(obs: Observation) -> int:
    """Checkers a reading leaves unaccounted for: each colour's count on the points and the bar, and
    off where the tray itself shows it (not where the board's total merely implies it), short of 15
    or over it."""
    total = 0
    for i, c in enumerate(("light", "dark")):
        n = sum(getattr(s, c).best for s in (*obs.points, obs.bar))
        if obs.off_source[i] == "tray":
            n += getattr(obs.off, c).best
        total += abs(CHECKERS - n)
    return total


def locate_field(image: np.ndarray) -> tuple[np.ndarray, str]:
    """(corners, source) of the playing field: the printed markers, else the picture itself.

    In the picture, candidate quadrilaterals (the long straight edges, the
    outlines) are fitted to the 24 points' triangles (``fieldfit``); those that
    fit are read, and the one whose reading is plausible -- checkers seated in
    the slots, 15 a side -- is the field. A board with no checkers at all is
    taken only when its points fit clearly better than any other place.
    A picture where nothing fits clearly is searched turned a quarter too
    (``_fields``: the board seen from an end of the table).
    Raises CalibrationError starting "no board found" when neither way finds it.
    """
    try:
        return find_marker_corners(image), "markers"
    except CalibrationError as marker_err:
        if image is None or image.ndim != 3:
            raise CalibrationError("no board found: the picture is not a colour image; " + ADVICE) from marker_err
        fields = _fields(image)
        # the points' fit says where the field is; the reading only chooses among near equals
        floor = max(FIT_ACCEPT, NEAR * fields[0][0]) if fields else FIT_ACCEPT
        fitting = [(f, q) for f, q, _ in fields if f >= floor][:CANDIDATES]
        if not fitting:
            best = f" (best fit {fields[0][0]:.2f} < {FIT_ACCEPT})" if fields else ""
            raise CalibrationError(
                f"no board found: could not find the playing field without markers{best}; " + ADVICE) from marker_err
        ranked = sorted(((_plausibility(image, q), f, q) for f, q in fitting), key=lambda t: (t[0][:3], t[1]),
                        reverse=True)  # (the checkers unaccounted for rank nothing here: below)
        if not ranked[0][0][0]:
            # every reading in doubt: of the fields a column or more apart from the best seated, one that
            # finds a column's stacks more of the 30 checkers is the field (a quadrilateral one point
            # narrow at an edge whose last column is filled with checkers -- a 640 px beech board joined
            # mid-game, fitting 0.9 as well as the true field -- seats the few stacks it sees, but reads
            # 10 light checkers fewer)
            seated_best = ranked[0][2]
            apart = [t for t in ranked if _columns_apart(seated_best, t[2])]
            most = min(apart, key=lambda t: t[0][3], default=None)
            if most is not None and most[0][3] <= ranked[0][0][3] - COLUMN_MISSED:
                ranked.insert(0, most)
        (clean, seated, occ, _), fit, best_q = ranked[0]
        # the field chosen, with an end hidden under a banner found (``fieldfit.with_hidden_end``, issue 9)
        if clean or seated >= 0.5:
            return with_hidden_end(image, best_q), "found"
        if occ == 0 and _clearly_best(fitting, best_q):
            return with_hidden_end(image, best_q), "found"  # an empty board: nothing is read from it but the field
        raise CalibrationError(
            "no board found: no outline in the picture reads as a playing field with its checkers in place; "
            + ADVICE) from marker_err


def _fields(image: np.ndarray) -> list[tuple[float, np.ndarray, float]]:
    """(fit, corners, bar) of the field candidates in ``image`` (``fieldfit.fitted_fields``), best first;
    where none fits as well as a field is taken on its points alone (``QUARTER_BELOW``), those found in
    the picture turned a quarter too (``_quarter_fields``): the best fit says which view is the board's."""
    fields = fitted_fields(image, field_candidates(image))
    if not fields or fields[0][0] < QUARTER_BELOW:
        # (stable: with no field in the other view, the list as it was)
        fields = sorted(fields + _quarter_fields(image), key=lambda t: -t[0])
    return fields


def _quarter_fields(image: np.ndarray) -> list[tuple[float, np.ndarray, float]]:
    """The field candidates of ``image`` turned a quarter clockwise -- a camera at an end of the table,
    a phone photo in portrait: the points run up and down the picture, where the candidates and the fit
    (``fieldfit``, ``autocorners``) look for them across it -- their corners turned back into ``image``'s
    px in the field's own order (TL TR BR BL as seen from a long side, not by the picture's axes: the
    warp turns the view; the seat is told as for any field found, ``seated``). The other quarter is the
    same field seen from the other long side."""
    h = image.shape[0]
    turned_q = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    # turned: (x, y) -> (h - 1 - y, x); back: (x', y') -> (y', h - 1 - x')
    return [(fit, np.stack([q[:, 1], h - 1 - q[:, 0]], axis=1).astype(np.float32), bar)
            for fit, q, bar in fitted_fields(turned_q, field_candidates(turned_q))]


def _given(corners: str, image: np.ndarray) -> np.ndarray:
    """The corners given (``--corners``, "x,y x,y x,y x,y"), checked: a plausible field in ``image``
    (``check_corners``) that runs along the points (``check_quarter``)."""
    pts = parse_corners(corners)
    check_corners(pts, image.shape)
    check_quarter(pts, image)
    return pts


def check_quarter(corners: np.ndarray, image: np.ndarray) -> None:
    """Raise CalibrationError when ``corners`` (given, TL TR BR BL) run across the points: the field's
    top-left taken at the picture's top-left on a board seen from an end of the table (a camera there, a
    portrait photo), so the points run up and down between them and the reading is a quarter off. Told
    by the points' fit (``fieldfit.field_fit``) of the corners as given and taken a quarter round
    (``QUARTER_GAP``); the message gives both orders a seat can have."""
    lab, scale = prepared(image)
    c = np.asarray(corners, np.float32).reshape(4, 2)
    given = field_fit(lab, c * scale)[0]
    turned_q = field_fit(lab, np.roll(c, 1, axis=0) * scale)[0]
    if turned_q - given < QUARTER_GAP:
        return
    def text(q: np.ndarray) -> str:
        return " ".join(f"{x:.0f},{y:.0f}" for x, y in q)
    raise CalibrationError(
        "these corners run across the points: the board is seen from an end of the table, and its "
        "top-left is the corner on the light player's far left, not the picture's. Give them from the "
        f'light player\'s seat: --corners "{text(np.roll(c, 1, axis=0))}" if the light player sits at the '
        f'picture\'s right, --corners "{text(np.roll(c, -1, axis=0))}" if at its left')


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    inter, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    union = cv2.contourArea(np.asarray(a, np.float32)) + cv2.contourArea(np.asarray(b, np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _clearly_best(fitting: list[tuple[float, np.ndarray]], chosen: np.ndarray) -> bool:
    """``chosen`` fits the points best, at least EMPTY_ACCEPT, and clearly better than any
    candidate in another place (overlapping it less than half)."""
    mine = max(f for f, q in fitting if q is chosen)
    if mine < max(f for f, _ in fitting) or mine < EMPTY_ACCEPT:
        return False
    return all(f < EMPTY_MARGIN * mine for f, q in fitting if _overlap(q, chosen) < 0.5)


#: a field found in the picture is looked for again once it has been gone (``field_still_there``)
#: in so many frames in a row: a hand over the field can make one frame say so
GONE_FRAMES = 3
#: a field found whose reading is in doubt (``_plausibility``: not a whole position read without doubt) is
#: looked for again every so many frames, so many times, while the stream has not calibrated on it: the
#: first frame of a recording (its key frame, compressed otherwise than the next) found a pinetti board's
#: field a point too wide, and every frame after read through it (bench/bench_real_join.py)
LOOK_AGAIN_EVERY = 4
LOOK_AGAIN = 2


class FieldMemory:
    """Where the field is, for a stream (``tavli-pi run`` with no corners and no calibration file).

    Finding the field in the picture (``locate_field``) takes a second or more; a camera over a
    table does not move between frames. So the field is found once and then only re-checked
    (``fieldfit.field_still_there``, a few ms: its points fit there, and the ring round it looks as
    it did); when it has been gone in GONE_FRAMES frames in a row (the camera bumped, the board
    moved), it is looked for again.
    """

    def __init__(self) -> None:
        self.field: tuple[np.ndarray, str] | None = None
        self.searches = 0  # how often the field was looked for (a figure for tests and benchmarks)
        #: whether the light player sits at the picture's top edge of the field found (its corners
        #: turned, ``home.turned``), once a set-up picture told (``seated``); None until then
        self.turned: bool | None = None
        self._known: KnownField | None = None
        self._gone = 0
        self._doubted = 0  # frames since the field in doubt was found, or looked for again (0: not in doubt)
        self._again = 0  # how often it was looked for again

    def locate(self, image: np.ndarray) -> tuple[np.ndarray, str]:
        """The field in ``image``: the one found before while it is still there, else found anew
        (raises CalibrationError "no board found ..." as ``locate_field`` does, and forgets the old one).
        A field found in the picture whose reading is in doubt is looked for again (``LOOK_AGAIN``), and
        the one that reads this frame more plausibly kept (``_plausibility``, as ``locate_field`` ranks)."""
        if self.field is not None and self._known is not None:
            if field_still_there(self._known, image).there:
                self._gone = 0
                if self._doubted:
                    self._look_again(image)
                return self.field
            self._gone += 1
            if self._gone < GONE_FRAMES:
                return self.field
        self.field, self._known, self._gone, self.turned = None, None, 0, None
        self.searches += 1
        self.field = locate_field(image)
        self._known = known_field(image, self.field[0])
        self._doubted, self._again = 0, 0
        if self.field[1] == "found" and not _plausibility(image, self.field[0])[0]:
            self._doubted = 1
        return self.field

    def _look_again(self, image: np.ndarray) -> None:
        """Every ``LOOK_AGAIN_EVERY`` frames, ``LOOK_AGAIN`` times, the field in doubt looked for in
        ``image`` again; a field found elsewhere (a column or more apart) that reads ``image`` more
        plausibly replaces it (its seat not yet told)."""
        assert self.field is not None
        self._doubted += 1
        if self._doubted <= LOOK_AGAIN_EVERY:
            return
        self._again += 1
        self._doubted = 0 if self._again >= LOOK_AGAIN else 1
        self.searches += 1
        try:
            found = locate_field(image)
        except CalibrationError:
            return
        old = self.field[0]
        if found[1] != "found" or not _columns_apart(old, found[0]):
            return
        now, before = _plausibility(image, found[0]), _plausibility(image, old)
        if now[:3] > before[:3]:
            self.field, self._known, self.turned = found, known_field(image, found[0]), None
            if now[0]:
                self._doubted = 0


def seated(pts: np.ndarray, image: np.ndarray, home: Home, field: FieldMemory | None = None,
           known: KnownBoard | None = None) -> Calibration:
    """The refined calibration of a field found in the picture (corners in the picture's own order)
    with the home side given: the corners say where the field is, not which long side the light
    player sits on -- a camera on the dark player's side sees the light player at the picture's top.
    On the set-up board (B3, or ``known``) only one of the two reads as the start (``learn_home``
    with the one home given), so it is learnt there and kept in ``field`` for the stream; a picture
    that does not tell (a hand, a board near the start) keeps the picture's order. A game in progress
    is seated by its play (``told_by_play``): a single photo says so in its source; a stream keeps
    the seat in ``field`` as one a set-up board told (a recording that starts mid-game, filmed from
    the dark player's side, was read turned round: every roll after voided as an opening roll in one
    half, ``bench_video.py --from-play 6 --rolled``)."""
    side = field.turned if field is not None else None
    if side is None:
        try:
            cal = learn_home(pts, image, source="found", known=known, homes=(home,))
        except CalibrationError:
            cal = refine(Calibration(pts, home=home, source="found"), image)
            if field is None:
                # a single photo: a game in progress may tell the seat
                return told_by_play(pts, image, cal)
            told = seat_by_play(image, cal)
            if told is None:
                return cal
            field.turned = told == "turned"
            return cal if told == "picture" else refine(Calibration(turned(pts), home=home, source="found"), image)
        if field is not None:
            near_turned = np.linalg.norm(cal.corners - turned(pts)) < np.linalg.norm(cal.corners - pts)
            field.turned = bool(near_turned)
        return cal
    return refine(Calibration(turned(pts) if side else pts, home=home, source="found"), image)


def shows_start(image: np.ndarray, learnt: Calibration) -> bool:
    """Whether ``image``, the picture the board ``learnt`` was learnt from as the start position
    (B3), shows the start: read by the checkers' rings alone (``learnt`` without the board it
    learnt), its points and bar -- what the set-up slot model reads; the trays, unlearnt, may
    read unknown -- differ from the start at no more than ``setup.KNOWN_MISFIT`` spots, the
    tolerance any frame a board is learnt from has (a checker the unlearnt reader misses). The
    home side is told by the best fit of the start among the four arrangements, which a board
    near the start but not it (a checker or two moved) passes as well; learnt from as the start,
    the set-up slot model would read every frame -- the picture itself first, against which every
    slot is unchanged -- as that picture's checkers standing where the start puts them."""
    from tavli_pi.vision.reader import BoardReader

    obs = BoardReader(learnt.with_(background=""), still_photo=True, hide=False).read(image)
    return sum(spot != "off" for spot, _, _ in setup_agreement(obs).differences) <= KNOWN_MISFIT


def calibrate_image(
    image: np.ndarray, corners: str | None = None, home: str | None = None, calibration: str | None = None,
    field: FieldMemory | None = None, known: KnownBoard | None = None,
) -> Calibration:
    """A calibration for ``image``: a calibration file (optionally with new corners or
    home side), else ``corners`` ("x,y x,y x,y x,y"), else the printed ArUco markers,
    else the field found in the picture (by ``field``, which remembers it between the frames
    of a stream, when given). Where the home side is learnt from the picture
    (``home="auto"``, or a found field), the picture shows the start position (or ``known``,
    the position it is known to show), and the board is learnt from it (``setup.learn_board``)
    when it reads as that position (``shows_start``; ``known`` is checked by the caller)."""
    if calibration:
        cal = Calibration.load(calibration)
        if home and home != "auto":
            cal = cal.with_(home=home)
        if corners:
            pts = _given(corners, image)
            cal = refine(cal.with_(corners=pts, u0=0.0, u1=1.0, background=""), image, colours=False)
        else:
            check_fit(cal, image)
        return cal
    if corners:
        pts, source = _given(corners, image), "corners"
    else:
        pts, source = field.locate(image) if field is not None else locate_field(image)
        check_corners(pts, image.shape)
    if home == "auto" or (source == "found" and home is None):
        try:
            cal = learn_home(pts, image, source=source, known=known)
        except CalibrationError:
            if home == "auto":
                raise
        else:
            # the picture reads as the start position (B3): learn the board from it
            try:
                learnt = learn_board(image, cal, known)
            except CalibrationError:
                if known is not None:
                    raise
                return cal
            return learnt if known is not None or shows_start(image, learnt) else cal
    if source == "found" and home in ("bottom-right", "bottom-left"):
        return seated(pts, image, home, field, known)  # type: ignore[arg-type]
    if source == "found" and home is None:
        cal = refine(Calibration(pts, home="bottom-right", source=ASSUMED), image)
        # a single photo of a game in progress may tell the seat; a stream waits for its set-up
        return cal if field is not None else told_by_play(pts, image, cal)
    cal = Calibration(pts, home=home or "bottom-right", source=source)  # type: ignore[arg-type]
    return refine(cal, image)


def seat_by_play(image: np.ndarray, cal: Calibration) -> Seat | None:
    """The seat the game in progress in ``image`` tells, read with ``cal`` (``seat.seat_of``, with the
    checkers the reading leaves unaccounted for: a 640 px beech board's dark stacks on black points
    read short, 6 dark checkers missed, told the other seat by 36 pips, and the game was joined turned
    round (issue 9)); None when it does not tell."""
    from tavli_pi.vision.reader import BoardReader

    obs = BoardReader(cal, still_photo=True).read(image)
    light, dark = obs.best_counts()
    placed_light, placed_dark = obs.placed()
    return seat_of(light, dark, (CHECKERS - placed_light, CHECKERS - placed_dark))


def told_by_play(pts: np.ndarray, image: np.ndarray, cal: Calibration) -> Calibration:
    """``cal`` (the field ``pts`` found in the picture, its corners in the picture's order; home side
    ``cal.home``, assumed when ``cal.source`` is :data:`ASSUMED`), or, when the game in progress in
    ``image`` tells that the light player sits at the other long side (``seat.seat_of``), the field
    seen from there (``home.turned``), refined, the home side kept (source :data:`SEAT_FROM_PLAY`,
    or :data:`HOME_ASSUMED`); when it tells the picture's own seat, ``cal`` with that source. A
    picture that does not tell (a position near the start, a hand over the points) keeps ``cal``."""
    seat = seat_by_play(image, cal)
    if seat is None:
        return cal
    source = HOME_ASSUMED if cal.source == ASSUMED else SEAT_FROM_PLAY
    if seat == "picture":
        return cal.with_(source=source)
    return refine(Calibration(turned(pts), home=cal.home, source=source), image)
