"""The field's columns and bar from where a known position's stacks stand (set-up, B3).

Every checker's point is known at set-up, so where its stacks stand gives the point width and
where each half's six points begin. The stacks are not looked for one by one: each stack gives a
profile (how ring-like the board is, along the row, where its first checkers would lie), and each
half's start and width are the ones under which all its stacks' profiles score most together, the
two halves' widths held alike. A stack whose clearest rings lie elsewhere (a thick checker's side
band, the bar's rim beside a stack, a neighbour's checkers) then cannot move its column off the
line the other stacks give: at the start each half holds only two stacks' columns, and a column
found alone by its own clearest rings decided the half's width by itself.

That joint fit is made for the start position, whose stacks stand apart (no two on neighbouring
points of one side). Another known position (a game in progress, ``read --position``) is fitted
stack by stack as before (each stack within its own point where a neighbour's stands beside it, a
line through each half's columns, the column farthest off it dropped): fitted together, crowded
stacks let the whole field slide a point onto its neighbours' checkers (a game in progress on a
640 px table whose middle band put the field 1.2 points off: placed a point wrong; a position
that is not the photo's: fitted a point over, and the frame then read as a hand over the board).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.frame_views import FrameViews
from tavli_pi.vision.known import KnownBoard

__all__ = ["start_geometry", "position_geometries"]

#: the most a start stack's checkers may be found from its column's centre, in point widths
_SEARCH = 0.9
#: ... a stack with a neighbour's beside it, within its own point
_NEAR = 0.4
#: the least ring fit (25th percentile of the rim's gradient) of a column's stack, where the fit
#: puts it, for the column to count as found
_CLEAR = 0.2
#: a stack's profile is smoothed by a gaussian this wide (point widths): a stack's rings score on a
#: plateau as wide as the blur (a 640 px frame: a third of a point), whose middle is the stack's
#: place, not its highest pixel; a rim's narrow peak is weighed down
_SMOOTH = 0.1
#: the widths tried for a half's points, as fractions of the width the first guess gives
_WIDTHS = np.arange(0.82, 1.22, 0.004)
#: the score a half loses per unit of relative difference between the two halves' point widths: the
#: points of both halves are alike, but a photo's field found a little off (its corners) or a lens
#: makes one half's look up to a few per cent wider, so the tie is soft (5 % costs a quarter of one
#: stack's clear rings). It decides a half whose two columns pull apart (a 640 px frame's outer
#: stack on a blurred plateau: 0.14 of a point off untied, 0.10 tied); a real photo's halves 1.7 %
#: unalike (WTC frame1, a game in progress) keep their own widths
_ALIKE = 5.0
#: the halves' point widths may differ by this much (relative) at most
_MOST_UNALIKE = 0.15


@dataclass(frozen=True, slots=True)
class _Stack:
    """One known stack: its half (0 left, 1 right of the bar), its column within the half (0-5
    from the half's left end), and how ring-like the board is at each x of ``xs`` where its first
    checkers would lie (``score``: summed over them; ``fit``: their mean ring fit)."""

    half: int
    column: int
    xs: np.ndarray
    score: np.ndarray
    fit: np.ndarray


def _row(x: float, w: float, search: float) -> np.ndarray:
    """The x's (1 px steps) within ``search`` point widths (``w`` px) of column x."""
    return np.arange(x - search * w, x + search * w + 1.0, 1.0, dtype=np.float32)


def _checker_rings(g: ck.Gradients, xs: np.ndarray, base: float, sign: float, r: float,
                   k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ring features (``ck.ring_features``) of a stack's ``k``-th checker at each x of ``xs``,
    looked for a little along the stack round ``2k + 1`` radii from the base (9 places by the x's),
    and their score (the rim's 25th percentile and half its median)."""
    ds = (2 * k + np.linspace(0.7, 1.7, 9, dtype=np.float32)) * r
    cy = np.broadcast_to((base + sign * ds)[:, None], (len(ds), len(xs)))
    cx = np.broadcast_to(xs[None, :], cy.shape)
    f = ck.ring_features(g, cx, cy, np.full(cy.shape, r, np.float32), np.full(cy.shape, sign > 0))
    return f, f[..., 1] + 0.5 * f[..., 2]


def _profile(g: ck.Gradients, x: float, base: float, sign: float, w: float, rho: float, n: int,
             search: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(xs, score, fit) of a stack of ``n`` checkers whose column is guessed at ``x``: for each
    x within ``search`` point widths, its first min(n, 3) checkers (about one diameter apart from
    the base, each looked for a little along the stack) scored by their rings."""
    r = rho * w
    xs = _row(x, w, search)
    score = np.zeros(len(xs), np.float64)
    fit = np.zeros(len(xs), np.float64)
    k_n = min(n, 3)
    for k in range(k_n):
        f, s = _checker_rings(g, xs, base, sign, r, k)
        best = np.argmax(s, axis=0)
        score += s[best, np.arange(len(xs))]
        fit += f[best, np.arange(len(xs)), 1]
    return xs.astype(np.float64), _smooth(score, _SMOOTH * w), fit / k_n


def _smooth(profile: np.ndarray, sigma: float) -> np.ndarray:
    """``profile`` (1 px steps) smoothed by a gaussian of ``sigma`` px, its ends held."""
    half = max(int(np.ceil(3 * sigma)), 1)
    k = np.exp(-0.5 * (np.arange(-half, half + 1) / sigma) ** 2)
    padded = np.pad(profile, half, mode="edge")
    return np.convolve(padded, k / k.sum(), mode="valid")


@dataclass(frozen=True, slots=True)
class _Known:
    """One known stack where ``cal``'s geometry puts it: its column's x and width, its base's y and
    the way it grows (``sign``: +1 down from the top edge), its checkers, its half (0 left, 1 right
    of the bar) and column within the half (0-5 from the half's left end, as guessed), and how far
    it is looked for (point widths: within its own point where a neighbour's stands beside it)."""

    x: float
    width: float
    base: float
    sign: float
    n: int
    half: int
    column: int
    search: float


def _known_stacks(cal: Calibration, board: KnownBoard) -> list[_Known]:
    lay = cal.layout
    cols = lay.columns
    bx0, bx1 = lay.bar_x
    held = [board.light[i] + board.dark[i] > 0 for i in range(24)]
    out = []
    for p in range(1, 25):
        n = board.light[p - 1] + board.dark[p - 1]
        if n == 0:
            continue
        col = cols[p - 1]
        crowded = any(held[q - 1] and cols[q - 1].top == col.top and abs(cols[q - 1].x - col.x) < 1.5 * col.width
                      for q in (p - 1, p + 1) if 1 <= q <= 24)
        half = 0 if col.x < (bx0 + bx1) / 2 else 1
        edge = lay.mx + lay.u0 * lay.field_w if half == 0 else bx1
        out.append(_Known(col.x, col.width, lay.top_y if col.top else lay.bottom_y, 1.0 if col.top else -1.0, n, half,
                          int(round((col.x - edge) / col.width - 0.5)), _NEAR if crowded else _SEARCH))
    return out


def _stacks(cal: Calibration, g: ck.Gradients, board: KnownBoard) -> list[_Stack]:
    out = []
    for k in _known_stacks(cal, board):
        xs, score, fit = _profile(g, k.x, k.base, k.sign, k.width, cal.checker_r, k.n, k.search)
        out.append(_Stack(k.half, min(max(k.column, 0), 5), xs, score, fit))
    return out


def _half_scores(stacks: list[_Stack], start: float, width: float) -> tuple[np.ndarray, np.ndarray]:
    """For each width of ``_WIDTHS`` (times ``width``): the best summed score of the half's stacks
    over its starts (within ``_SEARCH`` widths of ``start``, half-pixel steps), and that start."""
    ws = _WIDTHS * width
    starts = start + np.arange(-_SEARCH * width, _SEARCH * width + 0.5, 0.5)
    total = np.zeros((len(ws), len(starts)))
    for s in stacks:
        x = starts[None, :] + (s.column + 0.5) * ws[:, None]
        total += np.interp(x, s.xs, s.score, left=0.0, right=0.0)
    best = np.argmax(total, axis=1)
    return total[np.arange(len(ws)), best], starts[best]


def _found_columns(stacks: list[_Stack], start: float, width: float) -> int:
    """How many of the half's columns have a stack whose rings fit clearly where the fit puts it."""
    found = set()
    for s in stacks:
        x = start + (s.column + 0.5) * width
        if float(np.interp(x, s.xs, s.fit, left=0.0, right=0.0)) >= _CLEAR:
            found.add(s.column)
    return len(found)


def _joint_fit(cal: Calibration, g: ck.Gradients, board: KnownBoard) -> Calibration | None:
    """One pass of the joint fit from ``cal``'s geometry (None: the known stacks do not fit)."""
    lay = cal.layout
    width = lay.columns[0].width
    stacks = _stacks(cal, g, board)
    halves = [[s for s in stacks if s.half == h] for h in (0, 1)]
    if any(len({s.column for s in half}) < 2 for half in halves):
        return None
    left_edge = lay.mx + lay.u0 * lay.field_w
    (s0, a0), (s1, a1) = _half_scores(halves[0], left_edge, width), _half_scores(halves[1], lay.bar_x[1], width)
    rel = (_WIDTHS[:, None] - _WIDTHS[None, :]) / _WIDTHS[None, :]
    joint = s0[:, None] + s1[None, :] - _ALIKE * np.abs(rel)
    i0, i1 = np.unravel_index(int(np.argmax(joint)), joint.shape)
    w0, w1 = float(_WIDTHS[i0] * width), float(_WIDTHS[i1] * width)
    start0, start1 = float(a0[i0]), float(a1[i1])
    if abs(w0 - w1) > _MOST_UNALIKE * (w0 + w1) / 2:
        return None
    if _found_columns(halves[0], start0, w0) < 2 or _found_columns(halves[1], start1, w1) < 2:
        return None
    return _with_halves(cal, (start0, w0), (start1, w1))


def _with_halves(cal: Calibration, left: tuple[float, float], right: tuple[float, float]) -> Calibration | None:
    """``cal`` with the halves' (start x, point width) in canonical px (each six points wide, the bar
    between them); None when the bar would not lie between them."""
    lay = cal.layout
    (a0, w0), (a1, w1) = left, right
    fw, mx = lay.field_w, lay.mx
    u0, b0, b1, u1 = ((a0 - mx) / fw, (a0 + 6 * w0 - mx) / fw, (a1 - mx) / fw, (a1 + 6 * w1 - mx) / fw)
    if not (u0 < b0 < b1 < u1) or b1 - b0 < 0.01:
        return None
    return cal.with_(u0=u0, u1=u1, bar=(b0, b1))


#: top and bottom stacks of one column agree when this close (point widths; the stack-by-stack fit)
_AGREE = 0.2


def _stack_x(g: ck.Gradients, x: float, base: float, sign: float, w: float, rho: float, n: int,
             search: float = _SEARCH) -> tuple[float, float]:
    """(x of the clearest rings of a stack of ``n`` checkers near column x, their mean ring fit).

    The first min(n, 3) checkers lie about one diameter apart from the base; each
    is looked for across ``search`` point widths either side of ``x`` and a
    little along the stack; the stack's x is their fit-weighted mean.
    """
    r = rho * w
    xs = _row(x, w, search)
    got, fits = [], []
    for k in range(min(n, 3)):
        f, score = _checker_rings(g, xs, base, sign, r, k)
        iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
        got.append(float(xs[ix]))
        fits.append(max(float(f[iy, ix, 1]), 1e-3))
    wts = np.asarray(fits)
    return float(np.dot(got, wts) / wts.sum()), float(np.mean(fits))


def _line_fit(cal: Calibration, g: ck.Gradients, board: KnownBoard) -> Calibration | None:
    """One pass of the stack-by-stack fit from ``cal``'s geometry (None: the known stacks do not fit):
    each stack placed by its own clearest rings, a column where its two stacks agree (or the clearer
    one), a line through each half's columns (:func:`_column_line`)."""
    lay = cal.layout
    seen: dict[tuple[int, int], list[tuple[float, float]]] = {}
    width = {0: lay.columns[0].width, 1: lay.columns[0].width}
    for k in _known_stacks(cal, board):
        width[k.half] = k.width
        seen.setdefault((k.half, k.column), []).append(
            _stack_x(g, k.x, k.base, k.sign, k.width, cal.checker_r, k.n, k.search))
    out = []
    for half in (0, 1):
        places = []
        for (h, i), found in sorted(seen.items()):
            if h != half:
                continue
            clear = [(x, f) for x, f in found if f >= _CLEAR]
            if len(clear) == 2 and abs(clear[0][0] - clear[1][0]) < _AGREE * width[half]:
                places.append((i + 0.5, (clear[0][0] + clear[1][0]) / 2))
            elif clear:
                x, f = max(clear, key=lambda c: c[1])
                if f >= 1.5 * _CLEAR:
                    places.append((i + 0.5, x))
        line = _column_line(places, width[half])
        if line is None:
            return None
        out.append(line)
    (a0, w0), (a1, w1) = out
    if abs(w0 - w1) > _MOST_UNALIKE * (w0 + w1) / 2:
        return None
    return _with_halves(cal, (a0, w0), (a1, w1))


#: a column found this far (point widths) from the line through the others is not taken
_OFF_LINE = 0.25


def _column_line(places: list[tuple[float, float]], width: float) -> tuple[float, float] | None:
    """(x where the half's first point begins, point width) through the columns found, ``places``
    ((column index + 0.5, x), by index): exact through two, least squares through more, the column
    farthest off the line dropped while it is more than ``_OFF_LINE`` widths off and two are left;
    None when fewer than two columns were found or the width is not near ``width``."""
    pts = list(places)
    while len(pts) >= 2:
        i = np.asarray([p[0] for p in pts])
        x = np.asarray([p[1] for p in pts])
        if np.ptp(i) == 0:
            return None
        w, a = np.polyfit(i, x, 1) if len(pts) > 2 else ((x[1] - x[0]) / (i[1] - i[0]), 0.0)
        if len(pts) == 2:
            a = x[0] - i[0] * w
        off = np.abs(a + w * i - x)
        worst = int(np.argmax(off))
        if len(pts) > 2 and off[worst] > _OFF_LINE * width:
            pts.pop(worst)
            continue
        if not 0.8 * width < w < 1.25 * width:
            return None
        return float(a), float(w)
    return None


def start_geometry(cal: Calibration, image: np.ndarray, *others: Calibration,
                   known: KnownBoard | None = None, views: FrameViews | None = None) -> Calibration:
    """The field's left and right edges and the bar from where the known position's stacks stand
    (``known``: the start position, B3, when None).

    Every checker's point is known. For the start, each half's start and point width are those under
    which its stacks' rings score most together (the module's doc), with the two halves' widths held
    alike; for another position, a line through each half's columns found stack by stack. Kept only
    when each half has two columns found, the halves' widths are within 15 % and the bar lies between
    them. Run twice, so a field first off by up to about a point is brought right. When the stacks
    are not found from ``cal``'s geometry, each of ``others`` (the same field, other first guesses:
    the corners as given) is tried in turn; when none fits, ``cal`` is returned as it was.
    ``views``: ``image``'s warps and gradients shared with the other steps of learning the board.
    """
    board = known if known is not None else KnownBoard.start()
    g = (views if views is not None else FrameViews(image)).gradients(cal)
    fit = _joint_fit if board.is_start else _line_fit
    for first in (cal, *others):
        once = fit(first, g, board)
        if once is not None:
            twice = fit(once, g, board)
            return twice if twice is not None else once
    return cal


def position_geometries(cal: Calibration, image: np.ndarray, *others: Calibration, known: KnownBoard,
                        views: FrameViews | None = None) -> list[Calibration]:
    """The geometries a position other than the start gives (``start_geometry``'s, from ``cal`` or
    the first of ``others`` that fits): fitted stack by stack (as ``start_geometry`` does for such a
    position) and jointly (each half's stacks together, as for the start), each one when it fits.
    Neither is sure alone: stack by stack, a first guess more than half a point off (the middle band
    taking a wide bar's lettering for its edges, a frame's outer edge for the field's) finds no
    stack in its point and keeps the guess; jointly, crowded stacks may let a half slide a point
    onto its neighbours' checkers. The caller keeps the one under which the frame reads most like
    ``known`` (``setup.learn_board``)."""
    g = (views if views is not None else FrameViews(image)).gradients(cal)
    out = []
    for fit in (_line_fit, _joint_fit):
        for first in (cal, *others):
            once = fit(first, g, known)
            if once is not None:
                twice = fit(once, g, known)
                out.append(twice if twice is not None else once)
                break
    return out
