"""Events -> what the table unit shows (the same for TableLink and FakeLink)."""

from __future__ import annotations

from tavli_pi.link.mapping import EventMapper, changed_leds, led_for_point
from tavli_pi.link.protocol import NO_CLOCK, NONE_SIDE, Buzz, ClockSet, Scene, ScoreSet
from tavli_pi.referee import events as ev
from tavli_pi.rules.position import Side

from tests.link.events_factory import AFTER_31, START, state


def test_play_accepted_marks_the_points_that_changed() -> None:
    m = EventMapper()
    cmds = m.apply(ev.PlayAccepted(at=1.0, state=state(phase="awaiting_roll", position=AFTER_31),
                                   side=Side.WHITE, dice=(3, 1), play="8/5 6/5", before=START, after=AFTER_31))
    assert changed_leds(START, AFTER_31) == {4, 5, 7}
    scene = m.view.scene
    assert [i for i, r in enumerate(scene.roles) if r == Scene.LAST] == [4, 5, 7]
    assert scene.turn == int(Side.BLACK)
    assert cmds == [scene]  # clock and score did not change


def test_illegal_play_blinks_the_wrong_points_and_buzzes() -> None:
    m = EventMapper()
    st = state(phase="illegal", position=START, wrong_points=(6, 13, 0, 25))
    cmds = m.apply(ev.IllegalPlay(at=2.0, state=st, side=Side.BLACK, dice=(6, 5), before=START,
                                  observed=None, wrong_points=(6, 13, 0, 25), nearest=()))
    roles = m.view.scene.roles
    assert {i for i, r in enumerate(roles) if r == Scene.ILLEGAL} == {5, 12, 24, 26}  # bar, Black's tray
    assert Buzz(Buzz.DOUBLE) in cmds
    # resolved (corrected): the marks go, the correction becomes the last play
    cmds = m.apply(ev.IllegalPlayResolved(at=3.0, state=state(position=AFTER_31), side=Side.WHITE,
                                          accepted=False, play="8/5 6/5", after=AFTER_31))
    assert Scene.ILLEGAL not in m.view.scene.roles
    assert {i for i, r in enumerate(m.view.scene.roles) if r == Scene.LAST} == {4, 5, 7}


def test_clock_reading_sets_both_clocks_and_the_running_side() -> None:
    m = EventMapper()
    cmds = m.apply(ev.ClockReading(at=1.0, state=state(clocks=(600.0, 545.0)), side=Side.WHITE,
                                   remaining=(599.5, 545.0)))
    assert m.view.clock == ClockSet(599500, 545000, 0)
    assert m.view.clock in cmds


def test_a_paused_clock_runs_for_nobody() -> None:
    m = EventMapper()
    m.apply(ev.ClockReading(at=1.0, state=state(clocks=(600.0, 545.0)), side=Side.WHITE,
                            remaining=(599.5, 545.0)))
    m.apply(ev.ClockReading(at=2.0, state=state(clocks=(598.5, 545.0)), side=Side.WHITE,
                            remaining=(598.5, 545.0), extra={"paused": True}))
    assert m.view.clock == ClockSet(598500, 545000, NONE_SIDE)


def test_no_clock_and_score_and_game_over() -> None:
    m = EventMapper()
    m.apply(ev.GameStarted(at=0.0, state=state(phase="opening", match_length=7, score=(2, 3)),
                           game_number=2, score=(2, 3), crawford=False))
    assert m.view.clock == ClockSet(NO_CLOCK, 0, NONE_SIDE)
    assert m.view.score == ScoreSet(2, 3, 7, False)
    cmds = m.apply(ev.GameOver(at=9.0, state=state(phase="game_over", match_length=7, score=(4, 3)),
                               winner=Side.WHITE, points=2, result="gammon", score=(4, 3)))
    assert ScoreSet(4, 3, 7, False) in cmds and Buzz(Buzz.LONG) in cmds
    assert m.view.scene.turn == NONE_SIDE


def test_led_numbering() -> None:
    assert led_for_point(1, Side.WHITE) == 0
    assert led_for_point(24, Side.BLACK) == 23
    assert led_for_point(0, Side.WHITE) == 24
    assert led_for_point(25, Side.WHITE) == 25 and led_for_point(25, Side.BLACK) == 26


def test_a_plakoto_pin_lights_its_point_like_a_portes_play() -> None:
    # RULES-TAVLI.md P3: White's 24/18* pins Black's checker on 18; the LEDs show the play as for Portes
    from tavli_pi.rules.games import legal_ends
    from tavli_pi.rules.tavli_position import TavliPosition
    from tavli_pi.rules.tavli_settings import Variant

    before = TavliPosition.from_stacks({24: "w15", 1: "b14", 18: "b1"})
    after = next(e.position for e in legal_ends(Variant.PLAKOTO, before, (6, 1)) if e.moves == "24/18* 24/23")
    assert changed_leds(before, after) == {17, 22, 23}  # points 18 (the pin), 23 and 24, 0-based LEDs
    unpinned = TavliPosition.from_stacks({24: "w13", 23: "w1", 18: "w1b1", 1: "b14"})
    assert changed_leds(after, unpinned) == {17}  # the same counts, the other colour pinned
