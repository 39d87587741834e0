"""Never report a die that is not there, nor a value that cannot be read.

``find_dice`` finds anything that looks like pips or a die's body. Before a
reading leaves the reader each candidate is vetted:

- with a learnt background (set-up, ``background.py``) a die must stand out
  from it: lettering, logos, the cube in its place and broadcast overlays are
  in the background, so they never become dice; a die with no face read on it (one
  reported tumbling, or too small to read) and not on a checker must stand out where no
  checker the board reading accounts for stands: a gap between checkers moved there since
  set-up is the learnt board itself, though the checkers round it changed the place;
- within a place where a die lay on the frame the board was learnt from
  (``Calibration.setup_dice``) the learnt board shows that die, not the board: a
  still photo's die there is vetted as with no learnt board (``unlearnt``). In a
  stream such a place that stays as learnt once the roll it was learnt with is
  gone (a die picked up from another such place, or a new die thrown elsewhere)
  held no die: it is the board's own print, and is vetted as the board
  (``printed_marks``);
- without one, a candidate outside the playing field is dropped: beside the
  field lie the frame, hinges, trays and printed marks, and nothing there can
  be told from a die without knowing the board;
- a value read at almost no confidence is no die;
- below the size at which pips can be read a die keeps no value: it is
  reported "too small to read (N px, need M)". Dice under ``SURE_PX`` are read
  with full confidence (above ``SMALL_CONFIDENCE``) only when two views of their
  pips agree: the search found as many separate pips as the face read shows, and
  the face shows no pip where its value has none (``dice.find_dice``). That is
  the proof that a small die's pips are resolved: under ``NEED_PX`` a die keeps
  its value only with it, and under ``LEAST_PX`` never.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from tavli_pi.vision.background import Difference
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import DieReading

__all__ = ["AGREED_CONFIDENCE", "LEAST_PX", "NEED_PX", "SMALL_CONFIDENCE", "SURE_PX", "printed_marks", "vet_dice"]

#: the least die side (image px) whose pips can be read without proof that they are resolved:
#: three pips of ~2 px and four gaps of ~1.5 px across a face
NEED_PX = 12
#: the least die side (image px) whose pips can be read at all, resolved or not: a six's rows lie
#: a quarter of the side apart, 2 px here, the finest spacing a camera's pixels can tell apart.
#: (Dice of 8-11 px read flat with their pips resolved, in recordings of real-like games at
#: 640x360: 645 right, 0 wrong; the WTC 2022 frames shrunk to 640x360: 2 right, 0 wrong.
#: bench/bench_video.py --size 640 --dice.)
LEAST_PX = 8
#: below this side (image px) a die's value is given full confidence only on agreeing evidence
#: (``SMALL_CONFIDENCE``)
SURE_PX = 20
#: the most a die under ``SURE_PX`` is read at, unless the pips the search found are as many as
#: the value read and the face is regular (two views of its pips agree, none hidden: its pips
#: are resolved)
SMALL_CONFIDENCE = 0.85
#: the most a die under ``SURE_PX`` found by its body (not by its pips) is read at when its pips are
#: shown resolved only afterwards (``dice._spots_agree``, ``dice._scale_agrees``, the finer view's
#: ``dice._confirms``): its value is kept, never as sure as the 0.9 a confidently wrong die is
#: counted at (issue 9) and the referee's default ``illegal_confidence`` calls a play on (a 10 px
#: five lost its middle pip in both views and was read a regular four: real-like seed 1 frame 65,
#: bench/RESULTS.md stop 18)
AGREED_CONFIDENCE = 0.89
#: a value read below this confidence is not evidence of a die
NO_DIE = 0.1
#: how far outside the field's edges (field fractions) a die still counts as on the field
EDGE = 0.01
#: the radius (a share of the pitch) round a die's centre in which it must stand out from the learnt board
STAND_OUT = 0.18


def vet_dice(dice: Sequence[DieReading], cal: Calibration, background: Difference | None,
             checkers: Sequence[tuple[float, float, float]] = (),
             unlearnt: Sequence[tuple[float, float, float]] = (), valued_only: bool = False,
             table_px: float = 0.0) -> list[DieReading]:
    """The readings of ``dice`` that are dice, with values only where they can be read.
    ``checkers``: the checker discs (x, y, r canonical px) the board reading accounts for.
    ``unlearnt``: discs (x, y, r canonical px) where the learnt board is not known (a die lay there
    when it was learnt, ``Calibration.setup_dice``): a die whose place compared with the learnt board
    (``STAND_OUT`` of a pitch round its centre) reaches into one is vetted as with no learnt board;
    ``valued_only`` (a stream): there, only with a value read. The learnt board shows a die there, so
    once it is picked up the empty board differs from it in a die's outline, and that is no die
    tumbling (a stream that starts on a roll lying, learnt with it, waited for ever for a roll it had
    seen picked up). ``table_px``: the size the table's dice show (``dice_table_size.DieSizes``, 0: not
    known): a die measured under ``LEAST_PX`` on a table whose dice are not that small is held to
    ``NEED_PX``'s proof instead (its side was measured short)."""
    if not dice:
        return []
    lay = cal.layout
    canon = cal.to_canonical(np.asarray([d.xy for d in dice], np.float32))
    out: list[DieReading] = []
    for d, (x, y) in zip(dice, canon):
        u, v = lay.to_uv(float(x), float(y))
        inside = -EDGE <= u <= 1 + EDGE and -EDGE <= v <= 1 + EDGE
        reach = STAND_OUT * lay.pitch
        known = not _within(float(x), float(y), unlearnt, reach)
        if background is not None and known:
            if not background.stands_out(float(x), float(y), reach):
                continue  # part of the board as learnt at set-up
            if (not d.value and not d.on_checker and checkers
                    and not background.stands_out_beside(float(x), float(y), reach, checkers)):
                continue  # only the checkers round it changed: the board between them, no die
        elif not inside:
            continue
        elif not known and valued_only and not d.value:
            continue  # where the die the board was learnt with lay, and picked up: the learnt die's outline
        if d.value and d.value_confidence < NO_DIE and not d.moving:
            if not _small_standing_out(d, float(x), float(y), reach, background if known else None, checkers):
                continue
            d = dataclasses.replace(d, sizes_table=False)  # no face read: no measure of the table's dice
        need = _need_px(d, table_px)
        if need:
            d = dataclasses.replace(
                d, value=0, value_confidence=0.0,
                note=f"too small to read ({int(d.size_px)} px, need {need})",
            )
        out.append(d)
    return out


def printed_marks(unlearnt: Sequence[tuple[float, float, float]], background: Difference, lay: Layout,
                  lying: Sequence[tuple[float, float]] = (), thrown: Sequence[tuple[float, float]] = ()
                  ) -> tuple[tuple[float, float, float], ...] | None:
    """The places of ``unlearnt`` (x, y, r canonical px: where a die was read on the frame the board
    was learnt from, ``Calibration.setup_dice``) that were the board's own print, not a die, once the
    roll the board was learnt with is gone; None while it is not known gone. It is gone when such a
    place stands out from the learnt board (``STAND_OUT``) with no die lying in it (``lying``, canonical
    px: every die read on this frame): its die was picked up, the learnt board shows a die there and the
    frame the board. Or when a die is read lying still, clear of every such place (``thrown``, canonical
    px: the next roll). The places that then still look as learnt held no die: a die does not stay put
    while its partner is picked up or the dice are thrown again; a printed mark does (pinetti's gold
    ring, read a 1 at 0.92 on a clip's first frame, made every later throw three dice: stop 48).
    Call it on frames with no hand over the board, until it first answers: a later throw may land a die
    where one lay, showing the same face."""
    reach = STAND_OUT * lay.pitch
    as_learnt = [not background.stands_out(x, y, reach) for x, y, _ in unlearnt]
    picked_up = any(not same and not any(_within(tx, ty, [u], reach) for tx, ty in lying)
                    for u, same in zip(unlearnt, as_learnt))
    thrown_clear = any(not _within(tx, ty, unlearnt, reach) for tx, ty in thrown)
    if not picked_up and not thrown_clear:
        return None
    return tuple(u for u, same in zip(unlearnt, as_learnt) if same)


def _small_standing_out(d: DieReading, x: float, y: float, reach: float, background: Difference | None,
                        checkers: Sequence[tuple[float, float, float]]) -> bool:
    """Whether ``d``, a face read at no confidence (under ``NO_DIE``), is still a die: one too small for
    its face to be read without proof (under ``NEED_PX``), not on a checker, that stands out from the
    learnt board (``background``: None where it is not known there) where no checker the reading
    accounts for (``checkers``) stands -- what a die found with no face must show. Its face is then
    withheld (``_need_px``): a 9 px die whose pips the search saw as a one at 0.05 was no die at all,
    and the players were not asked for a roll the camera never saw (real-like game 19, rosewood at
    640 px: two rolls)."""
    return bool(background is not None and checkers and d.size_px and d.size_px < NEED_PX and not d.on_checker
                and background.stands_out_beside(x, y, reach, checkers))


def _within(x: float, y: float, discs: Sequence[tuple[float, float, float]], reach: float) -> bool:
    """Whether (x, y) lies within ``reach`` of any of ``discs`` (x, y, r; all canonical px)."""
    return any(np.hypot(x - dx, y - dy) < dr + reach for dx, dy, dr in discs)


def _need_px(d: DieReading, table_px: float = 0.0) -> int:
    """The side (image px) ``d`` would need for its value to be read, or 0 when it can be read:
    ``LEAST_PX`` under that (unless the table's dice, ``table_px``, are not that small); ``NEED_PX``
    under that unless its pips are shown resolved (read flat above ``SMALL_CONFIDENCE``, which
    ``dice.find_dice`` gives a die that small only when two views of its pips agree)."""
    if not d.size_px or d.size_px >= NEED_PX:
        return 0
    if max(d.size_px, table_px) < LEAST_PX:
        return LEAST_PX
    return 0 if d.flat and d.value_confidence > SMALL_CONFIDENCE else NEED_PX
