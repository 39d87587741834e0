"""Is a hand or an arm over the board?

Skin has a narrow range of chroma (YCrCb: Cr about 135-178, Cb about 80-130,
the range commonly used for skin segmentation). Parts of some boards share
it (wood, warm shadows along the frame), so the calibration stores where the
clear board is already skin-coloured (``skin_prone``, a quarter-scale mask,
dilated) and what the clear board looks like there (``encode_image`` of the
quarter-scale view). Skin counts where the board is not skin-coloured, and
where it is only if the colour there has changed from the clear board's (an
arm over a wooden board: the board itself never changes colour, and a checker
moved off a spot uncovers a place that was not skin-prone, so it does not
count). A hand is a large connected skin blob over the field, counted by its
pixels outside what checkers explain (``hands_explained``). ``new_skin`` is
the skin that was not there when the board was learnt, wherever the board is
skin-prone (the arm test's view with a set-up calibration).

The box is fixed, so the frame is judged as the clear board's light showed it
(``under_clear_light``): the light of the frame over the clear board's is fitted
channel by channel (``light_gain``) and undone -- a tungsten lamp turned on after
set-up makes a cream field skin-coloured, a dim room takes a hand out of the box --
and the change from the clear board is measured in that light too.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.vision.channels import channel_max
from tavli_pi.vision.components import components
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.quantile import percentile

__all__ = ["shrink", "skin_view", "light_gain", "under_clear_light", "TINT", "new_skin", "change_from_clear", "changed_from_clear", "skin_mask", "skin_prone",
           "encode_mask", "decode_mask", "hand_cover", "SCALE", "relight", "prone_share", "CHANGE"]

#: the stored skin-prone mask is 1/SCALE of the canonical image
SCALE = 4
_LO = np.array([40, 135, 80], np.uint8)
_HI = np.array([255, 178, 130], np.uint8)


#: a skin-coloured pixel on skin-prone board counts when a channel differs from the clear
#: board's by more than this (grey levels, quarter-scale: sensor noise averages out there)
CHANGE = 12


#: a channel's light differs from the brightness's by at most this factor (log): a tungsten lamp
#: against daylight is about 0.45 on blue
TINT = 0.7

#: colour distance (BGR) within which a skin-coloured checker's pixels are taken for a checker
NEAR_CHECKER = 45.0


def skin_mask(canon: np.ndarray) -> np.ndarray:
    """uint8 mask (255 = skin-coloured) of a BGR image."""
    ycc = cv2.cvtColor(canon, cv2.COLOR_BGR2YCrCb)
    return cv2.inRange(ycc, _LO, _HI)


def skin_prone(canon: np.ndarray) -> np.ndarray:
    """Quarter-scale bool mask of where a clear board is already skin-coloured."""
    h, w = canon.shape[:2]
    small = cv2.resize(skin_mask(canon), (w // SCALE, h // SCALE), interpolation=cv2.INTER_AREA)
    return cv2.dilate((small > 40).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def encode_mask(mask: np.ndarray) -> str:
    """``"HxW:base64"`` of a bool mask (for the calibration file)."""
    h, w = mask.shape
    return f"{h}x{w}:" + base64.b64encode(np.packbits(mask.ravel()).tobytes()).decode()


def decode_mask(text: str) -> np.ndarray:
    size, _, data = text.partition(":")
    h, w = (int(v) for v in size.split("x"))
    bits = np.unpackbits(np.frombuffer(base64.b64decode(data), np.uint8))[: h * w]
    return bits.reshape(h, w).astype(bool)


def shrink(canon: np.ndarray) -> np.ndarray:
    """The canonical image at 1/SCALE (INTER_AREA), as ``hand_cover`` looks at it."""
    h, w = canon.shape[:2]
    return cv2.resize(canon, (w // SCALE, h // SCALE), interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=4)
def _gain_basis(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Quadratic basis (1, x, y, x^2, xy, y^2) on the full grid (h*w, 6) and on every 3rd pixel."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    xs = xs / max(w - 1, 1) - 0.5
    ys = ys / max(h - 1, 1) - 0.5
    full = np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)
    return full.reshape(-1, 6), full[::3, ::3].reshape(-1, 6)


def light_gain(clear: np.ndarray, small: np.ndarray) -> np.ndarray | None:
    """float32 (h, w, 3): the light of ``small`` over the clear board's (``small`` ~ ``clear`` times
    it, channel by channel); None when too little of the board is lit to tell.

    Light changes slowly across the board (a lamp, a window), so the log of the brightness
    ratio is fitted with a quadratic surface; the fit is repeated on the half of the pixels it
    explains best, so whatever really changed (an arm, moved checkers, dice) does not pull it.
    The light's colour may have changed too (a tungsten lamp turned on after set-up, the
    camera's white balance not following): each channel's ratio differs from the brightness's
    by one constant, the median over those same pixels of what the surface leaves.
    """
    h, w = small.shape[:2]
    full, sub = _gain_basis(h, w)
    a_bgr = small[::3, ::3].reshape(-1, 3).astype(np.float32)
    b_bgr = clear[::3, ::3].reshape(-1, 3).astype(np.float32)
    a = cv2.cvtColor(small[::3, ::3], cv2.COLOR_BGR2GRAY).astype(np.float32).ravel()
    b = cv2.cvtColor(clear[::3, ::3], cv2.COLOR_BGR2GRAY).astype(np.float32).ravel()
    ok = (a > 12) & (b > 12)
    if int(ok.sum()) < 24:
        return None
    y = np.log(a[ok] / b[ok])
    X = sub[ok]
    coef = np.linalg.lstsq(X, y, rcond=None)[0]
    keep = np.ones(len(y), bool)
    for _ in range(2):
        res = np.abs(X @ coef - y)
        keep = res <= percentile(res, 50)  # np.quantile(res, 0.5) to the bit (vision/quantile.py)
        coef = np.linalg.lstsq(X[keep], y[keep], rcond=None)[0]
    surface = (full @ coef).reshape(h, w)
    # each channel's own offset from the brightness's surface, on the pixels the fit kept that
    # are lit in every channel
    ca, cb = a_bgr[ok][keep], b_bgr[ok][keep]
    lit = (ca.min(axis=1) > 12) & (cb.min(axis=1) > 12)
    tint = np.zeros(3, np.float32)
    if int(lit.sum()) >= 24:
        tint = np.median(np.log(ca[lit] / cb[lit]) - (X[keep][lit] @ coef)[:, None], axis=0).astype(np.float32)
    gain: np.ndarray = np.exp(np.clip(surface[..., None] + np.clip(tint, -TINT, TINT), -1.0, 1.0)).astype(np.float32)
    return gain


def relight(clear: np.ndarray, small: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """The clear board under the light of ``small``: times ``light_gain(clear, small)`` (``gain``, when
    the caller has made it)."""
    gain = light_gain(clear, small) if gain is None else gain
    if gain is None:
        return clear
    relit: np.ndarray = np.clip(clear.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    return relit


def under_clear_light(small: np.ndarray, clear: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """``small`` as the clear board's light would show it: over ``light_gain(clear, small)`` (``gain``,
    when the caller has made it). The skin test looks at this: the skin-prone mask was made under
    that light, and a lamp warmer or dimmer than it makes a cream field skin-coloured or takes
    a hand's colour out of the skin range."""
    gain = light_gain(clear, small) if gain is None else gain
    if gain is None:
        return small
    seen: np.ndarray = np.clip(small.astype(np.float32) / gain, 0, 255).astype(np.uint8)
    return seen


def change_from_clear(small: np.ndarray, clear: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """uint8 (quarter scale): how much ``small`` differs from the clear board, its largest channel,
    as the clear board's light shows it (``under_clear_light``; ``gain``: ``light_gain(clear, small)``
    when the caller has made it): in a room dimmer than at set-up an arm differs from the board
    by as much as it did then, not by the fraction of it the dim light leaves. A channel the frame's light
    brightens past white clips in the frame (a camera's white balance warming, cream wood's red at 250
    made 270): the clear board is compared as the frame could show it, at most white under that light
    (``255 / gain``), or every bright spot of it reads as changed."""
    gain = light_gain(clear, small) if gain is None else gain
    seen = under_clear_light(small, clear, gain)
    if gain is not None and float(gain.max()) > 1.0:
        ceiling = np.minimum(clear.astype(np.float32), 255.0 / gain).astype(np.uint8)
        clear = ceiling
    change: np.ndarray = channel_max(np.asarray(cv2.absdiff(seen, clear)))
    return change


def changed_from_clear(small: np.ndarray, clear: np.ndarray, change: np.ndarray | None = None) -> np.ndarray:
    """bool mask (quarter scale): where ``small`` differs from the clear board (``clear``, relit as
    ``small``, see ``change_from_clear``) by more than ``CHANGE`` in a channel. ``skin_view`` and ``new_skin``
    both look at it; a reader makes it once per frame and gives it to both (``moved=``). ``change``:
    ``change_from_clear(small, clear)`` when the caller already made it."""
    changed: np.ndarray = (change_from_clear(small, clear) if change is None else change) > CHANGE
    return changed


def skin_view(
    small: np.ndarray,
    prone: np.ndarray | None = None,
    clear: np.ndarray | None = None,
    only_changed: bool = False,
    checkers: Sequence[tuple[float, float, float]] = (),
    moved: np.ndarray | None = None,
    gain: np.ndarray | None = None,
) -> np.ndarray:
    """uint8 skin mask of the quarter-scale view (``shrink``), opened.

    With a clear board (``clear``) the view is judged as the clear board's light would show it
    (``under_clear_light``; ``gain``: ``light_gain(clear, small)`` when the caller has made it):
    the skin-prone mask and the checker colours were learnt under that light.

    On skin-prone board (``prone``) skin counts only where the clear board
    (``clear``, same size) is itself skin-coloured and the view differs from
    it (``change_from_clear``) by more than ``CHANGE``; with no clear board
    it does not count there at all. ``only_changed`` (a board that is
    skin-coloured nearly everywhere, like wood): skin counts nowhere else
    either -- the few places that are not skin-prone are where checkers stood
    at calibration, and a checker moved off one uncovers skin-coloured board.
    ``checkers``: checker colours (BGR); pixels within ``NEAR_CHECKER`` of a
    skin-coloured one (dark red checkers) are a moved checker, not skin. ``moved``:
    ``changed_from_clear(small, clear)`` when the caller already made it.
    """
    lit = clear is not None and clear.shape == small.shape
    seen = under_clear_light(small, clear, gain) if clear is not None and lit else small
    mask = skin_mask(seen)
    for bgr in checkers:
        swatch = np.array([[np.clip(np.round(bgr), 0, 255)]], np.uint8)
        if skin_mask(swatch)[0, 0]:
            d = seen.astype(np.float32) - np.array(bgr, np.float32)
            mask[cv2.magnitude(cv2.magnitude(d[..., 0], d[..., 1]), d[..., 2]) < NEAR_CHECKER] = 0
    if prone is not None and prone.shape == mask.shape:
        count = ~prone
        if clear is not None and lit:
            if moved is None:
                moved = changed_from_clear(small, clear)
            changed = prone & moved & (skin_mask(clear) > 0)
            count = changed if only_changed else count | changed
        mask[~count] = 0
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def new_skin(small: np.ndarray, clear: np.ndarray, moved: np.ndarray | None = None,
             gain: np.ndarray | None = None) -> np.ndarray:
    """uint8 mask (quarter scale, opened) of the pixels of ``small`` skin-coloured under the clear
    board's light (``under_clear_light``) whose colour differs from the clear board's (``clear``,
    relit as ``small``) by more than ``CHANGE``: skin that was not there when the board was learnt,
    whatever the board is there. ``moved``: ``changed_from_clear(small, clear)`` and ``gain``:
    ``light_gain(clear, small)`` when the caller already made them."""
    mask = skin_mask(under_clear_light(small, clear, gain))
    if moved is None:
        moved = changed_from_clear(small, clear)
    mask[~moved] = 0
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _field_box(lay: Layout) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the playing field on the quarter-scale grid."""
    x0, y0 = int((lay.mx + lay.u0 * lay.field_w) / SCALE), int(lay.top_y / SCALE)
    x1, y1 = int((lay.mx + lay.u1 * lay.field_w) / SCALE), int(lay.bottom_y / SCALE)
    return x0, y0, x1, y1


def prone_share(prone: np.ndarray, lay: Layout) -> float:
    """Share of the playing field that the skin-prone mask covers."""
    x0, y0, x1, y1 = _field_box(lay)
    field = prone[y0:y1, x0:x1]
    return float(field.mean()) if field.size else 0.0


def hand_cover(
    canon: np.ndarray,
    lay: Layout,
    prone: np.ndarray | None = None,
    small: np.ndarray | None = None,
    skin: np.ndarray | None = None,
    explained: np.ndarray | None = None,
) -> tuple[float, np.ndarray]:
    """(share of the field covered by a hand, hand mask in canonical pixels).

    ``small``: ``shrink(canon)`` and ``skin``: ``skin_view(small, prone)``
    when the caller already made them. ``explained``: quarter-scale bool mask
    of what skin there may be instead of a hand (``hands_explained``: checkers
    now and where they stood at set-up); a skin region counts only by its
    pixels outside it (a hand reaches past the discs it covers), and then
    covers all it spans.
    """
    h, w = canon.shape[:2]
    if skin is None:
        skin = skin_view(shrink(canon) if small is None else small, prone)
    mask = skin
    x0, y0, x1, y1 = _field_box(lay)
    field = mask[y0:y1, x0:x1]
    out: np.ndarray = np.zeros((h, w), np.uint8)
    if field.size == 0:
        return 0.0, out
    n, labels, stats, _ = components(field)
    area = float(field.shape[0] * field.shape[1])
    sizes = stats[:, cv2.CC_STAT_AREA].astype(np.int64)
    own = sizes
    if explained is not None and explained.shape == mask.shape:
        # each region's pixels outside what checkers explain
        own = np.bincount(labels[~explained[y0:y1, x0:x1]], minlength=n)
    big = [i for i in range(1, n) if own[i] > 0.003 * area]
    share = float(sum(sizes[i] for i in big)) / area
    if big:
        keep: np.ndarray = np.zeros(mask.shape, np.uint8)
        keep[y0:y1, x0:x1] = np.isin(labels, big).astype(np.uint8) * 255
        keep = cv2.dilate(keep, np.ones((3, 3), np.uint8))
        out = cv2.resize(keep, (w, h), interpolation=cv2.INTER_NEAREST)
    return share, out
