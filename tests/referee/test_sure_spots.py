"""A play judged on the spots read surely (referee/verdict.py ``judge_on_sure_spots``).

Traced real-like games (``bench_reallike.py --only 2,15 --trace``, seed 0): on a 640 px beech
board Black's 6-point stack of 5 was read as 0 at 0.24-0.35 on every frame, and on a pinetti board
a light stack of 6 as 6 dark at about 0.6. The whole-board reading was then no position, by more
than the checker or two conservation puts back: a planted illegal play two points away was never
called (game 2), and legal plays were never accepted, so the referee stayed judging for the rest
of the game (game 15). Such a spot is now set aside, with its counts taken from the best legal end
(the doubt goes to the player), and the play judged on the rest; a play is accepted so only when
every spot it changed is read surely, and a call still needs every differing spot surely read and
the board to be one play of the mover.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tavli_pi.referee.evidence import EvidenceTable
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.verdict import MAX_DOUBTFUL, doubtful_spots
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, DieReading, Observation

from .synth import Table, black_threw_4_2, kinds, observe

# light numbering (0-23): Black's 6-point is light point 19, Black's 8-point light point 17
BLACK_6, BLACK_8 = 18, 16


def _misread_as(n: int) -> CountEvidence:
    """A count the reader gives as ``n`` at 0.4 on every frame, the rest spread over every other count
    (the truth among them): no frame is sure of it, and each weighs against the truth."""
    probs = [0.6 / MAX_COUNT] * (MAX_COUNT + 1)
    probs[n] = 0.4
    return CountEvidence(tuple(probs))


def _misread(obs: Observation, spots: dict[int, int]) -> Observation:
    """``obs`` with the dark count on each spot (0-23) misread as the count given."""
    pts = list(obs.points)
    for i, n in spots.items():
        pts[i] = dataclasses.replace(pts[i], dark=_misread_as(n))
    return dataclasses.replace(obs, points=tuple(pts))



def _play(t: Table, before: Position, after: Position, dice: tuple[DieReading, ...],
          spots: dict[int, int]) -> list:  # type: ignore[type-arg]
    """Black plays ``after``; the dice are picked up, the board stands for three frames; the dark
    count on ``spots`` is misread on every frame. The events until the first verdict."""
    out = []
    for pos, d, hand in [(before, dice, True), (after, dice, True), (after, dice, False), (after, dice, False),
                         (after, (), True)] + [(after, (), False)] * 3:
        t.index += 1
        out += t.feed(_misread(observe(pos, dice=d, hand=hand, frame_index=t.index), spots))
        if any(k in ("play_accepted", "illegal_play") for k in kinds(out)):
            break
    return out


def test_the_spots_read_below_the_call_confidence_are_doubtful() -> None:
    obs = _misread(observe(Position.start()), {BLACK_6: 0})
    assert doubtful_spots([obs, obs], 0.9) == (BLACK_6,)
    assert doubtful_spots([obs, obs], 0.9, blind=(BLACK_6,)) == ()
    assert doubtful_spots([observe(Position.start())] * 2, 0.9) == ()


def test_an_illegal_play_is_called_though_a_stack_elsewhere_is_read_as_nothing() -> None:
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))  # a 4 and a 3 for 4-2 (M1)
    assert all(r.position.layout_key() != bad.layout_key() for r in legal_results(before, (4, 2)))
    ev = _play(t, before, bad, dice, {BLACK_6: 0})
    assert "illegal_play" in kinds(ev) and "play_accepted" not in kinds(ev)


def test_a_legal_play_beside_a_stack_read_as_nothing_is_accepted() -> None:
    t, before, dice = black_threw_4_2()
    good = apply_play(before, parse_play(before, "13/9 13/11"))
    ev = _play(t, before, good, dice, {BLACK_6: 0})
    assert kinds(ev) == ["play_accepted"]
    assert t.referee.position.layout_key() == good.with_turn(Side.WHITE).layout_key()


def test_no_verdict_when_a_spot_the_play_changed_is_doubtful() -> None:
    """The play took a checker from Black's 8-point (3 there before, 13/9 8/6 leaves 2), and that
    count is misread as 3: the play is not wholly seen, so it is neither accepted nor called."""
    t, before, dice = black_threw_4_2()
    good = apply_play(before, parse_play(before, "13/9 8/6"))
    ev = _play(t, before, good, dice, {BLACK_8: 3, BLACK_6: 0})
    assert "play_accepted" not in kinds(ev) and "illegal_play" not in kinds(ev)


def test_an_illegal_play_is_called_with_six_spots_in_doubt_away_from_it() -> None:
    """Real-like game 18 (pinetti, 1280 px): six spots under a band read at 0.4-0.6, the planted play's
    spots read surely. Six is within :data:`MAX_DOUBTFUL` (a third of the points): the play is called."""
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    # Black's checkers on light points 1, 17 and 19 (2, 3, 5) misread, and a checker on three empty ones
    spots = {0: 1, BLACK_8: 1, BLACK_6: 0, 2: 1, 3: 1, 5: 1}
    assert 4 < len(spots) <= MAX_DOUBTFUL
    ev = _play(t, before, bad, dice, spots)
    assert "illegal_play" in kinds(ev) and "play_accepted" not in kinds(ev)


def test_no_call_when_more_than_a_third_of_the_points_are_doubtful() -> None:
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    # Black's checkers on light points 1, 12, 17 and 19 (2, 5, 3, 5) misread, and a checker on empty ones
    spots = {0: 1, 11: 3, BLACK_8: 1, BLACK_6: 0, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
    assert len(spots) > MAX_DOUBTFUL
    ev = _play(t, before, bad, dice, spots)
    assert "illegal_play" not in kinds(ev) and "play_accepted" not in kinds(ev)


def test_a_verdict_reads_its_frames_into_one_evidence_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole board, the board kept at 15 and 15, then the sure spots: three ways of judging one
    play, each from the same table (the review of stop 13: the frames were read into it four times)."""
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))
    built: list[int] = []
    per_verdict: list[int] = []
    init, verdict = EvidenceTable.__init__, Referee._verdict

    def counted(self: EvidenceTable, *args: Any, **kw: Any) -> None:
        built.append(1)
        init(self, *args, **kw)

    def watched(self: Referee) -> Any:
        before_count = len(built)
        out = verdict(self)
        per_verdict.append(len(built) - before_count)
        return out

    monkeypatch.setattr(EvidenceTable, "__init__", counted)
    monkeypatch.setattr(Referee, "_verdict", watched)
    ev = _play(t, before, bad, dice, {BLACK_6: 0})
    assert "illegal_play" in kinds(ev)  # called on the sure spots: every way of judging was taken
    assert per_verdict and set(per_verdict) == {1}
