"""Die bodies the pips missed: die-sized hat blobs (``tumbling.hat_blobs``; ``view_hat_blobs``
makes them again only where a frame changed), outlined and read (``blob_died``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tavli_pi.vision.dice_body import DIE_RANGE
from tavli_pi.vision.dice_face import Die, examined
from tavli_pi.vision.dice_memo import Box, DiceMemo, Rect
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.lie import Outline, die_outline
from tavli_pi.vision.tumbling import HatBlob, half, hat_blobs, hat_disc, hat_images

__all__ = ["DOUBTFUL_CONFIDENCE", "DOUBTFUL_FILL", "DOUBTFUL_SQUARE", "OFF_CENTRE", "WHOLE_FACE", "blob_died", "blob_outline",
           "blob_read", "scaled", "view_hat_blobs"]

#: a doubtful blob (ragged, or on a grain that looks smeared) is a die only with a face this clear
DOUBTFUL_CONFIDENCE = 0.7
#: ... with an outline this square (a cocked die shows an oblong: top and side face)
DOUBTFUL_SQUARE = 0.88
#: ... and fill at least this much of its bounding box
DOUBTFUL_FILL = 0.3
#: a face read this far (in outline lengths) from its outline's centre is not the die's face ...
OFF_CENTRE = 0.15
#: ... unless it shows at least this many pips, regular (none where its value has none): a one
#: off the centre may be one pip of a six, a four the corners of a six's rows, but no face holds a
#: five or a six as a part. Such a face sits off its outline when the outline takes in a side face
#: the camera sees (a front-oblique view shows each die's face toward the camera below its top)
WHOLE_FACE = 5


def view_hat_blobs(memo: DiceMemo | None, gray: np.ndarray, lay: Layout) -> list[HatBlob]:
    """``hat_blobs(gray, lay)``; with a memo, its hat images made again only where the frame
    changed (``DiceMemo.patched``, at half resolution: each half pixel is the mean of its own
    2 x 2 canonical pixels when the view's sides are even)."""
    h, w = gray.shape
    if memo is None or h % 2 or w % 2:
        return hat_blobs(gray, lay)
    m = hat_disc(lay) // 2 * 2  # the opening's (closing's) reach

    def part(r: Rect) -> np.ndarray:
        y0, y1, x0, x1 = r
        cy0, cx0, cy1, cx1 = max(0, y0 - m), max(0, x0 - m), min(h // 2, y1 + m), min(w // 2, x1 + m)
        got = hat_images(half(np.ascontiguousarray(gray[2 * cy0:2 * cy1, 2 * cx0:2 * cx1])), lay)
        return got[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]

    def place(b: Box) -> Box:
        return b[0] / 2, b[1] / 2, b[2] / 2, b[3] / 2

    hats = memo.patched(("hats", gray.shape), place, m, lambda: hat_images(half(gray), lay), part, gray,
                        whole_share=HATS_WHOLE)
    return hat_blobs(gray, lay, hats)


#: the share of the half view the changed windows add up to from which the hat images are made whole
#: rather than window by window (``DiceMemo.patched``: the same pixels): a window is opened and closed
#: grown by the disc's reach all round. Where the two cost the same (the median over a stream's frames):
#: 0.15-0.24 of the view on the demo and the real-like game 104 (bench/RESULTS.md, stop 24)
HATS_WHOLE = 0.2


def blob_died(memo: DiceMemo | None, view: str, canon: np.ndarray, src: np.ndarray,
               to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob, side: float, pitch: float,
               settle: bool = False, still: bool = False) -> tuple[Die | None, bool, float | None]:
    """The die a hat blob shows, read in its outline; whether the face read sits square in
    that outline, or shows a whole face wherever it sits (``WHOLE_FACE``; not one pip of a six read
    as a one, off the outline's centre); the outline's
    short over long side (None: no outline). ``settle``: outline again round the first outline's
    centre when the blob was off it (a blob that took in the die's shadow). The outline and the
    reading (``examined``) are each the one ``memo`` kept while their pixels stand."""
    if memo is None:
        o = blob_outline(src, to_src, b, side, settle)
    else:
        o = memo.sampled(("blob", view, src.shape, b, side, settle), to_src,
                         lambda ts: blob_outline(src, ts, b, side, settle))
    return blob_read(o, b, pitch, settle,
                      lambda at, s, ang: examined(memo, view, canon, src, to_src, at, s, ang, None, pitch, still))


def blob_outline(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob, side: float,
                  settle: bool) -> Outline | None:
    """``blob_died``'s outline round the blob (with ``settle``, again round its first centre when
    the blob was off it)."""
    o = die_outline(src, to_src, (b.x, b.y), side, ground=b.changed)
    if settle and o is not None and np.hypot(o.centre[0] - b.x, o.centre[1] - b.y) > 0.1 * side:
        o = die_outline(src, to_src, o.centre, side, ground=b.changed) or o
    return o


def blob_read(o: Outline | None, b: HatBlob, pitch: float, settle: bool,
               examine: Callable[[tuple[float, float], float, float], Die | None]) -> tuple[Die | None, bool, float | None]:
    """``blob_died`` from its outline: the die ``examine`` (centre, side, angle) reads in it."""
    if o is None or not (DIE_RANGE[0] * pitch <= o.long_ <= DIE_RANGE[1] * pitch * 1.6):
        return None, False, None
    if settle and o.aspect < DOUBTFUL_SQUARE:
        return None, False, o.aspect  # oblong: not taken from a doubtful blob, so not read
    at = (float(o.centre[0]), float(o.centre[1])) if settle else (b.x, b.y)
    die = examine(at, o.long_ * max(o.aspect, 0.75), o.angle)
    centred = die is not None and (
        bool(np.hypot(die.centre[0] - o.centre[0], die.centre[1] - o.centre[1]) <= OFF_CENTRE * o.long_)
        or (die.value >= WHOLE_FACE and die.regular and not die.cocked))
    return die, centred, o.aspect


def scaled(b: HatBlob, lay: Layout, to: Layout) -> HatBlob:
    """A blob of the canonical view (``lay``) as it lies in a finer view of the field (``to``)."""
    k = to.pitch / lay.pitch
    x, y = to.to_px(*lay.to_uv(b.x, b.y))
    return HatBlob(float(x), float(y), b.long_ * k, b.short * k, b.area * k * k, b.fill, b.dark)
