"""The field's columns and bar from where a known position's stacks stand (set-up, B3).

Every checker's point is known at set-up, so where its stacks stand gives the point width and
where each half's six points begin. The stacks are not looked for one by one: each stack gives a
profile (how ring-like the board is, along the row, where its first checkers would lie), and each
half's start and width are the ones under which all its stacks' profiles score most together, the
two halves' widths held alike. A stack whose clearest rings lie elsewhere (a thick checker's side
band, the bar's rim beside a stack, a neighbour's checkers) then cannot move its column off the
line the other stacks give: at the start each half holds only two stacks' columns, and a column
found alone by its own clearest rings decided the half's width by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard

__all__ = ["start_geometry"]

#: how far (point widths) each half's start is looked for either side of where the first guess puts it
#: (a field whose middle band alone put it 1.2 points off is brought right in two passes)
_SEARCH = 0.9
#: how far either side of its guessed column a stack's profile reaches: every stack is seen wherever any
#: start and width tried put it, so a crowded position's stacks are placed together, each on its own
#: checkers (a stack cut off at its own point's edge scored a neighbour's checkers instead)
_REACH = 1.6
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


def _profile(g: ck.Gradients, x: float, base: float, sign: float, w: float, rho: float, n: int,
             search: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(xs, score, fit) of a stack of ``n`` checkers whose column is guessed at ``x``: for each
    x within ``search`` point widths, its first min(n, 3) checkers (about one diameter apart from
    the base, each looked for a little along the stack) scored by their rings."""
    r = rho * w
    xs = np.arange(x - search * w, x + search * w + 1.0, 1.0, dtype=np.float32)
    score = np.zeros(len(xs), np.float64)
    fit = np.zeros(len(xs), np.float64)
    k_n = min(n, 3)
    for k in range(k_n):
        ds = (2 * k + np.linspace(0.7, 1.7, 9, dtype=np.float32)) * r
        cy = np.broadcast_to((base + sign * ds)[:, None], (len(ds), len(xs)))
        cx = np.broadcast_to(xs[None, :], cy.shape)
        f = ck.ring_features(g, cx, cy, np.full(cy.shape, r, np.float32), np.full(cy.shape, sign > 0))
        s = f[..., 1] + 0.5 * f[..., 2]
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


def _stacks(cal: Calibration, g: ck.Gradients, board: KnownBoard) -> list[_Stack]:
    lay = cal.layout
    cols = lay.columns
    bx0, bx1 = lay.bar_x
    out = []
    for p in range(1, 25):
        n = board.light[p - 1] + board.dark[p - 1]
        if n == 0:
            continue
        col = cols[p - 1]
        base = lay.top_y if col.top else lay.bottom_y
        half = 0 if col.x < (bx0 + bx1) / 2 else 1
        edge = lay.mx + lay.u0 * lay.field_w if half == 0 else bx1
        i = int(round((col.x - edge) / col.width - 0.5))
        xs, score, fit = _profile(g, col.x, base, 1.0 if col.top else -1.0, col.width, cal.checker_r, n, _REACH)
        out.append(_Stack(half, min(max(i, 0), 5), xs, score, fit))
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


def _start_fit(cal: Calibration, g: ck.Gradients, board: KnownBoard) -> Calibration | None:
    """One pass of ``start_geometry`` from ``cal``'s geometry (None: the known stacks do not fit)."""
    lay = cal.layout
    bx0, bx1 = lay.bar_x
    width = lay.columns[0].width
    stacks = _stacks(cal, g, board)
    halves = [[s for s in stacks if s.half == h] for h in (0, 1)]
    if any(len({s.column for s in half}) < 2 for half in halves):
        return None
    left_edge = lay.mx + lay.u0 * lay.field_w
    (s0, a0), (s1, a1) = _half_scores(halves[0], left_edge, width), _half_scores(halves[1], bx1, width)
    rel = (_WIDTHS[:, None] - _WIDTHS[None, :]) / _WIDTHS[None, :]
    joint = s0[:, None] + s1[None, :] - _ALIKE * np.abs(rel)
    i0, i1 = np.unravel_index(int(np.argmax(joint)), joint.shape)
    w0, w1 = float(_WIDTHS[i0] * width), float(_WIDTHS[i1] * width)
    start0, start1 = float(a0[i0]), float(a1[i1])
    if abs(w0 - w1) > _MOST_UNALIKE * (w0 + w1) / 2:
        return None
    if _found_columns(halves[0], start0, w0) < 2 or _found_columns(halves[1], start1, w1) < 2:
        return None
    fw, mx = lay.field_w, lay.mx
    u0, b0, b1, u1 = ((start0 - mx) / fw, (start0 + 6 * w0 - mx) / fw, (start1 - mx) / fw, (start1 + 6 * w1 - mx) / fw)
    if not (u0 < b0 < b1 < u1) or b1 - b0 < 0.01:
        return None
    return cal.with_(u0=u0, u1=u1, bar=(b0, b1))


def start_geometry(cal: Calibration, image: np.ndarray, *others: Calibration,
                   known: KnownBoard | None = None) -> Calibration:
    """The field's left and right edges and the bar from where the known position's stacks stand
    (``known``: the start position, B3, when None).

    Every checker's point is known. Each half's start and point width are those under which its
    stacks' rings score most together (the module's doc), with the two halves' widths held alike;
    kept only when each half has two columns whose stacks fit clearly there, the halves' widths
    are within 15 % and the bar lies between them. Run twice, so a field first off by up to about a
    point is brought right. When the stacks are not found from ``cal``'s geometry, each of
    ``others`` (the same field, other first guesses: the corners as given) is tried in turn; when
    none fits, ``cal`` is returned as it was.
    """
    board = known if known is not None else KnownBoard.start()
    g = ck.gradients(cal.warp(image))
    for first in (cal, *others):
        once = _start_fit(first, g, board)
        if once is not None:
            twice = _start_fit(once, g, board)
            return twice if twice is not None else once
    return cal
