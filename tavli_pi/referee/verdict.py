"""Verdicts on a finished play from clear frames of a still board (rules-constrained reading).

See DESIGN.md, "the key idea": the best legal end position against the best
unconstrained reading; never an illegal call on weak evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tavli_pi.referee.evidence import EvidenceTable, Reading, game_spot_counts, read
from tavli_pi.referee.ruled_out import RULED_OUT, ends_ruled_out, unfound_placed
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import Observation

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.rules.games import GamePosition

__all__ = ["Verdict", "CALL_FRAMES", "call_gap", "only_a_call", "judge_evidence", "judge_on_sure_spots", "judge_play", "one_checker_off",
           "doubtful_spots", "frame_argmax", "confidently_differs", "MAX_DOUBTFUL", "Miscount"]

#: the most clear frames of one still board the gap of an illegal call counts (:func:`call_gap`)
CALL_FRAMES = 3

#: a stack counted one off: (spot, light colour?, read minus the best legal end)
Miscount = tuple[int, bool, int]

#: the most spots read without certainty around which a play is still judged (:func:`judge_on_sure_spots`):
#: a third of the 24 points; a board read more loosely than that (a shadow, a blur over a stretch of
#: points) waits for a clearer view. Was 4 (a judgement); stop 60 replayed the referee over the 200
#: real-like games' recorded observations (``bench_reallike.py --dump``, ``bench/replay_referee.py``)
#: with every limit from 4 to none: of the 64 judgements with 5-26 doubtful spots, one gave a verdict
#: (game 18's planted play, 6 doubtful spots under a band, its illegal part read surely: called at 5 and
#: above), and no limit made an illegal call on legal play or changed another game. A call still needs
#: every differing spot read surely and alike, and a board that is one play of the mover.
MAX_DOUBTFUL = 8


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


def call_gap(r: Reading, frames: int, settings: RefereeSettings) -> float:
    """The gap an illegal call rests on: ``r``'s over ``frames`` frames, but when every one of more
    than :data:`CALL_FRAMES` frames (never fewer than the ``stable_frames`` a call needs) reads the
    spots it rests on alike (``r.stable_frames``), the frames' mean times :data:`CALL_FRAMES`.

    The frames a play is judged on are clear frames of one still board since the last hand: the same
    checkers under the same light, read by the same reader. Where the reader misreads a spot it
    misreads it alike on every such frame (real-like game 142: a phantom checker read at 0.56-0.64 on
    every frame), so the summed gap of a board that is not on the table grows by the same step with
    every frame kept, and the window of ``max_evidence_frames`` frames would let a persistent misread
    reach a call's gap by repetition alone (game 142's corrected, legal board: 6.9 over four frames;
    game 43's legal board: an illegal verdict at 9.4 over four, stopped by the one-play check only).
    Counted for at most :data:`CALL_FRAMES` frames, a board read no better than that stays short of a
    call however long it lies still. A play seen clearly is called on its first frames as before
    (every planted play caught in the 200 real-like games is called on its second or third clear
    frame), and frames that read those spots otherwise on some frame show errors that do not repeat
    (a reader whose noise is the frame's own): their evidence is summed as before."""
    most = max(CALL_FRAMES, settings.stable_frames)
    if frames <= most or r.stable_frames < frames:
        return r.gap
    return r.gap * most / frames


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
    table: EvidenceTable | None = None,
) -> Verdict:
    """Judge clear frames of a still board against the legal end positions.

    Legal: in ``stable_frames`` or more frames, the best candidate beats the others by ``accept_margin`` and the
    unconstrained reading is at most ``accept_gap`` better (not scaled by the
    number of frames: a real difference grows with every frame, noise does not).
    Illegal: the unconstrained reading is ``illegal_gap`` better than every
    candidate (counting at most :data:`CALL_FRAMES` frames: :func:`call_gap`), is itself a position (15 + 15), is confident on every differing
    spot (on its own evidence, or for at most one spot, pinned down by the count:
    :meth:`~tavli_pi.referee.evidence.EvidenceTable.sure_by_count`, or left in doubt when every legal
    end differs from the reading at a spot read surely: :func:`~tavli_pi.referee.ruled_out.ends_ruled_out`),
    and each of the last
    ``stable_frames`` frames on its own reads those spots the same way. Anything else: unclear. ``blind``: spots vision misreads on this board
    (:class:`~tavli_pi.referee.evidence.EvidenceTable`). ``conserve``: read the board as the best
    reading keeping 15 and 15 (:func:`~tavli_pi.referee.evidence.read`). ``table``: the frames'
    evidence when the caller has it already (one table a verdict, however many ways it is judged);
    ``blind`` is set aside in it too.
    """
    if not frames:
        return Verdict("unclear", None, None, "no clear frame of the board")
    if any(o.hand or o.motion for o in frames):
        return Verdict("unclear", None, None, "a hand or motion over the board")
    table = EvidenceTable(frames, blind) if table is None else table.blinded(blind)
    r = read(table, candidates, light_is_white=settings.light_is_white, turn=turn, game=game,
             hints=() if known is None else (known,), conserve=conserve)
    if (call_gap(r, table.frames, settings) >= settings.illegal_gap and r.free is not None
            and r.stable_frames >= settings.stable_frames):
        if r.min_confidence >= settings.illegal_confidence or table.sure_by_count(
                np.asarray(r.free_light), np.asarray(r.free_dark), r.differing, settings.illegal_confidence):
            return Verdict("illegal", r.free, r)
        if ends_ruled_out(table, [game_spot_counts(p, settings.light_is_white, game) for p in candidates],
                          (np.asarray(r.free_light), np.asarray(r.free_dark)), r.differing,
                          settings.illegal_confidence):
            return Verdict("illegal", r.free, r, RULED_OUT)
    if r.margin >= settings.accept_margin and r.gap <= settings.accept_gap and len(frames) >= settings.stable_frames:
        return Verdict("legal", candidates[r.best], r)
    if r.free is None:
        why = "the checker counts do not add up to 15 and 15"
    elif r.margin < settings.accept_margin:
        why = "the board fits more than one legal play"
    else:
        why = "the reading is not confident enough"
    return Verdict("unclear", None, r, why)


def doubtful_spots(frames: Sequence[Observation], confidence: float, blind: Sequence[int] = ()) -> tuple[int, ...]:
    """The spots (0-25, not ``blind``) whose count of either colour the frames together read at a
    posterior under ``confidence`` (the posterior an illegal call needs of a spot it rests on; a
    single frame's own confidence is under it on most spots of a real-like board)."""
    return EvidenceTable(frames, blind).unsure(confidence)


def judge_on_sure_spots(
    frames: Sequence[Observation],
    candidates: Sequence[GamePosition],
    settings: RefereeSettings,
    turn: Side,
    *,
    game: GameRules | None = None,
    known: GamePosition,
    blind: Sequence[int] = (),
    table: EvidenceTable | None = None,
) -> Verdict | None:
    """A play judged on the spots the frames read surely, when the whole board gave no verdict.

    A stack read at 0.3 on every frame (a colour the reader mistakes on this board, a tall stack
    it counts short) keeps every candidate off the unconstrained reading, so no play is accepted
    and no illegal one called, however clear the spots the play changed are. Here the spots read
    under ``illegal_confidence`` (at most :data:`MAX_DOUBTFUL` of them, besides ``blind``) are
    set aside as the blind spots are (:class:`~tavli_pi.referee.evidence.EvidenceTable`: their
    counts are the best candidate's), and the play is judged by :func:`judge_evidence` on the rest:

    - legal, only when every spot the accepted play changes from ``known`` (the board before the
      roll) is read surely: the play is wholly seen; a spot set aside is one it left as it was;
    - illegal, as ever on sure spots only: every legal end differs from them by ``illegal_gap``,
      each differing spot is read at ``illegal_confidence`` and alike in ``stable_frames`` frames,
      and the board, with the spots set aside given the best legal end's counts (the doubt goes to
      the player), is a position. The caller still checks that it is one play of the mover.

    None when no spot is doubtful, too many are, or this gives no verdict either (a miss rather
    than a call on doubtful evidence). ``table``: as for :func:`judge_evidence`."""
    if not frames or any(o.hand or o.motion for o in frames):
        return None
    table = EvidenceTable(frames, blind) if table is None else table.blinded(blind)
    doubt = table.unsure(settings.illegal_confidence)
    if not doubt or len(doubt) > MAX_DOUBTFUL:
        return None
    v = judge_evidence(frames, candidates, settings, turn, game=game, known=known, table=table.blinded(doubt))
    if v.kind == "illegal":
        return v
    if v.kind != "legal" or v.result is None:
        return None
    (al, ad), (bl, bd) = (game_spot_counts(p, settings.light_is_white, game) for p in (v.result, known))
    changed = np.flatnonzero((al != bl) | (ad != bd))
    if set(int(i) for i in changed) & set(doubt):
        return None
    return Verdict("legal", v.result, v.reading, "judged on the spots read surely")


def confidently_differs(a: Observation, b: Observation, threshold: float = 0.9) -> bool:
    """Do two frames disagree on a spot where both are confident?"""
    sa = (*a.points, a.bar, a.off)
    sb = (*b.points, b.bar, b.off)
    for x, y in zip(sa, sb):
        for cx, cy in ((x.light, y.light), (x.dark, y.dark)):
            if cx.best != cy.best and cx.confidence >= threshold and cy.confidence >= threshold:
                return True
    return False


def only_a_call(v: Verdict, not_one_play: bool, next_roll_seen: bool) -> Verdict:
    """``v``, or an unclear verdict when ``v`` is an illegal one resting on
    :func:`~tavli_pi.referee.ruled_out.ends_ruled_out` (:data:`~tavli_pi.referee.ruled_out.RULED_OUT`)
    that cannot be a call: its board is not one play of the mover (``not_one_play``), or the next
    roll is on the board (``next_roll_seen``, E8)."""
    if v.kind == "illegal" and v.reason == RULED_OUT and (not_one_play or next_roll_seen):
        return Verdict("unclear", None, v.reading, "the reading is not confident enough")
    return v


def judge_play(frames: Sequence[Observation], candidates: Sequence[GamePosition], settings: RefereeSettings,
               game: GameRules, before: GamePosition, dice: tuple[int, int], *, blind: Sequence[int] = (),
               misread: Sequence[int] = (), next_roll_seen: bool = False) -> Verdict:
    """The play from ``before`` with ``dice`` judged on the frames kept (:func:`judge_evidence`): on
    the whole board; when that gives no verdict, on the best reading keeping 15 and 15 (a checker or
    two missed), then on the spots read surely (:func:`judge_on_sure_spots`: a stack misread at a low
    confidence set aside). An illegal verdict of either is taken only when its board is one play of
    the mover (sync.py); ``next_roll_seen``: the next roll is on the board (E8, :func:`only_a_call`)."""
    turn = before.turn
    # one evidence table for every way the play is judged (the frames are read into it once)
    table = EvidenceTable(frames, blind, misread) if frames else None
    v = judge_evidence(frames, candidates, settings, turn, game=game, known=before, blind=blind, table=table)
    if v.kind == "unclear" and v.reading is not None and v.reading.free is None:
        # the per-spot reading is no position: read the board as the best reading keeping 15 and 15
        # (``conserve``); anything but a call on a board that is one play of the mover stays unclear
        w = judge_evidence(frames, candidates, settings, turn, game=game, known=before, blind=blind,
                           conserve=True, table=table)
        if w.kind == "illegal" and w.result is not None and not game.one_play_reason(before, w.result, dice):
            v = w
    if v.kind == "unclear":
        w2 = judge_on_sure_spots(frames, candidates, settings, turn, game=game, known=before, blind=blind,
                                 table=table)
        if w2 is not None and w2.result is not None and (
                w2.kind == "legal" or not game.one_play_reason(before, w2.result, dice)):
            return w2
    if v.kind == "illegal" and v.result is not None:  # one doubtful spot left in doubt: only a call
        if v.reason == RULED_OUT and game.one_play_reason(before, v.result, dice):
            v = _unfound_placed(v, candidates, table, settings, game, before, dice)
        assert v.result is not None
        v = only_a_call(v, bool(game.one_play_reason(before, v.result, dice)), next_roll_seen)
    return v


def _unfound_placed(v: Verdict, candidates: Sequence[GamePosition], table: EvidenceTable | None,
                    settings: RefereeSettings, game: GameRules, before: GamePosition,
                    dice: tuple[int, int]) -> Verdict:
    """An illegal verdict on every legal end ruled out (:data:`RULED_OUT`) whose board is no play of
    the mover only for one of its checkers counted off, in doubt: that checker is one the reader did
    not find (:func:`~tavli_pi.referee.ruled_out.unfound_placed`). The likeliest board with it on a
    point that is one play of the mover is the verdict's board then; ``v`` when there is none (or a
    placement that is a legal end reads about as well)."""
    assert v.result is not None and v.reading is not None and table is not None
    lw = settings.light_is_white
    mover_light = (before.turn is Side.WHITE) == lw
    free = (np.asarray(v.reading.free_light), np.asarray(v.reading.free_dark))
    ends = [game.spot_counts(p, lw) for p in candidates]
    s = settings
    for light, dark in unfound_placed(table, free, game.spot_counts(before, lw), ends, mover_light,
                                      s.illegal_confidence, s.accept_gap, s.accept_margin):
        board = game.counts_to_position([int(x) for x in light], [int(x) for x in dark], before.turn, lw,
                                        (before, v.result))
        if board is not None and not game.one_play_reason(before, board, dice):
            return Verdict("illegal", board, v.reading, RULED_OUT)
    return v


def one_checker_off(r: Reading, end: GamePosition, before: GamePosition, game: GameRules, light_is_white: bool,
                    stood: Miscount | None = None) -> Miscount | None:
    """The miscount when the reading ``r`` is the legal end ``end`` (its best) but for one checker on
    one spot, so it is no position (B1: 15 of each colour; a checker is not lost), and that spot is
    one the mover's play grew or shrank (in the mover's colour) or the one a play this game already
    stood with (``stood``), counted the same way. Read at 1.0 on every frame (a tall stack counted
    short), such a count puts the reading any distance from every legal end, and the turn was never
    settled: the game went on with the referee still judging it (bench_reallike game 27, a 7-stack
    read 6 on every turn after). One checker off anywhere else may be a board the referee did not
    follow (a turn it missed, and a blot it misses now: game 17), and is not taken so. None otherwise."""
    if r.free is not None or len(r.differing) != 1:
        return None
    i = r.differing[0]
    light, dark = game.spot_counts(end, light_is_white)
    was_light, was_dark = game.spot_counts(before, light_is_white)
    off_light, off_dark = r.free_light[i] - int(light[i]), r.free_dark[i] - int(dark[i])
    if abs(off_light) + abs(off_dark) != 1:
        return None
    miscount = (i, off_light != 0, off_light or off_dark)
    mover_is_light = (before.turn is Side.WHITE) == light_is_white
    changed = int(light[i]) != int(was_light[i]) if mover_is_light else int(dark[i]) != int(was_dark[i])
    if (changed and miscount[1] == mover_is_light) or miscount == stood:
        return miscount
    return None
