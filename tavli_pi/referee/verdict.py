"""Verdicts on a finished play from clear frames of a still board (rules-constrained reading).

See DESIGN.md, "the key idea": the best legal end position against the best
unconstrained reading; never an illegal call on weak evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tavli_pi.referee.evidence import EvidenceTable, Reading, read
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import Observation

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.rules.games import GamePosition

__all__ = ["Verdict", "judge_evidence", "frame_argmax", "confidently_differs"]


class Verdict:
    """What the evidence says about a finished play."""

    __slots__ = ("kind", "result", "reading", "reason")

    def __init__(self, kind: str, result: GamePosition | None, reading: Reading | None, reason: str = "") -> None:
        self.kind = kind  # "legal", "illegal", "unclear"
        self.result = result  # the accepted end position (legal) or the observed one (illegal)
        self.reading = reading
        self.reason = reason


def frame_argmax(obs: Observation) -> tuple[tuple[int, ...], tuple[int, ...]]:
    spots = (*obs.points, obs.bar, obs.off)
    return tuple(s.light.best for s in spots), tuple(s.dark.best for s in spots)


def judge_evidence(
    frames: Sequence[Observation],
    candidates: Sequence[GamePosition],
    settings: RefereeSettings,
    turn: Side,
    *,
    game: GameRules | None = None,
    known: GamePosition | None = None,
    blind: Sequence[int] = (),
    conserve: bool = False,
) -> Verdict:
    """Judge clear frames of a still board against the legal end positions.

    Legal: in ``stable_frames`` or more frames, the best candidate beats the others by ``accept_margin`` and the
    unconstrained reading is at most ``accept_gap`` better (not scaled by the
    number of frames: a real difference grows with every frame, noise does not).
    Illegal: the unconstrained reading is ``illegal_gap`` better than every
    candidate, is itself a position (15 + 15), is confident on every differing
    spot, and each of the last ``stable_frames`` frames on its own reads those
    spots the same way. Anything else: unclear. ``blind``: spots vision misreads on this board
    (:class:`~tavli_pi.referee.evidence.EvidenceTable`). ``conserve``: read the board as the best
    reading keeping 15 and 15 (:func:`~tavli_pi.referee.evidence.read`).
    """
    if not frames:
        return Verdict("unclear", None, None, "no clear frame of the board")
    if any(o.hand or o.motion for o in frames):
        return Verdict("unclear", None, None, "a hand or motion over the board")
    table = EvidenceTable(frames, blind)
    r = read(table, candidates, light_is_white=settings.light_is_white, turn=turn, game=game,
             hints=() if known is None else (known,), conserve=conserve)
    if (
        r.gap >= settings.illegal_gap
        and r.free is not None
        and r.min_confidence >= settings.illegal_confidence
        and r.stable_frames >= settings.stable_frames
    ):
        return Verdict("illegal", r.free, r)
    if r.margin >= settings.accept_margin and r.gap <= settings.accept_gap and len(frames) >= settings.stable_frames:
        return Verdict("legal", candidates[r.best], r)
    if r.free is None:
        why = "the checker counts do not add up to 15 and 15"
    elif r.margin < settings.accept_margin:
        why = "the board fits more than one legal play"
    else:
        why = "the reading is not confident enough"
    return Verdict("unclear", None, r, why)


def confidently_differs(a: Observation, b: Observation, threshold: float = 0.9) -> bool:
    """Do two frames disagree on a spot where both are confident?"""
    sa = (*a.points, a.bar, a.off)
    sb = (*b.points, b.bar, b.off)
    for x, y in zip(sa, sb):
        for cx, cy in ((x.light, y.light), (x.dark, y.dark)):
            if cx.best != cy.best and cx.confidence >= threshold and cy.confidence >= threshold:
                return True
    return False

