"""An illegal call with one spot in doubt, when every legal end is ruled out by a spot read surely
(referee/ruled_out.py).

Stop 19, real-like games 30, 48, 90 (seed 0): a planted play one checker a pip too far; the spot the
checker should have reached read surely empty, the spot it reached read at 0.6-0.75 on every frame,
and another stack of that colour read without certainty, so the count did not pin the checker down
either (0.59-0.87 "by the count"). Every legal end puts a checker where the frames surely see none:
the play is illegal whatever the doubtful spot holds.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tavli_pi.referee.evidence import EvidenceTable, spot_counts
from tavli_pi.referee.ruled_out import ends_ruled_out
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, DieReading, Observation

from .synth import Table, black_threw_4_2, kinds, observe

# light numbering: Black's 11-point is light point 14 (index 13), Black's 10 is index 14, Black's
# 6-point stack of five is light point 19 (index 18)
BLACK_11, BLACK_10, BLACK_6 = 13, 14, 18


def _read_as(obs: Observation, spot: int, colour: str, probs: dict[int, float]) -> Observation:
    """``obs`` with the ``colour`` ("light" or "dark") count on ``spot`` read as ``probs`` (count ->
    probability; the rest ~0)."""
    p = [1e-6] * (MAX_COUNT + 1)
    for n, q in probs.items():
        p[n] = q
    s = sum(p)
    pts = list(obs.points)
    pts[spot] = dataclasses.replace(pts[spot], **{colour: CountEvidence(tuple(x / s for x in p))})
    return dataclasses.replace(obs, points=tuple(pts))


def _dark(obs: Observation, spot: int, probs: dict[int, float]) -> Observation:
    return _read_as(obs, spot, "dark", probs)


def _doubtful(obs: Observation, arrived: int, p_there: float) -> Observation:
    """The lone dark checker on ``arrived`` read there at ``p_there`` only, and Black's 6-point stack
    of five read as six at 0.45: the count no longer pins the checker down (it may be in the stack;
    on four such frames, the most a verdict takes, 0.83 by the count)."""
    return _dark(_dark(obs, arrived, {0: 1 - p_there, 1: p_there}), BLACK_6, {5: 0.55, 6: 0.45})


def _play_seen(t: Table, before: Position, after: Position, dice: tuple[DieReading, ...],
               arrived: int, p_there: float) -> list:  # type: ignore[type-arg]
    """``after`` played with ``dice`` lying, the dice picked up, the board standing four frames read
    with :func:`_doubtful`."""
    out = []
    for pos, d, hand in [(before, dice, True), (after, dice, True), (after, dice, False), (after, dice, False),
                         (after, (), True)] + [(after, (), False)] * 4:
        t.index += 1
        obs = observe(pos, dice=d, hand=hand, frame_index=t.index)
        out += t.feed(obs if hand else _doubtful(obs, arrived, p_there))
    return out


def test_the_count_does_not_pin_the_spot_down_here() -> None:
    t, before, _ = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    table = EvidenceTable([_doubtful(observe(bad), BLACK_10, 0.55)] * 4)
    light, dark = spot_counts(bad)
    assert not table.sure_by_count(light, dark, [BLACK_11, BLACK_10], 0.9)


def test_a_pip_too_far_is_called_when_every_legal_end_is_ruled_out_by_a_sure_spot_E8() -> None:
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))  # a 4 and a 3 for 4-2 (M1)
    ev = _play_seen(t, before, bad, dice, BLACK_10, 0.55)
    assert "illegal_play" in kinds(ev) and "play_accepted" not in kinds(ev)


def test_a_legal_play_read_as_doubtfully_is_accepted_not_called() -> None:
    t, before, dice = black_threw_4_2()
    good = apply_play(before, parse_play(before, "13/9 13/11"))
    ev = _play_seen(t, before, good, dice, BLACK_11, 0.55)
    assert "illegal_play" not in kinds(ev)
    assert "play_accepted" in kinds(ev)


def test_no_call_when_two_spots_the_reading_differs_on_are_doubtful() -> None:
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    out = []
    for pos, d, hand in [(before, dice, True), (bad, dice, True), (bad, dice, False), (bad, dice, False),
                         (bad, (), True)] + [(bad, (), False)] * 4:
        t.index += 1
        obs = observe(pos, dice=d, hand=hand, frame_index=t.index)
        if not hand:  # and the spot it should have reached read empty at 0.6 only
            obs = _dark(_doubtful(obs, BLACK_10, 0.55), BLACK_11, {0: 0.6, 1: 0.4})
        out += t.feed(obs)
    assert "illegal_play" not in kinds(out)


def test_an_end_the_sure_spots_allow_is_not_ruled_out() -> None:
    _, before, _ = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    good = apply_play(before, parse_play(before, "13/9 13/11"))
    table = EvidenceTable([_doubtful(observe(bad), BLACK_10, 0.55)] * 2)
    free = tuple(np.asarray(x) for x in spot_counts(bad))
    ends = [spot_counts(r.position) for r in legal_results(before, (4, 2))]
    assert ends_ruled_out(table, ends, (free[0], free[1]), [BLACK_11, BLACK_10], 0.9)
    # an end differing from the reading only where it is doubtful (the checker on Black's 10 or not)
    # is one the sure spots allow
    near = spot_counts(bad)
    near[1][BLACK_10] = 0
    near[1][BLACK_6] += 1
    assert not ends_ruled_out(table, [*ends, near], (free[0], free[1]), [BLACK_11, BLACK_10], 0.9)
    assert not ends_ruled_out(table, [spot_counts(good)], (free[0], free[1]), [], 0.9)  # nothing differs


def _light(obs: Observation, spot: int, probs: dict[int, float]) -> Observation:
    return _read_as(obs, spot, "light", probs)


def test_a_board_ruled_out_but_no_play_of_the_mover_is_not_lost_track_of() -> None:
    # stop 19, real-like game 91: a legal play, the board read with one of the other side's spots surely
    # wrong; resting on one doubtful spot, that is no evidence the board is out of step (a loss needs
    # every spot read surely): the play waits for a clearer view, as before
    t, before, dice = black_threw_4_2()
    good = apply_play(before, parse_play(before, "13/9 13/11"))

    light, dark = spot_counts(good)
    stacks = [i for i in range(24) if light[i] >= 2]
    empty = next(i for i in range(24) if not light[i] and not dark[i])
    wrong, other = stacks[0], stacks[1]

    def misread(obs: Observation) -> Observation:
        # a White stack read one short surely, a White checker read on an empty point at 0.6, and another
        # White stack read one more at 0.45: a position, White's checkers moved, not Black's
        n, m = int(light[wrong]), int(light[other])
        obs = _light(_light(obs, wrong, {n - 1: 1.0}), empty, {0: 0.4, 1: 0.6})
        return _light(obs, other, {m: 0.55, m + 1: 0.45})

    out = []
    for pos, d, hand in [(before, dice, True), (good, dice, True), (good, dice, False), (good, dice, False),
                         (good, (), True)] + [(good, (), False)] * 3:
        t.index += 1
        obs = observe(pos, dice=d, hand=hand, frame_index=t.index)
        out += t.feed(obs if hand else misread(obs))
    assert "board_out_of_sync" not in kinds(out) and "illegal_play" not in kinds(out)
