"""The demo script, played at the Observation level: the referee gives what the script expects.

(Through rendered frames and the real vision reader: tests/commands/test_demo.py.)
"""

from __future__ import annotations

from tavli_pi.referee.events import GameOver
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.moves import legal_results
from tavli_pi.sim.script import ScriptWriter, demo_match
from tavli_pi.sim.table import scene_of
from tavli_pi.vision.observation import DieReading
from tests.referee.synth import observe


def test_the_demo_script_meets_every_expectation_at_the_observation_level() -> None:
    moments = demo_match()
    ref = Referee(match=MatchState(3))
    seen: list[str] = []
    window: list[str] = []  # kinds since the last moment that expected something
    results: list[str] = []
    for i, m in enumerate(moments):
        t = i * 0.1
        got = []
        for inp in m.inputs:
            got += ref.step(inp, t)
        dice = tuple(DieReading((0.0, 0.0), d.value, 0.3 if d.moving else 0.95, d.pose == "flat",
                                d.pose == "on_checker", d.half, d.moving) for d in m.dice)
        got += ref.step(observe(m.position, dice=dice, hand=m.hand, frame_index=i), t)
        kinds = [e.kind for e in got]
        window += kinds
        assert all(k in window for k in m.expect), (i, m.note, m.expect, window)
        if m.expect:
            window = []
        seen += kinds
        results += [e.result for e in got if isinstance(e, GameOver)]
    assert ref.phase == "match_over" and ref.match.score == (2, 3)
    for kind in ("opening_roll", "roll_void", "premature_roll", "illegal_play", "correction_demanded",
                 "illegal_play_resolved", "cube_offered", "cube_taken", "action_refused", "match_over"):
        assert kind in seen, kind
    assert seen.count("illegal_play") == 1  # only the planted one
    assert results == ["gammon", "resign", "resign"]


def test_the_script_is_short_enough_for_the_minute() -> None:
    moments = demo_match()
    assert len(moments) < 260
    assert all(m.position.on_board(m.position.turn) >= 0 for m in moments)


def test_scenes_carry_dice_in_the_right_halves_and_blur_when_moving() -> None:
    for m in demo_match()[:12]:
        s = scene_of(m)
        for spec, d in zip(s.dice, m.dice):
            assert (spec.u > 0.5) == (d.half == "right")
            assert (spec.motion_blur > 0) == d.moving
        assert (s.hand is not None) == m.hand


def test_a_roll_the_camera_never_sees_is_asked_for_and_entered_at_the_observation_level() -> None:
    """``ScriptWriter.play_unseen``: no die shown, the referee asks for the roll of the play it sees
    (roll_question.py) and takes the play on the roll the players enter -- every expectation met."""
    w = ScriptWriter()
    w.setup()
    w.play(w.opening(6, 5))
    before = w.position
    after = w.play_unseen((3, 1))
    w.play(w.roll((4, 2)))
    assert after in {r.position for r in legal_results(before, (3, 1))}
    assert all(not m.dice for m in w.moments if "unseen" in m.note)
    ref = Referee()
    window: list[str] = []
    seen: list[str] = []
    for i, m in enumerate(w.moments):
        got = [e for inp in m.inputs for e in ref.step(inp, i * 0.1)]
        dice = tuple(DieReading((0.0, 0.0), d.value, 0.3 if d.moving else 0.95, True, False, d.half, d.moving)
                     for d in m.dice)
        got += ref.step(observe(m.position, dice=dice, hand=m.hand, frame_index=i), i * 0.1)
        window += [e.kind for e in got]
        seen += [e.kind for e in got]
        assert all(k in window for k in m.expect), (i, m.note, m.expect, window)
        if m.expect:
            window = []
    assert seen.count("roll_needed") == 1 and seen.count("play_accepted") == 3 and "illegal_play" not in seen
