"""A small six with no outline, found by its change from the learnt board and read by its two bars
(issue 9: the dice of 640x360 recordings).

At 640 px a six's two rows of pips blur into two bars (``six_bars``). On a die with no outline (a black
die on the navy Pinetti field, a white one on the cream metal board: ``dice_patch_pips``) its changed
patch (``dice_scale.changed_bodies``) is found, but its pips at its own scale are one or two spots or none
(``dice_patch_pips.patch_pips`` gives no face, or a one or a three off its centre), and no outline gives
the crop its side and angle for the bars (``dice._still_bars``). ``patch_six`` looks for the bars in
crops centred on the patch itself, at a few sides (the patch takes in the die's rim and shadow on cream,
only its pips on navy) and turned through a quarter turn (the bars stand either way: ``bar_six`` tries
both). A six's bars are a row of three pips each: they stay clean (``six_bars.CLEAN``) while the crop
turns ``TURN_LEAST`` steps of ``TURN_STEP`` and more; a four's or five's pips, or the edge of a die's
shadow beside a column of pips, line up as two clean bars at one angle at most (real-like seeds 7, 10
and 11 at 640 px, in the app's stream: ``six57.md``). The caller reads the face at the middle of the
turns found clean (``dice_face.examined``: a six of clean bars, ``six_bars.READ``, under the 0.9 a play
is called on).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tavli_pi.vision.dice_face import SPAN
from tavli_pi.vision.lie import quad_crop, turned_crop, turned_square
from tavli_pi.vision.six_bars import READ, bar_six, clean_bars, inked_looks
from tavli_pi.vision.tumbling import HatBlob

__all__ = ["SIX_OFF", "SIX_SIDES", "TURN_LEAST", "TURN_STEP", "patch_six", "six_turns"]

#: the die's sides (shares of the changed patch's root area) its bars are looked for at: a patch with the
#: die's rim and shadow (a white die on cream) is 1.2-1.4 times the die, one of its pips only (a black die
#: on navy, the mask closed round its pips) 0.9-1 times it
SIX_SIDES = (0.75, 0.9, 1.05)
#: the crop's centre is moved this far (die sides) each way from the patch's: the shadow a patch takes in
#: moves its centre off the die's (``dice_patch_pips.PATCH_WITHIN``), and a bar a pixel off its place
#: (0.1 of an 11 px die's side) falls out of ``six_bars``' rows
SIX_OFF = 0.12
#: the crop is turned by this many degrees a step through a quarter turn
TURN_STEP = 10
#: a six's bars: clean at this many steps in a row at one centre and side (a quarter turn wraps round).
#: A six's bars stay in ``six_bars``' rows (``ROW_RANGE``: 0.17 of a side wide round each) while the crop
#: turns up to about 20 degrees either way (a row's end pips, a quarter side from its middle, move across
#: it by a quarter side's sine of the turn: 0.085 at 20 degrees): 40 degrees, 4 steps or 5. Two "bars" that
#: chance lines up (a five's corner pips and its shadow's edge) stay clean through a step or two (real-like
#: seed 10 at 640 px, the app's stream: 27 of 28 still six patches clean through 4-5 steps, no other face's
#: through more than 3)
TURN_LEAST = 4


def six_turns(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob
              ) -> tuple[int, tuple[float, float], float, float]:
    """The longest run of turns a changed patch ``b`` shows a six's clean bars through in ``src`` (the
    frame; ``to_src``: canonical points to its pixels), over the centres round the patch's (``SIX_OFF``)
    and the sides ``SIX_SIDES``: (run, centre, side, the run's middle angle in degrees)."""
    root = float(np.sqrt(b.area))
    turns = list(range(0, 90, TURN_STEP))
    best: tuple[int, tuple[float, float], float, float] = (0, (b.x, b.y), root, 0.0)
    for k in SIX_SIDES:
        side = k * root
        for dx in (0.0, -SIX_OFF, SIX_OFF):
            for dy in (0.0, -SIX_OFF, SIX_OFF):
                at = (b.x + dx * side, b.y + dy * side)
                clean = [bar_six(turned_crop(src, to_src, at, SPAN * side, float(a)), SPAN) >= READ for a in turns]
                run, mid = _longest_run(clean)
                if run > best[0]:
                    best = (run, at, side, float(mid * TURN_STEP))
    return best


def patch_six(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob
              ) -> tuple[tuple[float, float], float, float] | None:
    """The centre (canonical px), side and angle (degrees) a changed patch ``b`` shows a six's two clean
    bars at (``six_turns``: through ``TURN_LEAST`` turns and more); None where it shows none.

    ``six_turns``' answer, to the bit, from a few of its crops (issue 12: its 243 crops cost 120-150 ms a
    patch): a centre and side counts only through a run longer than the best found before it (and at
    least ``TURN_LEAST``), and every such run holds one of the turns a run's length apart
    (``_run_through``), so only those are read at first, and a run's neighbours where one is clean. The
    frame is mapped at every crop's corners, as ``six_turns`` maps it (a memo keeps the answer while
    the pixels round all of them stand: ``DiceMemo.sampled``)."""
    root = float(np.sqrt(b.area))
    turns = list(range(0, 90, TURN_STEP))
    offs = (0.0, -SIX_OFF, SIX_OFF)
    places = [(side, (b.x + dx * side, b.y + dy * side)) for side in (k * root for k in SIX_SIDES)
              for dx in offs for dy in offs]
    # (``turned_crop``'s points, mapped in one call: the map is point by point)
    squares = {side: [turned_square(SPAN * side, float(a)) for a in turns] for side in {p[0] for p in places}}
    corners = np.concatenate([sq + np.asarray([at], np.float32) for side, at in places for sq in squares[side]])
    quads = np.asarray(to_src(corners)).astype(np.float32).reshape(len(places), len(turns), 4, 2)
    # the crops every place is asked first (while no six is found: the turns ``TURN_LEAST`` apart), made
    # at once and the looks that cannot be clean there told at once (``six_bars.inked_looks``, issue 12)
    first = range(0, len(turns), TURN_LEAST)
    crops = {(i, j): quad_crop(src, quads[i, j]) for i in range(len(places)) for j in first}
    looks = dict(zip(crops, inked_looks(list(crops.values()), SPAN).tolist()))
    best: tuple[int, tuple[float, float], float, float] = (0, (b.x, b.y), root, 0.0)
    for i, (side, at) in enumerate(places):
        least = max(TURN_LEAST, best[0] + 1)
        if least > len(turns):
            break  # (every turn clean before: no run can be longer)
        seen: dict[int, bool] = {}

        def clean(j: int, i: int = i) -> bool:
            if j not in seen:
                if (i, j) in crops:
                    seen[j] = clean_bars(crops[i, j], SPAN, looks[i, j])
                else:
                    seen[j] = clean_bars(quad_crop(src, quads[i, j]), SPAN)
            return seen[j]

        run, mid = _run_through(clean, len(turns), least)
        if run >= least:
            best = (run, at, side, float(mid * TURN_STEP))
    return best[1:] if best[0] >= TURN_LEAST else None


def _run_through(clean: Callable[[int], bool], n: int, least: int) -> tuple[int, float]:
    """``_longest_run`` of the ``n`` steps ``clean(step)`` tells, where that run is ``least`` steps or more;
    a shorter run (any, or (0, 0.0)) where none is. Every run of ``least`` steps round the ``n`` holds a
    step a multiple of ``least`` (those steps stand ``least`` apart, the last less than ``least`` from the
    first round), so only they are asked first, then the neighbours of a clean one; all ``n`` where two
    runs of ``least`` could stand apart (``2 least + 2 <= n``: which is longest then asks them all)."""
    if 2 * least + 2 <= n:
        return _longest_run([clean(j) for j in range(n)])
    for h in range(0, n, least):
        if not clean(h):
            continue
        left = 0
        while left < n - 1 and clean((h - left - 1) % n):
            left += 1
        if left == n - 1:
            return n, 0.0
        right = 0
        while clean((h + right + 1) % n):
            right += 1  # (ends at the step that ended ``left``, if not before)
        run = left + right + 1
        if run >= least:  # (the one run this long: two need 2 least + 2 steps)
            return run, ((h + right) % n - (run - 1) / 2.0) % n
    return 0, 0.0


def _longest_run(clean: list[bool]) -> tuple[int, float]:
    """The longest run of True in ``clean`` taken round (the last step next to the first) and its middle
    step (a fraction where the run is even; taken mod the steps); (0, 0.0) where none is True."""
    n = len(clean)
    if all(clean):
        return n, 0.0
    if not any(clean):
        return 0, 0.0
    best, mid = 0, 0.0
    start = next(i for i in range(n) if not clean[i])  # a run never wraps past a False
    run = 0
    for j in range(1, n + 1):
        i = (start + j) % n
        if clean[i]:
            run += 1
            if run > best:
                best, mid = run, ((i - (run - 1) / 2.0) % n)
        else:
            run = 0
    return best, mid
