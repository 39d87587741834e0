"""Where each part of a reading looks, so a frame re-reads only the parts whose pixels changed.

``BoardReader(incremental=True)`` keeps the last reading of every point (and
of the trays) with the quarter-scale view (``hands.shrink``) its pixels were
read from. A point is read again only when a pixel of its *footprint* -- every
canonical pixel its reading can sample, from the widest search the stack
reader (vision/stacks.py, vision/checkers.py) makes, grown by the blur and
Sobel kernels' reach -- changed by more than ``REGION_CHANGE`` grey levels in
any colour channel since then (or the gradients' scale changed: it normalises
every ring feature). A point whose footprint is unchanged reads the same
pixels, so its reading is the one a full read gives (tests/vision/
test_incremental.py proves it frame by frame on the demo and on random games).

The reach of a point's reading, in checker radii r from its column's centre
and base (the field edge), from ``checkers.trace_chains`` and
``stacks.squeezed_loglik``: slot 0 within 0.42 r across and 0.75-1.6 r along,
each further slot 0.25 r across and 1.8-2.35 r along the last, six of them;
rings sampled at up to 1.10 r round each centre; the squeezed search 6-10 r
past slot 0. So at most 3.1 r across and 17 r along. Behind the base: a point read as one
checker is also looked at for a larger disc round it (vision/oversize.py: rings at up to
``max(OUTSIDE)`` times 1.10 r, 1.76 r, round a slot 0 as near as 0.75 r to the base), so
1.01 r behind the base (``BEHIND``); the stack reader alone reaches 0.35 r behind it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.channels import channel_max
from tavli_pi.vision.cube import _strips
from tavli_pi.vision.grid_boxes import to_grid, touched
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.oversize import OUTSIDE
from tavli_pi.vision.spot_slots import spot_geometry
from tavli_pi.vision.trays import tray_rects_both_sides

__all__ = ["REGION_CHANGE", "Footprints", "GateView", "changed_pixels", "any_changed", "what_a_player_sees",
           "confidence_gap"]

#: a quarter-scale pixel changed when a channel moved by more than this many grey levels (each is
#: the mean of 4 x 4 canonical pixels, so sensor noise of up to ~8 levels averages well below it)
REGION_CHANGE = 8
#: the outermost ring a reading samples round a disc, in the disc's radii (checkers._RHO's last ring)
RING_REACH = 1.10
#: the nearest a slot 0's centre lies to its base (checkers.trace_chains' ``first``), in checker radii
SLOT0_NEAREST = 0.75
#: reach of a point's reading across its column, along it and behind its base (checker radii):
#: behind it, the stack reader's rings (0.35 r) or the oversize test's outermost ring (1.01 r)
ACROSS, ALONG = 3.1, 17.0
BEHIND = max(0.5, max(OUTSIDE) * RING_REACH - SLOT0_NEAREST)
#: canonical pixels added all round: the 5 x 5 blur, the 3 x 3 Sobel, rounding to a pixel and
#: the gate view's own blur (GateView: each of its pixels mixes about 8 canonical pixels across)
KERNEL = 9


def what_a_player_sees(obs: Observation) -> tuple[object, ...]:
    """What a player sees of a reading: the count on every spot (points, bar, off), the dice's values
    (and whether each rolls), the hand (bench/probe_promise.py holds an incremental reader's to a full
    read's of the same frame with it)."""
    spots = (*obs.points, obs.bar, obs.off)
    return (tuple((s.light.best, s.dark.best) for s in spots),
            tuple(sorted((d.value, d.moving) for d in obs.dice)), obs.hand)


def confidence_gap(a: Observation, b: Observation) -> float:
    """The largest difference of a count's confidence between two readings."""
    spots = zip((*a.points, a.bar, a.off), (*b.points, b.bar, b.off))
    return float(max(abs(getattr(x, c).confidence - getattr(y, c).confidence) for x, y in spots for c in ("light", "dark")))


def changed_pixels(small: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Quarter-scale pixels where ``small`` differs from ``ref`` by more than REGION_CHANGE (bool)."""
    diff = np.asarray(cv2.absdiff(small, ref))
    if diff.ndim == 3:
        diff = channel_max(diff)
    return np.asarray(diff > REGION_CHANGE)


def any_changed(small: np.ndarray, ref: np.ndarray, level: int = REGION_CHANGE) -> bool:
    """Whether any pixel of ``small`` differs from ``ref`` by more than ``level`` in a channel (by
    default: any pixel of ``changed_pixels(small, ref)`` is set; without making the mask)."""
    return small.shape != ref.shape or int(cv2.absdiff(small, ref).max()) > level


class GateView:
    """The canonical view at quarter scale (``hands.shrink``'s grid) made straight from the frame:
    the board's part of the frame halved by area until a pixel is about four canonical pixels,
    then remapped (bilinear).

    About 0.5 ms for a 1280 x 720 frame, against 3-4 ms for the full warp and shrink: what the
    motion gate and the incremental reader compare, so an unchanged frame is never warped.
    """

    def __init__(self, cal: Calibration) -> None:
        self.cal = cal
        self._for: tuple[int, int] = (0, 0)
        self.factor = 1
        self._crop = (0, 0, 0, 0)
        self._maps: tuple[np.ndarray, np.ndarray] | None = None

    def _make(self, h: int, w: int) -> None:
        lay = self.cal.layout
        gw, gh = lay.size[0] // SCALE, lay.size[1] // SCALE
        # the quarter pixels' centres in the canonical view, and where they lie in the frame
        xx, yy = np.meshgrid(np.arange(gw) * SCALE + (SCALE - 1) / 2, np.arange(gh) * SCALE + (SCALE - 1) / 2)
        src = self.cal.to_image(np.stack([xx.ravel(), yy.ravel()], axis=1)).reshape(gh, gw, 2)
        # frame pixels per quarter pixel (median over the view): halve the frame while that stays >= 1
        step = float(np.median(np.hypot(*(src[:, 1:] - src[:, :-1]).reshape(-1, 2).T)))
        f = 1
        while 2 * f <= step:
            f *= 2
        # the frame's part under the view (two halved pixels of margin), a whole number of halved pixels
        x0 = max(0, int(np.floor(src[..., 0].min())) - 2 * f) // f * f
        y0 = max(0, int(np.floor(src[..., 1].min())) - 2 * f) // f * f
        x1 = min(w, int(np.ceil(src[..., 0].max())) + 2 * f) // f * f
        y1 = min(h, int(np.ceil(src[..., 1].max())) + 2 * f) // f * f
        if x1 - x0 < f or y1 - y0 < f:  # the field lies outside the frame: use it all
            x0, y0, x1, y1, f = 0, 0, w, h, 1
        mx = ((src[..., 0] - x0 + 0.5) / f - 0.5).astype(np.float32)
        my = ((src[..., 1] - y0 + 0.5) / f - 0.5).astype(np.float32)
        self._maps = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        self.factor, self._crop, self._for = f, (x0, y0, x1, y1), (h, w)

    def __call__(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        if self._maps is None or self._for != (h, w):
            self._make(h, w)
        assert self._maps is not None
        x0, y0, x1, y1 = self._crop
        small = image[y0:y1, x0:x1]
        f = self.factor
        while f > 1:  # halving by area (fast in OpenCV) rather than one area shrink by f
            small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
            f //= 2
        return cv2.remap(small, self._maps[0], self._maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@dataclass(frozen=True)
class Footprints:
    """Rectangles (y0, y1, x0, x1) on the quarter-scale grid: ``spots[i]`` for point i (0-23) and
    the bar (24, 25: its halves), ``trays`` for every tray rectangle (both sides), ``cube`` for
    the strips the cube is looked for in (``cube._strips``, the whole height)."""

    spots: tuple[tuple[int, int, int, int], ...]
    trays: tuple[tuple[int, int, int, int], ...]
    cube: tuple[tuple[int, int, int, int], ...]

    @classmethod
    def of(cls, lay: Layout, cal: Calibration) -> Footprints:
        w, h = lay.size
        shape = (h // SCALE, w // SCALE)

        def grid(boxes: Sequence[tuple[float, float, float, float]]) -> tuple[tuple[int, int, int, int], ...]:
            # canonical pixel x lies in quarter pixel x // SCALE (INTER_AREA by an integer factor)
            rects = to_grid(np.asarray(boxes, np.float64), KERNEL, SCALE, shape) if boxes else np.zeros((0, 4))
            return tuple((int(a), int(b), int(c), int(d)) for a, b, c, d in rects.tolist())

        x, base, sign, r = spot_geometry(lay, cal)
        spots = []
        for xi, bi, si, ri in zip(x.tolist(), base.tolist(), sign.tolist(), r.tolist()):
            ya, yb = bi - si * BEHIND * ri, bi + si * ALONG * ri
            spots.append((xi - ACROSS * ri, min(ya, yb), xi + ACROSS * ri, max(ya, yb)))
        trays = [(x0, y0, x1, y1) for rects in tray_rects_both_sides(lay) for x0, y0, x1, y1 in rects.values()]
        # the cube is read from its square in the strips (a cube's edge is at most 1.05 pitch)
        cube = [(a, 0.0, b, float(h)) for a, b in _strips(lay, w)]
        return cls(grid(spots), grid(trays), grid(cube))

    def spots_changed(self, changed: np.ndarray, among: Iterable[int] | None = None) -> set[int]:
        """The spots (0-25; or of ``among``) with a changed pixel in their footprint."""
        idx = list(range(len(self.spots)) if among is None else among)
        hit = touched(changed, [self.spots[i] for i in idx])
        return {i for i, h in zip(idx, hit.tolist()) if h}

    def trays_changed(self, changed: np.ndarray) -> bool:
        return bool(touched(changed, self.trays).any())

    def cube_changed(self, changed: np.ndarray) -> bool:
        return bool(touched(changed, self.cube).any())
