"""Dice on the board: find them by their pips, read them, judge how they lie.

``find_dice`` works in the canonical (top-down) image:

1. Pip spots: small round marks brighter or darker than their surroundings
   (a 5x5 top-hat / black-hat, then compact components of pip size). Pips
   are what every die has and what checkers, points and the frame lack, so
   dice are found on any body colour and even on a point of their own colour.
2. Spots of one shade within a die's reach of each other form a cluster;
   each cluster is a candidate die.
3. The body: pixels around the spots that share the body's colour, grown to
   the die's outline. Its minimum-area rectangle gives the die's centre,
   size and angle. A flat die shows a square; a cocked or leaning die shows
   its slanted top plus a strip of side face (an oblong outline) and pips
   that do not fit one face's layout. Two dice of one colour that touch make one
   ragged body: it is parted where they touch (``dice_body._parted``), and the spots
   of the group beyond the die's outline (``BEYOND``) are searched again as another die's.
4. The value: ``read_pips`` on a crop of the original image (more pixels
   than the canonical view), rotated square to the die. Its confidence is the
   face's evidence (``pips.read_face_evidence``: layout fit, even pips, margin
   over the next reading, no pip-like mark where the value has none), lowered
   when the spot count disagrees, the die is not surely flat, or it is small
   (under ``SURE_PX``) without the search's spots agreeing with the face, or
   capped (``dice_face.UNSEEN_LIE``) when a side face's pips show beside it
   (``side_face``: a die turning over) and no outline was measured round it (it
   runs into a point of its colour). A still photo shows no motion, so there a die
   with no outline measured at all, or one whose outline looks flat (too soft or
   small to show the side face's strip) with a side face's pips beside it, is
   capped so too (``DieReading.lie_seen``). A
   body walled off from the board only by a line (a printed die) and a mark
   that is one of a row of like marks (a letter: ``lettering``) are no dice.
5. On a checker: the die's centre lies within a checker disc (or so close
   to one that it must lean on it). Half: from the calibrated bar and field.
6. Die bodies the pips missed (a small die's six, whose pips crowd each
   other's rings): die-sized hat blobs (``tumbling.hat_blobs``), not smeared,
   outlined and read the same way; reported only when a face is read. Ragged
   blobs, or blobs on a wood grain that looks smeared, count only with a square
   outline round a clear face read in its middle. A small die found so is as sure as one found
   by its pips when the view's spots inside it agree with its face (as many, one shade, the face
   regular), or the finer view's reading of it does (``_merge``): at 1280 px a tournament die of
   9-12 px is about as many canonical px, too few for the canonical view to part its pips; its pips
   are looked for at its own scale too (``dice_scale.pips_at_scale``), and a die found by its body
   and so shown resolved afterwards is read no surer than ``dice_vet.AGREED_CONFIDENCE``.
7. With a board learnt at set-up, die-sized patches where the frame changed from it
   (``dice_scale.changed_bodies``) are searched as bodies where no hat blob lies: a small die close
   to the board's grey (white on light wood, red on green) makes no blob of its own; and, after the
   blobs, where one lay that showed no die (a blob of part of the die: its pips, its shadow). A face
   read on such a body unclear and not shown resolved is withheld (``CHANGED_UNCLEAR``). Its outline
   may be parted from a ground of nearly its colour (``dice_ground``: a black die on navy), and one
   that looks smeared is read as a six only (``SMEARED_SIX``: a six's rows run together look like a
   smear's streaks), as a one's or a two's pips' outline is parted too (``dice_body.GROUND_SPOTS``).
   A patch still unexplained with no outline is read by its pips at its own scale
   (``dice_patch_pips``), else as a six only where its two bars stay clean through a turn of crops
   centred on it (``dice_patch_six``: a six's rows run together at 640 px, no outline to crop by).
8. The finer view's die replaces a canonical one with no value (``_merge``), also one called
   cocked only for an oblong outline round a few spots with no face read on it (``_no_verdict``),
   and a small one called cocked unsurely where the finer view reads a clear flat face, or the same face
   flat with its pips shown resolved (``_overruled``); a one or two the finer view reads beside a clear
   die is taken with it.

The face is read square to the die and again round its pips' centre; how
the die lies comes from the outline round that face (``vision.lie``): a
cocked die's confidence is that of the "cocked" verdict (E3 b voids the
roll whatever it shows), capped by the face read on it: a die is no surer
cocked than it is a die.

Each step has its module: ``dice_spots`` (1), ``dice_groups`` (2), ``dice_body`` (3 and the
checker under a die, 5), ``dice_face`` (4: examining a candidate), ``dice_blobs`` (6),
``dice_scale`` (7, and a small die's pips at its own scale) and ``fine_view`` (the finer view the
second search looks in); this one runs the whole-view search
and merges the two views' dice.
"""

import dataclasses
from collections.abc import Callable

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice_blobs import (DOUBTFUL_CONFIDENCE, DOUBTFUL_FILL, DOUBTFUL_SQUARE, OFF_CENTRE, blob_died,
                                        blob_outline, scaled, view_hat_blobs)
from tavli_pi.vision.dice_body import DIE_RANGE, GROUND_SPOTS, NARROWEST, angle_of, bodied, checker_under, edge_side
from tavli_pi.vision.dice_face import UNSEEN_LIE, Die, examined
from tavli_pi.vision.dice_ground import GROUND_LEAST_PX, frame_px
from tavli_pi.vision.dice_groups import PAIR_REACH, REACH, clusters, paired, size_and_span, split_pairs
from tavli_pi.vision.dice_memo import DiceMemo
from tavli_pi.vision.dice_patch_pips import PATCH_LEAST, patch_pips
from tavli_pi.vision.dice_patch_six import patch_six
from tavli_pi.vision.dice_scale import changed_bodies, pips_at_scale
from tavli_pi.vision.dice_spots import PIP_RING, Spot, find_spots, view_spots
from tavli_pi.vision.dice_unread import StandsOut, kept_outline, pips_in, unread_body
from tavli_pi.vision.dice_vet import AGREED_CONFIDENCE, NEED_PX, NO_DIE, SMALL_CONFIDENCE, SURE_PX
from tavli_pi.vision.fine_view import FINE, fine_view, placing
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.pip_sites import sites_agree
from tavli_pi.vision.pips import PipReading, layout_error, read_pips
from tavli_pi.vision.quantile import float_mean, median
from tavli_pi.vision.six_bars import READ as BAR_SIX
from tavli_pi.vision.tumbling import COHERENCE, HatBlob, coherence, find_tumbling, hat_blobs

__all__ = ["CLEAR", "FINE", "FINE_CONFIDENCE", "FINE_PIPS", "PipReading", "Spot", "find_dice", "find_spots",
           "fine_view", "read_pips"]

#: where the frame differs from the board learnt at set-up (a bool mask) and the canonical px a pixel of it
Changes = Callable[[], tuple[np.ndarray, float]]
#: whether a die lay still at (x, y) (canonical px) on the last frame and since (the reader's memory)
LayStill = Callable[[float, float], bool]


def find_dice(
    canon: np.ndarray,
    lay: Layout,
    cal: Calibration,
    discs: list[tuple[float, float, float]],
    hand_mask: np.ndarray | None,
    image: np.ndarray | None = None,
    fine: bool = True,
    memo: DiceMemo | None = None,
    stands_out: StandsOut | None = None,
    changes: Changes | None = None,
    lay_still: LayStill | None = None,
    still_photo: bool = False,
) -> list[DieReading]:
    """Dice in the canonical image, reported in image pixels.

    ``image`` (the original frame) is used to read the pips and the outline at
    full resolution; without it the canonical image is used. With ``fine`` (and
    ``image``) the search is made a second time in a view FINE times finer, warped
    from the frame itself (``fine_view``): a die of 12-16 canonical px has pips of
    2 px there, too small for the pip finder, or pips of a large photo lost to the
    canonical view's coarse sampling. Dice the fine view finds where the canonical
    one found none (or no value) are added. The fine search is skipped when the canonical
    view read two dice clearly (``CLEAR``) and left nothing die-like unread; it takes the
    canonical view's die-sized blobs (scaled) instead of finding its own (issue 12).

    ``memo`` (the incremental reader's): candidates read in an earlier frame, with the same
    arguments and their pixels unchanged since, keep that reading, and the whole-view steps
    (the pip spots of both views, the hat images) are made again only round the changed cells
    (vision/dice_memo.py), and so is the fine view itself (``fine_view``: warped again only there,
    through maps exact to the whole warp's pixels, vision/exact_warp.py).

    ``stands_out`` (x, y, r canonical px: does the frame there differ from the board learnt at
    set-up?): with it, a die's body found whole with no face read on it, smaller than
    ``NEED_PX`` in the frame, is reported with no value (``dice_unread``: too small to read).

    ``changes`` (where the frame differs from the board learnt at set-up, and the canonical px
    a pixel of it): its die-sized patches (``dice_scale.changed_bodies``) are searched as die bodies
    too, where no hat blob lies (a small die close to the board's grey makes none).

    ``lay_still`` (x, y canonical px: did a die lie still there, on the last frame and since?): a body
    that looks smeared (``find_tumbling``) where one did is a still die -- a small six's two bars look
    like a smear's streaks to the coherence test frame after frame -- and is read as one (``_find``).

    ``still_photo``: the frame is a single photo, with no motion to tell a resting die from one turning
    over: a side face's pips are looked for beside a flat-looking outline too (``dice_face.look``), for
    ``DieReading.lie_seen``; a stream, which judges a die once it lies still, is spared that work.
    """
    if image is None:
        memo = None  # the memo knows where a candidate looked only in the frame's pixels
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    blobs = view_hat_blobs(memo, gray, lay)
    patches: list[HatBlob] = []
    if changes is not None:
        mask, per = changes()
        patches = changed_bodies(mask, per, lay)
    bars: list[DieReading] = []
    out = _find(canon, lay, cal, discs, hand_mask, image, tumbling=True, bodies=blobs, memo=memo, gray=gray,
                stands_out=stands_out, changed=patches, lay_still=lay_still, still_photo=still_photo, bars=bars)
    if not fine or image is None:
        return out
    if all(d.value for d in out) and sum(1 for d in out if d.flat and _clear(d, bars)) >= 2:
        # a roll's two dice read clearly and no die-like thing left unread (moving, no face): the
        # finer search could only doubt them less
        return out
    view, flay, fcal = fine_view(image, cal, FINE, memo)
    fdiscs = [(x * FINE, y * FINE, r * FINE) for x, y, r in discs]
    fmask = None
    if hand_mask is not None and hand_mask.shape == canon.shape[:2]:
        fmask = cv2.resize(hand_mask, (view.shape[1], view.shape[0]), interpolation=cv2.INTER_NEAREST)
    fine_still: LayStill | None = None
    if lay_still is not None:
        canon_still = lay_still

        def fine_still(x: float, y: float) -> bool:
            cx, cy = lay.to_px(*flay.to_uv(x, y))
            return canon_still(float(cx), float(cy))
    more = _find(view, flay, fcal, fdiscs, fmask, image, tumbling=False, strict_pairs=True,
                 bodies=[scaled(b, lay, flay) for b in blobs], memo=memo, view="fine", lay_still=fine_still,
                 still_photo=still_photo)
    return _merge(out, more, lambda d: _places_show(image, d))


#: with no outline round them, spots that fit no face are a face's pips and a fleck of light (on a
#: dark die's rim) when one of them stands out from its surroundings less than this share of the
#: others' least
FLECK_SHARE = 0.5


def _fleck_left_out(group: list[Spot], gray: np.ndarray) -> list[Spot]:
    """``group`` (spots with no outline round them, fitting no face) with its one spot left out
    that stands out from the ring round it (``gray``: the search's view) less than ``FLECK_SHARE``
    of what every other spot does; else ``group`` as it is."""
    h, w = gray.shape
    steps = []
    for x, y, bright in group:
        xi, yi = int(round(x)), int(round(y))
        if not (4 <= xi < w - 4 and 4 <= yi < h - 4):
            return group
        block = gray[yi - 1:yi + 2, xi - 1:xi + 2].astype(np.float32)
        around = float(median(np.asarray([gray[yi + dy, xi + dx] for dx, dy in PIP_RING])))
        steps.append((float(block.max()) - around) if bright else (around - float(block.min())))
    order = np.argsort(steps)
    if steps[order[0]] < FLECK_SHARE * steps[order[1]]:
        return [s for i, s in enumerate(group) if i != int(order[0])]
    return group


#: two dice read flat at this confidence or more in the canonical view make the finer search
#: needless (no die read wrong came this high on the real-like, simulated or real sets:
#: bench/bench_dice.py)
CLEAR = 0.9


def _clear(d: DieReading, bars: list[DieReading]) -> bool:
    """Whether ``d`` (read flat in the canonical view) is read clearly enough to spare the finer search
    (``find_dice``): at ``CLEAR``, or a six read from its two clean bars (``six_bars.READ``, one of ``bars``:
    ``_find``'s such readings) kept at that confidence. A clean bar-six stands under 0.9 only because its
    pips are not shown resolved, not for doubt of its value: its rows are (``six_bars``), and no clean
    bar-six the canonical view read was wrong on the real-like, simulated or board sets (8 of 8 right,
    bench/probe_bar_six_skip.py). Beside a second die read clearly the finer view could only halve it
    (``_merge``: another value read at its place) or add a third die to a roll read whole. Spared so, it
    ran 84 times instead of 98 on real-like game 103 (its changed frames and their full reads, ~2 ms a
    search saved), and the 200 real-like games read exactly as before (bench/bench_reallike.py; issue 12)."""
    return d.value_confidence >= CLEAR or (d.value_confidence >= BAR_SIX and any(d is b for b in bars))


#: a die's size is its body's edge (``dice_body.edge_side``) when that lies within these shares of
#: the side the search outlined it with (outlines run 8-18 % under the die on recordings at
#: 640x360, a blob's area 10-13 % over; further off, the edge found is something else's)
EDGE_AGREES = (0.8, 1.35)
#: the fine view adds a die only with a face this clear ...
FINE_CONFIDENCE = 0.6
#: ... of at least this many pips (a lone round spot or two -- a screw head, a dot of print, the
#: strokes of a letter, a checker's highlight -- is the commonest thing mistaken for a die's one
#: or two, and the fine view sees many more of them)
FINE_PIPS = 3


def _merge(base: list[DieReading], more: list[DieReading],
           places: Callable[[DieReading], bool] | None = None) -> list[DieReading]:
    """``base`` with the dice of ``more`` that it lacks: a die ``base`` missed, or found flat with
    no value (a die both read, with different values, keeps the clearer reading at lower confidence,
    or at ``AGREED_CONFIDENCE`` when ``places``, whether the die's pip places show its face, says so).
    Only clear faces (``FINE_CONFIDENCE``, ``FINE_PIPS``) are taken from ``more``; such a still die
    where ``base`` reports one tumbling replaces that report."""
    out = list(base)
    few: list[DieReading] = []  # flat faces of fewer than ``FINE_PIPS`` pips: taken only beside a clear die
    for d in more:
        same = [i for i, b in enumerate(out) if _confirms(d, b)]
        if same:
            # the fine view shows a small die's pips resolved where the canonical view read the same
            # face on its body without them: the two views agree, the value is as sure as read there
            # (no surer than ``AGREED_CONFIDENCE``: the die was found by its body, not its pips)
            out[same[0]] = dataclasses.replace(out[same[0]], value_confidence=min(d.value_confidence, AGREED_CONFIDENCE),
                                               lie_seen=out[same[0]].lie_seen or d.lie_seen)
            continue
        if d.value_confidence < FINE_CONFIDENCE:
            continue
        if d.value < FINE_PIPS:
            if d.flat and not d.moving:
                few.append(d)
            continue
        near = [i for i, b in enumerate(out) if not b.moving and _same_die(b, d)]
        if not near:
            if not d.moving:
                # a body the canonical view took for a die tumbling, where the finer view reads a
                # still die's clear face, is that die (a small six's bars look smeared to the coarser
                # view): it replaces the report, or the frame would hold the die twice, once moving
                ghost = [i for i, b in enumerate(out) if b.moving and _same_die(b, d)]
                if ghost:
                    out[ghost[0]] = d
                else:
                    out.append(d)
            continue
        i = near[0]
        b = out[i]
        if (b.value == 0 or (b.flat and b.value_confidence < NO_DIE)) and (b.flat or _no_verdict(b)) and d.value:
            out[i] = d  # (a die the canonical view saw cocked keeps that verdict: E3 b voids its roll;
            # an outline too coarse to read a face in is no verdict: ``_no_verdict``; nor is a face read
            # at no confidence, evidence of nothing (``NO_DIE``): a 15 px black four with white pips, 2 at
            # 0.0 there, halved the fine view's 4 at 0.93-0.95 as "two readings disagree", under the
            # referee's 0.6, real-like game 60 frame 18)
        elif _overruled(b, d):
            out[i] = d
        elif b.value and d.value and b.value != d.value and b.flat:
            # (a cocked die's confidence is its verdict's, which stands whatever face is read)
            # two readings of one die disagree: the clearer stands, in doubt -- unless the die's pip
            # places (a third view, ``pip_sites``) show its face clearly: two of three agree, and it
            # stands as a small die whose views agree does, under the 0.9 a call needs (a 14 px black
            # four on a printed logo, 2 at 0.42 in the canonical view, 4 at 0.94 in the fine one, was
            # halved under the referee's 0.6: real-like game 144 frame 37)
            keep = d if d.value_confidence > b.value_confidence else b
            if keep.flat and places is not None and places(keep):
                out[i] = dataclasses.replace(keep, value_confidence=min(keep.value_confidence, AGREED_CONFIDENCE))
            else:
                out[i] = dataclasses.replace(keep, value_confidence=keep.value_confidence * 0.5)
    clear = [o for o in out if o.flat and o.value and not o.moving and o.value_confidence >= FINE_OVERRULES]
    for d in few:
        # a one or two the fine view parted from a die read clearly beside it (the canonical view
        # outlined the two as one body, or left the one out): two dice of a roll that touch (WTC test9)
        if (any(np.hypot(o.xy[0] - d.xy[0], o.xy[1] - d.xy[1]) < TOUCHING * max(o.size_px, d.size_px) for o in clear)
                and not any(_same_die(b, d) for b in out)):
            out.append(d)
    return out


#: the fine view's flat die read at least this clearly replaces the canonical view's reading of a small
#: die (under ``SURE_PX``) called cocked less surely (``_overruled``) ...
FINE_OVERRULES = CLEAR
#: ... and a flat one or two it reads (``FINE_CONFIDENCE``) beside a die read that clearly (centres within
#: this many of the larger die's sizes: two dice that touch) is taken with it (``_merge``)
TOUCHING = 1.6


def _overruled(b: DieReading, fine: DieReading) -> bool:
    """Whether the fine view's ``fine`` replaces the canonical view's ``b`` at its place: ``b`` small
    (``SURE_PX``) and called cocked (not on a checker) at less than ``FINE_OVERRULES``, ``fine`` flat with
    a face at least that clear. A die of 11-16 canonical px is outlined there in a handful of pixels;
    the field moved by 2-6 px, the canonical outline of WTC frame5's four, frame0's five and test9's three
    (joined to the one it touches) turned oblong, "cocked" at 0.03-0.85 with a wrong face or none, where
    the finer view read each flat and right at 0.91-0.99 (``bench/bench_dice_shift.py``). Also where the
    cocked verdict is no surer than a small die's face on its own (``SMALL_CONFIDENCE``) and ``fine``
    reads the same face flat with its pips shown resolved (above ``SMALL_CONFIDENCE``: ``_find``'s
    ``agreed``, ``_scale_agrees``): two views agree on the face, one sees it square (a 10.7 px three at
    640 px, cocked at 0.85 in the canonical view, flat 3 at 0.89 in the fine one, its three pips found
    at its own scale: real-like game 2 frames 12-14, ``bench/bench_video.py --size 640 --dice-only``)."""
    if not b.flat and not b.on_checker and not b.moving and b.size_px < SURE_PX and fine.flat and fine.value > 0:
        if b.value_confidence < FINE_OVERRULES and fine.value_confidence >= FINE_OVERRULES:
            return True
        return b.value == fine.value and b.value_confidence <= SMALL_CONFIDENCE + 1e-6 < fine.value_confidence
    return False


def _near_discs(discs: np.ndarray, x: float, y: float, pad: float) -> list[int]:
    """The rows of ``discs`` (x, y, r a row) whose centre lies within r + ``pad`` of (x, y), in order:
    ``np.hypot(x - dx, y - dy) < dr + pad`` of each disc, all at once (the same float64 arithmetic)."""
    near = np.hypot(x - discs[:, 0], y - discs[:, 1]) < discs[:, 2] + pad
    return np.flatnonzero(near).tolist()


def _places_show(image: np.ndarray, d: DieReading) -> bool:
    """Whether the pip places of the die ``d`` (``pip_sites``, sampled in the frame ``image`` round
    its centre, its size across) show its value clearly."""
    return d.size_px > 0 and sites_agree(image, _same, d.xy, d.size_px, d.value)


def _no_verdict(b: DieReading) -> bool:
    """Whether the canonical view's ``b`` is a body with no face read on it whose "cocked" says
    nothing the finer view should keep: called so at no confidence (the search's outline of a few
    spots was oblong, ``_find``'s ``Die(0, 0.0, square < SQUARE)``), not on a checker, not moving. At
    1280 px a tournament die is 12-16 canonical px: its outline there is a handful of pixels, a 45
    degree die's rim is lost to the sampling (WTC frame5, the field found: a 15 x 10 px outline round
    two of a four's pips), while the finer view outlines it square round all its pips. A verdict the
    canonical view is sure of keeps a value's confidence (a cocked face read: ``dice_face.judge``)."""
    return b.value == 0 and b.value_confidence == 0.0 and not b.flat and not b.on_checker and not b.moving


def _confirms(fine: DieReading, b: DieReading) -> bool:
    """Whether the fine view's die ``fine`` lifts the canonical view's ``b``: the same die (within
    0.8 of its size), both flat and read the same value, ``b`` small (``SURE_PX``) and held at
    ``SMALL_CONFIDENCE`` for want of its pips, ``fine`` above it (its pips found, as many as its
    value, the face regular: ``_find``'s ``agreed``). A ``b`` read less surely than that, though as a die
    (``NO_DIE``), is lifted too: the fine view's face alone would stand where ``b`` read none (a 10.6 px
    five at 640 px, 5 at 0.75 in the canonical view, 5 at 0.89 in the fine one with its five pips found
    at its own scale, stayed at 0.75 and was "too small to read": real-like game 2 frame 18)."""
    return (b.value == fine.value > 0 and b.flat and fine.flat and not b.moving and not fine.moving
            and b.size_px < SURE_PX and NO_DIE <= b.value_confidence <= SMALL_CONFIDENCE + 1e-6
            and fine.value_confidence > SMALL_CONFIDENCE
            and _same_die(fine, b))


def _same_die(b: DieReading, d: DieReading) -> bool:
    """Whether ``b`` lies within 0.8 of ``d``'s size (at least 8 px) of ``d``: one die seen twice
    (the canonical and the fine view)."""
    return bool(np.hypot(b.xy[0] - d.xy[0], b.xy[1] - d.xy[1]) < max(d.size_px, 8.0) * 0.8)


def _find(
    canon: np.ndarray,
    lay: Layout,
    cal: Calibration,
    discs: list[tuple[float, float, float]],
    hand_mask: np.ndarray | None,
    image: np.ndarray | None,
    tumbling: bool,
    strict_pairs: bool = False,
    bodies: list[HatBlob] | None = None,
    memo: DiceMemo | None = None,
    view: str = "canonical",
    gray: np.ndarray | None = None,
    stands_out: StandsOut | None = None,
    changed: list[HatBlob] | None = None,
    lay_still: LayStill | None = None,
    still_photo: bool = False,
    bars: list[DieReading] | None = None,
) -> list[DieReading]:
    """One search for dice in ``canon`` (the canonical view, or a finer one with its layout and
    calibration), reported in image pixels. ``strict_pairs``: two spots with no outline round
    them may be a die with a clear face (in the fine view a die beside a dark point shows no
    outline, and its pips come out two or three). ``bodies``: the view's die-sized blobs
    (``tumbling.hat_blobs``), when already found. ``memo``: readings of candidates kept from
    earlier frames (``view`` names the search: its candidates' coordinates are its own; ``gray``:
    ``canon`` in grey, when already made; ``stands_out``: as ``find_dice``'s; ``changed``: die-sized
    patches changed from the learnt board, searched as bodies where no blob of ``bodies`` lies;
    ``lay_still``, ``still_photo``: as ``find_dice``'s; ``bars``: given, the readings of sixes read from
    their clean bars (``Die.bars``) are added to it)."""
    pitch = lay.pitch
    if gray is None:
        gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    spots = view_spots(memo, view, gray, placing(cal))
    if hand_mask is not None and hand_mask.shape == gray.shape:
        spots = [s for s in spots if not hand_mask[int(s[1]), int(s[0])]]
    src = image if image is not None else canon
    to_src: Callable[[np.ndarray], np.ndarray] = cal.to_image if image is not None else _same
    out: list[DieReading] = []
    taken: list[tuple[float, float]] = []
    default_side = 0.42 * pitch
    disc_at = np.asarray(discs, np.float64).reshape(-1, 3)  # (x, y, r) a row: ``_near_discs``

    def report(die: Die, side: float, agreed: bool = False, body: bool = False) -> None:
        taken.append(die.centre)
        out.append(reading(die, side, agreed, body))
        if die.bars and bars is not None:
            bars.append(out[-1])

    def reading(die: Die, side: float, agreed: bool = False, body: bool = False) -> DieReading:
        bx, by = die.centre
        on_checker = any(checker_under(canon, cal, discs[i], side) for i in _near_discs(disc_at, bx, by, 0.3 * side))
        u, v = lay.to_uv(bx, by)
        edge = (edge_side(src, to_src, (bx, by), side) if memo is None else
                memo.sampled(("edge", view, src.shape, (bx, by), side), to_src,
                             lambda ts: edge_side(src, ts, (bx, by), side)))
        if edge is not None and EDGE_AGREES[0] * side <= edge <= EDGE_AGREES[1] * side:
            side = edge  # the die's size: where its body gives way to the ground
        ends = cal.to_image(np.asarray([[bx, by], [bx - side / 2, by], [bx + side / 2, by]], np.float32))
        xy = ends[0]
        size = float(np.hypot(*(ends[2] - ends[1])))
        conf = die.confidence
        if (size < NEED_PX and not agreed and not die.bars and die.value and not die.cocked
                and _sites_lift(src, to_src, die, side, conf)):
            conf = AGREED_CONFIDENCE  # too small for its pips to be shown resolved as blobs, their
            # places show the same face clearly (``pip_sites``): two views agree, never as sure as the
            # 0.9 a play is called illegal on
        elif size < SURE_PX and not agreed and not die.bars:
            conf = min(conf, SMALL_CONFIDENCE)  # (a six read from clean bars has its rows resolved:
            # ``six_bars.READ``, under ``AGREED_CONFIDENCE``)
        elif size < SURE_PX and body:
            conf = min(conf, AGREED_CONFIDENCE)  # found by its body, its pips shown resolved after
        if die.unseen:
            conf = min(conf, UNSEEN_LIE)  # no outline seen: not known to lie flat (``dice_face.judge``)
        return DieReading(
            xy=(float(xy[0]), float(xy[1])),
            value=int(die.value),
            value_confidence=float(conf),
            flat=bool(not die.cocked and not on_checker),
            on_checker=bool(on_checker),
            half=lay.half_of(u, v),  # type: ignore[arg-type]
            size_px=size,
            lie_seen=not die.unmeasured,
        )

    # 1. dice found by their pips
    lone: list[tuple[Die, float]] = []
    # most spots first; of as many, the widest first (a die's two pips before two specks of its shadow's edge)
    whole = paired(clusters(spots, REACH * pitch), PAIR_REACH * pitch)
    groups, halves = split_pairs(whole, pitch)
    order = sorted(groups, key=size_and_span, reverse=True)
    for group in order:  # (``order`` grows: the spots beyond a die's outline are searched again)
        pts = np.asarray([(x, y) for x, y, _ in group])
        span = float(np.ptp(pts, axis=0).max()) if len(pts) > 1 else 0.0
        if len(group) > 12 or span > 1.1 * pitch:
            continue
        half = id(group) in halves
        at = (float(float_mean(pts[:, 0])), float(float_mean(pts[:, 1])))  # (``mean``'s, to the bit, for less)
        body = bodied(memo, view, canon, cal, group, pitch, GROUND_LEAST_PX / max(frame_px(to_src, at, 1.0), 1e-6))
        square: float | None = None
        if body is not None:
            (bx, by), (bw, bh), ang = body
            side, long_ = min(bw, bh), max(bw, bh)
            square = side / max(long_, 1e-6)
            if not (DIE_RANGE[0] * pitch <= long_ <= DIE_RANGE[1] * pitch * 1.6):
                continue
            if side < NARROWEST * DIE_RANGE[0] * pitch:
                continue  # narrower than any die's edge: a cocked die's outline is its top and a strip
                # of side face, never narrower than the die (a hinge's leaf, a letter's stroke)
            within = [s for s in group if _beyond(s, body) < BEYOND * side]
            if within and len(within) < len(group) and square >= SQUARE:
                # spots beyond a square outline are no pips of this die: another die's, one that
                # touches it (``dice_body._parted``), searched again on their own (an oblong outline
                # may be a cocked die's, or a die's with its shadow: its spots stay one candidate)
                order.append([s for s in group if s not in within])
                group = within
                pts = np.asarray([(x, y) for x, y, _ in group])
            if len(group) >= 2:
                ang = angle_of(pts)  # the pips square the die better than an outline with its shadow
        else:
            if 4 <= len(group) <= 7 and layout_error(pts) > 0.1:
                group = _fleck_left_out(group, gray)
                pts = np.asarray([(x, y) for x, y, _ in group])
                span = float(np.ptp(pts, axis=0).max())
            if len(group) < 2 or (len(group) >= 3 and layout_error(pts) > 0.1) or (len(group) == 2 and not strict_pairs):
                continue  # neither a die's outline nor a clear pip layout
            bx, by = (float(v) for v in float_mean(pts, 0))
            side = max(default_side, span * 1.4)
            ang = angle_of(pts)
        if any(np.hypot(bx - tx, by - ty) < 0.5 * side for tx, ty in taken):
            continue
        die = examined(memo, view, canon, src, to_src, (bx, by), side, ang, square, pitch, still_photo)
        if die is not None and die.refused:
            continue
        if (body is not None and len(group) <= GROUND_SPOTS
                and (die is None or die.confidence < GROUND_CLEAR or die.value != len(group))
                and bodied(memo, view, canon, cal, group, pitch) is None):
            continue  # a spot or two in an outline parted from the ground (``dice_ground``): a die only
            # with a clear face of as many pips (a black two on navy, both its pips spots, read a one)
        if (half or (body is None and len(group) == 2)) and (die is None or die.confidence < FINE_CONFIDENCE):
            continue  # half of a split group, or two spots with no outline: a die only with a clear face
        if body is None and len(group) == 2 and die is not None and die.value <= 2:
            continue  # ... that shows more than the two spots (any two specks read as a two)
        if (body is None and die is not None and not die.outlined and len(group) > die.value
                and die.confidence < CLEAR):
            continue  # no outline round the marks, more of them than the face read has pips, and
            # that face unclear: neither a square body nor one face's pips (a checker's flecks, dots of print)
        if die is None:
            if len(group) < 2 or body is None:
                continue  # a lone mark without a die's outline: not a die
            if (np.hypot(bx - disc_at[:, 0], by - disc_at[:, 1]) < CONCENTRIC * disc_at[:, 2]).any():
                continue  # marks in an outline centred on a checker, no face read: the checker's own
                # inlay or rim (a metal-rimmed dark checker played in real-like game 149, 1280 px, was
                # an unread die "still seen" for 15 frames: its roller's play was never judged)
            die = Die(0, 0.0, square is not None and square < SQUARE, (bx, by))
        n_spots = len(group)
        fit = layout_error(pts) if 3 <= n_spots <= 6 else 0.0
        # fewer spots than the face read are that face's pips with some missed (a 4's three
        # corners do not fit a 3's diagonal), not the pips of two faces
        partial = 0 < n_spots < die.value
        if not die.cocked and (n_spots > 6 or (n_spots >= 3 and fit > 0.16 and not partial)):
            die = die._replace(cocked=True, confidence=die.confidence * 0.5)  # pips of two faces
        elif (not die.cocked and die.value and n_spots != die.value
              and not edge_mark(group, die.centre, die.value, side)):
            die = die._replace(confidence=die.confidence * 0.7)  # (one mark at the die's edge beyond
            # the face's pips costs nothing, ``edge_mark``; it never makes the spots agree, below)
        if n_spots == 1 and die.confidence < 0.6:
            lone.append((die, side))  # one pip, read poorly: maybe one of a six's (step 2)
            continue
        # the search view's spots and the face read in the frame agree, and the face is regular
        agreed = bool(die.regular and not die.cocked and n_spots == die.value)
        if agreed and die.value == 1 and _second_pip(die, side, group[0][2], src, to_src):
            agreed = False  # a lone spot agrees with a one only where its own scale shows no other pip
        report(die, side, agreed=agreed)
    # 2. die bodies whose pips were missed (a small die's crowded six): first filled, unsmeared
    # blobs; then blobs a wood grain or a shadow spoils (ragged, grain lines that look like a
    # smear), taken only with a clear flat face square in its outline, and only the fullest
    # blob of a die (not its shadow's or its pips')
    blobs = hat_blobs(gray, lay) if bodies is None else bodies
    unread: list[tuple[HatBlob, float, bool]] = []  # blobs with no face read: (blob, side, settle)
    def body_side(b: HatBlob, side: float, settle: bool) -> float:
        # a changed patch takes in the die's blurred rim and shadow: its size is its outline's
        if not b.changed:
            return side
        o = kept_outline(memo, view, src, to_src, b, side, settle)
        return side if o is None else float(o.long_ * max(o.aspect, 0.75))

    def body_report(b: HatBlob, die: Die, side: float) -> None:
        # a die found by its body: sure when small only if its pips are shown resolved, by the
        # view's spots or at its own scale (``_spots_agree``, ``_scale_agrees``); one found only by
        # its change from the learnt board keeps no unclear face unresolved (``CHANGED_UNCLEAR``)
        # unless its pip places show that face clearly (``_sites_lift``: a 17-19 px six on a metal
        # board, its pips touching down each row, found no spots at any scale, its face read 0.80-0.84;
        # real-like game 138 frames 12 and 44)
        agreed = _spots_agree(die, side, spots) or _scale_agrees(die, side, src, to_src)
        if (b.changed and not agreed and die.confidence <= CHANGED_UNCLEAR
                and not (die.regular and not die.cocked and die.value
                         and _sites_lift(src, to_src, die, side, die.confidence))):
            got = reading(Die(0, 0.0, die.cocked, die.centre, outlined=die.outlined), side)
            if got.size_px >= NEED_PX:
                got = dataclasses.replace(got, note=f"pips not resolved ({int(got.size_px)} px)")
            taken.append(die.centre)
            out.append(got)
            return
        report(die, side, agreed, body=True)

    def bodies_searched(cands: list[HatBlob], still: bool = False) -> list[tuple[HatBlob, float, bool]]:
        # the die bodies among ``cands`` (blobs or changed patches): reported, or returned with no face
        # read; ``still``: only filled, unsmeared ones (no doubtful body, which may be a die tumbling)
        doubtful: list[tuple[HatBlob, Die | None, bool, float | None]] = []
        left: list[tuple[HatBlob, float, bool]] = []  # (blob, side, settle)
        for b in cands:
            if b.fill < DOUBTFUL_FILL or not (DIE_RANGE[0] * pitch <= np.sqrt(b.area) <= DIE_RANGE[1] * pitch * 1.3):
                continue
            if any(np.hypot(b.x - tx, b.y - ty) < 0.6 * pitch for tx, ty in taken):
                continue
            side = float(np.sqrt(b.area))
            if hand_mask is not None and hand_mask.shape == gray.shape and hand_mask[int(b.y), int(b.x)]:
                continue
            if any(cal.field_bgr is None or checker_under(canon, cal, discs[i], side)
                   for i in _near_discs(disc_at, b.x, b.y, 0.1 * pitch)):
                continue  # a checker (or a die on one, left to its pips); without the board's
                # measured colour a checker cannot be told from the board round it, so trust the disc
            smear = coherence(gray, b.x, b.y, 0.5 * b.long_ + 2)
            if smear >= COHERENCE[0] and lay_still is not None and lay_still(b.x, b.y):
                # looks smeared where a die lay still: a still die (a small six's bars look like a
                # smear's streaks to the coherence test), read as one if it shows a clear face
                die, centred, square = blob_died(memo, view, canon, src, to_src, b, side, pitch, settle=True,
                                                   still=still_photo)
                if not still_read(die, centred, square):
                    die, centred, square = _still_bars(memo, view, canon, src, to_src, b, side, pitch)
                if still_read(die, centred, square):
                    assert die is not None
                    body_report(b, die, body_side(b, side, True))
                    continue
            if smear >= COHERENCE[1]:
                if b.changed and not still:
                    # a patch changed from the learnt board that looks smeared: a die still tumbling,
                    # or a small six whose rows of pips have run together into two bars (a black six on
                    # the navy field, where the body makes no hat blob and no die lay still before it:
                    # ``lay_still`` never asks). Read only as a six, clear or of two clean bars, centred
                    # in a square outline (``still_read``): a smear's streaks lie in an oblong body
                    die, centred, square = blob_died(memo, view, canon, src, to_src, b, side, pitch, settle=True,
                                                   still=still_photo)
                    if die is None or die.value != SMEARED_SIX or not still_read(die, centred, square):
                        die, centred, square = _still_bars(memo, view, canon, src, to_src, b, side, pitch)
                    if die is not None and die.value == SMEARED_SIX and still_read(die, centred, square):
                        body_report(b, die, body_side(b, side, True))
                continue  # smeared: a die still tumbling
            if b.fill >= 0.5 and smear < COHERENCE[0]:
                die, _, _ = blob_died(memo, view, canon, src, to_src, b, side, pitch, still=still_photo)
                if die is not None and die.value:
                    side = body_side(b, side, False)
                    body_report(b, die, side)
                elif die is None or not die.refused:
                    left.append((b, side, False))
            elif not still:
                doubtful.append((b, None, False, None))
        # read the doubtful blobs off the dice read so far
        doubtful = [
            (b, *blob_died(memo, view, canon, src, to_src, b, float(np.sqrt(b.area)), pitch, settle=True,
                           still=still_photo))
            for b, _, _, _ in doubtful
            if not any(np.hypot(b.x - tx, b.y - ty) < 0.6 * pitch for tx, ty in taken)
        ]
        # (a doubtful blob read cocked, or unclear, may still be a small die's body: ``unread_body``)
        # (settled: smeared or ragged, so never taken on the blob alone)
        left += [(b, float(np.sqrt(b.area)), True) for b, die, _, _ in doubtful if die is None or not die.refused]
        for b, die, centred, square in sorted(doubtful, key=lambda t: -(t[1].confidence if t[1] else 0.0)):
            if die is None or not die.value or die.cocked or not centred or die.confidence < DOUBTFUL_CONFIDENCE:
                continue
            if square is None or square < DOUBTFUL_SQUARE:
                continue
            if any(np.hypot(b.x - tx, b.y - ty) < 0.6 * pitch for tx, ty in taken):
                continue
            if any(
                sq is not None and ob.fill > b.fill and np.hypot(b.x - ob.x, b.y - ob.y) < 0.6 * pitch for ob, _, _, sq in doubtful
            ):
                continue  # the same die's fuller, outlined blob is its body (this one its shadow or its pips)
            body_report(b, die, body_side(b, float(np.sqrt(b.area)), True))
        return left

    sized = [b for b in blobs if DIE_RANGE[0] * pitch <= np.sqrt(b.area)]
    extra: list[HatBlob] = []
    late: list[HatBlob] = []
    for c in changed or []:
        (late if any(np.hypot(c.x - b.x, c.y - b.y) < 0.3 * pitch for b in sized) else extra).append(c)
    unread += bodies_searched([*blobs, *extra])
    # a patch changed from the learnt board where a blob lay that showed no die: the blob was part of
    # the die (its pips, its shadow, a dark die's rim), the patch its whole body with rim and shadow.
    # Searched after the blobs, so a die they read is read as before; and only filled and unsmeared:
    # a die still tumbling changes a patch too, and is left to ``find_tumbling`` (a 1280 px metal
    # board's tumbling 1 and 6, real-like game 138 frame 42, was reported a still die too small to read)
    unread += bodies_searched(late, still=True)
    # changed patches still unexplained: a small die with no outline (its body of nearly the ground's
    # colour: a black die on navy, a white one on cream, at 640 px), found by its pips at its own scale
    # (``dice_patch_pips``) and kept only where they agree with the face read round them
    def unexplained(b: HatBlob, smeared_still: bool) -> bool:
        """Whether changed patch ``b`` is one no die taken explains, with no hand over it, not by a checker
        (its own change), and unsmeared (a die still tumbling) -- or, ``smeared_still``, smeared where a
        die lay still."""
        if any(np.hypot(b.x - tx, b.y - ty) < 0.6 * pitch for tx, ty in taken):
            return False
        if hand_mask is not None and hand_mask.shape == gray.shape and hand_mask[int(b.y), int(b.x)]:
            return False
        if _near_discs(disc_at, b.x, b.y, 0.1 * pitch):
            return False
        return (coherence(gray, b.x, b.y, 0.5 * b.long_ + 2) < COHERENCE[1]
                or (smeared_still and lay_still is not None and lay_still(b.x, b.y)))

    for b in [*extra, *late]:
        if not unexplained(b, smeared_still=False):
            continue
        pipped = patch_pips(src, to_src, b)
        if pipped is None:
            continue
        face_at, face_side, face_angle = pipped
        die = examined(memo, view, canon, src, to_src, face_at, face_side, face_angle, None, pitch, still_photo)
        if (die is not None and not die.refused and not die.cocked and die.value >= PATCH_LEAST and die.regular
                and _scale_agrees(die, face_side, src, to_src)):
            report(die, face_side, agreed=True, body=True)
    # changed patches still unexplained: a small six whose rows of pips ran into two bars, read by its
    # bars in crops centred on the patch (``dice_patch_six``; smeared only where a die lay still)
    for b in [*extra, *late]:
        if not unexplained(b, smeared_still=True):
            continue
        six = _patch_six(memo, view, src, to_src, b)
        if six is None:
            continue
        # (read there a six: of clean bars, or by its pips -- a face reader's six of 0.88 in the bars' crop
        # is no less one, kept under ``SMALL_CONFIDENCE`` as a face not shown resolved: real-like seed 10
        # game 20 at 640 px, a black six on navy, frames 11-12)
        die = examined(memo, view, canon, src, to_src, *six, None, pitch, still_photo)
        if die is not None and die.value == SMEARED_SIX and not die.cocked and not die.refused:
            sure = die.confidence if die.bars else min(die.confidence, SMALL_CONFIDENCE)
            report(die._replace(confidence=sure), six[1], body=True)
    # the poorly read lone pips that no die read since explains
    for die, side in lone:
        if not any(np.hypot(die.centre[0] - tx, die.centre[1] - ty) < 0.6 * pitch for tx, ty in taken):
            report(die, side)
    # whole bodies no face was read on, too small for one: dice with no value (``dice_unread``)
    if stands_out is not None:
        for b, side, settle in unread:
            o = kept_outline(memo, view, src, to_src, b, side, settle)
            pips = pips_in(b, spots) if not b.changed else len(pips_at_scale(src, to_src, (b.x, b.y), side))
            centre = unread_body(o, b, pitch, stands_out, pips, still=not settle)
            if centre is None or any(np.hypot(centre[0] - tx, centre[1] - ty) < 0.6 * pitch for tx, ty in taken):
                continue
            got = reading(Die(0, 0.0, False, centre, outlined=o is not None), o.long_ if o is not None else side)
            if got.size_px < NEED_PX and not got.on_checker:
                taken.append(centre)
                out.append(got)
    # 3. dice still tumbling
    if not tumbling:
        return out
    for mx, my, _ in find_tumbling(gray, lay, discs, hand_mask, taken, [(s[0], s[1]) for s in spots], blobs):
        u, v = lay.to_uv(mx, my)
        xy = cal.to_image(np.asarray([[mx, my]], np.float32))[0]
        out.append(
            DieReading(
                xy=(float(xy[0]), float(xy[1])),
                value=0,
                value_confidence=0.0,
                flat=False,
                on_checker=False,
                half=lay.half_of(u, v),  # type: ignore[arg-type]
                moving=True,
            )
        )
    return out


#: an unread body whose centre lies within this share of a checker disc's radius of the disc's
#: centre is that checker's own design, not a die (a die lying on a checker lies where it fell)
CONCENTRIC = 0.2


#: a face read round one or two spots in an outline parted from a ground of nearly the body's colour
#: (``dice_body.GROUND_SPOTS``) makes a die only this clear, and of as many pips as spots (game 20's
#: table: ones and twos read right at 0.89-0.92; a two whose two pips were spots read a one at 0.92,
#: 0.65 once its spots disagreed)
GROUND_CLEAR = 0.8


#: the one face whose pips look smeared to the coherence test (``tumbling.coherence``): a six's two
#: rows, run together on a small die (a changed patch that looks smeared is read as no other face)
SMEARED_SIX = 6


#: the sides (shares of its outline's) a still body's face is read again at for a six's two bars: the
#: outline of a small die takes in its blurred rim and shadow (a 10 px six at 640 px: outlined 23
#: canonical px, its bars clean in a crop of 18-22)
STILL_SIDES = (0.9, 0.8)


def _still_bars(memo: DiceMemo | None, view: str, canon: np.ndarray, src: np.ndarray,
                to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob, side: float,
                pitch: float) -> tuple[Die | None, bool, float | None]:
    """``blob_died`` for a six's clean bars only: the face read square in the blob's outline at the
    ``STILL_SIDES`` of it; the first six of clean bars (``Die.bars``) read centred there, else none."""
    o = blob_outline(src, to_src, b, side, True)
    if o is None or not (DIE_RANGE[0] * pitch <= o.long_ <= DIE_RANGE[1] * pitch * 1.6):
        return None, False, None
    for k in STILL_SIDES:
        s = o.long_ * max(o.aspect, 0.75) * k
        die = examined(memo, view, canon, src, to_src, (float(o.centre[0]), float(o.centre[1])), s, o.angle, None, pitch)
        if die is not None and die.bars and not die.cocked and not die.refused:
            centred = bool(np.hypot(die.centre[0] - o.centre[0], die.centre[1] - o.centre[1]) <= OFF_CENTRE * o.long_)
            return die, centred, o.aspect
    return None, False, o.aspect


def _patch_six(memo: DiceMemo | None, view: str, src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray],
               b: HatBlob) -> tuple[tuple[float, float], float, float] | None:
    """``dice_patch_six.patch_six``, or the one ``memo`` kept while the pixels it read stand (it reads
    a few hundred crops: a still die's patch is read once)."""
    if memo is None:
        return patch_six(src, to_src, b)
    return memo.sampled(("six", view, src.shape, (b.x, b.y), b.area), to_src, lambda ts: patch_six(src, ts, b))


def still_read(die: Die | None, centred: bool, square: float | None) -> bool:
    """Whether a body that looks smeared, lying where a die lay still, shows a still die's face: a
    value read flat, centred in a square outline (``DOUBTFUL_SQUARE``), from a six's clean bars
    (``six_bars.READ``: what makes a small six look smeared) or as clearly as a doubtful blob's face
    must be (``DOUBTFUL_CONFIDENCE``)."""
    if die is None or not die.value or die.cocked or not centred:
        return False
    if square is None or square < DOUBTFUL_SQUARE:
        return False
    return die.bars or die.confidence >= DOUBTFUL_CONFIDENCE


def _spots_agree(die: Die, side: float, spots: list[Spot]) -> bool:
    """Whether the view's pip spots inside a die found by its body (a hat blob) agree with the face
    read on it, as a die found by its pips must for its value to be sure when small (``SURE_PX``):
    the face is regular and flat, and as many spots of one shade lie within it as the face has pips
    (a face's pips lie within 0.39 of its side from its centre: a corner pip at 0.275 both ways)."""
    if not die.regular or die.cocked or not die.value:
        return False
    cx, cy = die.centre
    inside = [s[2] for s in spots if np.hypot(s[0] - cx, s[1] - cy) < PIPS_WITHIN * side]
    return any(inside.count(shade) == die.value and len(inside) == die.value for shade in (True, False))


def _scale_agrees(die: Die, side: float, src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray]) -> bool:
    """``_spots_agree`` with the die's pip spots found at its own scale in the frame
    (``dice_scale.pips_at_scale``): a small die's pips shown resolved where the search's view is too
    coarse to part them (a 9-12 px die at 1280 px)."""
    if not die.regular or die.cocked or not die.value:
        return False
    return _spots_agree(die, side, pips_at_scale(src, to_src, die.centre, side))


#: how far (in the die's sides) from a one's pip another pip of its shade, found at the die's own scale,
#: makes the one a face with a pip missed (a two's other corner lies 0.78 of a side away)
ONE_REACH = 0.9


def _second_pip(die: Die, side: float, bright: bool, src: np.ndarray,
                to_src: Callable[[np.ndarray], np.ndarray]) -> bool:
    """Whether a one read on a lone spot shows another pip of the spot's shade at its own scale
    (``dice_scale.pips_at_scale``, within ``ONE_REACH`` of its side): a two or three whose other pips the
    search's view missed, read a one centred on one of its pips (a white 12 px two on the cream metal
    board at 1280 px, read 1 at 0.92: real-like game 163 frame 33)."""
    cx, cy = die.centre
    return sum(1 for x, y, b in pips_at_scale(src, to_src, die.centre, side)
               if b == bright and np.hypot(x - cx, y - cy) < ONE_REACH * side) >= 2


def _sites_lift(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], die: Die, side: float,
                conf: float) -> bool:
    """Whether a flat die under ``NEED_PX`` whose face was read without its pips shown resolved as
    blobs, at least ``SITES_FLOOR``, shows the same face clearly at its pip places (``pip_sites``)."""
    return conf >= SITES_FLOOR and sites_agree(src, to_src, die.centre, side, die.value)


#: the least confidence of a face read on a die under ``NEED_PX`` that its pip places may confirm
#: (``_sites_lift``; such a face is then read at ``AGREED_CONFIDENCE``). The pip finder reads a face
#: this small low for uneven or merged blobs, the places part them: on the recordings of real-like
#: games at 640x360 (``bench/bench_video.py --size 640 --dice``, seeds 0-3), of 363 small dice asked,
#: 148 confirmed right, none wrong (a four read a two by both, at a lead of 0.25 at most, is not)
SITES_FLOOR = 0.6


#: a die found only by its change from the learnt board (``dice_scale.changed_bodies``), its pips
#: not shown resolved, keeps its face only when read surer than this (the most a small die's face
#: is taken at on its own: ``SMALL_CONFIDENCE``)
CHANGED_UNCLEAR = SMALL_CONFIDENCE


#: a group's spots this far outside the outline found round them (in its short sides) are no pips
#: of that die: a die that touches it has its own beyond its edge, half a side in and more (a spot of
#: the die's own, or of its shadow, lies within the outline or a pixel or two past its blurred edge)
BEYOND = 0.3


#: an outline this square (short over long side) or more is a flat die's (less: cocked, ``_find``)
SQUARE = 0.84


def _beyond(s: Spot, body: tuple[tuple[float, float], tuple[float, float], float]) -> float:
    """How far (canonical px) the spot ``s`` lies outside the rotated rectangle ``body`` (0 inside)."""
    (bx, by), (bw, bh), ang = body
    t = np.deg2rad(ang)
    dx, dy = s[0] - bx, s[1] - by
    u, v = dx * np.cos(t) + dy * np.sin(t), -dx * np.sin(t) + dy * np.cos(t)
    return float(max(abs(u) - bw / 2, abs(v) - bh / 2, 0.0))


#: of more spots round a face than its value has pips, those farther from the face's centre than this
#: times the farthest of its value's nearest spots lie beyond its pips: marks at the die's edge (a
#: rim's glint, a shadow's speck), none of its pips (``face_spots``). A face's own pips all lie within
#: that farthest one's reach (a two, three, four, five or six: its corner pips, sqrt(2) x 0.25-0.3 of
#: a side out; found up to a tenth apart), its edge 0.5 of a side out: 1.18-1.41 times as far (the
#: marks that cost stop 58's 4 and the 3s of bench_dice_scale.py's clip: 1.23-1.64)
EDGE_MARK = 1.15


def face_spots(group: list[Spot], centre: tuple[float, float], value: int) -> list[Spot]:
    """The spots of ``group`` on a face of ``value`` pips centred at ``centre`` (canonical px): all of
    them, unless there are more than ``value`` (two and up), when those farther out than ``EDGE_MARK``
    times the farthest of the ``value`` nearest are left out: marks at the die's edge, beyond its pips.
    Measured against the face's own pips, not a size in px nor the die's side (a mark's place holds at
    any scale of the view: a 4 read with a fifth mark at its edge lost 0.3 of its confidence at one
    warp scale and not at another, s7j640 game 4 frame 40)."""
    if value < 2 or len(group) <= value:
        return group
    far = np.hypot(np.asarray([s[0] for s in group]) - centre[0], np.asarray([s[1] for s in group]) - centre[1])
    reach = EDGE_MARK * float(np.sort(far)[value - 1])
    return [s for s, d in zip(group, far.tolist()) if d <= reach]


#: ``edge_mark``: the least distance (in the die's sides) from the die's centre of a mark at its edge
#: (a face's corner pips lie 0.35-0.42 of a side out, its edge 0.5-0.71)
EDGE_SIDE = 0.45
#: ``edge_mark``: the spots left, the mark left out, fit the layout of the face read within this
#: (``pips.layout_error``: a face's own pips found 0-0.05 off; a face of one pip more with any one of
#: its pips left out, at least 0.116: a 4's three corners for a 3 0.138, a 5's three corners and middle
#: for a 4 0.152, a six's five for a 5 0.116-0.176; measured a 4's four on a real photo 0.052)
EDGE_FIT = 0.07
#: ``edge_mark``: all the spots, the mark with them, fit a face of one pip more within this: they are
#: that face's pips, no mark (a true face found 0-0.05 off; a 3 or 4 with a mark at its edge 0.09-0.25,
#: a 5 with one at its edge's middle fits a 6 at 0.03-0.05: doubted still)
EDGE_WHOLE = 0.05


def edge_mark(group: list[Spot], centre: tuple[float, float], value: int, side: float) -> bool:
    """Whether ``group``, one spot more than a face of ``value`` pips (3-5) centred at ``centre`` has,
    is that face's pips and one mark at the die's edge beyond them (a rim's glint, a shadow's speck):
    then the face read is not doubted for the mark (``_find``'s x 0.7), though the spots never agree
    with it for it (``_find``'s ``agreed`` counts every spot). A 4 read at 0.99 with a fifth mark at
    its edge was taken at 0.69, at one warp scale and not at another (bcv-template3, now 0.85: a die
    under ``SURE_PX`` whose spots do not agree is taken no surer than ``SMALL_CONFIDENCE``; s7j640
    game 4 frame 40 with ends57's field).

    Why a face misread cannot be made sure so: its spots are the true face's pips (of one pip more),
    and where its centre is found off, one of them lies beyond the rest as a mark would (``face_spots``:
    stop 59's rule, which then counted the rest as the face read, made real-like game 45's false call
    and a small 4 read a 2 at 0.92). The one left out is taken for a mark only where (1) it lies
    beyond the farthest of the rest by ``EDGE_MARK`` and (2) ``EDGE_SIDE`` of the die's side out from
    its centre, (3) the rest fit the face read within ``EDGE_FIT`` and (4) all of them fit no face of
    one pip more within ``EDGE_WHOLE``. A true face of 4, 5 or 6 with any one pip left out fits no face
    of one pip less (3): at least 0.116 off, wherever its centre is found; and all its pips fit their
    own face (4). A 2 is never lifted: any two points fit a 2, so a 3 read a 2 off its middle is a 2
    and a mark by (1)-(3), and its three in a row, found a little off, are told from a 2 and a mark
    only by (4) with no margin. Never more than one mark (a 4 read a 2 off its middle: its far two
    left out fit a 2). So a face is lifted only where the spots left show the face read and the one
    left out lies where none of its pips can: at worst the reading of the same die with no mark, and
    for a die under ``SURE_PX`` never sure (the spots do not agree)."""
    if value < 3 or len(group) != value + 1:
        return False
    kept = face_spots(group, centre, value)
    if len(kept) != value:
        return False
    mark = next(s for s in group if s not in kept)
    if np.hypot(mark[0] - centre[0], mark[1] - centre[1]) < EDGE_SIDE * side:
        return False
    if layout_error(np.asarray([(x, y) for x, y, _ in group])) <= EDGE_WHOLE:
        return False
    return layout_error(np.asarray([(x, y) for x, y, _ in kept])) <= EDGE_FIT


#: spots this far from a die's centre (in its sides) are counted as its pips (``_spots_agree``)
PIPS_WITHIN = 0.5


def _same(pts: np.ndarray) -> np.ndarray:
    return np.asarray(pts, np.float32)
