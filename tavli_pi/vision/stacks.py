"""Count likelihoods for every point's stack and the bar (the trays: ``trays.py``).

Each spot is a *chain* of slots traced from its base (``checkers.trace_chains``):
a point's base is the field edge, the bar's two halves start at the field's
middle (light checkers below it, dark above, as on a tournament board).

Up to about six checkers lie in a row, each fully visible: slot k is
occupied with probability ``p_k`` (a logistic in the slot's ring features,
fitted on simulated boards) and the count hypothesis n (with a colour c)
explains the slots as "first n occupied, the rest empty":

    log L(n, c) = sum_{k<n} [log p_k + log P(colour_k = c)] + sum_{k>=n} log (1 - p_k)

A taller stack is squeezed into the point, each checker overlapping the
last; only the base-side rim of each shows, evenly spaced between the first
and the last (fully visible) checker. For those, hypotheses n = 6..15 place
n rims between the two ends and are scored by how well rims sit at the
predicted places and not half-way between them. The two families are mixed
by how much the first slot looks like an overlapped checker. The last checker is the best ring
searched beyond the first, or the best one at least ``END_GAP`` beyond it: a last checker in a
band's shade rings less than the one it overlaps, and the stack counted to the wrong one is one
short, so the counts are read from either end (each end's hypotheses weighed by its ring, and an
end with a fully visible checker beyond it held unlikely).

A row of five touching checkers spans what a squeezed stack does, and a squeezed
9 or 13 puts rims where its checkers' rims are: where touching checkers of one
colour ring faintly (pearl on pearl), the slots fail and that harmonic won. The
row is scored as the squeezed stacks are, by contrast: every one of its rims
(the faintest) against the half-way places, with its first checker in slot 0.

With a learnt board (``Calibration.background``, ``setup.learn_board`` from the start position
or any other known position) each searched slot's p_k comes instead from ``setup_slot_probability``,
by whether the position it was learnt from filled the slot: the ring features plus how the slot differs from the learnt
view and how near its colour is to this board's checkers (a print, a band's letters or a busy
surface unchanged since set-up is no checker; a checker darkened by a shadow keeps its hue).
The frame's brightness match and typical change are measured on the field's quieter half, so
a hand or an arm over part of the field is not taken for a change of light everywhere.
A board learnt from any other position (a game joined in progress, ``read --position``) is read
so too (``slot_model_reads``): the model is fitted on tables learnt mid-game as well as at set-up.

Likelihoods are tempered and floored: when the evidence is ambiguous the
probability spreads over the plausible counts instead of betting on one.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from tavli_pi.vision import captions
from tavli_pi.vision import checkers as ck
from functools import lru_cache
from typing import NamedTuple

from tavli_pi.vision.background import BG_SCALE, Halved, channel_medians, decode_background, field_box, matched_change
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.foreign import FOREIGN_P, foreign, hue_distance
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.lighting import colour_at, slot_colours
from tavli_pi.vision.held_colours import held_pair
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, SpotEvidence
from tavli_pi.vision.ring_memo import RingMemo
from tavli_pi.vision.pinned import pinned_loglik, posterior_with_pins
from tavli_pi.vision.oversize import oversized
from tavli_pi.vision.overhang import MEASURE, edge_offsets, edge_shifts, per_point
from tavli_pi.vision.swapped import empty_point_features, setup_colours, swapped_slots
from tavli_pi.vision.faint_held import held_by_colour
from tavli_pi.vision import faint_arrived
from tavli_pi.vision.tallstack import period_loglik
from tavli_pi.vision.straight_edges import flatten, learnt_edges

__all__ = [
    "SLOTS",
    "spot_geometry",
    "spot_chains",
    "slot_probability",
    "chain_evidence",
    "chain_loglik",
    "squeezed_loglik",
    "ROW_FIT",
    "posterior",
    "spread_evidence",
    "read_spots",
    "read_spots_pinned",
    "sureness",
    "chain_loglik_many",
    "posterior_many",
    "ZERO",
    "setup_slot_features",
    "setup_view",
    "SetupView",
    "setup_slot_probability",
    "setup_logit",
    "taught",
    "slot_logits",
    "taught_rings",
    "start_slots",
    "known_slots",
    "slot_model_reads",
]

#: slots traced per chain (a row of touching checkers reaches the field's middle after ~6.5)
SLOTS = 7
#: the floor added to every count probability before normalising
FLOOR = 1e-3
#: likelihood tempering (below 1 spreads probability over the plausible counts)
TEMPER = 0.7


def spread_evidence(n: float, sigma: float, floor: float = 0.002) -> CountEvidence:
    """A count distribution centred on a continuous estimate ``n``."""
    k = np.arange(MAX_COUNT + 1, dtype=np.float64)
    p = np.exp(-0.5 * ((k - n) / max(sigma, 1e-3)) ** 2) + floor
    p /= p.sum()
    return CountEvidence(tuple(float(v) for v in p))


def _evidence(p: np.ndarray) -> CountEvidence:
    p = np.asarray(p, np.float64) + FLOOR
    p /= p.sum()
    return CountEvidence(tuple(float(v) for v in p))


ZERO = _evidence(np.eye(MAX_COUNT + 1)[0])


def spot_geometry(lay: Layout, cal: Calibration) -> tuple[np.ndarray, ...]:
    """(x, base y, sign, radius) for the 24 points (light numbering) and the bar's two halves.

    Index 24 is the bar's lower half (light checkers, growing down from the
    middle), 25 its upper half (dark, growing up). Made once per layout and checker
    radius (the reader asks for it several times a frame); the arrays are read-only.
    """
    return _spot_geometry(lay, cal.checker_r)


@lru_cache(maxsize=16, typed=True)  # (typed: a numpy scalar radius would make other dtypes)
def _spot_geometry(lay: Layout, checker_r: float) -> tuple[np.ndarray, ...]:
    cols = lay.columns
    x = [c.x for c in cols]
    base = [lay.top_y if c.top else lay.bottom_y for c in cols]
    sign = [1.0 if c.top else -1.0 for c in cols]
    width = [c.width for c in cols]
    bx0, bx1 = lay.bar_x
    mid = (lay.top_y + lay.bottom_y) / 2
    x += [(bx0 + bx1) / 2] * 2
    base += [mid, mid]
    sign += [1.0, -1.0]
    width += [lay.pitch] * 2
    r = np.asarray(width, np.float32) * checker_r
    out = (
        np.asarray(x, np.float32),
        np.asarray(base, np.float32),
        np.asarray(sign, np.float32),
        r,
    )
    for a in out:
        a.setflags(write=False)
    return out


def spot_chains(
    g: ck.Gradients,
    integral: np.ndarray,
    lay: Layout,
    cal: Calibration,
    slots: int = SLOTS,
    stop: bool = False,
    cols: np.ndarray | None = None,
    memo: RingMemo | None = None,
    shift: np.ndarray | None = None,
    moved: bool = False,
) -> ck.Chains:
    """The 26 chains (24 points, the bar's two halves) traced ``slots`` deep.

    ``stop``: leave a chain after two plainly empty slots in a row (see
    ``checkers.trace_chains``); what the reader does every frame.
    ``cols``: only these of the 26 chains, in this order (each is traced on its own).
    ``memo``: ring samples kept per spot (vision/ring_memo.py).
    ``shift`` (26,): each chain's slot-0 window reaches so many radii nearer the base (``moved``: is
    moved by them; ``checkers.trace_chains``).
    """
    x, base, sign, r = spot_geometry(lay, cal)
    if cols is not None:
        x, base, sign, r = x[cols], base[cols], sign[cols], r[cols]
        shift = None if shift is None else shift[cols]
    # points start at the field edge; the bar's halves at the middle (a checker may sit on it)
    return ck.trace_chains(g, integral, x, base, sign, r, slots, empty=_plainly_empty if stop else None,
                           memo=memo, ids=np.arange(26) if cols is None else np.asarray(cols), shift=shift,
                           moved=moved)


#: a slot whose occupancy logit is below this (p < 1 %) is plainly empty
EMPTY_LOGIT = -4.6


def _plainly_empty(feats: np.ndarray) -> np.ndarray:
    return np.asarray(feats @ SLOT_W + SLOT_B < EMPTY_LOGIT)


def slot_probability(ch: ck.Chains) -> np.ndarray:
    """P(slot occupied by a checker) from its ring features (logistic; fitted on sim boards)."""
    z = ch.feats @ SLOT_W + SLOT_B
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))))


#: logistic weights over checkers.ring_features (fitted on simulated easy and hard boards,
#: seeds other than the tests' and the bench's: see bench/fit_slots.py)
SLOT_W = np.asarray([27.231, -4.419, -5.181, 7.058, 15.256, 2.553])
SLOT_B = -6.818


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


def slot_logits(ch: ck.Chains) -> np.ndarray:
    """Each slot's ring-only logit (``slot_probability``'s), clipped to +-10."""
    return np.asarray(np.clip(ch.feats @ SLOT_W + SLOT_B, -10.0, 10.0))


def taught_rings(ch: ck.Chains) -> tuple[tuple[float, ...], ...]:
    """``Calibration.taught_ring``: every slot's ring logit (26 x SLOTS, to 0.01) on the frame the board
    is learnt from (``ch``: its 26 chains traced to the end, ``spot_chains``)."""
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


def _caption_share(cal: Calibration, view: SetupView, ch: ck.Chains, cols: np.ndarray) -> np.ndarray:
    """Per slot of ``ch`` (spots ``cols``), the share of its box a caption's letters hide
    (``captions.hidden``), for the slots the learnt position left empty beyond each stack's
    first; 0 elsewhere, and everywhere when the board learnt none."""
    share = np.zeros(ch.x.shape, np.float64)
    if not cal.background or view.background is not _background(cal.background):
        return share
    r = spot_geometry(cal.layout, cal)[3][cols]
    mark = _caption_marks(cal.background, round(float(np.median(r)) / BG_SCALE, 1))
    if mark.shape != view.diff.shape or not mark.any():
        return share
    hr = (0.5 * r / BG_SCALE)[:, None] * np.ones((1, ch.x.shape[1]), np.float32)
    share = captions.hidden_share(captions.hidden(mark, view.diff), ch.x / BG_SCALE, ch.y / BG_SCALE, hr)
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
    included: a colour makes no slot likelier empty (``_read_spots_once`` marks the bar's slots)."""
    if not cal.background or view.background is not _background(cal.background):
        return ch.bgr
    r = spot_geometry(cal.layout, cal)[3][cols]
    mark = _caption_marks(cal.background, round(float(np.median(r)) / BG_SCALE, 1))
    if mark.shape != view.diff.shape or not mark.any():
        return ch.bgr
    hide = captions.hidden(mark, view.diff)
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


def _log(p: np.ndarray) -> np.ndarray:
    return np.asarray(np.log(np.clip(p, 1e-4, 1 - 1e-4)))


def chain_loglik(p_occ: np.ndarray, p_lt: np.ndarray) -> np.ndarray:
    """log L(n, colour) for n = 0..K slots of one chain: shape (2, K + 1), row 0 light, 1 dark.

    ``p_occ`` and ``p_lt`` are per slot: occupied, and light given occupied.
    n = 0 is counted once (in the light row; the dark row holds -inf).
    """
    K = len(p_occ)
    occ = np.concatenate([[0.0], np.cumsum(_log(p_occ))])
    emp = np.concatenate([np.cumsum(_log(1 - p_occ)[::-1])[::-1], [0.0]])
    cl = np.concatenate([[0.0], np.cumsum(_log(p_lt))])
    cd = np.concatenate([[0.0], np.cumsum(_log(1 - p_lt))])
    logl = np.stack([occ + emp + cl, occ + emp + cd])
    logl[1, 0] = -np.inf
    return logl


def posterior(logl: np.ndarray, counts: np.ndarray, temper: float = TEMPER) -> tuple[np.ndarray, np.ndarray]:
    """(light, dark) count distributions from log-likelihoods (2, H) of hypotheses with ``counts`` (H,)."""
    z = logl * temper
    z = z - z[np.isfinite(z)].max()
    post = np.exp(z)
    post /= post.sum()
    light = np.zeros(MAX_COUNT + 1)
    dark = np.zeros(MAX_COUNT + 1)
    c = np.minimum(counts, MAX_COUNT)
    np.add.at(light, c, post[0])
    np.add.at(dark, c, post[1])  # (its n = 0 entry is empty: "nothing here" is the light row's)
    # a light stack means no dark checker there, and the other way round
    light[0] += post[1].sum()
    dark[0] += post[0].sum()
    return light, dark


def chain_evidence(p_occ: np.ndarray, p_lt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(light, dark) count distributions over 0..MAX_COUNT for one chain alone."""
    return posterior(chain_loglik(p_occ, p_lt), np.arange(len(p_occ) + 1))


#: the checkers of a row that spans what a squeezed stack does (first to last fully visible
#: checker, 4 diameters): its rims, one a diameter, stand out from the half-way places where a
#: squeezed stack of 9 or 13 puts rims too, so the touching row is told from its harmonics
ROW_FIT = 5


def squeezed_loglik(
    g: ck.Gradients,
    integral: np.ndarray,
    ch: ck.Chains,
    base: np.ndarray,
    sign: np.ndarray,
    r: np.ndarray,
    light_bgr: tuple[float, float, float],
    dark_bgr: tuple[float, float, float],
    memo: RingMemo | None = None,
    ids: np.ndarray | None = None,
    held: np.ndarray | None = None,
    rims: ck.Gradients | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rim contrast for squeezed stacks n = 6..15 on each column (ENDS, C, 10), the last checker's
    ring logit (ENDS, C), its distance from the base (ENDS, C) and the rim contrast of a row of five
    touching checkers between slot 0 and the first end (C,; see ``ROW_FIT``).

    The first checker is the chain's slot 0; the last (fully visible) one is
    searched 6-10 radii further on; n checkers lie evenly between them, and
    the base-side rim of each must show at its place and not half-way to the next.
    Two ends are kept (``ENDS``): the best ring in the search, and the best one at least ``END_GAP``
    beyond it (a last checker in a band's shadow rings less than the one it overlaps, whose tip
    side it hides: which of the two ends the stack is the counts say, each n-1 or n; ring logit
    -30 where there is none). A ring before the best one is no end: it is a checker of the stack.
    ``memo`` and ``ids`` (each column's spot): see ``checkers.ring_features``.
    ``held`` (C,): columns whose first slot is read occupied (against the board learnt at set-up)
    are looked at even where the chain stopped early: a squeezed stack's first checker is half
    hidden by the second, so its ring and the next slot's can both look plainly empty at a row's
    pitch (pearl checkers, a club board).
    ``rims``: the gradients the rims between the ends are read from (a band's straight edges taken
    out, ``straight_edges.flatten``; sampled afresh, not kept in ``memo``), else ``g``.
    """
    C = len(base)
    out = np.full((ENDS, C, 10), -1.0)
    row = np.full(C, -1.0)
    lz = np.full((ENDS, C), -30.0, np.float32)
    d_last = np.zeros((ENDS, C), np.float32)
    # a chain that stopped after two plainly empty slots holds nothing, squeezed or not
    look = np.arange(C) if ch.searched is None else np.flatnonzero(
        (ch.searched[:C] > 2) | (False if held is None else held[:C]))
    if len(look) == 0:
        return out, lz, d_last, row
    n_look = len(look)
    bl, sl, rl = base[look], sign[look], r[look]
    down = (sl > 0)[:, None, None]
    x0, fy = ch.x[look, 0], ch.y[look, 0]
    d0 = (fy - bl) * sl
    dd = np.linspace(6.0, 10.0, 25, dtype=np.float32)
    offs = np.linspace(-0.3, 0.3, 3, dtype=np.float32)
    d = d0[:, None] + dd[None, :] * rl[:, None]
    cy = np.broadcast_to((bl[:, None] + sl[:, None] * d)[:, :, None], (n_look, len(dd), 3))
    cx = np.broadcast_to((x0[:, None] + offs[None, :] * rl[:, None])[:, None, :], cy.shape)
    rr = np.broadcast_to(rl[:, None, None], cy.shape)
    f = ck.ring_features(g, cx, cy, rr, down, memo, None if ids is None else ids[look])
    z_last = f @ SLOT_W + SLOT_B
    ci = np.arange(n_look)
    first = -1
    for e in range(ENDS):
        if e:  # the other end: the best ring at least END_GAP beyond the first along the stack (a ring
            # before the best one is a checker inside the stack: the best one, fully seen, lies beyond it)
            z_last = np.where((dd[None, :] - dd[first][:, None])[:, :, None] >= END_GAP, z_last, -np.inf)
        flat = z_last.reshape(n_look, -1).argmax(axis=1)
        iy, ix = np.unravel_index(flat, z_last.shape[1:])
        first = iy if e == 0 else first
        lx, ly = cx[ci, iy, ix], cy[ci, iy, ix]
        lz[e, look] = np.maximum(z_last.reshape(n_look, -1)[ci, flat], -30.0)
        d_last[e, look] = (ly - bl) * sl
        # only columns with a far, fully visible checker can hold a squeezed stack
        keep = np.flatnonzero(lz[e, look] > -3.0)
        if len(keep) == 0:
            continue
        live = look[keep]
        # a squeezed stack's first checker is half hidden by the second, so the chain's slot 0 places it
        # loosely: where it lies along the stack (FIRST_SLIDE, each as likely, within FIRST_REACH of the
        # base) is summed out of the rims' likelihood (a contrast whose likelihood is the mean over the
        # places)
        acc = np.full((len(keep), 10), -np.inf)
        places = np.zeros(len(keep))
        for slide in FIRST_SLIDE:
            inside = (d0[keep] / rl[keep] + slide <= FIRST_REACH) | (slide == 0.0)
            if not inside.any():
                continue  # (no column's first checker can lie this far: its rims are not sampled)
            at, row_s = _rim_contrast(g if rims is None else rims, x0[keep], fy[keep] + sl[keep] * slide * rl[keep],
                                      lx[keep], ly[keep], rl[keep], down[keep, :, 0], memo if rims is None else None,
                                      None if ids is None or rims is not None else ids[live])
            if slide == 0.0:
                row_e = row_s
            acc = np.where(inside[:, None], np.logaddexp(acc, RIM_GAIN * at), acc)
            places += inside
        out[e, live] = (acc - np.log(places)[:, None]) / RIM_GAIN
        if e == 0:
            row[live] = row_e
    return out, lz, d_last, row


#: where a squeezed stack's first checker may lie, in radii along the stack from the chain's slot 0
#: (see squeezed_loglik): the slot lies up to a third of a radius short of a half-hidden first checker
#: (real-like game 152: 0.75 r from the base, the checker at 1.05 r), and on real-like squeezed
#: stacks of six the rims fit best with the first 0.3-0.6 r beyond slot 0 (1.3-1.5 r from the base;
#: 0.6 r beside 0.3 r: seed 0 58 spots wrong and 1649 right at >= 0.9 against 60 / 1590)
FIRST_SLIDE = (0.0, 0.3, 0.6)
#: but no further than this from the base, in radii: the first checker lies against the field's edge
#: (its centre ~1 r in; slot 0 is searched 0.75-1.6 r in). A place beyond it is no first checker: on
#: the WTC board (frame0, point 13) a row of four separate metal-rimmed checkers, its weakly ringed
#: first one found at 1.29 r, fitted a squeezed six from 1.89 r (the board read 17 dark checkers)
FIRST_REACH = 1.7
#: squeezed stacks' ends kept per column (see squeezed_loglik)
ENDS = 2
#: the least distance, in radii, between the two ends kept (rims of a squeezed 15 lie 0.57 r apart,
#: of a 6 1.6 r: the second end is another checker, not the same ring found again)
END_GAP = 1.0


def _rim_contrast(
    g: ck.Gradients, x0: np.ndarray, fy: np.ndarray, lx: np.ndarray, ly: np.ndarray, r: np.ndarray,
    down: np.ndarray, memo: RingMemo | None, ids: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """(L, 10) rim contrast of n = 6..15 checkers between each column's first checker (x0, fy) and a
    last one (lx, ly), and (L,) that of a row of ``ROW_FIT`` touching checkers between the same ends."""
    # rims: n = 5..15 -> fractions k/(n-1) (k = 1..n-2) and midpoints (k + 0.5)/(n-1),
    # all hypotheses' places sampled in one go
    # (each distinct place once: ``_RIM_PLACES``, spread back to every hypothesis' by ``_RIM_OF`` into a
    # C-ordered array, as ``ring_features`` makes it: the means below add up in the same order)
    px = x0[:, None] + (lx - x0)[:, None] * _RIM_PLACES[None, :]
    py = fy[:, None] + (ly - fy)[:, None] * _RIM_PLACES[None, :]
    f = np.take(ck.ring_features(g, px, py, np.broadcast_to(r[:, None], px.shape), down, memo, ids), _RIM_OF, axis=1)
    # a row of ROW_FIT touching checkers between the same two ends: every one of its rims (the
    # faintest) against its half-way places (two checkers and a far disc are no row)
    at = 2 * ROW_FIT - 3
    h = f[:, :at, 3]
    a, b = h[:, : ROW_FIT - 2].min(axis=1), _row_means(h[:, ROW_FIT - 2 :])
    row = (a - b) / (a + b + 0.05)
    out = np.full((len(x0), 10), -1.0)
    for j, n in enumerate(range(6, 16)):
        fj = f[:, at : at + 2 * n - 3]
        at += 2 * n - 3
        h = fj[..., 3]
        rims, mids = h[:, : n - 2], h[:, n - 2 :]
        # rims must stand out from the half-way places (contrast, so faint rims count too),
        # and each checker's tip side must be hidden (a row of separate checkers shows it)
        a, b = _row_means(rims), _row_means(mids)
        t = _row_means(fj[:, : n - 2, 4])
        out[:, j] = np.minimum((a - b) / (a + b + 0.05), (a - t) / (a + t + 0.05))
    return out, row


def _row_means(a: np.ndarray) -> np.ndarray:
    """``a.mean(axis=1)`` of a 2-D float array, the same values without ``mean``'s dispatch (issue 12):
    numpy's mean is the same sum (``np.add.reduce``) over the count, an ``intp`` it divides float32
    sums by in float64 into float32; here a float32 sum over a Python int is divided in float32. The
    two agree: a float64 quotient rounded again to float32 is the correctly rounded float32 one."""
    out: np.ndarray = np.add.reduce(a, axis=1) / a.shape[1]
    return out


#: per count n: the rims' places k/(n-1) (k = 1..n-2), then the midpoints (k + 0.5)/(n-1)
#: (n = 5: the row of five touching checkers; 6..15: squeezed stacks)
_RIM_FRACTIONS = {n: np.r_[np.arange(1, n - 1), np.arange(n - 1) + 0.5] / (n - 1) for n in range(ROW_FIT, 16)}
#: the distinct fractions of every count's (``_RIM_FRACTIONS``, n = ``ROW_FIT``..15, in turn), and where
#: each of those lies among them: ``_rim_contrast`` samples a place once however many counts share it
#: (187 places, 127 distinct; issue 12). The same place to the bit: a fraction is a quotient of whole
#: or half numbers, correctly rounded, so two of one value (2/4 and 3/6) are one float64, which
#: ``np.unique`` merges, and a place's ring features are its own, whatever is sampled beside it
_RIM_PLACES, _RIM_OF = np.unique(np.concatenate([_RIM_FRACTIONS[n] for n in range(ROW_FIT, 16)]),
                                 return_inverse=True)


#: log-likelihood per unit of rim contrast (see squeezed_loglik)
RIM_GAIN = 16.0
#: log prior of a squeezed stack against a row of separate checkers
SQUEEZE_PRIOR = -8.0


def read_spots(
    canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration, integral: np.ndarray | None = None
) -> tuple[list[SpotEvidence], SpotEvidence, list[tuple[float, float, float]]]:
    """Evidence for the 24 points (light numbering) and the bar, and the checkers' discs (x, y, r)."""
    points, bar, sites, _pins = read_spots_pinned(canon, g, lay, cal, integral)
    return points, bar, sites


#: whether a band's straight edges learnt at set-up are taken out of the rings (read_spots_pinned)
BAND_EDGES = True
#: ... a point's first slot's ring read from the gradients without them (kept at the lesser ring)
BAND_FIRST = True
#: ... and a squeezed stack's rims (off: on real-like seed 0 frames it put 174 p6 right and read
#: 166 p14's six dark checkers as one and a phantom on 174 p4, as leaving out a caption's letters did)
BAND_RIMS = False


def read_spots_pinned(
    canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration, integral: np.ndarray | None = None,
    only: set[int] | None = None, site_columns: list[int] | None = None, setup: SetupView | None = None,
    rings: list[float] | None = None, memo: RingMemo | None = None,
) -> tuple[list[SpotEvidence], SpotEvidence, list[tuple[float, float, float]], tuple[int, ...]]:
    """:func:`read_spots` and, per point, the pinned checker's colour (+1 light, -1 dark, 0 none; P3).

    Evidence for the 24 points (light numbering) and the bar, and the checkers' discs (x, y, r).

    All 24 points are scored at once (arrays over points x hypotheses);
    ``integral`` (cv2.integral of ``canon``) may be passed in when already made.

    ``only`` (the incremental reader, vision/incremental.py): read just these points (0-23) and the
    bar; points, sites and pins then follow ``sorted(only)``. Each point is read on its own, so
    a point's reading is the same read alone or with the others. ``site_columns``, when given, is
    filled with each site's spot (0-23 a point, 24-25 the bar's halves). ``setup``: this frame's
    ``setup_view``, when the caller has made it. ``rings``, when given, is filled with each point's
    first-slot ring in the order of ``points`` (what ``doubt.first_rings`` gives: slot 0 of a chain
    is searched alike however deep the chain is traced). ``memo``: ring samples kept per spot
    (vision/ring_memo.py; the reader's).

    An edge whose first checkers overhang the field's edge (``vision/overhang.py``) has its points'
    slot-0 window reach nearer the base by the overhang (``checkers.trace_chains``): the overhang
    learnt at set-up (``Calibration.overhang``), else this photo's, measured from its sure first
    checkers. The window reaches further than it did without the overhang and the places it searched
    stay, so a checker seated where the geometry puts it is found as before. A point on such an edge
    still read unsure is read again with the window moved by the overhang, and the surer of its two
    readings kept.

    A broadcast band's straight edges across the field, found in the board learnt at set-up
    (``straight_edges.learnt_edges``), ring no more where a band's edge is taken for a rim: a
    point's first slot and a squeezed stack's rims are read from the gradients with the gradient
    across them taken out (``straight_edges.flatten``; ``BAND_EDGES``). The chains are traced as
    before (a checker's rim along the edge keeps what else of it rings).
    """
    if integral is None:
        integral = cv2_integral(canon)
    band: ck.Gradients | None = None
    if BAND_EDGES and cal.background:
        r = float(np.median(spot_geometry(lay, cal)[3][:24]))
        edges = list(learnt_edges(cal.background, lay, r, canon.shape[:2]))
        band = flatten(g, edges, r) if edges else None
    cols: list[int] = []
    ring: list[float] = []
    shift = (learnt_shifts(lay, cal, cal.overhang) if cal.overhang is not None
             else overhang_shifts(g, integral, lay, cal))
    points, bar, sites, pins = _read_spots_once(canon, g, lay, cal, integral, only, cols, setup, ring, memo,
                                                shift, band=band)
    which = list(range(24)) if only is None else sorted(only)
    # a point still unsure is read again with its window moved by the overhang (its places too): a
    # stack whose first checker rang a little nearer the base in the reaching window may have had its
    # next slot searched past the checker; the surer of the two readings is kept
    again = {p for p, ev in zip(which, points) if sureness(ev) < UNSURE and shift[p] != 0.0}
    if again:
        cols2: list[int] = []
        ring2: list[float] = []
        got, _bar, got_sites, got_pins = _read_spots_once(canon, g, lay, cal, integral, again, cols2, setup, ring2,
                                                          memo, shift, moved=True)
        pins_l = list(pins)
        for q, p in enumerate(sorted(again)):
            i = which.index(p)
            if sureness(got[q]) <= sureness(points[i]):
                continue
            points[i], pins_l[i], ring[i] = got[q], got_pins[q], ring2[q]
            keep = [k for k, c in enumerate(cols) if c != p]
            sites = [sites[k] for k in keep] + [st for st, c in zip(got_sites, cols2) if c == p]
            cols = [cols[k] for k in keep] + [c for c in cols2 if c == p]
        pins = tuple(pins_l)
    if site_columns is not None:
        site_columns[:] = cols
    if rings is not None:
        rings[:] = ring
    return points, bar, sites, pins


#: a point read with its likelier colour's count below this confidence is read again with its
#: edge's slot-0 window moved by the overhang (vision/overhang.py)
UNSURE = 0.9


def sureness(ev: SpotEvidence) -> float:
    """How sure a spot's reading is (a point's, the trays'): the lower of its two colours' confidences."""
    return min(ev.light.confidence, ev.dark.confidence)


#: the first slots' measuring window searched at so many offsets of its steps (``_first_slots``)
MEASURE_SUB = 3


def _first_slots(g: ck.Gradients, integral: np.ndarray, lay: Layout, cal: Calibration
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 24 points' first slots searched in the wide ``overhang.MEASURE`` window: where each was
    found (radii from the base), how likely it holds a checker, and whether its edge is the top one."""
    x, base, sign, r = (a[:24] for a in spot_geometry(lay, cal))
    best_d = best_p = best_s = np.zeros(0)
    for k in range(MEASURE_SUB):
        # the window's steps offset by a share of a step: a finer search, so an edge's offset moves
        # smoothly with the field rather than in whole steps
        o = (MEASURE[1] - MEASURE[0]) / 11 * k / MEASURE_SUB
        ch = ck.trace_chains(g, integral, x, base, sign, r, 1, first=(MEASURE[0] + o, MEASURE[1] + o))
        score = ck.place_score(ch.feats[:, 0])  # as trace_chains chooses
        d, p = (ch.y[:, 0] - base) * sign / r, slot_probability(ch)[:, 0]
        if k == 0:
            best_d, best_p, best_s = d, p, score
            continue
        better = score > best_s
        best_d, best_p, best_s = np.where(better, d, best_d), np.where(better, p, best_p), np.maximum(score, best_s)
    return best_d, best_p, sign > 0


def overhang_shifts(g: ck.Gradients, integral: np.ndarray, lay: Layout, cal: Calibration) -> np.ndarray:
    """(26,) radii each spot's slot-0 window moves by: each edge's offset learnt from this frame's sure
    first checkers (``overhang.edge_shifts``); the bar's halves never move."""
    return np.concatenate([edge_shifts(*_first_slots(g, integral, lay, cal)), np.zeros(2, np.float32)])


def learnt_shifts(lay: Layout, cal: Calibration, overhang: tuple[float, float]) -> np.ndarray:
    """(26,) radii each spot's slot-0 window reaches nearer the base with a learnt ``Calibration.overhang``."""
    sign = spot_geometry(lay, cal)[2][:24]
    return np.concatenate([per_point(overhang, sign > 0), np.zeros(2, np.float32)])


def edge_overhang(canon: np.ndarray, lay: Layout, cal: Calibration, occupied: np.ndarray) -> tuple[float, float]:
    """The (top edge, bottom edge) offsets of ``Calibration.overhang``, learnt from ``canon``, a view of
    a known position whose points ``occupied`` (24,) hold checkers (``setup.learn_board``): only their
    first slots count."""
    d, p, top = _first_slots(ck.gradients(canon), cv2_integral(canon), lay, cal)
    a, b = edge_offsets(d, np.where(occupied, p, 0.0), top)
    return round(a, 3), round(b, 3)


def _first_rings_from(band: ck.Gradients, ch: ck.Chains, lay: Layout, cal: Calibration, cols: np.ndarray) -> ck.Chains:
    """``ch`` with each chain's first slot's ring read again from ``band`` (the gradients with a
    band's straight edges taken out): the bare base of a point between a band's edge, the frame and
    the point's sides rings like a rim no more (real-like frames 199 point 19, 106 point 8)."""
    _x, _base, sign, r = (a[cols] for a in spot_geometry(lay, cal))
    feats = ch.feats.copy()
    flat = ck.ring_features(band, ch.x[:, 0], ch.y[:, 0], r, sign > 0)
    # only ever less of a ring: a straight crossing taken out leaves the rest of the ring more even
    # (its 25th / 75th percentile ratio higher), which on a bare point rang a phantom (frame 88 p19)
    lower = flat @ SLOT_W + SLOT_B < feats[:, 0] @ SLOT_W + SLOT_B
    feats[:, 0] = np.where(lower[:, None], flat, feats[:, 0])
    return dataclasses.replace(ch, feats=feats)


def _read_spots_once(
    canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration, integral: np.ndarray,
    only: set[int] | None, site_columns: list[int], setup: SetupView | None, rings: list[float],
    memo: RingMemo | None, shift: np.ndarray | None = None, moved: bool = False, band: ck.Gradients | None = None,
) -> tuple[list[SpotEvidence], SpotEvidence, list[tuple[float, float, float]], tuple[int, ...]]:
    """One reading of ``read_spots_pinned`` with each spot's slot-0 window reaching ``shift`` (26,)
    radii nearer the base (None: not at all; ``moved``: moved by them). ``band``: ``g`` with a band's
    straight edges taken out, the first slots' rings and the squeezed stacks' rims read from it."""
    cols = np.arange(26) if only is None else np.r_[np.asarray(sorted(only), np.int64), 24, 25]
    P = len(cols) - 2  # points read
    ch = spot_chains(g, integral, lay, cal, stop=True, cols=None if only is None else cols, memo=memo, shift=shift,
                     moved=moved)
    if band is not None and BAND_FIRST:
        ch = _first_rings_from(band, ch, lay, cal, cols)
    view = (setup if setup is not None else setup_view(canon, lay, cal)) if SETUP_W.any() else None
    p_occ, feats = _occupancy(canon, g, lay, cal, ch, cols, only is None, view)
    if feats is not None:
        # a chain stopped after two slots that rang plainly empty, its last one read holding a checker
        # against the board learnt at set-up: traced on to its end and read again (``ON_STOPPED``)
        on = _stopped_short(ch, p_occ, P)
        if len(on):
            ch = _traced_on(ch, g, integral, lay, cal, cols, on, memo, shift, moved)
            if band is not None and BAND_FIRST:  # the chains traced again, their first slots too
                ch = _first_rings_from(band, ch, lay, cal, cols)
            p_occ, feats = _occupancy(canon, g, lay, cal, ch, cols, only is None, view)
    # each slot's two checker colours where it lies: the board's lighting as learnt (vision/lighting.py);
    # a slot the learnt position filled, against that checker as the set-up view shows it
    # (vision/held_colours.py)
    x, base, sign, r = (a[cols] for a in spot_geometry(lay, cal))
    known_held = _held(cal, cols, ch.x.shape[1]) if view is not None else None
    held = None
    if known_held is not None:
        # only a slot that now looks like a checker is read against the checker seen there: under a
        # broadcast band a checker of either colour looks much like the learnt one did (real-like seed
        # 0 frame 96: a dark checker under a band where a light one stood, read at 0.09, was read light)
        held = np.where(p_occ >= HELD_OCCUPIED, known_held, 0).astype(np.int8)
    if view is not None and held is not None:  # (mypy: a held colour is known only with a view)
        # the bar's slots (the last two columns read), read against the pair as lit there, under a
        # caption's letters: by what they leave seen (every slot so read: the frame set's points lost
        # 3 spots, 95 -> 98 wrong, bench_reallike.py --frames 200)
        on_bar = np.zeros(held.shape, bool)
        on_bar[-2:] = True
        # -- but only against a light reading (captions.lift_undone: real-like game 139)
        pair = held_pair(*slot_colours(cal, ch.x, ch.y), _learnt_colour(cal, view, ch.x, ch.y, r[:, None]), held)
        p_lt = ck.p_light(ch.bgr, *pair)
        bgr = _caption_seen_bgr(cal, view, ch, cols, on_bar & (held == 0))
        if bgr is not ch.bgr:
            p_lt = captions.lift_undone(p_lt, ck.p_light(bgr, *pair))
    else:
        p_lt = ck.p_light(ch.bgr, *slot_colours(cal, ch.x, ch.y))
    sq_ends, lz_ends, d_ends, row = squeezed_loglik(g, integral, ch, base[:P], sign[:P], r[:P], cal.light_bgr,
                                                    cal.dark_bgr, memo, cols[:P], held=p_occ[:P, 0] > 0.1,
                                                    rims=band if BAND_RIMS else None)
    if view is not None and feats is not None:
        # judged only where the board is as it was at set-up there (a stack grown since, squeezed past
        # where its chain's slots were traced, is left to its rings)
        changed = feats[:, : p_occ.shape[1], CHANGE] - feats[:, : p_occ.shape[1], TYPICAL] >= STILL_MARGIN
        lz_ends = _ends_judged(lz_ends, d_ends, ch, p_occ, known_slots(cal)[cols][:, : p_occ.shape[1]] | changed,
                               base, sign, r, P)
    # the first end (the best ring) serves the chain, the row and the colour; the squeezed counts are
    # read from either end (below)
    lz, d_last = lz_ends[0], d_ends[0]
    counts = np.r_[np.arange(SLOTS + 1), np.arange(6, 16), ROW_FIT]
    p_ends = 1.0 / (1.0 + np.exp(-np.clip(lz_ends, -30, 30)))
    p_last = p_ends[0]
    last_xy = _last_xy(ch, base, sign, d_last)
    if view is not None and known_held is not None:
        # the last checker lies in a slot the learnt position filled when its stack reached it then
        k_last = np.clip(np.rint((d_last / r[:P] - 1.0) / 2.0).astype(np.int64), 0, known_held.shape[1] - 1)
        held_last = np.where(p_last >= HELD_OCCUPIED, known_held[np.arange(P), k_last], 0)
        lt_last = ck.p_light(ck.box_means(integral, *last_xy, 0.42 * r[:P]),
                             *held_pair(*slot_colours(cal, *last_xy),
                                        _learnt_colour(cal, view, *last_xy, r[:P]), held_last))
    else:
        lt_last = ck.p_light(ck.box_means(integral, *last_xy, 0.42 * r[:P]), *slot_colours(cal, *last_xy))
    chain = chain_loglik_many(p_occ[:P], p_lt[:P])  # (P, 2, SLOTS + 1)
    # a row of n separate checkers leaves a far, fully visible checker unexplained
    d_chain = np.concatenate([np.zeros((P, 1)), (ch.y[:P] - base[:P, None]) * sign[:P, None]], axis=1)
    far = d_last[:, None] > d_chain + 1.5 * r[:P, None]
    chain += np.where(far, _log(1 - p_last)[:, None], 0.0)[:, None, :]
    colour = np.stack(
        [_log(lt_last) + _log(p_lt[:P, 0]), _log(1 - lt_last) + _log(1 - p_lt[:P, 0])], axis=1
    )  # (P, 2)
    # the first checker lies against the field's edge: its centre one radius in
    y_first = base[:P] + sign[:P] * r[:P]
    fams = []
    for e in range(ENDS):
        # tall stacks (13-15): the rims' period along the stack (vision/tallstack.py)
        lx, ly = _last_xy(ch, base, sign, d_ends[e])
        tall = (lz_ends[e] > -3.0) & (d_ends[e] >= 5.0 * r[:P])
        period = period_loglik(canon, ch.x[:P, 0], y_first, lx, ly, tall)
        # a stack ends at its last checker: the chain's slots beyond it are empty, and no fully
        # visible checker (the other end) lies beyond it
        ends_e = _log(1 - p_occ[:P]) * (d_chain[:, 1:] > d_ends[e][:, None] + 1.5 * r[:P, None])
        beyond_e = ends_e.sum(axis=1) + sum(
            np.where((lz_ends[o] > -3.0) & (d_ends[o] > d_ends[e]), _log(1 - p_ends[o]), 0.0)
            for o in range(ENDS) if o != e)
        if e == 0:
            beyond = beyond_e
        fams.append(RIM_GAIN * sq_ends[e][:, None, :] + period[:, None, :]
                    + (_log(p_ends[e]) + SQUEEZE_PRIOR + beyond_e)[:, None, None] + colour[:, :, None])
    # either end may be the stack's (each is a hypothesis of its own; an end not found weighs nothing)
    fam = np.stack(fams)
    squeezed = np.logaddexp.reduce(fam, axis=0)
    end_of = np.argmax(fam.max(axis=(2, 3)), axis=0)  # (P,) the end the likelier counts use
    # a row of ROW_FIT touching checkers from the first (the chain's slot 0) to the last: the checkers
    # between them by their rims' contrast, as a squeezed stack's (faint rims of touching checkers of
    # one colour count too), no surer than slots read occupied (a log-likelihood of at most 0)
    between = np.minimum(RIM_GAIN * row + SQUEEZE_PRIOR, 0.0)
    touching = (between + _log(p_occ[:P, 0]) + _log(p_last) + beyond)[:, None, None] + colour[:, :, None]
    # Plakoto: a pinned checker under the other colour's (vision/pinned.py, RULES-TAVLI.md P3)
    pin_l = pinned_loglik(p_occ[:P], p_lt[:P]) + np.where(far, _log(1 - p_last)[:, None], 0.0)[:, None, :]
    lt, dk, pins = posterior_with_pins(np.concatenate([chain, squeezed, touching], axis=2), counts, pin_l, TEMPER)
    points = [SpotEvidence(a, b) for a, b in zip(_evidence_many(lt), _evidence_many(dk))]
    # bar: light below the middle, dark above (either colour allowed in either half)
    blt, bdk = posterior_many(chain_loglik_many(p_occ[P:], p_lt[P:]), np.arange(SLOTS + 1))
    bar = SpotEvidence(
        _evidence(np.convolve(blt[0], blt[1])[: MAX_COUNT + 1]),
        _evidence(np.convolve(bdk[0], bdk[1])[: MAX_COUNT + 1]),
    )
    ii, kk = np.nonzero(p_occ > 0.5)
    sites = [(float(ch.x[i, k]), float(ch.y[i, k]), float(r[i])) for i, k in zip(ii, kk)]
    squeezed_at: list[int] = []
    ends = np.arange(P)
    sites += _squeezed_sites(points, ch, base, sign, r, lz_ends[end_of, ends], d_ends[end_of, ends], squeezed_at)
    site_columns[:] = [int(cols[i]) for i in (*ii, *squeezed_at)]
    rings[:] = ch.full[:P, 0].tolist()
    return points, bar, sites, tuple(int(v) for v in pins)


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
    return p_occ, feats


#: a point's chain stops after two slots in a row that ring plainly empty (``_plainly_empty``); with a
#: board learnt at set-up, one whose last slot searched the set-up slot model reads at least this
#: likely to hold a checker is traced on (``_traced_on``): dark checkers on a black point ring faintly,
#: and the model read them (real-like seed 0 frame 184, beech at 1280 px: point 3's four dark checkers,
#: slots 1 and 2 read at 0.84 and 0.67 by the model and plainly empty by their ring, the fourth never
#: searched: read three, and the board balanced against its trays put the fourth on an empty point)
ON_STOPPED = 0.5


def _stopped_short(ch: ck.Chains, p_occ: np.ndarray, P: int) -> np.ndarray:
    """The rows among the first ``P`` (the points read) whose chain stopped before its last slot, the last
    slot it searched read holding a checker (``ON_STOPPED``)."""
    if ch.searched is None:
        return np.zeros(0, np.int64)
    depth = np.asarray(ch.searched[:P], np.int64)
    short = depth < ch.x.shape[1]
    last = p_occ[np.arange(P), np.maximum(depth - 1, 0)]
    return np.flatnonzero(short & (depth > 0) & (last >= ON_STOPPED))


def _traced_on(ch: ck.Chains, g: ck.Gradients, integral: np.ndarray, lay: Layout, cal: Calibration,
               cols: np.ndarray, rows: np.ndarray, memo: RingMemo | None, shift: np.ndarray | None,
               moved: bool) -> ck.Chains:
    """``ch`` with the chains of ``rows`` (of spots ``cols``) traced again to their end, not stopped: the
    slots searched before are found again where they were (each slot is searched from the one before it),
    the later ones searched too."""
    again = spot_chains(g, integral, lay, cal, stop=False, cols=np.asarray(cols)[rows], memo=memo,
                        shift=shift, moved=moved)
    x, y, feats, bgr = ch.x.copy(), ch.y.copy(), ch.feats.copy(), ch.bgr.copy()
    x[rows], y[rows], feats[rows], bgr[rows] = again.x, again.y, again.feats, again.bgr
    searched = None if ch.searched is None else ch.searched.copy()
    if searched is not None:
        searched[rows] = ch.x.shape[1]
    return ck.Chains(x, y, feats, bgr, searched)


def _ends_judged(lz_ends: np.ndarray, d_ends: np.ndarray, ch: ck.Chains, p_occ: np.ndarray, filled: np.ndarray,
                 base: np.ndarray, sign: np.ndarray, r: np.ndarray, P: int) -> np.ndarray:
    """``lz_ends`` (ENDS, P) with each end that lies within a radius of searched slots the learnt
    position left empty no likelier than the set-up slot model holds the likeliest of them: a ring
    there that rang alike on the set-up board (a print, a caption's loop) and has not changed is the
    board's, not a last checker (real-like seed 1 table 36, the set-up board seen again: point 8's
    light 3 read 5, a ring on the empty board beyond it taken for the stack's fully visible end).
    ``filled``: the slots not to judge by (filled at set-up, or changed since)."""
    K = p_occ.shape[1]
    depth = ch.searched[:P] if ch.searched is not None else np.full(P, K)
    d_slot = (ch.y[:P] - base[:P, None]) * sign[:P, None]
    empty = (np.arange(K)[None, :] < depth[:, None]) & ~filled[:P, :K]
    out = lz_ends.copy()
    for e in range(len(lz_ends)):
        within = np.abs(d_slot - d_ends[e][:, None]) <= r[:P, None]
        near = empty & within
        # a slot filled at set-up (or changed since) near the end: leave the end to its ring
        near_filled = within & filled[:P, :K]
        judged = near.any(axis=1) & ~near_filled.any(axis=1)
        p_near = np.clip(np.where(near, p_occ[:P], 0.0).max(axis=1), 1e-6, 1 - 1e-6)
        out[e] = np.where(judged, np.minimum(lz_ends[e], np.log(p_near / (1 - p_near))), lz_ends[e])
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


def _squeezed_sites(
    points: list[SpotEvidence],
    ch: ck.Chains,
    base: np.ndarray,
    sign: np.ndarray,
    r: np.ndarray,
    lz: np.ndarray,
    d_last: np.ndarray,
    columns: list[int] | None = None,
) -> list[tuple[float, float, float]]:
    """Discs of the checkers in stacks read as squeezed (n >= 6): evenly from the first to the last.

    The chain's slots do not sit on a squeezed stack's checkers, so without
    these the dice finder would take the overlapped checkers for dice.
    """
    out: list[tuple[float, float, float]] = []
    lx, ly = _last_xy(ch, base, sign, d_last)
    for i, ev in enumerate(points):
        n = max(ev.light.best, ev.dark.best)
        if n < 6 or lz[i] <= -3.0:
            continue
        x0, y0 = float(ch.x[i, 0]), float(ch.y[i, 0])
        for k in range(n):
            t = k / (n - 1)
            out.append((x0 + (float(lx[i]) - x0) * t, y0 + (float(ly[i]) - y0) * t, float(r[i])))
            if columns is not None:
                columns.append(i)
    return out


def chain_loglik_many(p_occ: np.ndarray, p_lt: np.ndarray) -> np.ndarray:
    """``chain_loglik`` for C chains at once: (C, K) slot probabilities -> (C, 2, K + 1)."""
    C = p_occ.shape[0]
    z = np.zeros((C, 1))
    occ = np.concatenate([z, np.cumsum(_log(p_occ), axis=1)], axis=1)
    emp = np.concatenate([np.cumsum(_log(1 - p_occ)[:, ::-1], axis=1)[:, ::-1], z], axis=1)
    cl = np.concatenate([z, np.cumsum(_log(p_lt), axis=1)], axis=1)
    cd = np.concatenate([z, np.cumsum(_log(1 - p_lt), axis=1)], axis=1)
    logl = np.stack([occ + emp + cl, occ + emp + cd], axis=1)
    logl[:, 1, 0] = -np.inf
    return logl


def posterior_many(logl: np.ndarray, counts: np.ndarray, temper: float = TEMPER) -> tuple[np.ndarray, np.ndarray]:
    """``posterior`` for C spots at once: (C, 2, H) -> (light, dark), each (C, MAX_COUNT + 1)."""
    z = logl * temper
    top = np.where(np.isfinite(z), z, -np.inf).max(axis=(1, 2))
    post = np.exp(z - top[:, None, None])
    post /= post.sum(axis=(1, 2))[:, None, None]
    onehot = np.zeros((len(counts), MAX_COUNT + 1))
    onehot[np.arange(len(counts)), np.minimum(counts, MAX_COUNT)] = 1.0
    light = post[:, 0] @ onehot
    dark = post[:, 1] @ onehot  # (its n = 0 entry is empty: "nothing here" is the light row's)
    # a light stack means no dark checker there, and the other way round
    light[:, 0] += post[:, 1].sum(axis=1)
    dark[:, 0] += post[:, 0].sum(axis=1)
    return light, dark


def _evidence_many(p: np.ndarray) -> list[CountEvidence]:
    q = np.asarray(p, np.float64) + FLOOR
    q /= q.sum(axis=1, keepdims=True)
    return [CountEvidence(tuple(row)) for row in q.tolist()]


def _last_xy(ch: ck.Chains, base: np.ndarray, sign: np.ndarray, d_last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    C = len(d_last)
    return ch.x[:C, 0], base[:C] + sign[:C] * d_last


def cv2_integral(canon: np.ndarray) -> np.ndarray:
    """The colour integral image for fast box means (``checkers.box_means``): OpenCV's own int32 sums
    of a uint8 image while no sum can overflow them (any canonical view), else float64. Box sums of
    whole numbers are exact either way, so the means are the same."""
    if canon.dtype == np.uint8 and canon.shape[0] * canon.shape[1] * 255 < 2**31 // 4:
        return np.asarray(cv2.integral(canon))
    return np.asarray(cv2.integral(canon), np.float64)
