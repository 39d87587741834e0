"""A small die's face read by templates at the source resolution (issue 9: 8-12 px dice in a video).

Under ``dice_vet.NEED_PX`` the pip search of ``dice.find_dice`` loses a small face's middle and corner
pips (a 9 px three read as a two, a 10 px four as a two, a 9 px five as a one: dice49, class A). The
pips are still in the frame, a pixel or two each: each face's pip pattern, drawn at the die's size and
shrunk as a camera shrinks it, is correlated with the frame round the die. The best face wins; its lead
over the second (the *margin*) says how sure it is.

How it reads:

- the side is given (meant to be the table's die size, ``dice_table_size.DieSizes``, not one frame's
  measure of a blurred outline), and the face is read rectified: the side's two image vectors
  (``face_axes``, from the calibration) make the die square again before it is compared, as a die
  lies flat on the board plane;
- only the face inside the body is compared (a disc of ``FACE`` of the side), not the rim (from 0.5);
- both polarities (pips darker or lighter than the face) are tried; ``FaceMatch.lead`` is how far the
  better led, ``FaceMatch.dark`` which won (``dice_small`` holds it to the table's learnt polarity).
  Judging the polarity from the face's own body (the middle of its edges, where no face has a pip)
  was worse on the real-like set: the dark rim blurs into it at 8-10 px.

The pip geometry is the common one of Western pip dice: pips at ``PIP_AT`` of the side either side of
the centre, ``PIP_R`` of the side in radius (the simulator's). ``bench/bench_small_dice.py`` measures
right and wrong per margin band over thousands of real-like dice; ``FaceMatch.sure`` (``SURE_LEAD``,
``SURE_MARGIN``) is set above every wrong read it found. Nothing in the reader calls this yet
but ``dice_small``, and only where it is sure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.vision.quantile import float_mean

__all__ = ["FACE", "PIP_AT", "PIP_R", "FaceMatch", "face_axes", "match_face"]

#: pips lie this share of the side from the centre, along each axis (corners, middle row)
PIP_AT = 0.26
#: a pip's radius, a share of the side
PIP_R = 0.095
#: the face compared: a disc of this share of the side in radius (the rim, from 0.5, left out)
FACE = 0.44
#: a face is read sure when the polarity chosen (pips darker or lighter than the face) led the other by
#: this much (the best face's correlation) ...
SURE_LEAD = 0.3
#: ... and the best face led the next by this much (bench/bench_small_dice.py: see its RESULTS)
SURE_MARGIN = 0.30
#: the centre is searched this far (image px) either way, in steps of ``STEP``
REACH = 1.5
STEP = 0.5
#: the face's turn is searched in steps of this many degrees
TURN = 6
#: each pixel is drawn from this many sub-samples a side
SUB = 4

_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


class FaceMatch:
    """The best face (``value``), its correlation ``score`` and its lead over the next face (``margin``)."""

    __slots__ = ("dark", "lead", "margin", "score", "scores", "value")

    def __init__(self, scores: dict[int, float], lead: float = 0.0, dark: bool = True) -> None:
        order = sorted(scores, key=lambda v: scores[v], reverse=True)
        self.scores = scores
        self.value = order[0]
        self.score = scores[order[0]]
        self.margin = scores[order[0]] - scores[order[1]]
        #: how far the polarity chosen led the other (the best score's lead; 0: polarity given)
        self.lead = lead
        #: the pips were read darker than the face
        self.dark = dark

    @property
    def sure(self) -> bool:
        """Whether the face is read as surely as ``bench/bench_small_dice.py`` found 0 wrong: its
        polarity led by ``SURE_LEAD`` and its value by ``SURE_MARGIN``."""
        return self.lead >= SURE_LEAD and self.margin >= SURE_MARGIN

    def __repr__(self) -> str:
        return f"FaceMatch({self.value}, score {self.score:.2f}, margin {self.margin:.2f}, lead {self.lead:.2f})"


def _crop_n(side: float) -> int:
    """The crop's width (odd, px): the face disc and the centre's reach."""
    return int(np.ceil(2 * (FACE * side + REACH))) | 1


@lru_cache(maxsize=8)
def _templates(side_q: int) -> tuple[np.ndarray, np.ndarray]:
    """For a side of ``side_q`` / 4 px: the face masks per centre offset (O, n*n, bool) and the
    templates (O, 6, A, n*n), each zero-mean and unit-norm inside its offset's mask.

    A template pixel's value is the share of its ``SUB`` x ``SUB`` sub-samples within ``PIP_R`` of a
    pip's centre. A pip covers a few of the crop's pixels, so each pip's distances are worked out
    only over the pixels it can reach (``_covered``): the same sums and comparisons, to the bit, as
    over the whole crop, in a third to a half of the time. Issue 12: a size's templates are made on
    the frame that first reads a small die of it, 0.3-0.4 s on an x86 core for the table sizes in use
    (``dice_small``: 7.5-12 px), 0.13-0.17 s so; every offset's turns at once, each distance's squares
    taken once per row and column the pip reaches (``_covered``), 0.07-0.11 s; the sums laid a turn a
    column, the counts added in one ``bincount`` and the 49 offsets normalised at once
    (``normalised_all``), 0.04-0.05 s (``tests/vision/test_dice_template.py`` holds them alike)."""
    side = side_q / 4.0
    n = _crop_n(side)
    offs = np.arange(-REACH, REACH + 1e-6, STEP)
    oxy = np.array([(dx, dy) for dy in offs for dx in offs])  # (O, 2)
    # pixel centres relative to the crop's centre (a sub-sample lies at its pixel's plus ``sub``)
    sub = (np.arange(SUB) + 0.5) / SUB - 0.5
    pix = np.arange(n) - (n - 1) / 2
    px, py = np.meshgrid(pix, pix)
    masks = np.hypot(px.ravel()[None] - oxy[:, 0:1], py.ravel()[None] - oxy[:, 1:2]) < FACE * side  # (O, n*n)
    angles = np.radians(np.arange(0, 180, TURN))
    out = np.zeros((len(oxy), 6, len(angles), n * n), np.float32)
    r2 = (PIP_R * side) ** 2
    # a pixel holds a sub-sample within PIP_R of a pip's centre only within that and the sub-samples'
    # reach of it, along each axis
    near = PIP_R * side + float(np.abs(sub).max())
    ca, sa = np.cos(angles), np.sin(angles)
    for v in range(1, 7):
        rel = np.array(_PIPS[v], float) * PIP_AT * side  # (k, 2)
        rx = ca[:, None] * rel[None, :, 0] - sa[:, None] * rel[None, :, 1]  # (A, k)
        ry = sa[:, None] * rel[None, :, 0] + ca[:, None] * rel[None, :, 1]
        # every offset's turns at once (O * A, k), each centre the sum ``rx + dx`` the offset gives
        cx = (rx[None] + oxy[:, 0, None, None]).reshape(len(oxy) * len(angles), -1)
        cy = (ry[None] + oxy[:, 1, None, None]).reshape(len(oxy) * len(angles), -1)
        cover = (_covered(pix, sub, cx, cy, r2, near) / (SUB * SUB)).reshape(len(oxy), len(angles), n * n)
        out[:, v - 1] = normalised_all(cover, masks)
    return masks, out


def normalised(cover: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Templates ``cover`` (A, n*n: each pixel's share of pip) inside the face ``mask`` (n*n,), each made
    zero-mean and of unit length over the face (0 outside it), for correlation."""
    t = np.where(mask[None], cover, 0.0)
    t = np.where(mask[None], t - t.sum(-1, keepdims=True) / mask.sum(), 0.0)
    out: np.ndarray = t / np.maximum(np.linalg.norm(t, axis=-1, keepdims=True), 1e-9)
    return out


def normalised_all(cover: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``normalised(cover[o], masks[o])`` for every centre offset ``o`` at once (``cover``: O, A, n*n;
    ``masks``: O, n*n), to the bit: the same sums and lengths, each along a row's last axis as there
    (issue 12: a size's templates, 49 offsets, in one pass; tests/vision/test_dice_template.py)."""
    m = masks[:, None, :]
    t = np.where(m, cover, 0.0)
    t = np.where(m, t - t.sum(-1, keepdims=True) / masks.sum(-1)[:, None, None], 0.0)
    out: np.ndarray = t / np.maximum(np.linalg.norm(t, axis=-1, keepdims=True), 1e-9)
    return out


def _covered(pix: np.ndarray, sub: np.ndarray, cx: np.ndarray, cy: np.ndarray, r2: float, near: float
             ) -> np.ndarray:
    """How many of each crop pixel's sub-samples lie within ``r2`` (squared) of a pip centred at
    (``cx``, ``cy``) (T, k: per turn, per pip; px from the crop's centre): (T, n*n) float64 counts.
    The crop's pixels lie at ``pix`` (n,) along each axis, their sub-samples ``sub`` (SUB,) from
    them. Each distance is ``(x - cx) ** 2 + (y - cy) ** 2`` with the same operands as over every
    sub-sample (``x = pix + sub``), but the squares are taken once per column and row a pip can
    reach (within ``near`` of it: no other pixel can hold one), and summed over their grid. The
    pips of a face lie apart by more than twice ``PIP_R`` (``PIP_AT``), so a sub-sample is within
    one pip at most and the counts are those of the sub-samples within any (the share
    ``_templates`` takes is the same to the bit; tests/vision/test_dice_template.py)."""
    turns, pips = cx.shape
    n = len(pix)
    ns = len(sub)
    wide = int(np.floor(2 * near)) + 2  # pixels along an axis that the pip's reach can touch
    step = np.arange(wide)
    first = (np.arange(turns) * (n * n))[None, None, :]  # each turn's first pixel in the counts
    at: list[np.ndarray] = []
    hit: list[np.ndarray] = []
    for j in range(pips):
        cols = np.floor(cx[:, j] + (n - 1) / 2 - near).astype(np.intp)[:, None] + step  # (T, wide)
        rows = np.floor(cy[:, j] + (n - 1) / 2 - near).astype(np.intp)[:, None] + step
        # the sub-samples' distances along each axis, squared: (T, wide, SUB)
        ddx = (pix[np.clip(cols, 0, n - 1)][:, :, None] + sub) - cx[:, j, None, None]
        ddy = (pix[np.clip(rows, 0, n - 1)][:, :, None] + sub) - cy[:, j, None, None]
        # laid a turn a column (row and sub-row, column and sub-column, turn: long runs of one turn's
        # neighbours for the sums), the same sums of the same squares
        dx2 = np.ascontiguousarray((ddx * ddx).reshape(turns, wide * ns).T)
        dy2 = np.ascontiguousarray((ddy * ddy).reshape(turns, wide * ns).T)
        near_ = dx2[None, :, :] + dy2[:, None, :] < r2  # (row, sub-row) x (col, sub-col) x turn
        hits = near_.reshape(wide, ns, wide, ns, turns).sum(axis=(1, 3))  # (row, col, turn)
        rt, ct = rows.T, cols.T  # (wide, T)
        inside = ((rt >= 0) & (rt < n))[:, None, :] & ((ct >= 0) & (ct < n))[None, :, :]
        at.append((rt[:, None, :] * n + ct[None, :, :] + first)[inside])  # each pixel once per turn
        hit.append(hits[inside])
    # the counts are whole numbers: summed in any order, the same float64 values
    count: np.ndarray = np.bincount(np.concatenate(at), np.concatenate(hit).astype(np.float64),
                                    minlength=turns * n * n).reshape(turns, n * n)
    return count


def match_face(gray: np.ndarray, xy: tuple[float, float], axes: np.ndarray, dark: bool | None = None
               ) -> FaceMatch | None:
    """The face of the die at ``xy`` (image px) in ``gray`` (a grey frame, or a colour one: BGR), or None when the crop leaves
    the frame or the face is flat. ``axes`` (2 x 2): the image vectors (columns) of the die's two sides
    as it lies, the table's die size on the board plane mapped to the picture (``face_axes``): the face
    is read rectified, square. ``dark``: the pips are darker than the face (None: both are tried, and the
    better kept; ``FaceMatch.lead`` says by how much)."""
    axes = np.asarray(axes, np.float64)
    side = float(np.hypot(axes[0, 0], axes[1, 0]))
    side_q = int(round(side * 4))
    if side_q < 16:
        return None
    side = side_q / 4.0
    masks, tpl = _templates(side_q)
    n = _crop_n(side)
    h = (n - 1) / 2
    a = axes / side  # image px per rectified px
    if abs(np.linalg.det(a)) < 0.2:
        return None
    reach = np.abs(a).sum(1) * h  # the crop's reach in the picture, either way
    if (xy[0] - reach[0] < 0 or xy[1] - reach[1] < 0 or xy[0] + reach[0] >= gray.shape[1] - 1
            or xy[1] + reach[1] >= gray.shape[0] - 1):
        return None
    # only the die's patch of the frame, made grey
    x0, y0 = int(xy[0] - reach[0]) - 1, int(xy[1] - reach[1]) - 1
    patch = gray[max(y0, 0):int(xy[1] + reach[1]) + 3, max(x0, 0):int(xy[0] + reach[0]) + 3]
    if patch.ndim == 3:
        patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    at = np.asarray(xy, np.float64) - (max(x0, 0), max(y0, 0))
    m = np.hstack([a, (at - a @ np.array([h, h]))[:, None]]).astype(np.float32)
    crop = cv2.warpAffine(patch.astype(np.float32), m, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).ravel()
    if dark is not None:
        got = _best(-crop if dark else crop, masks, tpl, n)
        return FaceMatch(got.scores, 0.0, dark) if got is not None else None
    light, darker = _best_both(crop, masks, tpl, n)
    if light is None or darker is None:
        return None
    if darker.score >= light.score:
        return FaceMatch(darker.scores, darker.score - light.score, True)
    return FaceMatch(light.scores, light.score - darker.score, False)


def _correlations(crop: np.ndarray, masks: np.ndarray, tpl: np.ndarray, n: int) -> Iterator[np.ndarray]:
    """Per centre offset whose patch of ``crop`` (n*n) is not flat: the templates' correlations with
    it (6, A), the patch made zero-mean and unit-length."""
    for o in range(len(masks)):
        c = crop[masks[o]]
        c = c - float_mean(c)  # (``mean``'s, to the bit, for less: vision/quantile.py)
        nc = float(np.linalg.norm(c))
        if nc < 1e-6:
            continue
        full = np.zeros(n * n, np.float32)
        full[masks[o]] = c / nc
        yield tpl[o] @ full


def _best(crop: np.ndarray, masks: np.ndarray, tpl: np.ndarray, n: int) -> FaceMatch | None:
    """The best face of ``crop`` (n*n, pips bright) over the centre offsets and turns."""
    best = np.full(6, -2.0)
    for r in _correlations(crop, masks, tpl, n):
        best = np.maximum(best, r.max(-1))
    if best.max() <= -2.0:
        return None
    return FaceMatch({v: float(best[v - 1]) for v in range(1, 7)})


def _best_both(crop: np.ndarray, masks: np.ndarray, tpl: np.ndarray, n: int
               ) -> tuple[FaceMatch | None, FaceMatch | None]:
    """``_best(crop, ...)`` and ``_best(-crop, ...)`` (pips bright, pips dark) from one correlation
    per offset (issue 12: the correlations are most of a face's read, the templates read from memory
    once, not twice). Negated, the crop's values give the same offset means, lengths and
    correlations negated, to the bit (IEEE arithmetic rounds a value and its negation alike), so the
    dark best is the greatest of the negated correlations (tests/vision/test_dice_template.py)."""
    light = np.full(6, -2.0)
    dark = np.full(6, -2.0)
    for r in _correlations(crop, masks, tpl, n):
        light = np.maximum(light, r.max(-1))
        dark = np.maximum(dark, (-r).max(-1))
    if light.max() <= -2.0:
        return None, None
    return (FaceMatch({v: float(light[v - 1]) for v in range(1, 7)}),
            FaceMatch({v: float(dark[v - 1]) for v in range(1, 7)}))


def face_axes(to_image: Callable[[np.ndarray], np.ndarray], canon_xy: tuple[float, float], width_px: float
              ) -> np.ndarray:
    """The ``axes`` of ``match_face`` for a die at ``canon_xy`` (canonical px) whose side shows
    ``width_px`` image px across (``DieReading.size_px``'s measure, the table's die size): the local
    map of ``to_image`` (canonical -> image px), scaled to that side."""
    x, y = canon_xy
    p = to_image(np.asarray([[x, y], [x + 1, y], [x, y + 1]], np.float32)).reshape(3, 2).astype(np.float64)
    jac = np.stack([p[1] - p[0], p[2] - p[0]], 1)  # image px per canonical px (columns: x, y)
    across = float(np.hypot(jac[0, 0], jac[1, 0]))
    return jac * (width_px / max(across, 1e-9))
