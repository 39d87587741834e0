"""Each slot read against the board learnt at set-up: the set-up slot model and its re-reads.

With a learnt board (``Calibration.background``, ``setup.learn_board`` from the start position
or any other known position) each searched slot's p_k (the stack reader's, ``stacks.py``) comes from
``setup_slot_probability`` instead of the ring fit alone (``spot_slots.slot_probability``), by whether
the position it was learnt from filled the slot: the ring features plus how the slot differs from the learnt
view and how near its colour is to this board's checkers (a print, a band's letters or a busy
surface unchanged since set-up is no checker; a checker darkened by a shadow keeps its hue).
The frame's brightness match and typical change are measured on the field's quieter half, so
a hand or an arm over part of the field is not taken for a change of light everywhere (``setup_view``).
A board learnt from any other position (a game joined in progress, ``read --position``) is read
so too (``slot_model_reads``): the model is fitted on tables learnt mid-game as well as at set-up.

The model's reading of a frame's slots (``_occupancy``) is then read again where it is known to fail
against the learnt board: a caption's letters over a slot (``captions.py``), the other colour where
set-up checkers stood and a faint checker gone from its point (``swapped.py``), a checker come onto a
point of its own colour (``faint_arrived.py``), a faint held checker read back against the board just
learnt (``faint_held.py``) and a hue no checker of this board has (``foreign.py``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision import captions
from tavli_pi.vision import checkers as ck
from tavli_pi.vision import faint_arrived
from tavli_pi.vision.background import BG_SCALE, Halved, channel_medians, decode_background, field_box, matched_change
from tavli_pi.vision.boxed import BOXED_P, boxed
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.faint_held import held_by_colour
from tavli_pi.vision.foreign import FOREIGN_P, foreign, hue_distance
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.lighting import colour_at, slot_colours
from tavli_pi.vision.oversize import oversized
from tavli_pi.vision.spot_slots import SLOTS, slot_logits, slot_probability, spot_geometry
from tavli_pi.vision.swapped import empty_point_features, setup_colours, swapped_slots

__all__ = [
    "N_SETUP",
    "SETUP_W",
    "SETUP_W_UNTAUGHT",
    "SetupView",
    "known_slots",
    "setup_logit",
    "setup_slot_features",
    "setup_slot_probability",
    "setup_view",
    "slot_model_reads",
    "start_slots",
    "taught",
    "taught_rings",
]


@lru_cache(maxsize=1)
def start_slots() -> np.ndarray:
    """(26, SLOTS) bool: the slots the start position fills (first n of each start stack, B3;
    the bar's two halves hold none)."""
    return _known_slots(KnownBoard.start())


@lru_cache(maxsize=8)
def _known_slots(known: KnownBoard) -> np.ndarray:
    return known.slots(SLOTS)


def known_slots(cal: Calibration) -> np.ndarray:
    """(26, SLOTS) bool: the slots filled in the frame the board was learnt from (``cal.position``;
    the start position's when the calibration names none)."""
    return _known_slots(cal.position) if cal.position is not None else start_slots()


@lru_cache(maxsize=4)
def _background_u8(text: str) -> np.ndarray | None:
    """The set-up board as stored (uint8), decoded once (None: it cannot be decoded)."""
    return decode_background(text)


@lru_cache(maxsize=4)
def _background(text: str) -> np.ndarray | None:
    """The set-up board as float32 (``_background_u8``'s)."""
    bg = _background_u8(text)
    return None if bg is None else bg.astype(np.float32)


@lru_cache(maxsize=4)
def _background_integral(text: str) -> np.ndarray:
    """The integral image of the set-up board (``_background``'s), made once."""
    bg = _background(text)
    assert bg is not None  # (asked only once _background decoded it)
    return np.asarray(cv2.integral(bg), np.float64)


@lru_cache(maxsize=4)
def _field_medians(text: str, box: tuple[int, int, int, int]) -> np.ndarray:
    """``channel_medians`` of the set-up board over the field ``box`` (y0, y1, x0, x1), made once."""
    y0, y1, x0, x1 = box
    bg = _background_u8(text)
    assert bg is not None  # (asked only once _background decoded it)
    return channel_medians(bg[y0:y1, x0:x1])


def _changed_at_most(diff: np.ndarray, share: float) -> np.ndarray:
    """uint8 mask of the pixels of ``diff`` changed no more than its ``share`` quantile (in whole
    grey levels). With ``share`` 0.5, the quieter half of the field, which a hand, an arm or the
    checkers moved since the board was learnt do not reach while they cover less than half of it."""
    d8 = cv2.convertScaleAbs(diff)  # rounded, saturated at 255
    cum = np.cumsum(cv2.calcHist([d8], [0], None, [256], [0, 256]).ravel())
    t = int(np.searchsorted(cum, int((d8.size - 1) * share), side="right"))
    return (d8 <= t).astype(np.uint8)


#: features per slot of the set-up model (see setup_slot_features)
N_SETUP = ck.N_FEATURES + 8
#: the indices among them of log(1 + the change from the set-up view), log(1 + the frame's typical
#: change), log(1 + hue distance to the nearer checker colour), the ring logit now and on the frame
#: the board was learnt from
CHANGE, TYPICAL, HUE, RING, TAUGHT = ck.N_FEATURES, ck.N_FEATURES + 1, ck.N_FEATURES + 4, ck.N_FEATURES + 6, ck.N_FEATURES + 7
#: a slot counts as unchanged since the board was learnt while its change (log) is within
#: ``STILL_MARGIN`` of the frame's typical change (a logistic step ``STILL_SOFT`` wide): there the
#: model weighs how it rings now against how it rang when learnt (``_still_design``)
STILL_MARGIN, STILL_SOFT = 1.0, 0.2
#: a point's first slot, empty when the board was learnt, is unchanged only while its ring logit now
#: stands less than ``RING_MARGIN`` over its taught ring (a logistic step ``RING_SOFT`` wide): a dark
#: checker come onto a dark point barely changes the slot's colour, but it rings where the bare point
#: did not (real-like game 99, rosewood, 640 px: point 7's blot rang at -0.7 against a taught -4.7,
#: its colour 2 grey levels off the point's; held still, it read empty at 0.91 for the rest of the game)
RING_MARGIN, RING_SOFT = 3.5, 0.3
#: ... or while it rings less than a checker may (its ring logit under ``RING_FLOOR``). The first slots
#: the two steps turn from still to changed on the per-spot frames (``diag_spots.py --frames 120``):
#: seed 0 29, 24 of them holding a checker; seed 1 40, 33 (bench/RESULTS.md, stop 41)
RING_FLOOR = -1.5


#: the typical change over the field, log(1 + grey levels), is kept to steps of this size: one
#: value then serves every point of a frame, read together or (the incremental reader) at
#: different frames, and the reader reads them all again when it moves a step
TYPICAL_STEP = 0.05
#: and so is the brightness match to the set-up board, per channel, to steps of this size
GAIN_STEP = 0.01


class SetupView(NamedTuple):
    """A frame against the board learnt at set-up, on the background's grid (``setup_view``)."""

    background: np.ndarray
    diff: np.ndarray  # per pixel, the largest channel change after matching the brightness
    gain: np.ndarray  # the brightness match per channel (set-up / now), to GAIN_STEP
    typical: float  # log(1 + the mean change over the field's quieter half), to TYPICAL_STEP
    now: np.ndarray  # the frame on the background's grid (float32)


def slot_model_reads(cal: Calibration) -> bool:
    """Whether the set-up slot model (``setup_slot_probability``) reads this calibration's slots: it
    learnt a board (a background), from the start or from any other known position (``SETUP_W`` is
    fitted on real-like tables learnt both ways). Until stop 44 a board learnt from another
    position had its slots read by their ring fit alone: the model of stop 12, fitted on start
    set-ups only and matching the brightness over the whole field, lost 11 of 468 spots on the real
    WTC board learnt mid-game (a broadcast's change of the whole picture read as checkers gone);
    the model refitted with mid-game teaching, matched on the field's quieter half, loses 3 there
    (test8's point 7 from each of the three teaching frames: a die lying where a light 4-stack's next
    checker would stand, read as a fifth at 0.8) and reads the real-like tables learnt mid-game at
    3.0 % per spot instead of 5.3 % (``bench_reallike.py --known 60``; stop 44, branch midlearn44)."""
    return bool(cal.background)


def _gain(bg_medians: np.ndarray, now_medians: np.ndarray) -> np.ndarray:
    """The brightness match per channel (set-up / now), to GAIN_STEP."""
    gain = np.clip((bg_medians + 1.0) / (now_medians + 1.0), 0.5, 2.0)
    return (np.round(gain / GAIN_STEP) * GAIN_STEP).astype(np.float32)


def setup_view(canon: np.ndarray, lay: Layout, cal: Calibration, half: Halved | None = None) -> SetupView | None:
    """The frame against the set-up board (None: the calibration learnt none, or the set-up slot
    model does not read it: ``slot_model_reads``). A whole-frame value: the reader makes it once
    and passes it to every point's reading. ``half``: the frame on the set-up board's grid
    (``background.Halved``), when the caller has made it (it shares it with ``Difference``)."""
    bg = _background(cal.background) if slot_model_reads(cal) else None
    if bg is None:
        return None
    if half is None or half.u8.shape != bg.shape:
        half = Halved(canon, bg.shape)
    small8 = half.u8
    y0, y1, x0, x1 = box = field_box(lay)
    if small8[y0:y1, x0:x1].size == 0:
        return None
    bg8 = _background_u8(cal.background)
    assert bg8 is not None  # (_background decoded it)
    bg8 = bg8[y0:y1, x0:x1]
    now8 = small8[y0:y1, x0:x1]
    small = half.f32
    first = _gain(_field_medians(cal.background, box), half.medians(box))
    # the brightness is matched, and the change measured, on the field's quieter half: a hand or an
    # arm over part of it (or the checkers moved since the board was learnt) is no change of light
    # (the match so found moved from the first on every demo frame: the change is made again)
    quiet = _changed_at_most(matched_change(small[y0:y1, x0:x1], bg[y0:y1, x0:x1], first), 0.5)
    gain = _gain(channel_medians(bg8, quiet), channel_medians(now8, quiet))
    diff = matched_change(small, bg, gain)
    quiet = _changed_at_most(diff[y0:y1, x0:x1], 0.5)
    # the typical change: the mean over the quieter half, as matched now
    typical_change = cv2.mean(diff[y0:y1, x0:x1], quiet)[0]
    typical = round(float(np.log1p(typical_change)) / TYPICAL_STEP) * TYPICAL_STEP
    return SetupView(bg, diff, gain, typical, small)


def setup_slot_features(canon: np.ndarray, lay: Layout, cal: Calibration, ch: ck.Chains,
                        cols: np.ndarray | None = None, view: SetupView | None = None) -> np.ndarray | None:
    """Per slot (26, SLOTS, N_SETUP): the ring features and how the slot compares with the board
    as learnt at set-up (``cal.background``, ``cal.light_bgr`` / ``dark_bgr``), or None when the
    calibration learnt no board. ``cols``: the spots ``ch`` holds (all 26 when None); ``view``:
    ``setup_view`` of this frame, when already made.

    Added to the ring features: log(1 + the slot's change from the set-up view) and log(1 + the
    frame's typical change over the field), both after matching the overall brightness (as
    ``background.Difference``); log(1 + the slot colour's distance to the nearer of this board's
    two checker colours, as they look where the slot lies: ``lighting.slot_colours``, or each
    colour's own look there, ``lighting.colour_at``, the nearer); log(1 + its distance to the set-up view's colour there); log(1 + the
    chromaticity distance to the nearer checker colour: a shadowed checker keeps its hue); log(1 +
    the distance of the set-up view's colour there to the nearer checker colour: how like a
    checker this board is at that place, as learnt); the ring-only logit (``slot_probability``'s, clipped to +-10).
    """
    view = view if view is not None else setup_view(canon, lay, cal)
    if view is None:
        return None
    diff, gain = view.diff, view.gain
    radii = spot_geometry(lay, cal)[3]
    if cols is not None:
        radii = radii[cols]
    r = radii[:, None] * np.ones((1, ch.x.shape[1]), np.float32)
    hx, hy, hr = ch.x / BG_SCALE, ch.y / BG_SCALE, 0.5 * r / BG_SCALE
    chg = ck.box_means(np.asarray(cv2.integral(diff), np.float64)[..., None], hx, hy, hr)[..., 0]
    learnt = _learnt_at(cal, view, hx, hy, hr)  # the set-up view's colour there
    bgc = learnt / gain
    light, dark = np.asarray(cal.light_bgr, np.float32), np.asarray(cal.dark_bgr, np.float32)
    # the two checker colours where the slot lies, under the board's light as learnt at set-up
    # (vision/lighting.py), not the one pair learnt for the whole board: under a lamp's fall-off a
    # checker far from its colour's median looked like no checker and was read as an empty slot
    # (bench/RESULTS.md, stop 18; the model's weights are unchanged)
    light_at, dark_at, _ = slot_colours(cal, ch.x, ch.y)
    checker = np.minimum(np.linalg.norm(ch.bgr - light_at, axis=-1), np.linalg.norm(ch.bgr - dark_at, axis=-1))
    # or to each colour's own look there (vision/lighting.py, ``colour_at``): a checker under a
    # translucent band takes the band's colour, as the set-up checkers under it did (the nearer of
    # the two, so a slot the pair as lit explains keeps the distance the weights were fitted on)
    own = colour_at(cal, ch.x, ch.y)
    if own is not None:
        checker = np.minimum(checker, np.minimum(np.linalg.norm(ch.bgr - own[0], axis=-1),
                                                 np.linalg.norm(ch.bgr - own[1], axis=-1)))
    board = np.linalg.norm(ch.bgr - bgc, axis=-1)
    # how like a checker this board is here, as learnt (a dark checker on a dark point is near both)
    lookalike = np.minimum(np.linalg.norm(learnt - light, axis=-1), np.linalg.norm(learnt - dark, axis=-1))

    # a lamp's shadow or an overlay darkens a checker: its hue stays (chromaticity, scaled to 100)
    hue = hue_distance(ch.bgr, cal.light_bgr, cal.dark_bgr)
    ring = slot_logits(ch)
    extra = np.stack([np.log1p(chg), np.full(chg.shape, view.typical), np.log1p(checker), np.log1p(board),
                      np.log1p(hue), np.log1p(lookalike), ring, _taught(cal, cols, ch.x.shape[1])], axis=-1)
    return np.concatenate([ch.feats, extra.astype(np.float32)], axis=-1)


#: a slot the learnt position filled is read against the checker seen there (``held_colours``) when
#: it is this likely to hold a checker now
HELD_OCCUPIED = 0.5


def _held(cal: Calibration, cols: np.ndarray, depth: int) -> np.ndarray | None:
    """(C, depth) the colour the learnt position put in each slot of ``cols``: +1 light, -1 dark,
    0 none (None: the calibration learnt no board)."""
    if not cal.background:
        return None
    filled = known_slots(cal)[cols][:, :depth]
    colour = setup_colours(cal.learnt_from)[cols]
    return np.where(filled, colour[:, None], 0).astype(np.int8)


def _learnt_at(cal: Calibration, view: SetupView, hx: np.ndarray, hy: np.ndarray, hr: np.ndarray) -> np.ndarray:
    """The set-up view's colour (..., 3) in boxes of half side ``hr`` round ``hx``, ``hy`` (the
    background's grid), as learnt (not matched to this frame's light)."""
    bg = view.background
    bg_integral = (_background_integral(cal.background) if cal.background and bg is _background(cal.background)
                   else np.asarray(cv2.integral(bg), np.float64))
    return np.asarray(ck.box_means(bg_integral, hx, hy, hr))


def _learnt_colour(cal: Calibration, view: SetupView, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The set-up view's colour (..., 3) over the middle of a checker of radius ``r`` at canonical
    places ``x``, ``y``, in this frame's light (``view.gain``, set-up over now)."""
    rr = np.broadcast_to(0.5 * np.asarray(r, np.float32) / BG_SCALE, np.shape(x))
    learnt = _learnt_at(cal, view, np.asarray(x) / BG_SCALE, np.asarray(y) / BG_SCALE, rr)
    return np.asarray(learnt / view.gain, np.float32)


def taught_rings(ch: ck.Chains) -> tuple[tuple[float, ...], ...]:
    """``Calibration.taught_ring``: every slot's ring logit (26 x SLOTS, to 0.01) on the frame the board
    is learnt from (``ch``: its 26 chains traced to the end, ``stacks.spot_chains``)."""
    return tuple(tuple(round(float(v), 2) for v in row) for row in slot_logits(ch))


def taught(cal: Calibration) -> bool:
    """Whether the set-up slot model reads ``cal``'s slots by their taught ring and stillness
    (``SETUP_W``): it kept a taught ring as deep as the chains (else ``SETUP_W_UNTAUGHT``)."""
    return cal.taught_ring is not None and len(cal.taught_ring[0]) >= SLOTS


def _taught(cal: Calibration, cols: np.ndarray | None, depth: int) -> np.ndarray:
    """(C, depth) the taught ring of the slots of ``cols`` (all 26 when None): ``Calibration.taught_ring``,
    or 0 where it kept none (``taught``: the model then reads no taught ring)."""
    t = (np.asarray(cal.taught_ring, np.float32)[:, :depth] if taught(cal)
         else np.zeros((26, depth), np.float32))
    return t if cols is None else t[cols]


def _still_design(feats: np.ndarray, arrived: bool | np.ndarray = False) -> np.ndarray:
    """The set-up model's inputs: ``feats`` (..., N_SETUP) and, for a slot as unchanged since the
    board was learnt (``STILL_MARGIN``), how still it is, and that times its ring logit now and its
    taught ring (a dark checker on a dark point that rang faintly when learnt and has not changed is
    read by that, not by how a checker rings elsewhere). ``arrived`` (broadcast over the slots: a
    point's first slot, empty when the board was learnt): a slot that rings now where it did not then
    (``RING_MARGIN``) is not still either. (Not so for a later slot: it rings with the edge of a checker
    come onto the slot before it -- real-like seed 1 frame 6, a blot's next slot rose 7 and read a
    phantom at 0.94; nor for a slot the learnt position filled: a stack's checker rings more once the
    one over it is gone, and is still there.)"""
    still = 1.0 / (1.0 + np.exp(np.clip((feats[..., CHANGE] - feats[..., TYPICAL] - STILL_MARGIN) / STILL_SOFT,
                                        -30, 30)))
    if np.any(arrived):
        rose = feats[..., RING] - feats[..., TAUGHT]
        rings = (1.0 / (1.0 + np.exp(np.clip(-(rose - RING_MARGIN) / RING_SOFT, -30, 30)))
                 / (1.0 + np.exp(np.clip(-(feats[..., RING] - RING_FLOOR) / RING_SOFT, -30, 30))))
        still = still * (1.0 - np.where(arrived, rings, 0.0))
    return np.concatenate([feats, np.stack([still, still * feats[..., RING], still * feats[..., TAUGHT]], axis=-1)],
                          axis=-1)


def setup_logit(feats: np.ndarray, filled: bool | np.ndarray, by_taught: bool = True) -> np.ndarray:
    """The set-up slot model's logit of ``feats`` (..., N_SETUP), by whether the learnt position filled
    the slot (``filled``, broadcast). ``by_taught`` (``taught``): with the taught ring and stillness
    (``SETUP_W``); else by the other features alone (``SETUP_W_UNTAUGHT``). ``feats`` of whole chains
    (spots, slots, N_SETUP) have their first slots judged by their ring too (``_still_design``)."""
    if not by_taught:
        x, w = feats[..., :TAUGHT], SETUP_W_UNTAUGHT
        return np.asarray(np.where(filled, x @ w[1, :-1] + w[1, -1], x @ w[0, :-1] + w[0, -1]))
    first = np.zeros(feats.shape[:-1], bool)
    if feats.ndim == 3:
        first[:, 0] = True
    x, w = _still_design(feats, arrived=first & ~np.asarray(filled, bool)), SETUP_W
    return np.asarray(np.where(filled, x @ w[1, :-1] + w[1, -1], x @ w[0, :-1] + w[0, -1]))


@lru_cache(maxsize=4)
def _caption_marks(text: str, radius: float) -> np.ndarray:
    """``captions.marks`` of the set-up board as stored, made once per calibration and radius."""
    bg = _background_u8(text)
    assert bg is not None  # (asked only once _background decoded it)
    return captions.marks(bg, radius)


def _caption_hide(cal: Calibration, view: SetupView, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The caption's letters still there on this frame (``captions.hidden`` of the marks learnt with the
    board, in the learnt view's pixels) and the checker radii of spots ``cols``; None when the board
    learnt no letters (or ``view`` is not of its learnt board)."""
    if not cal.background or view.background is not _background(cal.background):
        return None
    r = spot_geometry(cal.layout, cal)[3][cols]
    mark = _caption_marks(cal.background, round(float(np.median(r)) / BG_SCALE, 1))
    if mark.shape != view.diff.shape or not mark.any():
        return None
    return captions.hidden(mark, view.diff), r


def _caption_share(cal: Calibration, view: SetupView, ch: ck.Chains, cols: np.ndarray) -> np.ndarray:
    """Per slot of ``ch`` (spots ``cols``), the share of its box a caption's letters hide
    (``captions.hidden``), for the slots the learnt position left empty beyond each stack's
    first; 0 elsewhere, and everywhere when the board learnt none."""
    got = _caption_hide(cal, view, cols)
    if got is None:
        return np.zeros(ch.x.shape, np.float64)
    hide, r = got
    hr = (0.5 * r / BG_SCALE)[:, None] * np.ones((1, ch.x.shape[1]), np.float32)
    share = captions.hidden_share(hide, ch.x / BG_SCALE, ch.y / BG_SCALE, hr)
    filled = known_slots(cal)[cols][:, : ch.x.shape[1]]
    share[filled] = 0.0
    share[:, 0] = 0.0
    return share


def _caption_seen_bgr(cal: Calibration, view: SetupView, ch: ck.Chains, cols: np.ndarray, pair: np.ndarray
                      ) -> np.ndarray:
    """``ch.bgr`` (C, K, 3), the slots ``pair`` marks (read against the pair of colours as lit there,
    ``lighting.slot_colours``, not against a look learnt there) whose box a caption's letters hide
    more than ``captions.SEEN`` of taken from the pixels they leave seen (``captions.seen_colour``),
    where these are at least ``captions.SEEN_LEAST`` of it: the letters were learnt with the board,
    and stay as they were over a checker come under them. Any slot ``pair`` marks, a first one
    included: a colour makes no slot likelier empty (``stacks._read_spots_once`` marks the bar's slots)."""
    got = _caption_hide(cal, view, cols)
    if got is None:
        return ch.bgr
    hide, r = got
    cx, cy = ch.x / BG_SCALE, ch.y / BG_SCALE
    half = (0.42 * r / BG_SCALE)[:, None] * np.ones((1, ch.x.shape[1]), np.float32)  # ch.bgr's box
    share = captions.hidden_share(hide, cx, cy, half)
    use = pair & (share > captions.SEEN)
    if not use.any():
        return ch.bgr
    colour, seen = captions.seen_colour(view.now, hide, cx, cy, half)
    use &= seen >= captions.SEEN_LEAST
    return np.asarray(np.where(use[..., None], colour, ch.bgr), np.float32)


def setup_slot_probability(feats: np.ndarray, cols: np.ndarray | None = None,
                           filled: np.ndarray | None = None, by_taught: bool = True) -> np.ndarray:
    """P(slot occupied) from ``setup_slot_features`` (26, SLOTS, N_SETUP): a logistic per kind of
    slot -- empty when the board was learnt, or filled by the position it was learnt from
    (``filled``, ``known_slots``: the start position's by default; fitted on simulated real-like
    tables learnt at set-up, seeds the benches and tests do not use: bench/fit_setup_slots.py).
    ``by_taught``: as ``setup_logit``."""
    filled = (start_slots() if filled is None else filled)[:, : feats.shape[1]]
    if cols is not None:  # the spots ``feats`` holds
        filled = filled[cols]
    z = setup_logit(feats, filled, by_taught)
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))))


#: the set-up slot model's weights: row 0 for slots empty when the board was learnt, row 1 for
#: slots the known position filled; columns: ring features (checkers.ring_features), log change,
#: log typical change, log distance to a checker colour, log distance to the learnt colour, log
#: hue distance, log distance of the learnt colour to a checker colour, ring logit, taught ring
#: logit, and (``_still_design``) stillness, stillness x ring logit, stillness x taught ring; bias
#: (fitted on seed-21 real-like tables learnt at set-up and mid-game, hands included, and each
#: set-up frame seen again: bench/fit_setup_slots.py --frames 200)
SETUP_W = np.asarray([
    [4.711, 2.062, 1.980, -2.526, -7.338, -0.492, 0.329, 0.200, -0.904, -0.293, -0.556, -0.020, 0.577, -0.140, -6.914,
     0.108, -0.196, 4.635],
    [3.861, 1.710, 2.709, -3.340, -6.576, -2.104, 0.940, -1.954, -0.266, 0.493, -1.289, 0.270, 0.707, 0.028, 11.252,
     0.420, -0.392, -3.123],
])
#: the model without the taught ring and stillness (the weights up to stop 37, the same columns but
#: the taught ring and the three after it): a calibration that kept no taught ring (saved before
#: stop 38), and the app's check of its set-up frame read against the board just learnt from that
#: very frame (every slot is still there: stillness would say the position it was learnt as, not
#: what the frame shows; app.py)
SETUP_W_UNTAUGHT = np.asarray([
    [3.280, 1.800, 1.614, -2.089, -6.301, 1.140, 2.277, -1.500, -0.928, -0.573, -0.664, 0.085, 0.507, -0.220],
    [4.437, 0.810, -0.176, -1.771, -5.210, -0.050, -0.681, -1.144, -0.320, 0.295, -1.572, 0.337, 0.651, 5.329],
])


def _occupancy(canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration, ch: ck.Chains, cols: np.ndarray,
               whole: bool, view: SetupView | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Each slot's probability of holding a checker (C, SLOTS) for the chains ``ch`` of spots ``cols``
    (``whole``: all 26), and the slots' set-up features (None: the calibration learnt no board): by
    their ring fit, and against the board learnt at set-up (``view``) by the set-up slot model and
    its re-reads."""
    p_occ = slot_probability(ch)
    feats = setup_slot_features(canon, lay, cal, ch, None if whole else cols, view) if view is not None else None
    if feats is not None and view is not None:
        # against the board learnt at set-up; slots a column never searched keep their (empty) ring fit
        depth = ch.searched if ch.searched is not None else np.full(len(ch.x), SLOTS)
        searched = np.arange(SLOTS)[None, :] < depth[:, None]
        p_occ = np.where(searched, setup_slot_probability(feats, None if whole else cols, known_slots(cal),
                                                          taught(cal)),
                         p_occ)
        # a slot beyond a stack's first that a caption's letters hide: its pixels say what they show of
        # it, no more (vision/captions.py)
        p_occ = np.where(searched, captions.discounted(p_occ, _caption_share(cal, view, ch, cols)), p_occ)
        # the slots filled at set-up whose colour is now nearer the other checker's (vision/swapped.py)
        swapped = swapped_slots(ch, cal, known_slots(cal)[cols][:, : p_occ.shape[1]],
                                setup_colours(cal.learnt_from)[cols])
        # a slot filled at set-up that now holds the other colour's checker: read against the empty
        # point as learnt at set-up too
        p_occ = _swapped_reread(p_occ, feats, ch, cal, lay, cols, searched & swapped, view, g)
        # a point's first slot filled at set-up, now nearer the empty point beside it than the set-up
        # view: a bare point, read against that empty point too, the emptier reading kept
        p_occ = _emptied_reread(p_occ, feats, ch, cal, lay, cols, searched & ~swapped, view)
        if taught(cal):
            # a checker come onto a point empty at set-up with a body of the point's colour (dark on
            # dark): read by the change round its rim, as this board's checkers showed it at set-up
            # (vision/faint_arrived.py)
            p_occ = _faint_arrived_reread(p_occ, ch, cal, lay, cols, searched, view,
                                          feats[:, 0, CHANGE] - feats[:, 0, TYPICAL] < FAINT_STILL, g)
        else:
            # read back against itself with no taught ring (the check of a board just learnt): a held
            # checker that rings faintly (dark on dark) is read by its colour too (vision/faint_held.py)
            p_occ = _held_reread(p_occ, ch, cal, lay, cols, searched, view)
        # a slot whose hue is no checker's of this board (a dice cup): held nearly empty (vision/foreign.py)
        p_occ = np.where(searched & foreign(feats[..., HUE], cal), np.minimum(p_occ, FOREIGN_P), p_occ)
        # a point's first slot boxed in by straight edges (its sides, the field's edge, a band's or a
        # shadow's edge across its tip), its next slot not read holding a checker: no rim (vision/boxed.py)
        p_occ = _boxed_held(p_occ, ch, lay, cal, cols, searched, g)
    return p_occ, feats


def _boxed_held(p_occ: np.ndarray, ch: ck.Chains, lay: Layout, cal: Calibration, cols: np.ndarray,
                searched: np.ndarray, g: ck.Gradients) -> np.ndarray:
    """``p_occ`` with each point's first slot (searched, read more than ``BOXED_P``, the next slot
    read under 0.5) whose ring is boxed in by straight edges (``boxed.boxed``) held at ``BOXED_P``."""
    rows = np.flatnonzero((cols < 24) & searched[:, 0] & (p_occ[:, 0] > BOXED_P) & (p_occ[:, 1] < 0.5))
    out = p_occ
    if len(rows):
        r = spot_geometry(lay, cal)[3][cols[rows]]
        box = rows[boxed(g, ch.x[rows, 0], ch.y[rows, 0], r)]
        if len(box):
            out = p_occ.copy()
            out[box, 0] = BOXED_P
    if p_occ.shape[1] < 3:
        return out
    # a bare point of the light checkers' own white, boxed in by its straight sides and the field's edge
    # over two slots (real-like frame 149, pinetti at 640 px: point 6 read as two light checkers at
    # 0.57): both slots boxed, the third read empty, are held too -- a checker's rim is round on the
    # first slot and on the second alike (vision/boxed.py)
    rows = np.flatnonzero((cols < 24) & searched[:, 1] & (p_occ[:, 0] > BOXED_P) & (p_occ[:, 1] >= 0.5)
                          & (p_occ[:, 2] < 0.5))
    if not len(rows):
        return out
    r = spot_geometry(lay, cal)[3][cols[rows]]
    both = boxed(g, ch.x[rows, 0], ch.y[rows, 0], r) & boxed(g, ch.x[rows, 1], ch.y[rows, 1], r)
    if not both.any():
        return out
    out = out.copy() if out is p_occ else out
    out[rows[both], :2] = BOXED_P
    return out


def _swapped_reread(p_occ: np.ndarray, feats: np.ndarray, ch: ck.Chains, cal: Calibration, lay: Layout,
                    cols: np.ndarray, slots: np.ndarray, view: SetupView, g: ck.Gradients) -> np.ndarray:
    """``p_occ`` with each of ``slots`` -- searched, filled at set-up, their colour now the other
    checker's (``swapped.swapped_slots``) -- read also against the empty point
    (``swapped.empty_point_features``): the likelier reading."""
    filled_all = known_slots(cal)
    if not slots.any():
        return p_occ
    got = empty_point_features(feats, ch, cal, lay, cols, slots, ~filled_all, view.now, view.background,
                               view.gain, spot_geometry(lay, cal)[3][cols], _taught(cal, None, p_occ.shape[1]))
    if not got:
        return p_occ
    lifted = p_occ.copy()
    for i, k, f in got:
        z = float(setup_logit(f, False, taught(cal)))
        lifted[i, k] = max(float(lifted[i, k]), 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))))
    # a stack stands from the point's base: a slot is lifted no higher than every slot below it is
    # (a slot alone read as a checker above an empty one is no checker), and not at all where the
    # chain's first disc is larger than a checker (a dice cup standing where set-up checkers stood:
    # vision/oversize.py)
    lifted = np.minimum.accumulate(lifted, axis=1)
    r = spot_geometry(lay, cal)[3][cols]
    rows = sorted({i for i, _, _ in got})
    big = oversized(g, [(float(ch.x[i, 0]), float(ch.y[i, 0]), float(r[i])) for i in rows])
    keep = np.zeros(len(p_occ), bool)
    keep[[i for i, b in zip(rows, big) if not b]] = True
    return np.where(keep[:, None], np.maximum(p_occ, lifted), p_occ)


def _emptied_reread(p_occ: np.ndarray, feats: np.ndarray, ch: ck.Chains, cal: Calibration, lay: Layout,
                    cols: np.ndarray, searched: np.ndarray, view: SetupView) -> np.ndarray:
    """``p_occ`` with each point's first slot the set-up filled read also against the empty point beside
    it (``swapped.empty_point_features``: the same slot of the nearest point of its row and paint the
    set-up left empty, as learnt then) where the slot is nearer that empty point than the set-up view,
    and kept at the emptier of the two readings.

    The set-up model reads a slot the set-up filled against the checker that stood there: a small
    change says it still stands. A checker that looked like its point at set-up (a dark checker on a
    black point: it rang faintly) leaves hardly any change when it goes, and the bare point was read
    as the checker still there (real-like seed 0, the set-up calibration: 16 of the 20 phantom
    checkers stood on points the start position filled; frame 166, rosewood at 640 px, point 12's
    five dark checkers on a black point gone, read as two at 0.71). A slot nearer the set-up view (a
    checker still there) is left as read; so are a stack's later slots (beyond the first the checkers
    below hide the bare point's look), the bar, and a slot whose colour is now the other checker's
    (``swapped.swapped_slots``: the likelier of its two readings stands -- taking the emptier there
    lost real-like game 43's dark checker hit on the light 24-point, and the game went out of sync).
    On the 200 real-like frames (``diag_spots.py --frames 200``): 98 -> 95 spots wrong, none new."""
    filled_all = known_slots(cal)
    # (``searched``: the slots searched but those whose colour is now nearer the other colour's checker,
    # the swapped re-read's, where the likelier of its two readings stands: a dark checker hit on a
    # dark-painted point where light ones stood)
    slots = searched & filled_all[cols][:, : p_occ.shape[1]]
    slots[:, 1:] = False
    slots[len(cols) - 2:] = False  # the bar's halves (the last two columns read)
    if not slots.any():
        return p_occ
    got = empty_point_features(feats, ch, cal, lay, cols, slots, ~filled_all, view.now, view.background,
                               view.gain, spot_geometry(lay, cal)[3][cols], _taught(cal, None, p_occ.shape[1]))
    out = p_occ.copy()
    for i, k, f in got:
        z = float(setup_logit(f, False, taught(cal)))
        out[i, k] = min(float(out[i, k]), 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))))
    return out


#: a first slot is re-read by its rim (``_faint_arrived_reread``) while the model weighs it as still at
#: all: its change over the frame's typical within ``STILL_MARGIN`` and three of the still step's widths
#: (its weight 5 % there). A lone dark checker on a dark point changed the slot's middle 0.6-1.03 over
#: the typical change (real-like game 19); a hand or a sleeve over a point changes it far more
FAINT_STILL = STILL_MARGIN + 3 * STILL_SOFT


#: the most a slot is lifted to by its rim alone: the rim's change says a ring is there, not whose (a
#: dice cup's rim read a dark blot at 0.94 on real-like frame 90, seed 0, rosewood at 640 px)
FAINT_MOST = 0.75

#: the rim lifts a slot only where it reads a checker there, likelier than not: under even odds it reads
#: the slot empty too, and its chance (weighed with even odds before the change is seen) is no better
#: than the model's own. A slot the model held empty at 1.00 lifted to 0.17 gave the board balanced
#: against its trays a place to put a dark checker the bar read as light (real-like game 162, club at
#: 1280 px: point 20 took it from the bar on frames 43 and 47-52, and the correction was never read)
FAINT_LEAST = 0.5


@lru_cache(maxsize=4)
def _faint_looks(background: str, x: tuple[float, ...], y: tuple[float, ...], r: tuple[float, ...],
                 top: tuple[bool, ...], held: tuple[int, ...]) -> dict[tuple[int, int], faint_arrived.FaintLook]:
    """``faint_arrived.learn`` on the learnt board as stored, made once per calibration."""
    bg = _background(background)
    assert bg is not None  # (asked only once _background decoded it)
    return faint_arrived.learn(bg, np.asarray(x), np.asarray(y), np.asarray(r), np.asarray(top), np.asarray(held))


def _faint_arrived_reread(p_occ: np.ndarray, ch: ck.Chains, cal: Calibration, lay: Layout, cols: np.ndarray,
                          searched: np.ndarray, view: SetupView, still: np.ndarray, g: ck.Gradients) -> np.ndarray:
    """``p_occ`` with each point's first slot, empty at set-up and read unlikely to hold a checker,
    weighed also by the change round its rim (``faint_arrived``) where it looks like a checker of the
    colour its paint is nearer and its middle is still (``still``, per column: ``FAINT_STILL``; a
    checker's body of the paint's colour leaves it so, a hand or a sleeve over the point does not): the
    likelier reading. Not where the chain's first disc is larger than a checker (a dice cup's rim rings
    all round too: ``oversize.py``; real-like frame 90, seed 0, rosewood at 640 px)."""
    if view.background is not _background(cal.background):
        return p_occ
    x, base, sign, r = spot_geometry(lay, cal)
    held = np.where(known_slots(cal)[:24, 0], setup_colours(cal.learnt_from)[:24], 0)
    gx, gy, gr = x[:24] / BG_SCALE, (base[:24] + sign[:24] * r[:24]) / BG_SCALE, r[:24] / BG_SCALE
    looks = _faint_looks(cal.background, tuple(float(v) for v in gx), tuple(float(v) for v in gy),
                         tuple(float(v) for v in gr), tuple(bool(lay.columns[c].top) for c in range(24)),
                         tuple(int(v) for v in held))
    if not looks:
        return p_occ
    rows = [i for i, c in enumerate(cols)
            if c < 24 and held[c] == 0 and searched[i, 0] and p_occ[i, 0] < 0.5 and still[i]]
    if not rows:
        return p_occ
    noise_at = faint_arrived.rim_change(view.diff, gx, gy, gr)
    # the empty points' level: not where the model reads a checker now (a checker moved there)
    read = {int(c) for i, c in enumerate(cols) if c < 24 and searched[i, 0] and p_occ[i, 0] >= 0.5}
    noise = {paint: faint_arrived.noise_level(noise_at[[c for c in range(paint, 24, 2) if held[c] == 0
                                                        and c not in read]])
             for paint in (0, 1)}
    ii = np.asarray(rows)
    cx, cy = ch.x[ii, 0], ch.y[ii, 0]
    light_at, dark_at, _ = slot_colours(cal, cx, cy)
    bgr = ch.bgr[ii, 0]
    dark_nearer = np.linalg.norm(bgr - dark_at, axis=-1) < np.linalg.norm(bgr - light_at, axis=-1)
    paint = _learnt_colour(cal, view, cx, cy, r[cols[ii]])
    paint_dark = np.linalg.norm(paint - dark_at, axis=-1) < np.linalg.norm(paint - light_at, axis=-1)
    change = faint_arrived.rim_change(view.diff, cx / BG_SCALE, cy / BG_SCALE, r[cols[ii]] / BG_SCALE)
    out = p_occ.copy()
    big = oversized(g, [(float(ch.x[i, 0]), float(ch.y[i, 0]), float(r[cols[i]])) for i in rows])
    for n, i in enumerate(rows):
        if big[n]:
            continue
        if bool(dark_nearer[n]) != bool(paint_dark[n]):
            continue  # the slot looks like the checker its paint is not like: the model reads that
        c = int(cols[i])
        look = looks.get((c % 2, -1 if dark_nearer[n] else 1))
        level = noise[c % 2]
        if look is None or level is None:
            continue
        out[i, 0] = _faint_lifted(float(out[i, 0]), faint_arrived.arrived_probability(float(change[n]), level, look))
    return out


def _faint_lifted(p: float, got: float | None) -> float:
    """A first slot's ``p`` weighed also by its rim's ``got`` (``faint_arrived.arrived_probability``; None:
    the rim says nothing): the likelier reading, the rim's only where it reads a checker there
    (``FAINT_LEAST``), and no higher than ``FAINT_MOST``."""
    return p if got is None or got <= FAINT_LEAST else max(p, min(got, FAINT_MOST))


def _held_reread(p_occ: np.ndarray, ch: ck.Chains, cal: Calibration, lay: Layout, cols: np.ndarray,
                 searched: np.ndarray, view: SetupView) -> np.ndarray:
    """``p_occ`` with each searched slot the learnt position filled read also by its colour against the
    empty point (``faint_held.held_by_colour``): the likelier reading, a slot lifted no higher than
    every slot below it is."""
    filled_all = known_slots(cal)
    K = p_occ.shape[1]
    held = setup_colours(cal.learnt_from)[cols]
    slots = searched & filled_all[cols][:, :K] & (held != 0)[:, None]
    if not slots.any():
        return p_occ
    light_at, dark_at, _ = slot_colours(cal, ch.x, ch.y)
    shape = (*ch.x.shape, 3)
    held_bgr = np.where((held > 0)[:, None, None], np.broadcast_to(np.asarray(light_at, np.float32), shape),
                        np.broadcast_to(np.asarray(dark_at, np.float32), shape))
    radii = spot_geometry(lay, cal)[3][cols]
    got = held_by_colour(ch.bgr, ch.x, ch.y, radii, held_bgr, lay, cols, slots, ~filled_all,
                         lambda x, y, r: _learnt_colour(cal, view, x, y, r))
    lifted = np.minimum.accumulate(np.maximum(p_occ, got), axis=1)
    return np.asarray(np.maximum(p_occ, lifted))
