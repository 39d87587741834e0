"""bench/bench_reallike.py's ``--only``: the games it names, ranges included (issue 9's runs)."""

from __future__ import annotations

import pytest

from bench.bench_reallike import game_list


def test_only_takes_indices_and_ranges() -> None:
    assert game_list("3, 100-102,130") == frozenset({3, 100, 101, 102, 130})
    assert game_list("") == frozenset()


@pytest.mark.parametrize("bad", ["100-", "a", "119-100", "1-2-3"])
def test_only_refuses_what_is_no_game_with_what_to_write(bad: str) -> None:
    with pytest.raises(SystemExit, match="range like 100-119"):
        game_list(bad)


def test_the_spots_under_a_hand_are_scored_apart_from_the_spots_in_view() -> None:
    """Real-like seed 0 frame 22: a hand over point 18's two dark checkers (bench/diag_spots.py's
    measure: the frame against the scene rendered without the hand). A reading wrong there only is
    wrong under a hand, none in view; the combined figure counts it as before."""
    import dataclasses

    from bench.bench_reallike import FrameScore, calibrate_setup, truly_hidden, truth_hidden_shares
    from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
    from tavli_pi.sim.render import render
    from tavli_pi.vision.observation import Observation, SpotEvidence, certain

    scene = reallike_scenes(23, 0)[22]
    assert scene.hand is not None
    r, bare = render(scene, 22), render(dataclasses.replace(scene, hand=None), 22)
    cal = calibrate_setup(render(reallike_setup(scene), 22))
    t = r.truth
    hidden = truly_hidden(truth_hidden_shares(cal, r.image, bare.image, t))
    assert hidden[17] and 0 < sum(hidden) <= 6 and not hidden[25]
    assert truly_hidden(None) == [False] * 26

    def spot(light: int, dark: int) -> SpotEvidence:
        return SpotEvidence(certain(light), certain(dark))

    points = [spot(t.light[i], t.dark[i]) for i in range(24)]
    points[17] = spot(0, 0)  # the hidden stack read as none
    obs = Observation(points=tuple(points), bar=spot(*t.bar), off=spot(*t.off), hand=True)
    score = FrameScore()
    score.add(obs, t, 0.0, hidden)
    assert (score.wrong, score.wrong_values) == (1, 1)
    assert (score.hidden, score.hidden_wrong, score.hidden_unknown) == (sum(hidden), 1, 0)
    assert (score.in_view, score.in_view_wrong, score.in_view_values) == (26 - sum(hidden), 0, 0)


def test_the_checkers_off_a_board_without_trays_are_hidden_when_a_point_is() -> None:
    """On a board without trays the checkers off are 15 less what the points and the bar hold:
    with one of those under a hand the count off cannot be seen either; with trays it can."""
    import numpy as np

    from bench.bench_reallike import HIDDEN_SHARE, truly_hidden

    shares = np.zeros(26)
    shares[5] = HIDDEN_SHARE
    assert truly_hidden(shares)[25] is False
    assert truly_hidden(shares, trays=False)[25] is True
    assert truly_hidden(np.zeros(26), trays=False)[25] is False


def test_the_verdicts_of_a_play_judged_after_its_roll_are_kept_for_why() -> None:
    """``--why`` says what the referee judged a scripted play to be; a play judged after its roll
    goes through ``judge_play`` (until stop 27 only ``judge_evidence`` was watched, and a planted
    play judged unclear on every frame was said to be never judged)."""
    from bench.bench_reallike import _watch_verdicts
    from tavli_pi.rules.moves import apply_play, parse_play
    from tests.referee.synth import black_threw_4_2

    t, before, dice = black_threw_4_2()
    with _watch_verdicts() as got:
        t.move_and_pick_up(before, apply_play(before, parse_play(before, "13/9 13/11")), dice)
    assert [kind for _, kind, _, _ in got.seen][-1:] == ["legal"]
