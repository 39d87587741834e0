"""Examining one candidate die: its face read square to it (``read_face``), the outline round
that face (``look``), and the verdict on both (``judge``: a die, flat or cocked, or something that
is no die -- a printed die, a letter, a hinge); ``examined``: the same, each part the one a memo
kept while its pixels stand."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision.dice_body import DIE_RANGE
from tavli_pi.vision.dice_memo import DiceMemo
from tavli_pi.vision.dice_vet import SMALL_CONFIDENCE, SURE_PX
from tavli_pi.vision.lettering import lettered
from tavli_pi.vision.lie import BLURRED, Outline, cocked_confidence, die_outline, turned_crop
from tavli_pi.vision.pips import REGULAR, Face, read_face_evidence
from tavli_pi.vision.side_face import SIDE_PIPS, side_pips
from tavli_pi.vision.six_bars import READ, bar_six

__all__ = ["COCKED_LONG", "Die", "LETTER_VALUES", "LOOP_GROUND", "LOOP_HOLLOW", "Look", "OBLONGEST", "PRINTED",
           "RECENTRE", "SPAN", "BARS_OVER", "TURNED", "TURNED_CONFIDENCE", "UNSEEN_LIE", "examine", "examined", "judge", "look", "read_face"]

#: read a face again round its pips when the first crop was this far off them (edges)
RECENTRE = 0.06
#: width of the crop a face is read in, in die edges (the outline's, shadow and all):
#: more lets the board's edges in, less cuts the corner pips
SPAN = 1.1
#: a cocked die's outline is at least the smallest die's edge times 1 / ASPECT_COCKED long
COCKED_LONG = DIE_RANGE[0] * 1.2

#: a two or three read square to its pips (on the face's diagonal) whose outline is turned more
#: than this (degrees) from them ...
TURNED = 20.0
#: ... is no surer than this: a die's two or three lie on its body's diagonal, a letter's holes
#: (an upside-down "B" read as a two) need not (the angle taken from a four's or a six's pips
#: may be 45 degrees off its edges, so only twos and threes are judged)
TURNED_CONFIDENCE = 0.6
#: a one whose pip is this big a share of its outline (a die's one: 0.07-0.16 on the real-like
#: set) ...
LOOP_HOLLOW = 0.17
#: ... and shows the ground round the outline (``lie.Outline.hole_ground`` under this; a die's
#: one: 0.6 and up) is a letter's loop round its hole ("O", the bowl of an "R"), not a die
LOOP_GROUND = 0.5
#: an outline whose surroundings (``lie.Outline.stands_out``) are this close to its body's own
#: colour is a die printed on the board, walled off only by a line (the printed die logos of the
#: real-like set: 0.0-0.3), not a die lying on it (dice on the real-like set: 1.0 and up; on the
#: real photos: 1.3 and up)
PRINTED = 0.5
#: a cube tilted on an edge by t shows an outline 1 / (cos t + sin t) as wide as long, never under
#: 0.707 (at 45 degrees); an outline with no face read that is more oblong than this, measuring
#: error allowed, is no die (a hinge's leaf: 0.61-0.65 on the real-like set; dice 0.71 and up)
OBLONGEST = 0.68
#: a letter's loops and holes read as at most this many pips (``lettering.lettered`` is asked
#: only of these)
LETTER_VALUES = 3


#: the most a die is reported at when no outline was measured, round its face or round the search's
#: spots, and a side face's pips show beside its face (``Die.unseen``): it is not known to lie flat
#: (the most a face is taken at on its own, for want of a second witness: ``SMALL_CONFIDENCE``)
UNSEEN_LIE = SMALL_CONFIDENCE


#: a face read this surely is not read again as a six's two bars (``six_bars.bar_six``; asked only
#: of dice under ``dice_vet.SURE_PX``, whose pips can run together)
BARS_OVER = 0.6


def _frame_px(to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float) -> float:
    """A side of ``side`` canonical px at ``centre``, in the frame's pixels."""
    ends = to_src(np.asarray([[centre[0] - side / 2, centre[1]], [centre[0] + side / 2, centre[1]]], np.float32))
    return float(np.hypot(*(np.asarray(ends[1]) - np.asarray(ends[0]))))


def _regular(f: Face) -> bool:
    """Whether a face read shows no pip where its value has none (a lone pip's grid is known in a
    crop square to the die)."""
    return f.hidden is not None and f.hidden <= REGULAR

class Die(NamedTuple):
    value: int
    confidence: float
    cocked: bool
    centre: tuple[float, float]  # canonical px: the top face's centre when it was read
    regular: bool = False  # the face read shows no pip where its value has none (``pips.hidden_pips``)
    outlined: bool = False  # a die's outline (``lie.die_outline``) was measured round the face
    refused: bool = False  # the outline shows something that is no die (printed, too wide): nothing here
    bars: bool = False  # a six read from its two clean bars (``six_bars.READ``): its rows resolved
    #: no outline measured, round the face or round the search's spots, and a side face's pips beside
    #: the face (``Look.side``): not known to lie flat, reported no surer than ``UNSEEN_LIE`` (its
    #: face's confidence still weighs it as a die)
    unseen: bool = False
    #: how the die lies was not seen (``DieReading.lie_seen``): no outline measured, round the face or
    #: round the search's spots, or the one measured looks flat with a side face's pips beside the face
    #: (its strip too soft or too small to show: a JPEG, a small or blurred die)
    unmeasured: bool = False


def read_face(
    src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float, angle: float
) -> tuple[int, float, tuple[float, float], bool, bool]:
    """The top face's value and confidence, read in a crop square to the die (SPAN edges wide);
    read again round the pips' centre when the crop was off it. Returns the face centre too,
    whether the face is regular (``_regular``) and whether it is a six read from its clean bars."""
    span = SPAN * side
    t = np.deg2rad(angle)
    best = (0, 0.0, centre, False, False)
    at = centre
    for i in range(2):
        crop = turned_crop(src, to_src, at, span, angle)
        f = read_face_evidence(crop, aligned=True)
        value, conf, fc = f.value, f.confidence, f.centre
        if i == 0 and conf < BARS_OVER and _frame_px(to_src, centre, side) < SURE_PX:
            bars = bar_six(crop, SPAN)
            if bars > max(conf, best[1]):
                best = (6, bars, centre, False, bars >= READ)  # a six whose rows of pips have run
                # together (never regular: its pips are not shown resolved; its rows are when clean)
        if value == 0 or fc is None:
            break
        fx, fy = (fc[0] - 0.5) * span, (fc[1] - 0.5) * span
        face = (at[0] + fx * np.cos(t) - fy * np.sin(t), at[1] + fx * np.sin(t) + fy * np.cos(t))
        if conf > best[1]:
            best = (value, conf, face, _regular(f), False)
        if np.hypot(fx, fy) < RECENTRE * side:
            break
        at = face
    return best


class Look(NamedTuple):
    """What ``look`` saw round a candidate: the clearest face read (value, confidence, centre,
    ``_regular``) and the outline round it (None: none measured)."""

    value: int
    confidence: float
    face: tuple[float, float]
    regular: bool
    outline: Outline | None
    bars: bool = False  # a six read from its two clean bars (``six_bars.READ``)
    #: with no outline measured, or one that looks flat: the pip-like marks in a row beside one edge of
    #: the face read (``side_face.side_pips``: a side face's pips, the die turning over or leaning)
    side: int = 0


def look(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float,
          angle: float, still: bool = False) -> Look:
    """The face read square to a candidate and the outline round it (``examine``'s reading, before
    its verdict): an oblong outline's top face may be the square at either end (a cocked die's side
    face fills the rest), so it is read there too and the clearest face kept, its outline measured
    again round it. ``still``: a still photo, whose side face's pips are looked for beside a face with
    a flat-looking outline too (``Die.unmeasured``: only a photo caps such a die; a stream judges a
    die once it lies still and never asks)."""
    value, conf, face, regular, bars = read_face(src, to_src, centre, side, angle)
    first = face if value else centre
    o = die_outline(src, to_src, first, side)
    if o is not None and o.aspect < 0.92:
        short = o.long_ * o.aspect
        for sign in (1.0, -1.0):
            k = sign * 0.5 * (o.long_ - short)
            end = (o.centre[0] + k * o.axis[0], o.centre[1] + k * o.axis[1])
            v2, c2, f2, r2, b2 = read_face(src, to_src, end, short, o.angle)
            if v2 and c2 > conf + 0.05:
                value, conf, face, regular, bars = v2, c2, f2, r2, b2
        if (face if value else centre) != first:  # (else the outline is the one just measured)
            o = die_outline(src, to_src, face if value else centre, side)
    beside = 0
    if value and (o is None or (still and cocked_confidence(o) <= 0.5)):
        # (a one's face is as wide as its outline's short side, or the die's; its lone pip shows no grid
        # to turn the crop by, so it is looked at square to the search's candidate and to its outline)
        face_side = side if o is None else o.long_ * o.aspect
        turns = (angle,) if value > 1 or o is None else (angle, o.angle)
        beside = max(side_pips(src, to_src, face, side, a, value, face_side) for a in turns)
    return Look(value, conf, face, regular, o, bars, beside)


#: whether a mark (centre and length, canonical px) of a body colour (BGR, tolerance) is one of a
#: row of like marks (``lettering.lettered`` in one view's frame)
Letters = Callable[[tuple[float, float], float, tuple[float, float, float], float], bool]


def examine(
    canon: np.ndarray,
    src: np.ndarray,
    to_src: Callable[[np.ndarray], np.ndarray],
    centre: tuple[float, float],
    side: float,
    angle: float,
    square: float | None,
    pitch: float,
    still: bool = False,
) -> Die | None:
    """Read one candidate die and judge how it lies: ``judge`` of ``look`` (``still``: a still photo).

    ``square`` is the short over the long side of an outline found round the
    pips (None: none); it decides "cocked" only when the outline round the read
    face cannot be measured. A cocked die's confidence is that of the verdict
    (the roll is void whatever its value), at most its face's; a flat die's is its value's, lowered
    when the outline is doubtful (either cue of ``cocked_confidence`` on a
    blurred outline, where it takes both to call the die cocked). An oblong
    outline shorter than any cocked die (``COCKED_LONG``) is no die at all
    (a numeral's loops on the doubling cube), nor is a one whose "pip" is a big
    hole showing the ground round the outline (``LOOP_HOLLOW``, ``LOOP_GROUND``:
    a printed letter's loop, whose outline may look cocked).

    Some outlines show that nothing here is a die, whatever pips were found (a reading with
    ``refused``: the caller reports no die, not even one with no value): a body walled off from
    the board only by a line (``PRINTED``: a die printed in a logo); a mark read as at most
    ``LETTER_VALUES`` pips that is one of a row of like marks of its colour (``lettering``: a
    word's letter); an outline that says "cocked" but is wider across than the largest die's
    edge (a letter, a logo's ring), or round no face and more oblong than a cube can look
    (``OBLONGEST``: a hinge).
    """
    return judge(look(src, to_src, centre, side, angle, still), centre, angle, square, pitch,
                  lambda c, n, b, t: lettered(src, to_src, c, n, b, t))


def judge(look: Look, centre: tuple[float, float], angle: float, square: float | None, pitch: float,
           letters: Letters) -> Die | None:
    """``examine``'s verdict on what ``look`` saw round the candidate at ``centre``; ``letters``
    tells lettering (asked only of a flat-looking mark read as at most ``LETTER_VALUES`` pips)."""
    value, conf, face, regular, o, bars, beside = look
    if o is not None and value == 1 and o.hollow > LOOP_HOLLOW and o.hole_ground < LOOP_GROUND:
        return None  # a big "pip" of the ground's colour: a letter's loop (its outline can look cocked)
    if o is not None and o.stands_out < PRINTED:
        return Die(0, 0.0, False, centre, refused=True)  # the board's own colour all round the
        # body: a die printed on it (a logo), whatever its pips
    if o is not None and value <= LETTER_VALUES and letters(o.centre, o.long_, o.body, o.tol):
        return Die(0, 0.0, False, centre, refused=True)  # one of a row of like marks: a letter
    if o is not None:
        c = cocked_confidence(o)
        doubt = cocked_confidence(o._replace(blur=0.0))  # either cue alone
        if doubt > 0.5 and o.long_ < COCKED_LONG * pitch:
            return None
        if c > 0.5 and value == 0 and o.aspect < OBLONGEST:
            return Die(0, 0.0, False, centre, refused=True)  # no face, and more oblong than a cube
            # can look (a hinge's leaf, a strip of print)
        if c > 0.5 and o.long_ * o.aspect > DIE_RANGE[1] * pitch:
            return Die(0, 0.0, False, centre, refused=True)  # wider across than the largest die's
            # edge: a cocked die's outline is its top face (the full edge across) and a strip of
            # side face; a letter can be this wide
        if c > 0.5:
            # a cocked die is no surer than the face read on it (a letter's loop read as a one
            # at 0.6 on an outline that looks cocked is not a cocked die at 1.0); no face read at
            # all: an oblong thing, not surely a die (a cube, a label)
            return Die(value, min(c, conf) if value else 0.0, True, face if value else centre, outlined=True)
        if value == 0:
            return None
        conf *= min(1.0, (1.0 - doubt) / 0.7)
        if value in (2, 3) and abs((angle - o.angle + 45.0) % 90.0 - 45.0) > TURNED:
            conf = min(conf, TURNED_CONFIDENCE)  # pips off their body's diagonal: a letter's holes
        if o.stands_out < 1.0 and not bars:
            conf = min(conf, SMALL_CONFIDENCE)  # no step from the board to a body: maybe a printed die
            # (a six of clean bars keeps ``six_bars.READ``, under 0.9: a printed one would be reported
            # all the same, at this cap, and a learnt board drops it in ``dice_vet``; white dice of
            # 10-11 px on a light board in an MP4 step out by 0.84-0.91 only)
        # an outline that looks flat, and a side face's pips in a row beside the face: a die leaning or
        # turning over, its side face's strip too soft or too small for the outline to show (a JPEG, a
        # small or blurred die): how it lies was not seen. A still photo reports it no surer than
        # ``UNSEEN_LIE``; a stream judges a die once it lies still (two dice at rest, one beside the
        # other's edge, lost a roll each in real-like recordings when this capped them there too)
        # (so is an outline too soft to show a cocked die's strip of side face at all, ``lie.BLURRED``: a
        # leaning die in the WTC photo softened by a 1.5 px blur, or at 640 px, was read flat at 0.92)
        return Die(value, conf, False, face, regular, outlined=True, bars=bars,
                   unmeasured=beside >= SIDE_PIPS or o.blur > BLURRED)
    if value == 0:
        return None
    if square is None and beside >= SIDE_PIPS:
        # no outline round the face (it runs into something of the die's colour: a black die against
        # a black point) and none round the search's spots, and a row of pip-like marks beside one
        # of its edges: a side face's pips, the die turning over or leaning. Its face reads as clearly
        # as a flat die's; it is reported no surer than ``UNSEEN_LIE``
        return Die(value, conf, False, face, regular, bars=bars, unseen=True, unmeasured=True)
    cocked = square is not None and square < 0.84
    return Die(value, conf * (0.5 if cocked else 1.0), cocked, face, regular, bars=bars and not cocked,
               unmeasured=square is None)

def examined(memo: DiceMemo | None, view: str, canon: np.ndarray, src: np.ndarray,
              to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float, angle: float,
              square: float | None, pitch: float, still: bool = False) -> Die | None:
    """``examine``, its look and its lettering verdict each the one ``memo`` kept while the pixels
    it read stand: the look reads the die's own square, the lettering a square 5 of its lengths
    across, so a change near a die costs its lettering verdict again, not its faces and outline."""
    if memo is None:
        return examine(canon, src, to_src, centre, side, angle, square, pitch, still)
    key = ("look", view, src.shape, centre, side, angle, still)
    seen = memo.sampled(key, to_src, lambda ts: look(src, ts, centre, side, angle, still))

    def letters(c: tuple[float, float], n: float, body: tuple[float, float, float], tol: float) -> bool:
        return memo.sampled(("letters", view, src.shape, c, n, body, tol), to_src,
                            lambda ts: lettered(src, ts, c, n, body, tol))

    return judge(seen, centre, angle, square, pitch, letters)
