"""A misread the reader repeats on the board as it stands, under the roll, is learnt there (referee.py).

Traced real-like game 17 (seed 0, ``bench_reallike.py --only 17 --trace``, beech, 1280 px): a 2-stack
under a translucent broadcast band was read as one checker at 0.80, and one checker on the empty
point beside it at 0.86, on nearly every frame from Black's accepted play on. The frames that play
was accepted on happened to include one read right, so the misread was not learnt then
(:func:`~tavli_pi.referee.evidence.misread_spots` wants it on every frame). White's next roll had no
legal move; the frames after White's hand, summed, made the phantom sure and the board "Black's
checkers moved": out of step for the rest of the game (2 of 8 plays accepted). Between a committed
turn and the next roll no hand came over the board, so the frames kept then are frames of the
position known, whatever they read: the roll taken, what they read otherwise on every frame is the
reader's misread on this board, as on an accepted play's frames.
"""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.games import GamePosition
from tavli_pi.rules.position import Side
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, DieReading, Observation

from .synth import Table, kinds, observe, opened, roll_dice


def _reads(probs: dict[int, float]) -> CountEvidence:
    p = [probs.get(n, 1e-6) for n in range(MAX_COUNT + 1)]
    return CountEvidence(tuple(x / sum(p) for x in p))


def _banded(t: Table, pos: GamePosition, *, dice: tuple[DieReading, ...] = (), hand: bool = False,
            motion: bool = False) -> list:  # type: ignore[type-arg]
    """One frame of ``pos`` read as game 17's band read it: White's 6-point (light spot 5, 4 checkers
    after 8/5 6/5) one short at 0.80, and one of them on the empty 7-point (spot 6) at 0.86."""
    t.index += 1
    obs: Observation = observe(pos, dice=dice, hand=hand, motion=motion, frame_index=t.index)
    if not hand:
        pts = list(obs.points)
        pts[5] = dataclasses.replace(pts[5], light=_reads({3: 0.80, 4: 0.15, 2: 0.05}))
        pts[6] = dataclasses.replace(pts[6], light=_reads({1: 0.86, 0: 0.13, 2: 0.01}))
        obs = dataclasses.replace(obs, points=tuple(pts))
    return t.feed(obs)


def _black_plays_under_the_band(misread_before_roll: bool) -> tuple[Referee, list, GamePosition]:  # type: ignore[type-arg]
    t = Table(Referee())
    ref = opened(t)  # White's 8/5 6/5 accepted on frames read right: nothing misread learnt
    assert ref.misread == ()
    board = ref.position
    dice = roll_dice(Side.BLACK, (4, 2))
    out = []
    # the board as it stands, a frame before the throw (as in game 17: more, summed, and the board
    # would be lost before the roll, as ever when a still board reads otherwise surely)
    out += _banded(t, board) if misread_before_roll else t.show(board)
    moving = tuple(dataclasses.replace(d, moving=True) for d in dice)
    out += _banded(t, board, dice=moving, motion=True)
    for _ in range(2):  # the roll lies: the board still read through the band
        out += _banded(t, board, dice=dice)
    assert ref.phase == "rolled"
    after = apply_play(ref.before, parse_play(ref.before, "13/9 13/11"))
    out += _banded(t, board, dice=dice, hand=True)
    out += _banded(t, after, dice=dice, hand=True)
    for _ in range(2):
        out += _banded(t, after, dice=dice)
    out += _banded(t, after, hand=True)  # the dice picked up
    for _ in range(6):
        got = _banded(t, after)
        out += got
        if {"play_accepted", "illegal_play", "board_out_of_sync"} & set(kinds(got)):
            break
    return ref, out, after


def test_a_misread_repeated_under_the_roll_is_learnt_and_the_play_is_accepted() -> None:
    ref, out, after = _black_plays_under_the_band(misread_before_roll=True)
    assert "board_out_of_sync" not in kinds(out)  # before: White's checkers "moved", out of step
    assert "illegal_play" not in kinds(out)
    assert "play_accepted" in kinds(out)
    assert ref.position.layout_key() == after.layout_key()
    assert set(ref.misread) >= {5, 6}  # learnt while the roll lay, before the play


def test_frames_after_a_hand_teach_nothing_before_the_roll() -> None:
    """The guard: a hand over the board since the last committed turn (a play made, its roll unseen)
    leaves the frames kept no frames of the position known; nothing is learnt from them at the roll."""
    t = Table(Referee())
    ref = opened(t)
    board = ref.position
    _banded(t, board, hand=True)
    _banded(t, board)
    dice = roll_dice(Side.BLACK, (4, 2))
    moving = tuple(dataclasses.replace(d, moving=True) for d in dice)
    _banded(t, board, dice=moving, motion=True)
    for _ in range(2):
        _banded(t, board, dice=dice)
    assert ref.phase == "rolled"
    assert ref.misread == ()
