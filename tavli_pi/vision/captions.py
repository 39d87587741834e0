"""A caption over a slot: what a broadcast's lettering leaves seen of it.

A broadcast burns its captions (a score band's white letters) into the picture over everything,
checkers included: a checker under a caption shows between the letters, the letters stay as they
were when the board was learnt at set-up. Read through its box mean, such a slot is the letters'
colour, far from any checker's, and unchanged since set-up: the set-up slot model
(``setup_slots.setup_slot_probability``) then holds it empty at 0.999, and a stack under a band is
counted short with confidence (real-like game 24: two dark checkers under a band's "OT" read as
one at 0.84-0.87 on every frame, and the referee called an illegal play).

What a slot's pixels show of it is then mostly the letters, and its reading weighs no more than
the share they leave seen: the slot's probability of a checker is its reading for the seen share,
``PRIOR`` (even odds: nothing seen) for the hidden one, or its reading where that is higher
(``discounted``). ``hidden`` marks the pixels of the learnt view that are letters (``marks``:
brighter than the median round them, a checker's width across, by ``MARK``, and near an edge
across the field's length -- a point's bright inside and its sides are none) and are still
unchanged (within ``STILL`` of the learnt view, brightness matched). Only slots the learnt
position left empty beyond a stack's first are discounted (``stacks``): a point's first slot
under letters is not made a likelier checker. A print on the board still seen where a stack's
next checker would stand looks the same and is discounted alike: its count is read as before, less
sure. Measured on real-like seeds 0/1/2 (bench/RESULTS.md, stop 36, pair36): wrong spots 64/79/85
-> 64/79/89, none at >= 0.9 before or after; right spots at >= 0.9 1228/996/1295 -> 1226/990/1277;
game 24's pair read at 0.52-0.65 (one or two) where it was one at 0.71-0.87.

A bar's slot's colour is read the same way (``seen_colour``, ``stacks``): hidden more than ``SEEN``
by the letters, it takes its colour from the pixels they leave seen, where these are ``SEEN_LEAST``
of its box or more. The bar is empty when the board is learnt, and its slots are read against the
pair of colours as lit there (``lighting.slot_colours``): through its box mean, a dark checker hit
onto the bar under a band's white letters was read light at 0.95 (real-like game 162). Every slot
so read (the points' slots the set-up left empty too) lost 3 spots on the frame set
(``bench_reallike.py --frames 200``: 95 -> 98 wrong); the points keep their box mean. The seen colour
is taken only against a light reading (``lift_undone``): the letters are bright marks, and lift a box
towards the light checker only; under a dark band, what they leave seen of a light checker is shaded
darker than the pair as lit knows (real-like game 139: read dark at 0.06 where its box read 0.24, the
game out of sync).
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.checkers import box_sums

__all__ = ["MARK", "ACROSS", "STILL", "SEEN", "PRIOR", "SEEN_LEAST", "marks", "hidden", "hidden_share", "discounted",
           "seen_colour", "LIFTED", "lift_undone"]

#: a mark is brighter than the median round it (a checker's width) by this many grey levels
MARK = 50
#: an edge across the field's length steeper than this (grey levels a pixel) is a letter's top or foot
ACROSS = 30
#: a mark's pixel changed by less than this since set-up (largest channel, brightness matched) is
#: the mark still over whatever lies there now
STILL = 25
#: a slot whose box the letters hide no more than this share of is read as it is
SEEN = 0.2
#: the probability of a checker in what the letters hide of a slot: nothing seen, even odds
PRIOR = 0.5
#: a box whose colour reads light at this or more may owe it to the letters over it (``lift_undone``)
LIFTED = 0.5
#: a slot's colour is read from what the letters leave seen of its box where that is at least this
#: share of it (``seen_colour``; less: a few edge pixels of the letters, no checker's colour)
SEEN_LEAST = 0.15


def marks(background: np.ndarray, radius: float) -> np.ndarray:
    """bool mask of the learnt view's letters: pixels brighter (largest channel) than the median of
    a box about a checker's width round them by ``MARK``, within half a radius of an edge across the
    field's length (``ACROSS``: a letter's top and foot; a point's sides run along it, and its
    bright inside is no letter) (``radius``: a checker's, in the view's pixels)."""
    grey = background.max(axis=2) if background.ndim == 3 else background
    grey = np.ascontiguousarray(grey, np.uint8)
    k = max(int(2 * radius) | 1, 3)
    bright = grey.astype(np.int16) - cv2.medianBlur(grey, k).astype(np.int16) > MARK
    gy = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)) / 4.0  # grey levels a pixel
    d = max(int(radius) | 1, 3)
    near = cv2.dilate((gy > ACROSS).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d)))
    return np.asarray(bright & (near > 0))


def hidden(mark: np.ndarray, diff: np.ndarray) -> np.ndarray:
    """The marks still there now: ``mark`` where ``diff`` (the frame's change from the learnt view)
    is below ``STILL``."""
    return np.asarray(mark & (diff < STILL))


def hidden_share(hide: np.ndarray, cx: np.ndarray, cy: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Per box (centres ``cx``, ``cy``, half-sizes ``half``, any one shape, in ``hide``'s pixels), the
    share of its pixels ``hide`` holds (``checkers.box_sums``' boxes)."""
    n, area = box_sums(np.asarray(cv2.integral(hide.astype(np.uint8)), np.float64), cx, cy, half)
    return np.asarray(n / area)


def discounted(p_occ: np.ndarray, share: np.ndarray) -> np.ndarray:
    """``p_occ`` read for the seen share of each slot, ``PRIOR`` for the share hidden (slots hidden
    no more than ``SEEN`` as they are), where that is likelier: letters over a slot make it look
    like no checker, so a slot read as a checker through them keeps its reading (real-like seed 0,
    frame 116: a second checker under a band's letters read at 0.81, pulled to 0.59, and the pair
    was read as one at 0.67)."""
    s = np.where(share > SEEN, share, 0.0)
    return np.asarray(np.maximum(p_occ, (1.0 - s) * p_occ + s * PRIOR))


def seen_colour(now: np.ndarray, hide: np.ndarray, cx: np.ndarray, cy: np.ndarray, half: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Per box (as ``hidden_share``'s, in ``now``'s pixels), the mean colour (..., 3) of the frame
    ``now`` (H, W, 3) over the pixels ``hide`` leaves seen (0 where it leaves none), and the share
    of the box they are. The letters stay as they were learnt over whatever lies under
    them: through its box mean a dark checker come under white letters is read light (real-like
    game 162, club at 1280 px: a dark checker hit onto the bar under a band's "AS", its box mean
    (212, 211, 230) against a light checker's (226, 228, 229) and a dark one's (40, 38, 167), read
    light at 0.95 on every frame it stood there)."""
    keep = (~hide).astype(np.float32)
    seen = np.asarray(cv2.integral(now.astype(np.float32) * keep[..., None], sdepth=cv2.CV_64F), np.float64)
    n, area = box_sums(np.asarray(cv2.integral(keep, sdepth=cv2.CV_64F), np.float64), cx, cy, half)
    s, _ = box_sums(seen, cx, cy, half)
    return np.asarray(s / np.maximum(n, 1.0)[..., None], np.float32), np.asarray(n / area)


def lift_undone(p_box: np.ndarray, p_seen: np.ndarray) -> np.ndarray:
    """A slot's chance of being light read through its box (``p_box``) and through what a caption's
    letters leave seen of it (``p_seen``, ``seen_colour``): the seen reading where the box reads light
    (``LIFTED`` or more), the box's elsewhere. The letters are bright marks (``MARK``): they lift a box
    towards the light checker only, and a box read dark was not misled by them -- what they leave seen
    is no better there: under a dark band it is shaded darker than the pair of colours as lit knows
    (real-like game 139, pinetti at 640 px: a light checker on the bar under a band's white letters, read
    dark at 0.24 through its box -- the board balanced against the trays put it back -- and at 0.06
    through what the letters left seen, and the game went out of sync: accepted 8 -> 2). Game 162's dark
    checker under white letters, read light at 0.95 through its box, is read by what they leave seen."""
    return np.asarray(np.where(p_box >= LIFTED, p_seen, p_box))
