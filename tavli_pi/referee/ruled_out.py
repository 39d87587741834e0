"""A play whose every legal end a spot read surely rules out (an illegal call with one spot in doubt).

An illegal call rests on the board read otherwise than every legal end of the play. Until now each
spot where the reading differs from the best legal end had to be read surely on its own evidence
(``illegal_confidence``), or, for one spot, pinned there by the count (:meth:`~tavli_pi.referee.
evidence.EvidenceTable.sure_by_count`). That asks two things at once: that the board is *no* legal
end, and that the referee knows *which* board it is, spot for spot.

The first is what makes the play illegal (E8), and it can be known without the second. A checker
moved one pip too far leaves the spot it should have reached empty, and the spot it reached holds
one more: when the frames read the spot it should have reached surely (empty, at 1.0), the legal
end that has a checker there is ruled out, however doubtful the count where the checker lies (a
stack of two read at 0.6 beside a blot's shadow: stop 18, real-like games 30, 48, 90). So a call
also stands when

- every spot where the reading differs from the best legal end is read surely but one (two or more
  in doubt are never enough: a misread that shifts a checker between two doubtful spots adds up as
  well -- stop 18's game 18, five spots read wrong and each "sure by the count"), and
- every legal end differs from the reading at a spot read surely (both colours' counts at
  ``illegal_confidence`` or more, on the frames together), so no legal end is left that the sure
  spots allow.

The rest of the call's conditions are unchanged (the gap to every legal end, a position read, the
stable frames, one play of the mover, the roll doubt). On legal play the board is a legal end, so a
call needs a spot read surely and wrongly -- the failure any call already rests on, no new kind.
Such a verdict (its reason :data:`RULED_OUT`) is only ever a call: when its board is not one play of
the mover, or the next roll is on the board, it is no evidence that the board is out of step (that
needs every spot read surely, as before): the play stays unclear (:func:`~tavli_pi.referee.verdict.only_a_call`; stop 19,
real-like game 91: a legal play's board read with one spot wrong went out of sync and lost a play).
:func:`~tavli_pi.referee.verdict.judge_evidence` and the referee use these.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavli_pi.referee.evidence import OFF, EvidenceTable

__all__ = ["RULED_OUT", "ends_ruled_out", "unfound_placed"]

#: the reason of an illegal verdict that rests on :func:`ends_ruled_out`
RULED_OUT = "every legal end is ruled out by a spot read surely"


def ends_ruled_out(table: EvidenceTable, ends: Sequence[tuple[np.ndarray, np.ndarray]],
                   free: tuple[np.ndarray, np.ndarray], differing: Sequence[int], confidence: float) -> bool:
    """Whether the reading ``free`` (light, dark counts per spot) stands against every legal end in
    ``ends`` (their (light, dark) counts): at most one of the ``differing`` spots (where ``free``
    differs from the best end) is read under ``confidence`` on its own evidence, and every end differs
    from the frames' reading at a spot read surely (both colours at ``confidence`` or more, not
    blind), where the reading is ``free``'s. False with no differing spot or no end."""
    if not differing or not ends:
        return False
    fl, fd = free
    sure_mask = (np.minimum(table.conf_light, table.conf_dark) >= confidence)
    sure_mask &= (table.argmax_light == fl) & (table.argmax_dark == fd)
    if table.blind:
        sure_mask[list(table.blind)] = False
    doubt = [i for i in differing if not sure_mask[i]]
    if len(doubt) > 1:
        return False
    sure = np.flatnonzero(sure_mask)
    if not len(sure):
        return False
    return all(bool(((el[sure] != fl[sure]) | (ed[sure] != fd[sure])).any()) for el, ed in ends)


def unfound_placed(table: EvidenceTable, free: tuple[np.ndarray, np.ndarray], before: tuple[np.ndarray, np.ndarray],
                   ends: Sequence[tuple[np.ndarray, np.ndarray]], mover_light: bool, confidence: float,
                   near: float, margin: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The boards ``free`` may be when its one checker of the mover counted off beyond ``before`` is
    one the reader did not find: the count off read under ``confidence`` (on a board without trays it
    is only the count the board implies, 15 less the checkers found, and costs the reading nothing).
    That checker lies on a point: it is put on each point the other colour does not hold, and the
    boards so placed that the frames' evidence (:meth:`~tavli_pi.referee.evidence.EvidenceTable.score`)
    reads within ``near`` (``accept_gap``) of ``free`` itself and ``margin`` (``accept_margin``) or
    more ahead of every placement that is a legal end in ``ends`` are returned, best first. A legal
    end among the placements that is not that far behind keeps the doubt with the player: the checker
    may lie where that play put it. None either when the mover has not exactly one checker more off
    than ``before``, or that count is read surely.

    A reading with a checker of the mover borne off mid-game is no play of the mover, so an illegal
    verdict resting on :func:`ends_ruled_out` is not a call (:func:`~tavli_pi.referee.verdict.only_a_call`),
    though the checker may only be unseen (stop 24, real-like game 104: a dark checker on a dark
    point, read there at 0.26-0.38 a frame; 2.2 behind the reading on three frames, the legal end's
    place for it, a second checker on a blot read at 0.64, 11.0 behind). Placed, the board may be one
    play: the call then needs nothing more of the evidence than :func:`ends_ruled_out` did.
    ``free``, ``before`` and ``ends``: (light, dark) counts per spot."""
    own, other = (0, 1) if mover_light else (1, 0)
    if int(free[own][OFF]) - int(before[own][OFF]) != 1:
        return []
    conf = table.conf_light if mover_light else table.conf_dark
    if conf[OFF] >= confidence or OFF in table.blind:
        return []
    boards: list[tuple[np.ndarray, np.ndarray]] = []
    for point in range(24):
        if free[other][point]:
            continue
        counts = [free[0].copy(), free[1].copy()]
        counts[own][OFF] -= 1
        counts[own][point] += 1
        boards.append((counts[0], counts[1]))
    if not boards:
        return []
    scores = table.score(np.stack([b[0] for b in boards]), np.stack([b[1] for b in boards]))
    legal = [float(scores[i]) for i, (bl, bd) in enumerate(boards)
             if any((bl == el).all() and (bd == ed).all() for el, ed in ends)]
    bar = float(table.score(free[0][None], free[1][None])[0]) - near
    if legal:
        bar = max(bar, max(legal) + margin)
    return [boards[int(i)] for i in np.argsort(-scores, kind="stable") if scores[i] >= bar]
