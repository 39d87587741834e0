"""Refine a rough calibration from the image itself, and learn the checker colours.

Corners given by hand or found from markers may be a few pixels off, and may
include part of the frame. Across the middle band of the field (between the
triangle tips) the playing surface has one colour; the frame and the bar do
not. Column statistics of that band give the true left and right edges of the
playing surface and the bar. The checker colours are learnt by splitting the
colours of confidently detected discs into a bright and a dark group.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.hands import encode_mask, shrink, skin_prone
from tavli_pi.vision.stored_image import encode_image
from tavli_pi.vision.calibration import DEFAULT_DARK, DEFAULT_LIGHT, Calibration
from tavli_pi.vision.frame_views import FrameViews
from tavli_pi.vision.layout import DEFAULT_BAR, Layout
from tavli_pi.vision.pitch_radius import pitch_radius

__all__ = ["bar_run", "magnification", "refine_edges", "step_reach", "learn_radius", "learn_colours", "refine",
           "perspective", "learn_aspect", "aspect_scores"]


#: a step of the middle band's column colour (grey levels, across ``step_reach`` columns) that stands out this much
#: from how unlike the surface its inner side is: well above the surface's own grain (2-8)
STEP_SEEN = 12.0
#: the picture pixels a sharp edge spreads over (the lens, demosaicing, compression, the warp's
#: interpolation): a step is measured across as many canonical columns as they span (``step_reach``)
EDGE_BLUR = 2.0
#: how far (field widths) a bar's middle may lie from the field's: a bar is the board's middle, and
#: the corners put the field's edges within a few pixels
BAR_OFF_CENTRE = 0.02
#: the widest gap (field span fractions) a checker on the bar leaves in it: a checker is about
#: 0.9 of a point, a point about 1/13-1/15 of the field
BAR_CHECKER = 0.08


def refine_edges(cal: Calibration, image: np.ndarray) -> Calibration:
    """Find the playing surface's left/right edges and the bar from the middle band.

    The frame and the bar meet the surface in a sharp step of colour (a
    shadow is gradual), so each edge is the strongest step of the band's
    column colour within a window around where it should be.
    """
    lay = cal.layout
    canon = cal.warp(image).astype(np.float32)
    fw, fh, mx, my = lay.field_w, lay.field_h, lay.mx, lay.my
    band = canon[my + int(0.43 * fh) : my + int(0.57 * fh)]
    med = np.median(band, axis=0)  # one colour per canonical column

    def steps(k: int) -> np.ndarray:
        """Each column's step across ``k`` columns: between columns i - 1 and i + k - 1."""
        out = np.zeros(len(med))
        out[1 : len(med) - k + 1] = np.linalg.norm(med[k:] - med[:-k], axis=1)
        return out

    # the field's edges across the picture's magnified blur; the bar's edges across 3 columns, as
    # their lettering and wide-bar cases were settled with (``bar_run`` checks them; at 4 columns a
    # banner's letter outweighed a 640 px bar's edge, tests/vision/test_refine.py)
    reach = step_reach(cal)
    by_reach = {3: steps(3), reach: steps(reach)}

    ref = np.r_[mx + int(0.15 * fw) : mx + int(0.35 * fw), mx + int(0.65 * fw) : mx + int(0.85 * fw)]
    surface = np.median(med[ref], axis=0)
    # how unlike the playing surface each column is (the edge has the surface on its inner side)
    unlike = np.linalg.norm(med - surface, axis=1)
    n = len(med)

    def strongest(a: float, b: float, inner: int, given: float | None = None, k: int = 3) -> tuple[float, float]:
        """The strongest step whose ``inner`` side (+1: right, -1: left) looks like the surface.

        A step between the frame and the table can be stronger than the one
        between the frame and the surface (a dark frame on a light table, a
        dark green surface); its inner side is frame, not surface.
        ``given``: the edge as the corners put it. Of the steps that stand out
        from how unlike the surface their inner side is (by ``STEP_SEEN``) the one
        nearest it is the edge: the frame's outer edge against a light table, a
        frame of a wood like the surface's (its inner side looks nearly like the
        surface too), is often the stronger, and the corners are the field's.
        ``k``: the columns the step is measured across; a step found across more than 3 is placed
        by the sharpest 3 columns within it.
        """
        step, centre = by_reach[k], k / 2 - 1  # centre: where the step lies, from its column
        lo, hi = max(1, mx + int(a * fw)), min(n - 2, mx + int(b * fw))
        idx = np.arange(lo, hi)
        side = unlike[np.clip(idx + (k + 1 if inner > 0 else -3), 0, n - 1)]
        score = step[lo:hi] - side
        i = lo + int(np.argmax(score))
        if given is not None:
            clear = np.flatnonzero(score > STEP_SEEN)
            if not len(clear):
                return given, 0.0  # no step with the surface on its inner side: the corners stand
            u = (lo + clear + centre - mx) / fw
            near = clear[np.abs(u - given) <= np.abs(u - given).min() + 0.01]
            i = lo + int(near[np.argmax(score[near])])
        if k == 3:
            return (i + 0.5 - mx) / fw, float(step[i])
        # the edge found across its magnified blur, placed by the sharpest 3 columns within it (where
        # a 3-column step saw the edge already, it is placed where it always was)
        fine = by_reach[3]
        j = i + int(np.argmax(fine[i : max(i + 1, min(n, i + k - 2))]))
        return (j + 0.5 - mx) / fw, float(step[i])

    u0, s0 = strongest(-0.06, 0.10, +1, cal.u0, reach)
    u1, s1 = strongest(0.90, 1.06, -1, cal.u1, reach)
    if not (s0 and s1):
        # no step across the blur the picture's size implies: a softer focus spreads the edge wider (the
        # labelled WTC corners under a 1.5 px blur: the left edge's step across 3 columns fell under how
        # unlike the surface its inner side is, the field's edge was left at the corners, 2.6 % of the
        # field out, and the two lone checkers beside it went unread); measured across twice the reach
        by_reach[2 * reach] = steps(2 * reach)
        if not s0:
            u0, s0 = strongest(-0.06, 0.10, +1, cal.u0, 2 * reach)
        if not s1:
            u1, s1 = strongest(0.90, 1.06, -1, cal.u1, 2 * reach)
    floor = 30.0
    u0 = u0 if s0 > floor else cal.u0
    u1 = u1 if s1 > floor else cal.u1
    b0, t0 = strongest(0.40, 0.50, -1)
    b1, t1 = strongest(0.50, 0.60, +1)
    stepped = (b0, b1) if min(t0, t1) > floor and b1 - b0 > 0.012 else None
    if stepped is not None and _off_centre(stepped, u0, u1) > BAR_OFF_CENTRE:
        # a bar stands in the middle of the field: steps off centre are lettering across the middle
        # band (a match's banner), not the bar's edges (real-like tables joined mid-game, issue 9)
        stepped = None
    # the bar as the points see it: a bar wider than the steps' window, or of the
    # surface's own colour, shows no step in the middle band (or only lettering's)
    run = bar_run(canon, lay, u0, u1)
    if stepped is None:
        bar = run if run is not None else DEFAULT_BAR
    elif run is not None and run[0] < stepped[0] - 0.015 and run[1] > stepped[1] + 0.015:
        bar = run  # the steps were inside a wider bar (lettering or a rail on it)
    else:
        bar = stepped
    cal = cal.with_(field_bgr=(float(surface[0]), float(surface[1]), float(surface[2])))
    if not (u0 < bar[0] < bar[1] < u1) or (u1 - u0) < 0.8:
        return cal
    return cal.with_(u0=float(u0), u1=float(u1), bar=(float(bar[0]), float(bar[1])))


def magnification(cal: Calibration) -> float:
    """How many canonical columns one picture pixel spans across the field (its width in the canonical
    view over its mean width in the picture)."""
    c = np.asarray(cal.corners, np.float64).reshape(4, 2)
    across = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    return cal.layout.field_w / max(1.0, float(across))


def step_reach(cal: Calibration) -> int:
    """The canonical columns a step of the middle band's colour is measured across: at least 3, and
    the ``EDGE_BLUR`` picture pixels an edge spreads over, magnified into the canonical view. A small
    picture is magnified about 2.2x (640 px), and across 3 columns its frame-to-field edge showed a
    third of its step: the frame's outer edge was taken for the field's, half a point out (a pinetti
    board joined mid-game at 640 px, issue 9)."""
    return max(3, int(round(EDGE_BLUR * magnification(cal))))


def _off_centre(bar: tuple[float, float], u0: float, u1: float) -> float:
    """How far the middle of ``bar`` is from the field's (``u0``-``u1``), in field widths."""
    return abs((bar[0] + bar[1]) / 2 - (u0 + u1) / 2) / (u1 - u0)


def bar_run(canon: np.ndarray, lay: Layout, u0: float, u1: float) -> tuple[float, float] | None:
    """The bar as the run of columns round the field's middle that look the same at the field's
    edges as across its middle band (field fractions), or None when no clear run is there.

    Every point's column shows its triangle (or a checker) at the field edge and the
    playing surface in the middle band; the bar looks alike at both, whatever its width and
    even when it has the surface's colour (then the middle band alone cannot show it). The
    threshold is learnt from this board's own point columns, not fixed.
    """
    fw, fh, mx, my = lay.field_w, lay.field_h, lay.mx, lay.my

    def rows(a: float, b: float) -> np.ndarray:
        return np.asarray(np.median(canon[my + int(a * fh) : my + int(b * fh)], axis=0))

    mid = rows(0.43, 0.57)
    d = np.maximum(np.linalg.norm(rows(0.01, 0.05) - mid, axis=1), np.linalg.norm(rows(0.95, 0.99) - mid, axis=1))
    n = len(d)
    centre = mx + 0.5 * (u0 + u1) * fw
    span = (u1 - u0) * fw
    pts = np.r_[int(centre - 0.42 * span) : int(centre - 0.25 * span), int(centre + 0.25 * span) : int(centre + 0.42 * span)]
    pts = pts[(pts >= 0) & (pts < n)]
    if len(pts) < 10:
        return None
    typical = float(np.median(d[pts]))
    thr = 0.3 * typical
    c = int(round(centre))
    if typical < 40.0 or not 0 <= c < n:
        return None
    # bridge short interruptions (lettering along a wide bar, a rail): well under a point's width
    k = max(3, int(0.03 * fw) | 1)
    low = cv2.morphologyEx((d <= thr).astype(np.uint8)[None, :], cv2.MORPH_CLOSE, np.ones((1, k), np.uint8))[0] > 0
    if not low[c]:
        low = _bridged_checker(low, c, BAR_CHECKER * span)
        if not low[c]:
            return None
    a = c
    while a > 0 and low[a - 1]:
        a -= 1
    b = c
    while b < n - 1 and low[b + 1]:
        b += 1
    left, right = (a - mx) / fw, (b + 1 - mx) / fw
    width = (right - left) / (u1 - u0)
    if not 0.03 <= width <= 0.3 or _off_centre((left, right), u0, u1) > BAR_OFF_CENTRE:
        return None
    return float(left), float(right)


def _bridged_checker(low: np.ndarray, c: int, most: float) -> np.ndarray:
    """``low`` (the columns that look like a bar) with the gap round column ``c`` filled when it is
    a checker on a wide bar: at most ``most`` columns wide, bar on both sides of it, and centred
    on ``c``. A checker on the bar stands in its middle, in the middle band, and hides the bar's
    colour there: a wide bar with a checker on it showed only the checker's edges as steps (the
    bar taken a checker wide) on real-like tables joined mid-game (issue 9)."""
    n = len(low)
    a = c
    while a > 0 and not low[a - 1]:
        a -= 1
    b = c
    while b < n - 1 and not low[b + 1]:
        b += 1
    if a == 0 or b == n - 1 or b + 1 - a > most or abs((a + b) / 2 - c) > 0.25 * (b + 1 - a):
        return low
    # the bar shows on both sides of the checker, alike: a thin bar's odd column beside it is no flank
    left = a - int(np.flatnonzero(~low[:a])[-1] + 1 if (~low[:a]).any() else 0)
    right = int(b + 1 + np.flatnonzero(~low[b + 1 :])[0] if (~low[b + 1 :]).any() else n) - (b + 1)
    if min(left, right) < 3 or abs(left - right) > 0.5 * max(left, right):
        return low
    out = low.copy()
    out[a : b + 1] = True
    return out


def _first_slots(cal: Calibration, canon: np.ndarray, g: ck.Gradients) -> ck.Chains:
    """The first two slots of every chain (all that the radius and the colours look at)."""
    from tavli_pi.vision.stacks import spot_chains

    return spot_chains(g, np.asarray(cv2.integral(canon), np.float64), cal.layout, cal, slots=2)


#: the radii the clearest discs are fitted with (fraction of the point width)
DISC_RADII = (0.41, 0.425, 0.44, 0.455, 0.47, 0.485, 0.50, 0.515, 0.53, 0.545)
#: a radius (fraction of the point width) no checker reaches: its diameter the point's width
WIDEST = 0.5


def disc_scores(cal: Calibration, canon: np.ndarray, g: ck.Gradients,
                radii: tuple[float, ...] = DISC_RADII) -> np.ndarray:
    """(len(radii),) how well rings of each radius fit the eight clearest discs (their mean
    whole-ring fit, the first two slots of every chain searched with that radius)."""
    out = []
    for rho in radii:
        ch = _first_slots(cal.with_(checker_r=rho), canon, g)
        out.append(float(np.sort(ch.full[:24, :2].ravel())[::-1][:8].mean()))
    return np.asarray(out)


def learn_radius(cal: Calibration, image: np.ndarray, views: FrameViews | None = None) -> Calibration:
    """The checker radius (fraction of the point width) whose rings fit the clearest discs best
    (``views``: ``image``'s warps and gradients shared with the other steps of learning the board)."""
    views = views if views is not None else FrameViews(image)
    scores = disc_scores(cal, views.canon(cal), views.gradients(cal))
    return cal.with_(checker_r=float(DISC_RADII[int(np.argmax(scores))]))


def learn_radius_unlearnt(cal: Calibration, image: np.ndarray) -> Calibration:
    """The checker radius with no position known: the one whose rings fit the clearest discs best
    (``learn_radius``), unless that is ``WIDEST`` or more -- a checker as wide as its point would touch
    its neighbours' across the points, so such outlines are not the checkers' faces (a blurred 640 px
    view, a thick checker's side band) -- then, of the radii below it, the one whose stack pitch fits
    best (``vision/pitch_radius.py``): a radius learnt too large searches every checker past the
    first beyond it, and a dark pair was read as one (issue 9)."""
    views = FrameViews(image)
    best = learn_radius(cal, image, views)
    if best.checker_r < WIDEST:
        return best
    narrower = tuple(rho for rho in DISC_RADII if rho < WIDEST)
    return cal.with_(checker_r=pitch_radius(cal, views.gradients(cal), narrower))


#: a field whose opposite sides' lengths in the picture differ by more than this share (of the longer) is
#: seen in a strong perspective: its aspect is learnt from its checkers (``learn_aspect``). The views the
#: reader was measured on stay under it: the simulator's tables (tilted up to 22 deg, 13 %) and a camera
#: on a stand over the table (the real photos slanted 16 %, ``tests/vision/_variants.py``)
STRONG_PERSPECTIVE = 0.2
#: the factors of the corners' aspect ``learn_aspect`` tries: first every other one (10 % apart, from 0.7 to
#: 1.45), then the two beside the best of those
ASPECT_FACTORS = tuple(float(v) for v in np.round(np.exp(np.linspace(np.log(0.7), np.log(1.45), 15)), 4))
#: the field's height over its width on any backgammon board, widely: two points' length and the middle band
#: over twelve points' width and the bar (the simulated boards 0.78-0.93, the real photos' 0.83-0.95). At 640 px
#: and a 40 deg tilt a tournament board's discs fitted nearly as well at half its aspect (0.48 for 0.86) as at it
ASPECT_RANGE = (0.6, 1.25)
#: the radii the discs are fitted with to tell the aspect (every other one of ``DISC_RADII``: a third of the work,
#: and on the real photos slanted 35 % and simulated tables tilted 30-50 deg, aspects as near)
ASPECT_RADII = DISC_RADII[::2]
#: how far (in log aspect) the learnt aspect may move from the corners' per unit of perspective over
#: ``STRONG_PERSPECTIVE``: the move grows from nothing at the gate, so a field just over it -- where a
#: found field's own error may make all of its excess perspective (bcv-hough-test12 turned round: a found
#: field 0.211, its labelled corners 0.171) -- keeps nearly the corners' aspect, as one just under it does.
#: The simulator's pinhole camera (f = the picture's width) needs 0.25 at 0.25 and 0.41 at 0.27-0.28
#: (tilted 40 and 50 deg); the real photos slanted 35 % need 0.1-0.15 at 0.25-0.33
ASPECT_MOVE = 6.0


def corners_aspect(corners: np.ndarray) -> float:
    """The field's height over its width as its corners' mean side lengths give it (``Calibration.aspect``
    when not given)."""
    return Calibration(corners).aspect


def perspective(corners: np.ndarray) -> float:
    """How much the field's opposite sides differ in length in the picture: 1 - the shorter over the
    longer, of the pair that differs more (0: a rectangle or a parallelogram)."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    top, bottom, left, right = (float(np.linalg.norm(c[a] - c[b])) for a, b in ((1, 0), (2, 3), (3, 0), (2, 1)))
    return 1.0 - min(min(top, bottom) / max(top, bottom, 1e-9), min(left, right) / max(left, right, 1e-9))


def aspect_scores(cal: Calibration, image: np.ndarray, factors: tuple[float, ...] = ASPECT_FACTORS,
                  radii: tuple[float, ...] = ASPECT_RADII) -> np.ndarray:
    """(len(factors),) how round the clearest discs are with the field's aspect the corners' times each
    factor: their best fit over ``radii`` (``disc_scores``) in the canonical view that aspect makes."""
    base = corners_aspect(cal.corners)
    out = []
    for s in factors:
        c = cal.with_(aspect=base * s)
        canon = c.warp(image)
        out.append(float(disc_scores(c, canon, ck.gradients(canon), radii).max()))
    return np.asarray(out)


def learn_aspect(cal: Calibration, image: np.ndarray) -> Calibration:
    """``cal`` with the field's aspect under which its checkers look round, where the picture shows the
    field in a strong perspective (``STRONG_PERSPECTIVE``); else ``cal`` as it is.

    The canonical view maps the corners to a rectangle of the aspect the corners' mean side lengths
    give. Seen square on, that is the field's; in perspective it is not, and by how much depends on
    the camera's focal length, which one picture of a rectangle does not tell when two of its sides
    stay parallel (Z. Zhang, L.-W. He, "Whiteboard scanning and image enhancement", Digital Signal
    Processing 17(2), 2007: the aspect from the two vanishing points needs the focal length). A camera
    tilted 40 deg over a simulated table gave 0.73 for 0.94, the checkers a fifth wider than tall:
    each stack's next checker lay short of where it is searched and a quarter of the spots were read
    wrong; a photo's far edge narrowed by a third (the real photos slanted 35 %) gave 1.05 for 0.94,
    the checkers taller than wide, and the far side's stacks of 2-4 were read as 1. A checker is a
    disc on the board plane, and its top face a disc on a plane parallel to it, which the board's
    homography maps to a disc too: so the aspect is the one under which the clearest discs fit rings
    best (``aspect_scores``): of every other factor, the best after a 1-2-1 smoothing (the fit is
    broad at its top), then of it and the two factors beside it, the best; only aspects in
    ``ASPECT_RANGE`` are tried, and only as far from the corners' as ``ASPECT_MOVE`` lets the
    perspective's excess over the gate move it (a found field 0.011 over the gate, whose discs fitted
    within 2-3 % from 0.95 to 1.17, went to 1.17 for the photo's ~0.95, and a phantom checker was read)."""
    excess = perspective(cal.corners) - STRONG_PERSPECTIVE
    if excess <= 0.0:
        return cal
    base = corners_aspect(cal.corners)
    lo, hi = ASPECT_RANGE
    reach = ASPECT_MOVE * excess
    ok = [j for j, s in enumerate(ASPECT_FACTORS) if lo <= base * s <= hi and abs(np.log(s)) <= reach]
    coarse = [j for j in ok if j % 2 == 0] or ok
    if not coarse:
        return cal
    scores = aspect_scores(cal, image, tuple(ASPECT_FACTORS[j] for j in coarse))
    smooth = np.convolve(np.pad(scores, 1, mode="edge"), [0.25, 0.5, 0.25], mode="valid")
    k = int(np.argmax(smooth))
    i = coarse[k]
    near = [j for j in (i - 1, i + 1) if j in ok and j not in coarse]
    tried = [i, *near]
    fits = [float(scores[k]), *aspect_scores(cal, image, tuple(ASPECT_FACTORS[j] for j in near))]
    return cal.with_(aspect=base * ASPECT_FACTORS[tried[int(np.argmax(fits))]])


def learn_colours(cal: Calibration, image: np.ndarray) -> Calibration:
    """Split confidently found discs into bright and dark groups: the two checker colours."""
    canon = cal.warp(image)
    g = ck.gradients(canon)
    ch = _first_slots(cal, canon, g)
    good = ch.full[:24] > 0.3
    if int(good.sum()) < 4:
        return cal
    cols = ch.bgr[:24][good].astype(np.float32)
    lum = cols.mean(axis=1)
    # two-means on brightness, started from the extremes
    a, b = float(lum.min()), float(lum.max())
    if b - a < 40:
        return cal
    for _ in range(10):
        split = (a + b) / 2
        lo, hi = lum[lum < split], lum[lum >= split]
        if len(lo) == 0 or len(hi) == 0:
            return cal
        a, b = float(lo.mean()), float(hi.mean())
    split = (a + b) / 2
    light = np.median(cols[lum >= split], axis=0)
    dark = np.median(cols[lum < split], axis=0)
    return cal.with_(
        light_bgr=(float(light[0]), float(light[1]), float(light[2])),
        dark_bgr=(float(dark[0]), float(dark[1]), float(dark[2])),
    )


def refine(cal: Calibration, image: np.ndarray, colours: bool = True) -> Calibration:
    """Edges and bar first, then (optionally) the checker colours and the skin grid.

    Call it on a frame with no hand over the board: the skin grid records how
    skin-like the clear board already is, and the clear board's look is kept
    to tell an arm from a skin-coloured (wooden) board.
    """
    cal = refine_edges(cal, image)
    cal = learn_aspect(cal, image)
    cal = learn_radius_unlearnt(cal, image)
    if colours and cal.light_bgr == DEFAULT_LIGHT and cal.dark_bgr == DEFAULT_DARK:
        cal = learn_colours(cal, image)
    if not cal.skin or not cal.clear:
        canon = cal.warp(image)
        cal = cal.with_(skin=cal.skin or encode_mask(skin_prone(canon)), clear=cal.clear or encode_image(shrink(canon)))
    return cal
