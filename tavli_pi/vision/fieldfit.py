"""How well a quadrilateral fits a backgammon field's points, and fitting it closer.

Every field, whatever its design, has 12 triangles standing on its top edge and
12 on its bottom edge, 6 a side of the bar, each as wide as its point's column
and narrowing towards the middle. Through a candidate quadrilateral the
picture is sampled where each triangle should be (a little inside its sides)
and where the surface beside it should be (a little outside them): on the
field the two differ in colour in nearly every column, whatever the colours;
a quadrilateral off by half a point or more, or the wrong size, mixes them.
The fit is the mean over the 24 columns of that difference against the spread
of the surface's own colour, and the corners are fitted by moving each a
little at a time while the fit grows. Checkers on a point lower its column's
contrast but never make a wrong quadrilateral fit better than the field.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.vision.calibration import order_corners

__all__ = ["BARS", "FieldCheck", "KnownField", "field_fit", "field_still_there", "fit_corners", "fitted_fields",
           "known_field", "line_candidates", "placed", "prepared", "side_hidden", "with_hidden_end"]

#: bar widths tried (fractions of the field width): a hinge strip to a very wide bar
BARS = (0.02, 0.045, 0.07, 0.1, 0.135, 0.17, 0.205, 0.24)
#: the rows sampled, as fractions of the field height from the points' base
_ROWS = np.linspace(0.04, 0.28, 7)
#: a triangle's length assumed, as a fraction of the field height (designs: 0.36-0.45)
_LENGTH = 0.42
#: offsets across a column sampled, as fractions of the point width from its centre
_ACROSS = np.linspace(-0.48, 0.48, 19)
#: the weight of the edge term (the bases' colours alternate just inside the edge only)
_EDGE_WEIGHT = 0.5
#: long edges kept per direction (near-horizontal, near-vertical) to bound candidates
_LINES = 7
#: the longest side of the picture the fit looks at
_SIZE = 640


def prepared(image: np.ndarray) -> tuple[np.ndarray, float]:
    """(the picture shrunk to at most ``_SIZE`` px and slightly blurred, float32 Lab; its scale)."""
    h, w = image.shape[:2]
    scale = min(1.0, _SIZE / max(h, w))
    small = cv2.resize(image, (max(1, int(w * scale)), max(1, int(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab, scale


def _grid(bar: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(u, v, inside) of every sample: u, v field fractions (24 columns x rows x offsets),
    inside (rows x offsets, the same in every column) +1 in the triangle, -1 on the surface
    beside it, 0 on its sides (not used)."""
    half = (1.0 - bar) / 2.0
    w = half / 6.0
    centres = np.r_[(np.arange(6) + 0.5) * w, 0.5 + bar / 2.0 + (np.arange(6) + 0.5) * w]
    hw = 0.5 * (1.0 - _ROWS / _LENGTH)[:, None]  # the triangle's half width (point widths)
    a = np.abs(_ACROSS)[None, :]
    # close along the triangle's sides, in and out: a quadrilateral off in height or width
    # puts the sides elsewhere
    inside = np.where((a > 0.45 * hw) & (a < 0.85 * hw), 1.0,
                      np.where((a > 1.15 * hw + 0.02) & (a < 1.6 * hw + 0.06), -1.0, 0.0)).ravel()
    du = np.broadcast_to(_ACROSS[None, :] * w, (len(_ROWS), len(_ACROSS))).ravel()
    rows = np.broadcast_to(_ROWS[:, None], (len(_ROWS), len(_ACROSS))).ravel()
    u = np.r_[centres, centres][:, None] + du[None, :]
    v = np.r_[np.broadcast_to(rows, (12, rows.size)), np.broadcast_to(1.0 - rows, (12, rows.size))]
    return u, v, inside


_GRIDS = {b: _grid(b) for b in BARS}


def _sample(lab: np.ndarray, quad: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Lab values at field fractions (u, v) of the quadrilateral (TL TR BR BL, px of ``lab``)."""
    unit = np.asarray([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    hom = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    pts = cv2.perspectiveTransform(np.stack([u, v], -1).reshape(1, -1, 2).astype(np.float32), hom)[0]
    mx = pts[:, 0].reshape(1, -1).astype(np.float32)
    my = pts[:, 1].reshape(1, -1).astype(np.float32)
    out = cv2.remap(lab, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return np.asarray(out[0]).reshape(*u.shape, 3)


#: the bands along the top and bottom edges, just inside and just outside the field (field fractions)
_EDGE_IN = np.linspace(0.006, 0.04, 4)
_EDGE_OUT = -np.linspace(0.006, 0.04, 4)


def _edge_grid(bar: float) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) of the edge samples: (2 edges x 2 sides) x 12 columns x (rows x offsets)."""
    half = (1.0 - bar) / 2.0
    w = half / 6.0
    centres = np.r_[(np.arange(6) + 0.5) * w, 0.5 + bar / 2.0 + (np.arange(6) + 0.5) * w]
    across = np.linspace(-0.3, 0.3, 7) * w
    us, vs = [], []
    for rows in (_EDGE_IN, _EDGE_OUT, 1.0 - _EDGE_IN, 1.0 - _EDGE_OUT):
        u = centres[:, None, None] + across[None, None, :] + 0 * rows[None, :, None]
        v = np.broadcast_to(rows[None, :, None], u.shape)
        us.append(u.reshape(12, -1))
        vs.append(v.reshape(12, -1))
    return np.stack(us), np.stack(vs)


_EDGES = {b: _edge_grid(b) for b in BARS}

#: the top and bottom edges are looked for within this share of the field's height of the fit's ...
_EDGE_SPAN = 0.04
#: ... in steps of this share, each through a thin band just inside and just outside it
_EDGE_STEP = 0.002
_EDGE_BAND = np.linspace(0.004, 0.02, 5)
#: an edge is moved only where the step there is this much clearer than at the fit's edge
_EDGE_GAIN = 1.25
#: the share of its peak at which the step along an edge is full: the edge (``edges_placed``)
_EDGE_FULL = 0.9


def _edge_bands(bar: float, base: float, inward: float) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) of the thin bands (inside, outside) of an edge at field fraction ``base``, the field
    on its ``inward`` side (+1 below it, -1 above): 2 x 12 columns x samples."""
    half = (1.0 - bar) / 2.0
    w = half / 6.0
    centres = np.r_[(np.arange(6) + 0.5) * w, 0.5 + bar / 2.0 + (np.arange(6) + 0.5) * w]
    across = np.linspace(-0.3, 0.3, 7) * w
    u = np.broadcast_to((centres[:, None, None] + across[None, None, :]), (12, len(_EDGE_BAND), len(across)))
    us, vs = [], []
    for sign in (inward, -inward):
        v = np.broadcast_to((base + sign * _EDGE_BAND)[None, :, None], u.shape)
        us.append(u.reshape(12, -1))
        vs.append(v.reshape(12, -1))
    return np.stack(us), np.stack(vs)


def edges_placed(lab: np.ndarray, quad: np.ndarray, bar: float) -> np.ndarray:
    """``quad`` with its top and bottom edges moved in (along its sides) to where the points'
    bases begin: the alternating colours of the bases just inside, the frame's one colour just
    outside, differ most -- each half of each edge on its own (its 6 points), the edge drawn
    through the two. The fit places the field across to a fraction of a point but is loose in
    height: a triangle narrower than its column (a gap between the points) fits better a little
    further out, so the fit's field comes out a few % too tall (``bench_field_corners.py``); a field
    skewed by the climb has an edge half too far out (a beech board joined mid-game, its bottom edge
    6-7 px low at 1280 px; issue 9). An edge half moves only where the step there is clearly the
    stronger (``_EDGE_GAIN``). Never out: beyond the field, a wooden frame's grain or a tray's
    edge can alternate along an edge more than the bases do (a wood board's top right corner was
    moved 27 px out onto its frame; issue 9)."""
    unit = np.asarray([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    half = (1.0 - bar) / 2.0
    mid = (half / 2.0, 1.0 - half / 2.0)  # the halves' middles (u)
    ends = []
    for edge, inward in ((0.0, 1.0), (1.0, -1.0)):
        steps = inward * np.arange(0.0, _EDGE_SPAN + 1e-9, _EDGE_STEP)
        scores = []
        for d in steps:
            u, v = _edge_bands(bar, edge + d, inward)
            s = _sample(lab, quad, u.reshape(1, -1), v.reshape(1, -1))[0].reshape(2, 12, -1, 3)
            med = np.median(s, axis=2)
            diff = np.linalg.norm(med[:, 1:] - med[:, :-1], axis=2)  # 2 bands x 11 neighbours
            scores.append([float(diff[0, h].mean() - diff[1, h].mean()) for h in (slice(0, 5), slice(6, 11))])
        sc = np.asarray(scores)  # steps x 2 halves
        moved = []
        for h in (0, 1):
            k = int(np.argmax(sc[:, h]))
            # the step's peak must lie within the span: at its far end the score is still rising (the
            # bases covered by checkers or a hand along that half, no step of theirs in reach)
            inside = k < len(steps) - 1
            top = float(sc[k, h])
            # the edge is where the step first reaches its full height (``_EDGE_FULL`` of its peak): further
            # in, both bands lie on the bases and their checkers, and the score wanders on a plateau
            k = int(np.flatnonzero(sc[:, h] >= _EDGE_FULL * top)[0]) if top > 0 else k
            moved.append(float(steps[k]) if inside and top > _EDGE_GAIN * max(float(sc[0, h]), 0.0) else 0.0)
        slope = (moved[1] - moved[0]) / (mid[1] - mid[0])
        ends.append((edge + moved[0] - slope * mid[0], edge + moved[0] + slope * (1.0 - mid[0])))
    hom = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    (tl, tr), (bl, br) = ends
    new = np.asarray([[0, tl], [1, tr], [1, br], [0, bl]], np.float32)
    return np.asarray(cv2.perspectiveTransform(new.reshape(1, -1, 2), hom)[0], np.float32)


#: the side jumps of ``_point_jumps`` that ``side_hidden`` climbs: the left side, then the right, a point further out
_OUTWARD = (0, 2)


def side_hidden(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (a field found, ``lab``'s px) or the field a point wider at its left or its right end,
    climbed, where that fits the points better. A banner across the picture that covers one end of the
    field's middle band hides the surface's edge there: every candidate stopped one point short at that
    end (a pinetti board joined mid-game under a broadcast banner, 37 px at 1280 px; issue 9). The field
    a point wider fits worse before the climb (3.7 against the short field's 5.9: its bar and point
    width are still the short field's), so ``_jump``, which climbs a side jump only where it fits nearly
    as well, never tries it; climbed, it fits better (6.1) and is the field. A side already at the
    field's edge, jumped a point out onto the frame or a tray, climbs back or fits worse."""
    h, w = lab.shape[:2]
    q = np.asarray(quad, np.float32)
    fit, bar = field_fit(lab, q)
    best, best_fit = q, fit
    sides, _ = _point_jumps(q, bar)
    for k in _OUTWARD:
        if not _plausible(sides[k], w, h):
            continue
        t, f, _ = fit_corners(lab, sides[k], rounds=3)
        if f > best_fit:
            best, best_fit = t, f
    return best


def with_hidden_end(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The field chosen at ``corners`` (image px, TL TR BR BL) with an end hidden under a banner found
    (``side_hidden``), image px. Its top and bottom edges are not placed (``placed``): on the mid-game
    recordings placing them brought the corners closer (a beech board 7.4 -> 3.4 px, another 12 -> 2.6
    px at 1280 px) but the joins they were learnt through tipped both ways, a board joined right and
    a play gained on one table, a board joined wrong and a play lost on two (issue 9)."""
    lab, scale = prepared(image)
    return side_hidden(lab, np.asarray(corners, np.float32) * scale) / scale


def placed(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The field found at ``corners`` (image px, TL TR BR BL as fitted) with its top and bottom
    edges placed (``edges_placed``), in image px."""
    lab, scale = prepared(image)
    q = np.asarray(corners, np.float32) * scale
    return edges_placed(lab, q, field_fit(lab, q)[1]) / scale


def _side_grid(bar: float) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) of the side samples across the middle band: inside and outside the left edge,
    inside and outside the right edge (4 x n)."""
    w = (1.0 - bar) / 12.0
    off = np.linspace(0.06, 0.3, 5) * w
    rows = np.linspace(0.4, 0.6, 9)
    us, vs = [], []
    for u in (off, -off, 1.0 - off, 1.0 + off):
        uu, vv = np.meshgrid(u, rows)
        us.append(uu.ravel())
        vs.append(vv.ravel())
    return np.stack(us), np.stack(vs)


_SIDES = {b: _side_grid(b) for b in BARS}


def _alternation(med: np.ndarray) -> np.ndarray:
    """Per band (bands x 12 columns x colour, each column's median): the mean colour difference
    of neighbouring columns within each half (6 a half)."""
    d = np.linalg.norm(med[:, 1:] - med[:, :-1], axis=2)
    return np.asarray(np.delete(d, 5, axis=1).mean(axis=1))


def _all_samples(bar: float) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) of every sample the fit takes (the points, the edges, the sides), in one row."""
    u, v, _ = _GRIDS[bar]
    eu, ev = _EDGES[bar]
    su, sv = _SIDES[bar]
    return np.concatenate([u.ravel(), eu.ravel(), su.ravel()]), np.concatenate([v.ravel(), ev.ravel(), sv.ravel()])


_ALL = {b: _all_samples(b) for b in BARS}


def _fit_bar(lab: np.ndarray, quad: np.ndarray, bar: float) -> float:
    u, _, inside = _GRIDS[bar]
    eu, _ = _EDGES[bar]
    su, _ = _SIDES[bar]
    allu, allv = _ALL[bar]
    every = _sample(lab, quad, allu[None, :], allv[None, :])[0]
    vals = every[: u.size].reshape(*u.shape, 3)
    ed = every[u.size : u.size + eu.size].reshape(*eu.shape, 3)  # 4 x 12 x n x 3
    sides = every[u.size + eu.size :].reshape(*su.shape, 3)  # 4 x n x 3
    tri, sur = vals[:, inside > 0], vals[:, inside < 0]
    mt, ms = np.median(tri, axis=1), np.median(sur, axis=1)
    # each column's triangle against the surface beside it, in units of their own spread
    # (grain, print, a checker over both)
    spread = (np.abs(tri - mt[:, None]).sum(axis=2).mean(axis=1) + np.abs(sur - ms[:, None]).sum(axis=2).mean(axis=1)) / 1.7
    # the surface is one colour all over the field: beside a triangle it is that colour
    surface = np.median(ms, axis=0)
    cols = (np.linalg.norm(mt - surface, axis=1) - np.linalg.norm(ms - surface, axis=1)) / (spread + 6.0)
    # the points' bases alternate in colour just inside the edge, the frame beyond it does not
    alt = _alternation(np.median(ed, axis=2))  # inside top, outside top, inside bottom, outside bottom
    edge = sum(float((alt[k] - alt[k + 1]) / (alt[k] + alt[k + 1] + 10.0)) for k in (0, 2)) / 2.0
    # across the middle band the surface meets the frame at the left and right edges
    sd = np.median(np.linalg.norm(sides - surface, axis=-1), axis=1)  # in/out left, in/out right
    side = sum(float((sd[k + 1] - sd[k]) / (sd[k + 1] + sd[k] + 10.0)) for k in (0, 2)) / 2.0
    return float(np.mean(np.minimum(cols, 6.0))) * (1.0 + _EDGE_WEIGHT * (edge + side))


def field_fit(lab: np.ndarray, quad: np.ndarray) -> tuple[float, float]:
    """(fit, bar width) of the quadrilateral ``quad`` (TL TR BR BL in ``lab``'s px): the best
    over the bar widths tried."""
    return max((_fit_bar(lab, quad, b), b) for b in BARS)


def _moves() -> list[np.ndarray]:
    """The moves tried: each corner coordinate alone, each side across, the whole field."""
    out = []
    for k in range(8):
        m = np.zeros((4, 2), np.float32)
        m.reshape(-1)[k] = 1.0
        out.append(m)
    for corners, axis in (((0, 1), 1), ((3, 2), 1), ((0, 3), 0), ((1, 2), 0), ((0, 1, 2, 3), 0), ((0, 1, 2, 3), 1)):
        m = np.zeros((4, 2), np.float32)
        m[list(corners), axis] = 1.0
        out.append(m)
    return out


_MOVES = _moves()


def fit_corners(lab: np.ndarray, quad: np.ndarray, rounds: int = 4) -> tuple[np.ndarray, float, float]:
    """(corners, fit, bar) after moving corners, sides and the whole quadrilateral while the
    fit grows, in steps from 2 % of its size down to 0.25 %; from the two bar widths that fit
    the start best, the better end."""
    q0 = np.asarray(quad, np.float32)
    starts = sorted(((_fit_bar(lab, q0, b), b) for b in BARS), reverse=True)[:2]
    ends = [_climb(lab, q0, b, rounds) for _, b in starts]
    return max(ends, key=lambda e: e[1])


def _climb(lab: np.ndarray, quad: np.ndarray, bar: float, rounds: int, first: float = 0.02
           ) -> tuple[np.ndarray, float, float]:
    q = quad.copy()
    best = _fit_bar(lab, q, bar)
    size = float(max(np.ptp(q[:, 0]), np.ptp(q[:, 1])))
    step = first * size
    for _ in range(rounds):
        moved = True
        while moved:
            moved = False
            for move in _MOVES:
                for sign in (1.0, -1.0):
                    t = q + sign * step * move
                    f = _fit_bar(lab, t, bar)
                    if f > best + 1e-4:
                        q, best, moved = t, f, True
                        break
        best, bar = field_fit(lab, q)
        step /= 2.0
    return q, best, bar


#: the corners of a quadrilateral seen turned round (TL TR BR BL of the picture turned 180 degrees)
_TURNED = [2, 3, 0, 1]


def _turned_climb(lab: np.ndarray, q: np.ndarray, fit: float, bar: float) -> tuple[np.ndarray, float, float]:
    """(corners, fit, bar) of ``q`` (fitted) climbed again from its corners in the order the picture
    turned round gives them, where that fits better. The fit is the same in either order (the
    samples are symmetric end for end and side for side) but the climb takes the first move that
    helps, so it ends elsewhere; climbed both ways, the field found in a picture and in the picture
    turned round is the same."""
    t, f, b = _climb(lab, q[_TURNED], bar, rounds=3, first=0.01)
    return (t[_TURNED], f, b) if f > fit else (q, fit, bar)


def _point_jumps(q: np.ndarray, bar: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """``q`` with its left side, its right side or both a whole point further out or in (along
    its top and bottom edges): the climb moves the field a little at a time, and a field a point
    off (its end column on the frame, a point outside it) fits nearly as well as the field; and
    ``q`` with one corner alone a point along its edge: where the camera is tilted or slanted the
    climb can leave one corner a point off (the triangles there fit a point over) while the other
    three sit. (the side jumps, the corner jumps)"""
    point = (1.0 - bar) / 12.0
    top, bottom = (q[1] - q[0]) * point, (q[2] - q[3]) * point
    sides = []
    for left, right in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
        t = q.copy()
        t[0] -= left * top
        t[3] -= left * bottom
        t[1] += right * top
        t[2] += right * bottom
        sides.append(t)
    corners = []
    for k, edge in ((0, top), (1, top), (2, bottom), (3, bottom)):
        for sign in (1.0, -1.0):
            t = q.copy()
            t[k] += sign * edge
            corners.append(t)
    return sides, corners


#: a side jump is climbed when it fits at least this share of the fit before it (a corner jump,
#: which skews two sides, always: its fit before the climb says little)
_JUMP_KEEP = 0.9


def _jump(lab: np.ndarray, q: np.ndarray, fit: float, bar: float, times: int = 2) -> tuple[np.ndarray, float, float]:
    """(corners, fit, bar) of ``q`` (fitted) or of the field a whole point off it, climbed,
    where that fits better (``_point_jumps``: the best side jump and the best corner jump are
    climbed), up to ``times`` points."""
    h, w = lab.shape[:2]
    for _ in range(times):
        ends = []
        sides, corners = _point_jumps(q, bar)
        tried = [(field_fit(lab, t)[0], t) for t in sides if _plausible(t, w, h)]
        if tried and max(e[0] for e in tried) > _JUMP_KEEP * fit:
            ends.append(fit_corners(lab, max(tried, key=lambda e: e[0])[1], rounds=3))
        tried = [(field_fit(lab, t)[0], t) for t in corners if _plausible(t, w, h)]
        if tried:  # climbed to 0.5 % of the field: the climb turned round (``_turned_climb``) goes on
            ends.append(fit_corners(lab, max(tried, key=lambda e: e[0])[1], rounds=2))
        if not ends or max(e[1] for e in ends) <= fit:
            break
        q, fit, bar = max(ends, key=lambda e: e[1])
    return q, fit, bar


def _lines(gray: np.ndarray) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """The picture's long straight edges as (angle, offset) normal-form lines: the near-horizontal
    ones and the near-vertical ones (within 35 degrees), merged where they nearly coincide,
    longest first."""
    h, w = gray.shape
    size = float(max(h, w))
    edges = cv2.Canny(gray, 40, 120)
    segs = cv2.HoughLinesP(edges, 1, np.pi / 360, 40, minLineLength=int(0.15 * size), maxLineGap=int(0.03 * size))
    segs = np.zeros((0, 4)) if segs is None else segs.reshape(-1, 4).astype(np.float64)
    # longest first: a line is named by its longest segment, not by the one the transform's
    # random visiting order happened to give first (a picture turned round gives another order)
    segs = segs[np.argsort(-np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]), kind="stable")]
    horiz: list[tuple[float, float, float]] = []
    vert: list[tuple[float, float, float]] = []
    for x0, y0, x1, y1 in segs:
        length = float(np.hypot(x1 - x0, y1 - y0))
        theta = float(np.arctan2(x1 - x0, -(y1 - y0)))  # the normal's angle
        theta = theta % np.pi
        rho = float(x0 * np.cos(theta) + y0 * np.sin(theta))
        deg = np.degrees(theta)
        fam = horiz if abs(deg - 90) < 35 else vert if (deg < 35 or deg > 145) else None
        if fam is None:
            continue
        if theta > np.pi / 2 + np.radians(35):  # near-vertical with the normal pointing left
            theta, rho = theta - np.pi, -rho
        for k, (t, r, n) in enumerate(fam):
            if abs(t - theta) < np.radians(4) and abs(r - rho) < 0.015 * size:
                fam[k] = (t, r, n + length)
                break
        else:
            fam.append((theta, rho, length))
    out = []
    for fam in (horiz, vert):
        fam.sort(key=lambda t: -t[2])
        out.append([(t, r) for t, r, _ in fam[:_LINES]])
    return out[0], out[1]


def _meet(a: tuple[float, float], b: tuple[float, float]) -> np.ndarray | None:
    m = np.array([[np.cos(a[0]), np.sin(a[0])], [np.cos(b[0]), np.sin(b[0])]])
    if abs(np.linalg.det(m)) < 1e-3:
        return None
    return np.linalg.solve(m, np.array([a[1], b[1]]))


Line = tuple[float, float]


def _gray(lab: np.ndarray) -> np.ndarray:
    return np.asarray(np.clip(lab[..., 0], 0, 255), np.uint8)


def snap(lab: np.ndarray, quad: np.ndarray, lines: tuple[list[Line], list[Line]], bar: float) -> np.ndarray:
    """``quad`` with each side moved onto a long edge of the picture that runs along it (within
    3 % of the picture at both ends) where that keeps the fit: a corner the fit could not
    place (a dark point and checker against a dark frame) is where the frame's edges meet."""
    h, w = lab.shape[:2]
    tol = 0.03 * max(h, w)
    q = np.asarray(quad, np.float32).copy()
    best = _fit_bar(lab, q, bar)
    # sides as (corner a, corner b, family): top, right, bottom, left
    for a, b, fam in ((0, 1, 0), (1, 2, 1), (3, 2, 0), (0, 3, 1)):
        for line in lines[fam]:
            n = np.array([np.cos(line[0]), np.sin(line[0])])
            if max(abs(float(q[a] @ n) - line[1]), abs(float(q[b] @ n) - line[1])) > tol:
                continue
            t = _with_side(q, a, b, line)
            if t is None:
                continue
            f = _fit_bar(lab, t, bar)
            if f >= 0.97 * best:
                q, best = t, max(best, f)
    return q


def _with_side(q: np.ndarray, a: int, b: int, line: Line) -> np.ndarray | None:
    """``q`` with its side a-b on ``line``: a and b move along their other sides."""
    def side_line(p0: np.ndarray, p1: np.ndarray) -> Line:
        d = p1 - p0
        theta = float(np.arctan2(d[0], -d[1]) % np.pi)
        return theta, float(p0[0] * np.cos(theta) + p0[1] * np.sin(theta))

    other = {0: 3 if b == 1 else 1, 1: 2 if a == 0 else 0, 2: 1 if a == 3 else 3, 3: 0 if b == 2 else 2}
    out = q.copy()
    for k in (a, b):
        m = _meet(line, side_line(q[k], q[other[k]]))
        if m is None:
            return None
        out[k] = m
    return out if cv2.isContourConvex(out.reshape(-1, 1, 2)) else None


def line_candidates(lab: np.ndarray, keep: int = 8, lines: tuple[list[Line], list[Line]] | None = None) -> list[np.ndarray]:
    """Quadrilaterals (TL TR BR BL, ``lab``'s px) bounded by two near-horizontal and two
    near-vertical long edges of the picture, the ``keep`` whose points fit best."""
    gray = _gray(lab)
    h, w = gray.shape
    horiz, vert = lines if lines is not None else _lines(gray)
    scored: list[tuple[float, np.ndarray]] = []
    for i, top in enumerate(horiz):
        for bottom in horiz[i + 1:]:
            for j, left in enumerate(vert):
                for right in vert[j + 1:]:
                    pts = [_meet(top, left), _meet(top, right), _meet(bottom, right), _meet(bottom, left)]
                    if any(p is None for p in pts):
                        continue
                    q = order_corners(np.asarray(pts, np.float32))
                    if not _plausible(q, w, h):
                        continue
                    scored.append((max(_fit_bar(lab, q, 0.07), _fit_bar(lab, q, 0.17)), q))
    scored.sort(key=lambda t: -t[0])
    return [q for _, q in scored[:keep]]


def _plausible(q: np.ndarray, w: int, h: int) -> bool:
    """A convex quadrilateral mostly inside the picture, at least a fifth of it across, about
    as tall as wide."""
    if not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return False
    tol = 0.05 * max(w, h)
    if q[:, 0].min() < -tol or q[:, 1].min() < -tol or q[:, 0].max() > w + tol or q[:, 1].max() > h + tol:
        return False
    top = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3]))
    side = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1]))
    if min(top, side) < 0.4 * max(w, h):
        return False
    return 0.55 <= side / max(top, 1e-6) <= 1.3


def fitted_fields(image: np.ndarray, outlines: list[np.ndarray], refit: int = 6) -> list[tuple[float, np.ndarray, float]]:
    """(fit, corners in image px, bar) of the field candidates, best first: the picture's
    long-edge quadrilaterals and ``outlines`` (image px), the ``refit`` that fit best fitted
    closer (``fit_corners``, then a point over where that fits better, ``_jump``, and climbed
    from the corners turned round, ``_turned_climb``), those that end up at the same place kept
    once."""
    lab, scale = prepared(image)
    h, w = lab.shape[:2]
    lines = _lines(_gray(lab))
    cands = line_candidates(lab, keep=12, lines=lines) + [np.asarray(q, np.float32) * scale for q in outlines]
    quick = sorted(((field_fit(lab, q)[0], q) for q in cands if _plausible(q, w, h)), key=lambda t: -t[0])
    kept: list[np.ndarray] = []
    for _, q in quick:
        if all(np.abs(q - k).max() > 0.01 * max(w, h) for k in kept):
            kept.append(q)
        if len(kept) == refit:
            break
    out: list[tuple[float, np.ndarray, float]] = []
    climbed: list[np.ndarray] = []
    for q in kept:
        fitted, fit, bar = fit_corners(lab, q)
        if any(np.abs(fitted - c).max() <= 0.01 * max(w, h) for c in climbed):
            continue  # another start's climb ended here: its jumps are this one's
        climbed.append(fitted)
        fitted, fit, bar = _jump(lab, fitted, fit, bar)
        fitted, fit, bar = _turned_climb(lab, fitted, fit, bar)
        fitted = snap(lab, fitted, lines, bar)
        fit, bar = field_fit(lab, fitted)
        corners = fitted / scale
        if all(np.abs(corners - c).max() > 0.01 * max(image.shape[:2]) for _, c, _ in out):
            out.append((fit, corners, bar))
    out.sort(key=lambda t: -t[0])
    return out



#: a known field is still there when its points fit at least this share of the fit it had when
#: found (checkers moved, dice and a hand over a few points lower it by less) ...
KEEP = 0.5
#: ... at least this much better than the same quadrilateral half a point to either side or a
#: tenth of its height up or down ...
PEAK = 1.1
#: ... and the ring around it (the frame, the field's outline) correlates with the ring then at
#: least this much, and better than half a point or a whole point to either side, up or down:
#: a field moved by a whole point can fit its points as well as the field
RING = 0.3
#: the ring: from this share of the field's size outside its edges to just inside them
_RING_OUT, _RING_IN = 0.12, 0.015
#: the ring's picture (px across, px down) and the field inside it
_RING_W, _RING_H = 96, 80


@dataclass(frozen=True)
class KnownField:
    """A field found earlier: its corners (TL TR BR BL, image px), bar width and fit then,
    and the grey picture of the ring around it then (``_ring``)."""

    corners: np.ndarray
    bar: float
    fit: float
    ring: np.ndarray


@dataclass(frozen=True)
class FieldCheck:
    """Whether a known field is still where it was in a frame: ``there``; the fit at its
    corners now, the best fit a little off them; how the ring around it correlates with the
    ring then (-1 to 1), and the best correlation half a point or a point to either side, up or down."""

    there: bool
    fit: float
    off: float
    ring: float
    ring_off: float

    def __str__(self) -> str:
        return (f"field {'still there' if self.there else 'gone'}: fit {self.fit:.2f} (off it {self.off:.2f}), "
                f"ring {self.ring:.2f} (off it {self.ring_off:.2f})")


def _ring_mask() -> np.ndarray:
    """Where in ``_ring``'s picture the ring is (True): outside the field or just inside its edges."""
    span = 1.0 + 2.0 * _RING_OUT
    u = (np.arange(_RING_W) + 0.5) / _RING_W * span - _RING_OUT
    v = (np.arange(_RING_H) + 0.5) / _RING_H * span - _RING_OUT
    iu = (u > _RING_IN) & (u < 1.0 - _RING_IN)
    iv = (v > _RING_IN) & (v < 1.0 - _RING_IN)
    return np.asarray(~(iv[:, None] & iu[None, :]))


_MASK = _ring_mask()


def _ring(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The lightness of the picture around ``quad`` (``lab``'s px), warped square on to the field:
    the quadrilateral grown by ``_RING_OUT`` a side, ``_RING_W`` x ``_RING_H`` px; the ring's px only."""
    o = _RING_OUT
    unit = np.asarray([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    hom = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    out = np.asarray([[0, 0], [_RING_W, 0], [_RING_W, _RING_H], [0, _RING_H]], np.float32)
    grown = cv2.perspectiveTransform((unit * (1 + 2 * o) - o).reshape(1, 4, 2), hom)[0]
    warp = cv2.getPerspectiveTransform(grown.astype(np.float32), out)
    light = cv2.warpPerspective(np.ascontiguousarray(lab[..., 0]), warp, (_RING_W, _RING_H), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(light[_MASK], np.float32)


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    """The zero-mean normalised correlation of two pictures (a change of light leaves it 1)."""
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def known_field(image: np.ndarray, corners: np.ndarray) -> KnownField:
    """The field at ``corners`` (TL TR BR BL, image px) of ``image`` as ``field_still_there``
    needs it (its fit, bar and ring there)."""
    lab, scale = prepared(image)
    c = np.asarray(corners, np.float32).reshape(4, 2)
    fit, bar = field_fit(lab, c * scale)
    return KnownField(c, bar, fit, _ring(lab, c * scale))


def _offsets(q: np.ndarray, bar: float) -> list[np.ndarray]:
    """``q`` half a point to the left and right, and a tenth of its height up and down."""
    dx = (q[1] - q[0] + q[2] - q[3]) / 2.0 * (1.0 - bar) / 24.0
    dy = (q[3] - q[0] + q[2] - q[1]) / 2.0 * 0.1
    return [q + dx, q - dx, q + dy, q - dy]


def field_still_there(known: KnownField, image: np.ndarray) -> FieldCheck:
    """Whether the field found earlier (``known``, from ``known_field``) is still at its corners
    in ``image``: its points fit there at least ``KEEP`` of the fit they had and ``PEAK``
    times better than half a point or a tenth of the height off, and the ring around it
    (frame, outline) correlates with the ring then at least ``RING`` and better than a whole
    point or half a point to either side, or half a point up or down. Costs shrinking the
    frame to 640 px, five fits and seven small warps (a few ms); ``there`` False means find
    the field again (``calibrate.locate_field``)."""
    lab, scale = prepared(image)
    q = known.corners * scale
    fit = _fit_bar(lab, q, known.bar)
    off = max(_fit_bar(lab, t, known.bar) for t in _offsets(q, known.bar))
    ring = _correlation(_ring(lab, q), known.ring)
    point = (q[1] - q[0] + q[2] - q[3]) / 2.0 * (1.0 - known.bar) / 12.0
    down = (q[3] - q[0] + q[2] - q[1]) / 2.0 / float(np.linalg.norm(q[3] - q[0] + q[2] - q[1]) / 2.0) * float(np.linalg.norm(point))
    ring_off = max(_correlation(_ring(lab, q + d), known.ring)
                   for d in (point, -point, point / 2, -point / 2, down / 2, -down / 2))
    there = fit >= KEEP * known.fit and fit >= PEAK * max(off, 0.0) and ring >= RING and ring > ring_off
    return FieldCheck(there, fit, off, ring, ring_off)
