"""A checker of the mover the reader did not find, on a board without trays (referee/ruled_out.py,
``unfound_placed``).

Stop 24, real-like game 104 (rosewood, no trays): Black's planted play put a dark checker on a dark
point, read there at 0.26-0.38 a frame. On a board without trays the count off is only the count
the board implies (15 less the checkers found), so the reading had that checker borne off. Every
legal end was ruled out by a spot read surely, but a checker borne off mid-game is no play of the
mover, and such a verdict is no call (``only_a_call``): the play went uncalled. The checker lies
on a point; placed where the frames read it within ``accept_gap`` of the reading, the board is one
play, and the call stands with that board.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tavli_pi.referee import events as ev
from tavli_pi.referee.evidence import EvidenceTable, spot_counts
from tavli_pi.referee.ruled_out import OFF, unfound_placed
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, DieReading, Observation, SpotEvidence

from .synth import Table, black_threw_4_2, kinds, observe, only

# light numbering: Black's 11-point is light point 14 (index 13), Black's 10 is index 14
BLACK_11, BLACK_10 = 13, 14


def _implied(n: int) -> CountEvidence:
    """A count vision does not read, only infers (a board without trays: 15 less the checkers found):
    all but flat, its largest share on ``n``."""
    p = [1.0] * (MAX_COUNT + 1)
    p[n] = 1.07
    s = sum(p)
    return CountEvidence(tuple(x / s for x in p))


def _unseen_on(obs: Observation, spot: int, found: int, p_more: float) -> Observation:
    """``obs`` on a board without trays, with one dark checker on ``spot`` (of ``found`` + 1) not
    found: read ``found`` there, one more at ``p_more`` only; the dark count off is the implied one
    (one more than in ``obs``)."""
    pts = list(obs.points)
    probs = [1e-6] * (MAX_COUNT + 1)
    probs[found], probs[found + 1] = 1 - p_more, p_more
    pts[spot] = dataclasses.replace(pts[spot], dark=CountEvidence(tuple(probs)))
    light_off, dark_off = obs.off.light.best, obs.off.dark.best
    off = SpotEvidence(_implied(light_off), _implied(dark_off + 1))
    return dataclasses.replace(obs, points=tuple(pts), off=off)


def _play_seen(t: Table, before: Position, after: Position, dice: tuple[DieReading, ...],
               spot: int, p_more: float) -> list[ev.Event]:
    """``after`` played with ``dice`` lying, the dice picked up, the board standing, its checker on
    ``spot`` unseen (:func:`_unseen_on`) on every clear frame."""
    found = spot_counts(after)[1][spot] - 1
    out: list[ev.Event] = []
    for pos, d, hand in [(before, dice, True), (after, dice, True), (after, dice, False), (after, dice, False),
                         (after, (), True)] + [(after, (), False)] * 4:
        t.index += 1
        obs = observe(pos, dice=d, hand=hand, frame_index=t.index)
        out += t.feed(obs if hand else _unseen_on(obs, spot, int(found), p_more))
        if "illegal_play" in kinds(out) or "play_accepted" in kinds(out):
            break
    return out


def test_an_illegal_play_whose_checker_went_unfound_is_called_with_it_on_its_point_E8() -> None:
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))  # a 4 and a 3 for 4-2 (M1)
    out = _play_seen(t, before, bad, dice, BLACK_10, 0.38)
    assert "illegal_play" in kinds(out) and "play_accepted" not in kinds(out)
    # the board called is the one on the table: the unfound checker put where the frames allow it
    assert only(out, ev.IllegalPlay).observed == bad


def _table_and_counts(after: Position, spot: int, p_more: float) -> tuple[EvidenceTable, tuple[np.ndarray, np.ndarray]]:
    found = int(spot_counts(after)[1][spot]) - 1
    obs = _unseen_on(observe(after), spot, found, p_more)
    light, dark = spot_counts(after)
    dark = dark.copy()
    dark[spot] -= 1
    dark[OFF] += 1
    return EvidenceTable([obs] * 3), (light, dark)


def test_the_unfound_checker_is_placed_where_the_frames_allow_it() -> None:
    _, before, _ = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    table, free = _table_and_counts(bad, BLACK_10, 0.38)
    ends = [spot_counts(r.position) for r in legal_results(before, (4, 2))]
    placed = unfound_placed(table, free, spot_counts(before), ends, False, 0.9, 2.5, 3.0)
    assert placed and (placed[0][1] == spot_counts(bad)[1]).all()
    # the mover's checkers off read surely: nothing is unfound
    sure = EvidenceTable([dataclasses.replace(observe(bad), off=observe(bad).off)] * 3)
    assert unfound_placed(sure, free, spot_counts(before), ends, False, 0.9, 2.5, 3.0) == []


def test_no_board_when_a_placement_the_frames_allow_is_a_legal_end() -> None:
    _, before, _ = black_threw_4_2()
    good = apply_play(before, parse_play(before, "13/9 13/11"))
    table, free = _table_and_counts(good, BLACK_11, 0.38)
    ends = [spot_counts(r.position) for r in legal_results(before, (4, 2))]
    assert unfound_placed(table, free, spot_counts(before), ends, False, 0.9, 2.5, 3.0) == []


def test_no_board_when_a_legal_end_placement_reads_about_as_well_as_the_best() -> None:
    # the checker read where the illegal play put it at 0.38 a frame, and where the legal play would
    # have put it at 0.24: the legal end is beyond accept_gap of the reading, but not accept_margin
    # behind the illegal board -- the doubt goes to the player
    _, before, _ = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    found = int(spot_counts(bad)[1][BLACK_10]) - 1
    obs = _unseen_on(observe(bad), BLACK_10, found, 0.38)
    pts = list(obs.points)
    probs = [1e-6] * (MAX_COUNT + 1)
    probs[0], probs[1] = 0.76, 0.24
    pts[BLACK_11] = dataclasses.replace(pts[BLACK_11], dark=CountEvidence(tuple(probs)))
    table = EvidenceTable([dataclasses.replace(obs, points=tuple(pts))] * 3)
    light, dark = spot_counts(bad)
    dark = dark.copy()
    dark[BLACK_10] -= 1
    dark[OFF] += 1
    ends = [spot_counts(r.position) for r in legal_results(before, (4, 2))]
    assert unfound_placed(table, (light, dark), spot_counts(before), ends, False, 0.9, 2.5, 3.0) == []
    # with no such margin asked, the illegal board alone is near the reading
    assert len(unfound_placed(table, (light, dark), spot_counts(before), ends, False, 0.9, 2.5, 0.0)) == 1
