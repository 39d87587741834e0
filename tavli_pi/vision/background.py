"""The board as learnt at set-up: the background dice and hands must stand out from.

At set-up the reader keeps the canonical (top-down) view of the board at half
scale. Everything printed on the board -- lettering, logos, a tray insert, the
cube in its place, an overlay burnt into a broadcast -- is in it, so later a
die is only reported where the picture has changed from it, and a hand is a
large skin-coloured change over the field.

Differences are measured after matching the overall brightness (a lamp turned
up, the camera's exposure) and against the frame's own change level: most of
the board has not changed, so the median change is the noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from tavli_pi.vision.channels import channel_max
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.stored_image import decode_image, encode_image

__all__ = ["BG_SCALE", "BESIDE_SHARE", "CHECKER_SPREAD", "encode_background", "decode_background", "Difference", "Halved", "Learnt", "fit_score",
           "brightness_matched", "channel_medians", "field_box", "matched_change", "median_of"]

#: the stored background is 1/BG_SCALE of the canonical image
BG_SCALE = 2
#: a place stands out when its mean change exceeds the frame's noise by this many grey levels ...
STAND_OUT = 18.0
#: ... and this many times the frame's typical change
STAND_OUT_X = 3.0
#: how far (canonical px) a checker's own change reaches past its rim in ``Difference.diff``: a
#: half-scale pixel spans BG_SCALE canonical px (INTER_AREA) and the 3 x 3 blur spreads it one
#: half-scale pixel further
CHECKER_SPREAD = 2 * BG_SCALE
#: how far out of register (background px) ``Difference.out_of_range`` forgives the picture
REGISTER_SLACK = 0.5
#: a place with less of its window than this left once the checkers are taken out lies among them
BESIDE_SHARE = 0.25


def encode_background(canon: np.ndarray, exact_beyond: tuple[float, float] | None = None) -> str:
    """``"jpg:base64"`` of the canonical view at 1/BG_SCALE (for the calibration file).

    ``exact_beyond``: (left, right) canonical x of the field's playing edges; the columns outside
    them (the margins, where the trays are) are kept exactly too, as ``"jpg:...|xa,xb|png:..."``.
    A tray is read by how far from its end its rows changed from the empty tray, and its end is a
    sharp edge, where the JPEG's coding error is 4-10 grey levels: against the JPEG alone an empty
    dark tray read 3 checkers on the very frame it was learnt from (a beech board joined mid-game:
    conservation then took three lone checkers off the board)."""
    h, w = canon.shape[:2]
    small = cv2.resize(canon, (w // BG_SCALE, h // BG_SCALE), interpolation=cv2.INTER_AREA)
    text = encode_image(small, "jpg", quality=92)
    if exact_beyond is None:
        return text
    xa = max(0, min(small.shape[1], int(exact_beyond[0] // BG_SCALE)))
    xb = max(xa, min(small.shape[1], -int(-exact_beyond[1] // BG_SCALE)))
    margins = small.copy()
    margins[:, xa:xb] = 0  # the field is the JPEG's; a flat run costs the PNG next to nothing
    return f"{text}|{xa},{xb}|{encode_image(margins, 'png')}"


def decode_background(text: str) -> np.ndarray | None:
    """The stored half-scale view (its margins exact when kept so), or None when ``text`` holds none
    or is damaged."""
    jpg, _, rest = text.partition("|")
    small = decode_image(jpg, "jpg")
    if small is None or not rest:
        return small
    span, _, png = rest.partition("|")
    margins = decode_image(png, "png")
    try:
        xa, xb = (int(v) for v in span.split(","))
    except ValueError:
        return None
    if margins is None or margins.shape != small.shape or not 0 <= xa <= xb <= small.shape[1]:
        return None
    small[:, :xa] = margins[:, :xa]
    small[:, xb:] = margins[:, xb:]
    return small


def channel_medians(img: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Per channel, ``np.median`` of an image's pixels as float32 (the values np.median gives the
    image as float32); ``mask`` (uint8, nonzero where a pixel counts): of those pixels only. A uint8
    image's come from one histogram per channel: about 6x faster than sorting the pixels."""
    if img.dtype != np.uint8:
        px = img.reshape(-1, img.shape[2]) if mask is None else img[mask > 0]
        return np.asarray(np.median(px.astype(np.float32), axis=0), np.float32)
    n = img.shape[0] * img.shape[1] if mask is None else int(cv2.countNonZero(mask))
    if n == 0:
        return np.full(img.shape[2], np.nan, np.float32)
    out = []
    for c in range(img.shape[2]):
        cum = np.cumsum(cv2.calcHist([img], [c], mask, [256], [0, 256]).ravel())
        # the order statistics np.median takes: the middle one, or the mean of the middle two
        lo, hi = (int(np.searchsorted(cum, k, side="right")) for k in ((n - 1) // 2, n // 2))
        out.append((lo + hi) / 2)
    return np.asarray(out, np.float32)


def median_of(a: np.ndarray) -> float:
    """``float(np.median(a))`` of a float32 array, to the bit, at about a third of the cost on a
    field's worth of pixels (issue 12: 0.33 against 0.89 ms on 262 x 280). The two middle order
    statistics are bracketed by quantiles of every 32nd value, the bracket checked by counting
    (so a bad guess only costs a fall back to ``np.median``), and only the values inside it are
    partitioned; the two are then averaged by ``np.median`` itself, as it averages them."""
    if a.dtype != np.float32:
        return float(np.median(a))
    v = np.ascontiguousarray(a).ravel()
    n = v.size
    if n < MEDIAN_SAMPLED or bool(np.isnan(v).any()):
        return float(np.median(v))
    lo, hi = (n - 1) // 2, n // 2  # the middle order statistics (one when n is odd)
    s = np.sort(v[::32])
    m, spread = len(s), 8 + int(2 * np.sqrt(len(s)))
    t0, t1 = s[max(0, m // 2 - spread)], s[min(m - 1, m // 2 + spread)]
    below = int(np.count_nonzero(v <= t0))
    if below > lo or int(np.count_nonzero(v <= t1)) <= hi:
        return float(np.median(v))  # the bracket missed a middle value
    inside = np.partition(v[(v > t0) & (v <= t1)], [lo - below, hi - below])
    return float(np.median(inside[[lo - below, hi - below]]))


#: arrays smaller than this are left to ``np.median`` (``median_of``)
MEDIAN_SAMPLED = 4096


def brightness_matched(small: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """``small * gain`` of a float32 image, ``gain`` float32 per channel. An OpenCV kernel: the same
    float32 values as numpy's (an image times a scalar of float32 factors is one float32 product a
    pixel), at a third of the cost."""
    # (a 4-tuple is OpenCV's Scalar, which the stubs of opencv-python-headless 5.0 do not list and
    # those of 5.1 do: passed as Any, it type-checks under both)
    factors: Any = (float(gain[0]), float(gain[1]), float(gain[2]), 0.0)
    return np.asarray(cv2.multiply(small, factors))


def matched_change(small: np.ndarray, bg: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """|small * gain - bg| of float32 images, its largest channel; ``gain``: float32, per channel."""
    return channel_max(np.asarray(cv2.absdiff(brightness_matched(small, gain), bg)))


def field_box(lay: Layout) -> tuple[int, int, int, int]:
    """(y0, y1, x0, x1) of the playing field (the margins' width across) on the background's grid."""
    return (int(lay.top_y / BG_SCALE), int(lay.bottom_y / BG_SCALE), int(lay.mx / BG_SCALE),
            int((lay.mx + lay.field_w) / BG_SCALE))


class Halved:
    """A frame's canonical view on the learnt background's grid (``shape``: its h, w; INTER_AREA),
    made once a frame and shared by everything that compares the frame with the background
    (``setup_slots.setup_view``, ``Difference``): its uint8 and float32 pixels and its channel medians
    over a box, each made on first use (issue 12: the same values, made once)."""

    __slots__ = ("u8", "_f32", "_medians")

    def __init__(self, canon: np.ndarray, shape: tuple[int, ...]) -> None:
        self.u8 = cv2.resize(canon, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
        self._f32: np.ndarray | None = None
        self._medians: dict[tuple[int, int, int, int], np.ndarray] = {}

    @property
    def f32(self) -> np.ndarray:
        if self._f32 is None:
            self._f32 = self.u8.astype(np.float32)
        return self._f32

    def medians(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """``channel_medians`` of the view over ``box`` (y0, y1, x0, x1)."""
        got = self._medians.get(box)
        if got is None:
            y0, y1, x0, x1 = box
            got = self._medians[box] = channel_medians(self.u8[y0:y1, x0:x1])
        return got


class Learnt:
    """The learnt background as a ``Difference`` compares with it, made once per calibration: its
    float32 pixels and its channel medians over the field."""

    __slots__ = ("u8", "f32", "medians", "box", "_range")

    def __init__(self, background: np.ndarray, lay: Layout) -> None:
        self.u8, self.box = background, field_box(lay)
        y0, y1, x0, x1 = self.box
        self.f32 = background.astype(np.float32)
        self.medians = channel_medians(background[y0:y1, x0:x1])
        self._range: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def out_of_register(self) -> tuple[np.ndarray, np.ndarray]:
        """(least, most) of each channel (float32) of the learnt view at each pixel and half a pixel off it
        each way (``REGISTER_SLACK``: the mean with each neighbour): what it may show there with the
        picture up to half a pixel (a canonical pixel) out of register. A whole pixel's slack hid the
        change a checker makes beside an edge of the board (a tray's end: 6 checkers read 0)."""
        if self._range is None:
            bg = self.f32
            pad = cv2.copyMakeBorder(bg, 1, 1, 1, 1, cv2.BORDER_REPLICATE)
            h, w = bg.shape[:2]
            lo, hi = bg.copy(), bg.copy()
            for dy, dx in ((0, 1), (2, 1), (1, 0), (1, 2)):
                half = REGISTER_SLACK * pad[dy:dy + h, dx:dx + w] + (1 - REGISTER_SLACK) * bg
                lo, hi = np.minimum(lo, half), np.maximum(hi, half)
            self._range = (lo, hi)
        return self._range


class Difference:
    """How one frame differs from the learnt background (half scale, brightness matched)."""

    def __init__(self, canon: np.ndarray, background: np.ndarray | Learnt, lay: Layout,
                 half: Halved | None = None) -> None:
        """``background``: the learnt view (uint8), or its ``Learnt`` made for ``lay``; ``half``:
        this frame's ``Halved`` view, when already made."""
        learnt = background if isinstance(background, Learnt) else Learnt(background, lay)
        #: the learnt view compared with (uint8, half scale)
        self.learnt = learnt.u8
        half = half if half is not None else Halved(canon, learnt.u8.shape)
        y0, y1, x0, x1 = box = learnt.box
        gain = (learnt.medians + 1.0) / (half.medians(box) + 1.0)
        self._gain = np.clip(gain, 0.5, 2.0).astype(np.float32)
        self._half, self._learnt = half, learnt
        self.diff = cv2.GaussianBlur(matched_change(half.f32, learnt.f32, self._gain), (3, 3), 0)
        typical = median_of(self.diff[y0:y1, x0:x1])
        self.threshold = max(STAND_OUT + typical, STAND_OUT_X * typical)

    def change(self, x: float, y: float, r: float) -> float:
        """Mean change over the disc of radius ``r`` at canonical (x, y)."""
        cx, cy, rr = x / BG_SCALE, y / BG_SCALE, max(1.5, r / BG_SCALE)
        h, w = self.diff.shape
        xa, xb = max(0, int(cx - rr)), min(w, int(np.ceil(cx + rr)) + 1)
        ya, yb = max(0, int(cy - rr)), min(h, int(np.ceil(cy + rr)) + 1)
        if xb <= xa or yb <= ya:
            return 0.0
        return float(self.diff[ya:yb, xa:xb].mean())

    def stands_out(self, x: float, y: float, r: float) -> bool:
        return self.change(x, y, r) > self.threshold

    def change_beside(self, x: float, y: float, r: float, checkers: Sequence[tuple[float, float, float]]) -> float | None:
        """``change(x, y, r)`` over only the pixels clear of ``checkers`` (x, y, r canonical px: the
        discs the board reading accounts for) by ``CHECKER_SPREAD``: the change the checkers do not
        explain. None when less than ``BESIDE_SHARE`` of the window is left (the place lies among them)."""
        cx, cy, rr = x / BG_SCALE, y / BG_SCALE, max(1.5, r / BG_SCALE)
        h, w = self.diff.shape
        xa, xb = max(0, int(cx - rr)), min(w, int(np.ceil(cx + rr)) + 1)
        ya, yb = max(0, int(cy - rr)), min(h, int(np.ceil(cy + rr)) + 1)
        if xb <= xa or yb <= ya:
            return None
        # the window's pixels' centres in canonical px
        gx = (np.arange(xa, xb, dtype=np.float32) + 0.5) * BG_SCALE
        gy = (np.arange(ya, yb, dtype=np.float32) + 0.5) * BG_SCALE
        clear = np.ones((yb - ya, xb - xa), bool)
        for dx, dy, dr in checkers:
            reach = dr + CHECKER_SPREAD
            if abs(dx - x) > reach + r + BG_SCALE or abs(dy - y) > reach + r + BG_SCALE:
                continue
            clear &= (gx[None, :] - dx) ** 2 + (gy[:, None] - dy) ** 2 > reach * reach
        if clear.sum() < BESIDE_SHARE * clear.size:
            return None
        return float(self.diff[ya:yb, xa:xb][clear].mean())

    def stands_out_beside(self, x: float, y: float, r: float, checkers: Sequence[tuple[float, float, float]]) -> bool:
        """Whether the frame at (x, y) stands out from the board learnt at set-up where no checker
        of ``checkers`` stands (``change_beside``): a gap between checkers moved there since set-up
        shows the board as learnt, though the checkers round it changed the place's mean."""
        got = self.change_beside(x, y, r, checkers)
        return got is not None and got > self.threshold

    def out_of_range(self, ya: int, yb: int, xa: int, xb: int) -> np.ndarray:
        """``diff`` over rows ``ya:yb``, columns ``xa:xb`` (half scale), forgiving the picture a share of a
        pixel out of register with the learnt view: per channel, how far the frame (brightness matched)
        falls outside the least and most the learnt view shows round each pixel
        (``Learnt.out_of_register``), the largest channel, blurred as ``diff``. A tray's sharp end a third
        of a pixel out of register changed its rows by 15-20 grey levels a pitch long, which read as a
        checker borne off (``trays.changed_run``)."""
        lo, hi = self._learnt.out_of_register
        h, w = self.diff.shape
        # one pixel more each way for the blur, cut off again after it
        ra, rb, ca, cb = max(0, ya - 1), min(h, yb + 1), max(0, xa - 1), min(w, xb + 1)
        now = brightness_matched(self._half.f32[ra:rb, ca:cb], self._gain)
        out = np.maximum(np.maximum(now - hi[ra:rb, ca:cb], lo[ra:rb, ca:cb] - now), 0.0)
        blurred = cv2.GaussianBlur(channel_max(np.asarray(out, np.float32)), (3, 3), 0)
        return np.asarray(blurred[ya - ra:ya - ra + (yb - ya), xa - ca:xa - ca + (xb - xa)])

    def changed_mask(self) -> np.ndarray:
        """Half-scale bool mask of where the frame plainly differs from the background."""
        return np.asarray(self.diff > self.threshold)


def fit_score(canon: np.ndarray, background: np.ndarray, lay: Layout) -> float:
    """How well a frame fits the board the background was learnt on (-1..1).

    The correlation of the two views' edge maps over the field at quarter
    scale: the points, the bar and the frame line up on the same board however
    the checkers stand; on another board, or with the camera moved, they do not.
    """
    bh, bw = background.shape[:2]
    a = cv2.cvtColor(cv2.resize(canon, (bw, bh), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    b = cv2.cvtColor(background, cv2.COLOR_BGR2GRAY)
    a = cv2.resize(a, (bw // 2, bh // 2), interpolation=cv2.INTER_AREA).astype(np.float32)
    b = cv2.resize(b, (bw // 2, bh // 2), interpolation=cv2.INTER_AREA).astype(np.float32)

    def edges(g: np.ndarray) -> np.ndarray:
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
        return np.asarray(cv2.GaussianBlur(np.hypot(gx, gy), (5, 5), 0))

    s = 2 * BG_SCALE
    y0, y1 = int(lay.top_y / s), int(lay.bottom_y / s)
    x0, x1 = int(lay.mx / s), int((lay.mx + lay.field_w) / s)
    ea, eb = edges(a)[y0:y1, x0:x1].ravel(), edges(b)[y0:y1, x0:x1].ravel()
    ea, eb = ea - ea.mean(), eb - eb.mean()
    den = float(np.sqrt((ea * ea).sum() * (eb * eb).sum()))
    return float((ea * eb).sum() / den) if den > 0 else 0.0
