"""A misread repeated on still frames builds no illegal call (referee/verdict.py, ``call_gap``).

Real-like game 142 (640 px): a phantom checker on p21, read alike frame after frame at 0.56-0.64,
took the *corrected, legal* board's rival to a gap of 6.9 at 0.92 over four still frames; only the
9.0 gap stopped a false call, and game 43's legal board reached an illegal verdict at 9.4 over four
frames that only the one-play check stopped. Still frames of one board are read from the same
checkers under the same light: their errors are shared, so the gap a call needs counts at most
``CALL_FRAMES`` frames' worth of evidence. A play seen clearly is still called on its first frames.
"""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.verdict import CALL_FRAMES
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, DieReading, Observation

from .synth import Table, black_threw_4_2, kinds, observe

#: light-numbered spots of Black's 11 and 10 points (Black's point k is White's 25 - k)
BLACK_11, BLACK_10 = 13, 14


def _leaning(count: int, other: int, p_other: float) -> CountEvidence:
    """A count read as ``other`` at ``p_other`` and as ``count`` at the rest."""
    probs = [1e-6] * (MAX_COUNT + 1)
    probs[other], probs[count] = p_other, 1.0 - p_other
    s = sum(probs)
    return CountEvidence(tuple(p / s for p in probs))


def _one_checker_a_point_over(obs: Observation, p: float) -> Observation:
    """``obs`` of Black's 13/9 13/11 with Black's checker on 11 read on 10 at ``p`` (both spots)."""
    pts = list(obs.points)
    pts[BLACK_11] = dataclasses.replace(pts[BLACK_11], dark=_leaning(1, 0, p))
    pts[BLACK_10] = dataclasses.replace(pts[BLACK_10], dark=_leaning(0, 1, p))
    return dataclasses.replace(obs, points=tuple(pts))


def _played(t: Table, before: Position, after: Position, dice: tuple[DieReading, ...], p: float,
            still: int) -> list[str]:
    """Black plays ``after``; the dice are picked up; ``still`` clear frames follow, each reading
    Black's checker on 11 as one on 10 at ``p``. The kinds of the events of the still frames."""
    t.show(before, dice=dice, hand=True)
    t.show(after, dice=dice, hand=True)
    t.show(after, dice=(), hand=True)  # the hand picks the dice up
    out = []
    for _ in range(still):
        t.index += 1
        out += kinds(t.feed(_one_checker_a_point_over(observe(after, frame_index=t.index), p)))
    return out


def test_a_misread_repeated_frame_after_frame_builds_no_call() -> None:
    # a legal 13/9 13/11 read, frame after frame alike, as the illegal 13/9 13/10 at 0.8 a spot: about
    # 2.8 nats a frame, so four frames summed pass 9.0 (at 0.996) and three do not
    t, before, dice = black_threw_4_2()
    after = apply_play(before, parse_play(before, "13/9 13/11"))
    got = _played(t, before, after, dice, 0.8, 8)
    assert "illegal_play" not in got, got
    assert t.referee.phase == "judging"


def test_the_same_illegal_play_seen_clearly_is_still_called() -> None:
    t, before, dice = black_threw_4_2()
    after = apply_play(before, parse_play(before, "13/9 13/11"))
    got = _played(t, before, after, dice, 0.999, 2)
    assert got.count("illegal_play") == 1


def test_a_play_read_as_clearly_on_the_frames_a_call_counts_is_called_on_the_last_of_them() -> None:
    # per frame half of what a call needs over two frames: short on two frames, called on the third
    # (CALL_FRAMES: the frames of a still board a call counts)
    assert CALL_FRAMES == 3
    t, before, dice = black_threw_4_2()
    after = apply_play(before, parse_play(before, "13/9 13/11"))
    got = _played(t, before, after, dice, 0.85, 3)
    assert got.count("illegal_play") == 1


def test_frames_that_read_the_spots_otherwise_on_some_frame_are_summed() -> None:
    from tavli_pi.referee.evidence import Reading
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.referee.verdict import call_gap

    def reading(stable: int) -> Reading:
        return Reading(best=0, scores=(0.0,), margin=5.0, gap=10.0, free_light=(), free_dark=(), free=None,
                       differing=(3,), min_confidence=0.95, stable_frames=stable)

    s = RefereeSettings()
    assert call_gap(reading(4), 4, s) == 10.0 * CALL_FRAMES / 4  # alike on all four: three frames' worth
    assert call_gap(reading(3), 4, s) == 10.0  # one frame read them otherwise: the frames' own noise
    assert call_gap(reading(3), 3, s) == 10.0 and call_gap(reading(2), 2, s) == 10.0
