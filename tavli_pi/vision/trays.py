"""Borne-off checkers: checkers standing on edge in the trays.

Borne-off checkers stand side by side from the tray's end (the light tray at
the bottom, the dark one at the top, as the camera sees the board with the
light player at the bottom). Neighbouring checkers of the same colour barely
show an edge between them, so they are not counted edge by edge: the reader
measures how far the run of checkers reaches from the tray's end (rows whose
colour differs from the empty far end of the tray) and divides by the pitch
of one checker on edge. The pitch is a checker's thickness, about 0.19 of its
diameter for tournament checkers (40 mm x 7.5 mm); when the rims between
checkers show, their spacing corrects it.

The tray column stands beside the field on the home side or on the other side
(boards differ); both are read and the one holding checkers wins. Where the set-up
learnt which sides have trays (``tray_sides.py``, ``Calibration.trays``) only those
are read; on a board without trays nothing is read (the evidence is flat: the
borne-off checkers lie on the table, and ``conserve.py`` gives the count the board
implies).

With a board learnt at set-up (``background.py``: the trays are empty then, B3)
a row is occupied where the tray differs from its empty look, not from its far
end: a tray lining, an insert, lettering or the tray's own wood are in the
empty look and are never counted as checkers. A board learnt from a position
with checkers off (``Calibration.trays_learnt``) never saw that colour's tray
empty under them, but borne-off checkers stay off: the tray whose learnt view
shows them (``_held_sides``) is read against that view past them
(``held_tray_count``: the held checkers, plus any run of rows changed since
beyond them), the same colour's tray on the other side against its empty look;
a tray whose held checkers are gone (another game) is read against its far end,
as without a learnt board.

The count is given as evidence that allows for the tray's own gross errors
(``FLOOR``): a count far from the one read keeps real probability, so a board
read surely overrules a tray holding a cup or an unlearnt insert
(``conserve.py``). Checkers that look like the tray's lining (light on a white
lining, dark on a black one) change it by their rims only, and how far their run
reaches is in more doubt: with no hand over the board such a tray is weighed
loosely (``SIGMA_LIKE``, ``tray_evidences``), and a board read surely gives the
count (issue 9: a tray that cannot be read is not a witness against the board).
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.background import BG_SCALE, Difference
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, SpotEvidence
from tavli_pi.vision.stacks import spread_evidence
from tavli_pi.vision.tray_sides import sides_read

__all__ = ["THICKNESS", "tray_rects_both_sides", "run_length", "tray_count", "held_tray_count", "tray_evidence",
           "tray_evidences", "NO_TRAY"]

#: thickness of a checker as a fraction of its diameter
THICKNESS = 0.19
#: the tray's lip before the first checker plus the last rim's overhang, in checker thicknesses
LIP = 0.45
#: spread of a tray's count (checkers): SIGMA[0] + SIGMA[1] * count
SIGMA = (0.35, 0.03)
#: spread of the count of a tray whose checkers look like its lining (``_like_lining``): their
#: bodies leave the tray as it was, and the run is read from their rims and shadows (real-like frame 1:
#: two light checkers on a white lining, the second one's rim lost, read 0.82): on the 200 real-like
#: frames 29 of 356 trays read were such, their readings off the truth by 0.45 (spread; 2 of 28 by more
#: than a checker) where the others were off by 0.21 (8 of 321 by more than half a checker), so a
#: count one off keeps real probability and a board read surely decides (``conserve.py``)
SIGMA_LIKE = 0.6
#: probability floor of every count (before normalising): about one tray in six is misread
#: outright (a dark checker on a dark lining, a dice cup, checkers lying beside a board with no
#: trays), so a count far from the tray's reading keeps real probability and a sure board
#: overrules it (``conserve.py``)
FLOOR = 0.015
#: the evidence of a tray that is not there (every count alike)
NO_TRAY = CountEvidence(tuple(1.0 / (MAX_COUNT + 1) for _ in range(MAX_COUNT + 1)))


def tray_rects_both_sides(lay: Layout) -> list[dict[str, tuple[int, int, int, int]]]:
    """The trays on the home side, then the same trays mirrored to the other side."""
    home = lay.tray_rects()
    left = lay.mx + lay.u0 * lay.field_w
    right = lay.mx + lay.u1 * lay.field_w
    mirrored: dict[str, tuple[int, int, int, int]] = {}
    for colour, (x0, y0, x1, y1) in home.items():
        if x0 >= right - 1:  # home trays on the right: mirror to the left of the field
            a, b = x0 - right, x1 - right
            nx0, nx1 = left - b, left - a
        else:
            a, b = left - x1, left - x0
            nx0, nx1 = right + a, right + b
        nx0 = max(0.0, nx0)
        nx1 = min(float(lay.size[0]), nx1)
        mirrored[colour] = (int(nx0), y0, int(nx1), y1)
    return [home, mirrored]


def run_length(profile: np.ndarray, *, lead: int, max_gap: int = 2, floor: float = 18.0) -> tuple[int, float]:
    """How far the checkers reach from the start of ``profile`` (rows x 3 mean colours).

    Returns the index after the run's last row (0 when nothing stands there)
    and the run's contrast against the empty far end of the tray. Gaps up to
    ``max_gap`` rows are bridged: dark checkers in a dark tray show only their
    rims. (Unlike :func:`changed_run`, the run does not go on through fainter rows: without
    the tray's empty look learnt, its own shading and lining differ from its far end by as much
    as checkers like it do -- tried, and on single photos of the real-like set it misread more.)
    """
    n = len(profile)
    if n < 8:
        return 0, 0.0
    far = profile[int(n * 0.65) :]
    bg = np.median(far, axis=0)
    dev = np.linalg.norm(profile - bg, axis=1)
    noise = float(np.median(np.abs(np.linalg.norm(far - bg, axis=1))))
    thresh = max(floor, 4.0 * noise + 8.0)
    run = _run(dev > thresh, lead, max_gap)
    if run is None:
        return 0, 0.0
    start, end = run
    return end + 1, float(dev[start : end + 1].mean())


def _go_on(level: np.ndarray, run: tuple[int, int], low: float, max_gap: int, pitch: float) -> tuple[int, int]:
    """``run`` (first, last row) made longer through the rows past it above ``low`` (gaps of up to
    ``max_gap`` bridged) when they reach at least a checker's ``pitch`` past its end: fainter
    checkers, not a rim's fade nor an edge a little out of register (each under a pitch)."""
    start, end = run
    more = _run(level[start:] > low, 1, max_gap)
    if more is not None and start + more[1] - end >= pitch:
        end = start + more[1]
    return start, end


def _run(occupied: np.ndarray, lead: int, max_gap: int) -> tuple[int, int] | None:
    """(first, last) row of the run of occupied rows that starts within the first ``lead`` rows,
    gaps of up to ``max_gap`` rows bridged; None when none starts there."""
    start = next((i for i in range(min(lead, len(occupied))) if occupied[i]), None)
    if start is None:
        return None
    end, gap = start, 0
    for i in range(start, len(occupied)):
        if occupied[i]:
            end, gap = i, 0
        else:
            gap += 1
            if gap > max_gap:
                break
    return start, end


def _pitch_from_rims(profile: np.ndarray, length: int, guess: float) -> float:
    """The spacing of the rims inside a run, when they show; else ``guess``."""
    if length < 3 * guess:
        return guess
    lum = profile[:length].mean(axis=1)
    lum = lum - lum.mean()
    if not np.any(lum):
        return guess
    ac = np.correlate(lum, lum, "full")[length - 1 :]
    ac = ac / (ac[0] + 1e-9)
    lo, hi = int(guess * 0.8), int(np.ceil(guess * 1.25))
    if hi >= len(ac) or lo < 2:
        return guess
    lag = lo + int(np.argmax(ac[lo : hi + 1]))
    if ac[lag] < 0.3:  # no clear period: the rims do not show
        return guess
    # refine to a sub-pixel peak
    if 0 < lag < len(ac) - 1:
        a, b, c = ac[lag - 1], ac[lag], ac[lag + 1]
        den = a - 2 * b + c
        if den < 0:
            return float(lag + 0.5 * (a - c) / den)
    return float(lag)


def changed_run(change: np.ndarray, threshold: float, *, lead: int, max_gap: int,
                pitch: float, starts: np.ndarray | None = None) -> tuple[int, float]:
    """How far rows changed from the empty tray (``change`` per row, from the tray's end) reach
    from its start: (index after the run, the run's mean change); (0, 0) when nothing there changed.

    A run starts where a row changed by more than ``threshold`` (within ``lead`` rows of the
    tray's end); it goes on while rows stay changed by more than the tray's empty far end
    (``EMPTY_MARGIN`` above its level) when they do so for at least a checker's ``pitch`` past
    its end: checkers of a colour like the tray's lining (dark ones on a dark lining, light on
    light) change it by their rims only, less than ``threshold`` asks of a tray row but well
    above an empty row's change, and a run cut where they begin counted only the checkers before
    them (issue 9: dark checkers in a black-lined tray read 1 for 4). Less than a pitch is the
    fade of the run's last rim, or an edge of the tray's end a little out of register with the
    set-up frame: no checker.

    ``starts``: the rows' change forgiving the picture a share of a pixel out of register
    (``Difference.out_of_range``). A strong run whose change that explains all but ``REGISTER_SHARE`` of
    is the tray's own edges out of register, not a checker: a tray's end crept 0.3-0.4 px changed
    rows a pitch long by 15-20 grey levels, of which 1-3 were left forgiven, and read as a checker
    borne off; a board with one more checker off then tempered every point's reading (stop 47). A
    checker keeps most of its change (a lone dark checker against a tray's end 35 of 63)."""
    low = min(threshold, empty_level(change) + EMPTY_MARGIN)
    first = _run(change > threshold, lead, max_gap)
    if first is not None and starts is not None:
        rows = slice(first[0], first[1] + 1)
        if float(starts[rows].max()) < REGISTER_SHARE * float(change[rows].max()):
            # the edges out of register: checkers like the lining are looked for in the change forgiven
            first, change = None, starts
    faint = _run(change > low, lead, max_gap)
    if first is not None and faint is not None and faint[0] <= first[0] - pitch and faint[1] >= first[1]:
        # the rows from the tray's end changed, fainter than ``threshold``, for a checker's pitch or more
        # before the first row standing out: the first checker is like the lining, and so are the
        # others (a tray holds one colour); the rows standing out are a rim's glint among them, and
        # the run is the faint one from the tray's end (real-like frame 90: two dark checkers on a dark
        # lining changed rows 0-19 by 6-14, rows 11-12 by 14.5 of a threshold 14: read 1)
        first = None
    if first is None:
        # no row stands out by ``threshold``: checkers all like the lining still change it over a
        # run of WEAK_RUN checkers' length or more, where no rim's fade nor edge out of register does
        weak = _run(change > low, lead, max_gap)
        if weak is None or weak[1] + 1 - weak[0] < WEAK_RUN * pitch:
            return 0, 0.0
        first = weak
    # the fainter checkers past the strong run go on from where its own checkers end (its faded tail
    # trimmed): the first checker like the lining after one standing out begins inside that tail, its
    # rim's change above the threshold (a light checker past another on a white lining was cut short
    # of a pitch and lost: real-like frame 121)
    cut = _trimmed(change, first)
    start, end = _go_on(change, cut, low, max_gap, pitch)
    # no fainter checkers past it: the strong run as it was, its tail trimmed against its own level
    end = _trimmed(change, (start, first[1] if end == cut[1] else end))[1]
    return end + 1, float(change[start : end + 1].mean())


def _trimmed(change: np.ndarray, run: tuple[int, int]) -> tuple[int, int]:
    """``run`` with its far end's fade through the last checker's rim and shadow trimmed: it ends
    where the change falls below TAIL of the run's own level (on a light tray dark checkers change
    less than light)."""
    start, end = run
    level = float(np.median(change[start : end + 1]))
    while end > start and change[end] < TAIL * level:
        end -= 1
    return start, end


def empty_level(change: np.ndarray) -> float:
    """The change of a tray's empty far end (the rows past ``FAR_END`` of it: fifteen checkers on
    edge fill less than half a tray): what a row with no checker shows."""
    far = change[int(len(change) * FAR_END) :]
    return float(np.median(far)) if far.size else 0.0


def _row_change(diff: Difference, rect: tuple[int, int, int, int], rows: int, *, forgiving: bool = False) -> np.ndarray:
    """Mean change from the learnt empty tray per canonical row of ``rect``'s middle columns
    (``forgiving``: the change out of the learnt view's range a share of a pixel off,
    ``Difference.out_of_range``)."""
    x0, y0, x1, y1 = rect
    w = x1 - x0
    xa, xb = (x0 + int(w * 0.2)) // BG_SCALE, max((x1 - int(w * 0.2)) // BG_SCALE, (x0 + int(w * 0.2)) // BG_SCALE + 1)
    ya, yb = y0 // BG_SCALE, max(-(-y1 // BG_SCALE), y0 // BG_SCALE + 1)
    half = diff.out_of_range(ya, yb, xa, xb) if forgiving else diff.diff[ya:yb, xa:xb]
    if half.size == 0:
        return np.zeros(rows, np.float32)
    prof = half.mean(axis=1)
    # back to canonical rows (each half-scale row covers BG_SCALE of them)
    at = (np.arange(rows, dtype=np.float64) + y0 + 0.5) / BG_SCALE - ya - 0.5
    return np.asarray(np.interp(at, np.arange(len(prof), dtype=np.float64), prof), np.float32)


#: a tray row changed from its empty look stands out by at least this many grey levels ...
CHANGE_FLOOR = 14.0
#: ... and by this many times the trays' own noise (their quietest rows' change) plus CHANGE_FLOOR / 2
CHANGE_X = 3.0


#: a strong run whose change forgiven a share of a pixel out of register (``changed_run``'s ``starts``)
#: keeps less than this share of it is the tray's edges out of register
REGISTER_SHARE = 1 / 3
#: a changed run ends where its rows fall below this share of the run's median change
TAIL = 0.4
#: once started, a changed run goes on through rows changed by this many grey levels more than the
#: tray's empty far end (an empty tray's rows differ by 1-3 from their far end's level)
EMPTY_MARGIN = 4.0
#: a run no row of which stands out by the threshold counts when it is this many checkers long
WEAK_RUN = 2.0
#: the tray's far end: rows past this share of its length (15 checkers on edge fill under half)
FAR_END = 0.65


def change_threshold(diff: Difference, rects: list[tuple[int, int, int, int]]) -> float:
    """The change a tray row must show to hold a checker, from the trays' own noise: the
    quietest fifth of the rows of every tray rectangle (most trays are empty in most frames;
    the field's change, where the checkers moved since set-up, says nothing about the trays')."""
    rows = [_row_change(diff, r, r[3] - r[1]) for r in rects if r[2] - r[0] >= 4 and r[3] - r[1] >= 8]
    if not rows:
        return diff.threshold
    noise = float(np.percentile(np.concatenate(rows), 20))
    return max(CHANGE_FLOOR, CHANGE_X * noise + CHANGE_FLOOR / 2)


def tray_count(canon: np.ndarray, rect: tuple[int, int, int, int], *, from_bottom: bool,
               pitch: float, diff: Difference | None = None, threshold: float = 0.0) -> tuple[float, float]:
    """(estimated count, contrast) of checkers standing in one tray (``diff``: the frame's change
    from the board learnt at set-up; the run is then where the tray changed from its empty look
    by more than ``threshold``, ``change_threshold`` when 0)."""
    x0, y0, x1, y1 = rect
    w = x1 - x0
    if w < 4 or y1 - y0 < 8:
        return 0.0, 0.0
    xa, xb = x0 + int(w * 0.2), x1 - int(w * 0.2)
    prof = canon[y0:y1, xa:xb].astype(np.float32).mean(axis=1)
    if from_bottom:
        prof = prof[::-1]
    lead, gap = int(pitch * 1.5) + 4, max(2, int(0.8 * pitch))
    if diff is not None:
        change = _row_change(diff, rect, y1 - y0)
        starts = _row_change(diff, rect, y1 - y0, forgiving=True)
        if from_bottom:
            change, starts = change[::-1], starts[::-1]
        reach, contrast = changed_run(change, threshold or change_threshold(diff, [rect]), lead=lead, max_gap=gap,
                                      pitch=pitch, starts=starts)
    else:
        reach, contrast = run_length(prof, lead=lead, max_gap=gap)
    if reach == 0:
        return 0.0, 0.0
    p = _pitch_from_rims(prof, reach, pitch)
    # the tray's lip holds the first checker off the end, and the last rim reaches a little past
    # the run: together about half a pitch (measured on the three sim designs)
    return min(float(MAX_COUNT), max(0.0, reach - LIP * p) / p), contrast


def tray_evidence(canon: np.ndarray, lay: Layout, cal: Calibration, diff: Difference | None = None,
                  hand: bool = False) -> SpotEvidence:
    """Count likelihoods for the light and the dark tray (``diff``: the frame against the board
    learnt at set-up, when there is one; ``hand``: a hand over the board, see ``tray_evidences``)."""
    return tray_evidences(canon, lay, cal, diff)[0 if hand else 1]


def tray_evidences(canon: np.ndarray, lay: Layout, cal: Calibration, diff: Difference | None = None
                   ) -> tuple[SpotEvidence, SpotEvidence]:
    """``tray_evidence`` with a hand over the board and without. A tray whose checkers look like its
    lining (``_like_lining``) and that holds a run of them is read loosely without a hand (``SIGMA_LIKE``),
    so that a board read surely decides; with a hand over the board, the board is no such witness
    (checkers under the hand or in it) and a loose tray gave way to a board short of a hidden checker
    (real-like frames 23, 50: 1 and 5 read 2 and 6). Only a run that stood out (its mean change at least
    the threshold a row must pass) is read loosely: in a tray whose checkers look like its lining what
    stands out is not their bodies but the first one's shadow at the tray's end or a rim, and the fainter
    checkers past it may be lost (frame 1: the second of two light checkers on a white lining). A run
    all faint was read to its end as it was read from its start (frame 100: six dark checkers on a dark
    lining changing it by 8 of a threshold 14 read 5.86; weighed loosely, the balance gave the tray a
    seventh checker in place of one missed on point 22). A tray with no run at all is read alike either
    way: no checker changed it (the 7 such trays read empty on the 200 real-like frames all were)."""
    pitch = max(2.0, THICKNESS * 2.0 * cal.checker_r * lay.pitch)
    best = {"light": (0.0, 0.0, False), "dark": (0.0, 0.0, False)}
    sides = [rects for rects, read in zip(tray_rects_both_sides(lay), sides_read(cal)) if read]
    if not sides:  # a board without trays: nothing to read
        return SpotEvidence(NO_TRAY, NO_TRAY), SpotEvidence(NO_TRAY, NO_TRAY)
    learnt = dict(zip(("light", "dark"), cal.trays_learnt))
    seen = [r for rects in sides for colour, r in rects.items() if learnt[colour]]
    threshold = change_threshold(diff, seen) if diff is not None and seen else 0.0
    # a tray that held checkers when the board was learnt: the side whose learnt view shows them
    held = _held_sides(cal, diff.learnt, sides, pitch) if diff is not None else {}
    for side, rects in enumerate(sides):
        for colour, rect in rects.items():
            if diff is not None and colour in held and held[colour][0] == side:
                n, contrast = held_tray_count(canon, rect, from_bottom=colour == "light", pitch=pitch, diff=diff,
                                              held=held[colour][1], threshold=threshold)
            else:
                # a tray empty when learnt (on the other side of one that held checkers too) is read
                # against its empty look
                n, contrast = tray_count(canon, rect, from_bottom=colour == "light", pitch=pitch,
                                         diff=diff if learnt[colour] or colour in held else None, threshold=threshold)
            if contrast > best[colour][1]:
                # (only a run that stood out: see ``tray_evidences``)
                like = (n > 0 and diff is not None and learnt[colour] and contrast >= (threshold or diff.threshold)
                        and _like_lining(cal, diff, rect, colour, threshold))
                best[colour] = (n, contrast, like)
    light, dark = best["light"], best["dark"]
    tight = SpotEvidence(*(spread_evidence(n, SIGMA[0] + SIGMA[1] * n, FLOOR) for n, _, _ in (light, dark)))
    if not (light[2] or dark[2]):
        return tight, tight
    return tight, SpotEvidence(*(spread_evidence(n, (SIGMA_LIKE if like else SIGMA[0]) + SIGMA[1] * n, FLOOR)
                                 for n, _, like in (light, dark)))


def _like_lining(cal: Calibration, diff: Difference, rect: tuple[int, int, int, int], colour: str,
                 threshold: float) -> bool:
    """Whether ``colour``'s checkers look like the tray's lining (its learnt empty look, ``diff.learnt``):
    closer to it (the learnt checker colour, ``Calibration.light_bgr`` / ``dark_bgr``) than a row must
    change to hold a checker (``threshold``). Such checkers change the tray by their rims and shadows
    only, and how far they reach is read loosely (``SIGMA_LIKE``)."""
    x0, y0, x1, y1 = rect
    w = x1 - x0
    xa, xb = (x0 + int(w * 0.2)) // BG_SCALE, max((x1 - int(w * 0.2)) // BG_SCALE, (x0 + int(w * 0.2)) // BG_SCALE + 1)
    ya, yb = y0 // BG_SCALE, max(-(-y1 // BG_SCALE), y0 // BG_SCALE + 1)
    lining = diff.learnt[ya:yb, xa:xb].reshape(-1, 3)
    if lining.size == 0:
        return False
    checker = np.asarray(cal.light_bgr if colour == "light" else cal.dark_bgr, np.float64)
    return float(np.linalg.norm(np.median(lining.astype(np.float64), axis=0) - checker)) < (threshold or diff.threshold)


def _held_sides(cal: Calibration, bg: np.ndarray, sides: list[dict[str, tuple[int, int, int, int]]], pitch: float
                ) -> dict[str, tuple[int, int]]:
    """colour -> (index into ``sides``, checkers) of each tray that held checkers in the position the
    board was learnt from (``Calibration.position``'s off): the side read whose learnt view (``bg``,
    the ``Difference``'s) shows the longer run of checkers from the tray's end against its far end
    (``run_length``); none when the learnt view shows no run on any side."""
    if cal.position is None:
        return {}
    out = {}
    for colour, n in zip(("light", "dark"), cal.position.off):
        if not n:
            continue
        runs = []
        for rects in sides:
            x0, y0, x1, y1 = rects[colour]
            w = x1 - x0
            xa, xb = (x0 + int(w * 0.2)) // BG_SCALE, (x1 - int(w * 0.2)) // BG_SCALE
            ya, yb = y0 // BG_SCALE, -(-y1 // BG_SCALE)
            prof = bg[ya:yb, xa:xb].astype(np.float32).mean(axis=1) if xb > xa and yb > ya else np.zeros((0, 3))
            prof = prof[::-1] if colour == "light" else prof
            half = pitch / BG_SCALE
            runs.append(run_length(prof, lead=int(half * 1.5) + 2, max_gap=max(1, int(0.8 * half)))[1])
        if max(runs) > 0:
            out[colour] = (int(np.argmax(runs)), int(n))
    return out


def held_tray_count(canon: np.ndarray, rect: tuple[int, int, int, int], *, from_bottom: bool, pitch: float,
                    diff: Difference, held: int, threshold: float = 0.0) -> tuple[float, float]:
    """(estimated count, contrast) of a tray that held ``held`` checkers when the board was learnt.

    Borne-off checkers stay off: those ``held`` are in the learnt view, unchanged, and the tray's
    empty look was learnt beyond them. Checkers borne off since change the rows past them, so the
    run of changed rows may start up to the held checkers' reach (``LIP`` and ``held`` pitches) past
    the tray's end; none changed there: the tray holds ``held``. When the held checkers' rows
    changed as much as a checker changes a row (the tray emptied: another game), the tray is read
    against its far end, as without a learnt board."""
    x0, y0, x1, y1 = rect
    if x1 - x0 < 4 or y1 - y0 < 8:
        return 0.0, 0.0
    change = _row_change(diff, rect, y1 - y0)
    starts = _row_change(diff, rect, y1 - y0, forgiving=True)
    if from_bottom:
        change, starts = change[::-1], starts[::-1]
    threshold = threshold or change_threshold(diff, [rect])
    reach_held = int(round((held + LIP) * pitch))
    if reach_held >= len(change) or float(np.mean(change[:reach_held])) > threshold:
        return tray_count(canon, rect, from_bottom=from_bottom, pitch=pitch)
    lead = reach_held + int(pitch * 1.5) + 4
    reach, contrast = changed_run(change, threshold, lead=lead, max_gap=max(2, int(0.8 * pitch)), pitch=pitch,
                                  starts=starts)
    if reach <= reach_held:
        return float(held), threshold
    return min(float(MAX_COUNT), max(float(held), (reach - LIP * pitch) / pitch)), contrast
