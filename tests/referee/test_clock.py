"""The match clock inside the referee: paddles, disputes, director pauses, flags, games.

Time is the ``now`` of each step (the synthetic Table steps 0.1 s per input; ``at`` jumps).
USBGF clock rules (March 2013): 2 min per match point, 12 s delay, the loser of the
opening roll starts the winner's clock (3.3), a flag loses the match (5).
"""

from __future__ import annotations

import pytest

from tavli_pi.errors import ConfigError
from tavli_pi.referee import events as ev
from tavli_pi.referee.clock import RefereeClock, format_seconds
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.position import Side
from tavli_pi.referee.match_clock import ClockSettings, Timeout

from .synth import Table, die, kinds
from .test_referee import illegal_after, opened, play

W, B = Side.WHITE, Side.BLACK


def clocked(**kw: object) -> RefereeSettings:
    return RefereeSettings(clock=ClockSettings(**kw))  # type: ignore[arg-type]


def at(t: Table, seconds: float) -> None:
    """The next input reaches the referee at ``seconds``."""
    t.t = seconds - 0.1


OPENING_DICE = (die(3, "right"), die(1, "left"))


def still(t: Table) -> list[ev.Event]:
    """One frame of the board with the opening dice still down (White thinking)."""
    return t.show(t.referee.position, dice=OPENING_DICE)


def reading(events: list[ev.Event]) -> ev.ClockReading:
    got = [e for e in events if isinstance(e, ev.ClockReading)]
    assert len(got) == 1, kinds(events)
    return got[0]


def test_no_clock_no_clocks_and_paddles_refused() -> None:
    t = opened(match=MatchState(5))
    assert t.events[-1].state.clocks is None
    got = t.press(Action.PADDLE, B)
    assert kinds(got) == ["action_refused"] and "[clock] enabled" in got[0].message


def test_the_opening_loser_starts_the_clock_and_each_press_switches_it() -> None:
    t = opened(clocked(), match=MatchState(5))  # White won the opening roll 3-1
    assert [e.state.clocks for e in t.events] == [(600.0, 600.0)] * len(t.events)  # 2 min per point, stopped
    refused = t.press(Action.PADDLE, W)
    assert kinds(refused) == ["action_refused"] and "Black presses" in refused[0].message  # 3.3
    at(t, 10.0)
    r = reading(t.press(Action.PADDLE, B))
    assert r.side is W and r.remaining == (600.0, 600.0) and r.extra["pressed_by"] == "black"
    assert "White's clock runs (10:00 left)" in r.message
    at(t, 40.0)  # White thinks 30 s: 12 s free, 18 s off the reserve
    before = len(t.events)
    play(t, "8/5 6/5")
    accepted = t.events[-1]
    assert accepted.kind == "play_accepted"
    spent = accepted.at - 10.0 - 12.0
    assert accepted.state.clocks == pytest.approx((600.0 - spent, 600.0))
    assert "clock_reading" not in kinds(t.events[before:])  # no reading per frame, only per press
    now = t.t + 0.1
    r = reading(t.press(Action.PADDLE, W))
    assert r.side is B and r.remaining[W] == pytest.approx(600.0 - (now - 22.0))
    again = t.press(Action.PADDLE, W)
    assert kinds(again) == ["action_refused"] and "White's clock is not running" in again[0].message
    # the side whose clock runs may always press: the clock is the player's own act (E5 keeps the turn)
    assert reading(t.press(Action.PADDLE, B)).side is W
    for e in t.events:
        assert ev.from_dict(ev.to_dict(e)) == e


def test_an_illegal_play_dispute_pauses_the_clock_until_resolved_E8() -> None:
    t = opened(clocked(), match=MatchState(5))
    t.press(Action.PADDLE, B)
    start = t.t
    _, bad = illegal_after(t)
    at(t, start + 30.0)
    got = t.move_and_pick_up(t.referee.before, bad, (die(3, "right"), die(1, "left")))
    assert kinds(got) == ["illegal_play", "clock_reading"]
    r = reading(got)
    assert r.extra["paused"] and r.extra["holds"] == ["dispute"] and r.side is W
    frozen = r.remaining
    assert frozen[W] < 600.0
    at(t, start + 400.0)  # the players argue for six minutes
    refused = t.press(Action.PADDLE, W)
    assert kinds(refused) == ["action_refused"] and "paused for a dispute" in refused[0].message
    assert kinds(t.press(Action.CORRECT, B)) == ["correction_demanded"]  # still disputed while correcting
    assert t.referee.clock is not None and t.referee.clock.paused
    legal, _ = illegal_after(t)
    t.show(bad, dice=(), hand=True)
    got = t.show(legal, 2)
    assert kinds(got) == ["illegal_play_resolved", "clock_reading"]
    assert got[0].state.clocks == pytest.approx(frozen)  # not a second charged during the dispute
    assert not reading(got).extra["paused"] and reading(got).message == "Clock running again."


def test_a_clear_view_request_pauses_the_clock() -> None:
    t = opened(clocked(), match=MatchState(3))
    t.press(Action.PADDLE, B)
    ref = t.referee
    legal, _ = illegal_after(t)
    dice = (die(3, "right"), die(1, "left"))
    t.show(legal, 2, dice=dice)
    t.show(legal, dice=(), hand=True)  # the hand picks the dice up
    got = t.show(legal)  # one clear frame: judging starts (E5), not enough to decide
    for _ in range(ref.settings.clear_view_after):
        got += t.show(legal, hand=True)  # then hands hide the board
    assert kinds(got) == ["clear_view_needed", "clock_reading"]
    assert reading(got).extra["holds"] == ["clear_view"]
    frozen = reading(got).remaining
    at(t, t.t + 120.0)
    got = t.show(legal, 2)
    assert kinds(got) == ["play_accepted", "clock_reading"]
    assert got[0].state.clocks == pytest.approx(frozen)


def test_director_pause_and_resume() -> None:
    t = opened(clocked(), match=MatchState(3))
    assert kinds(t.press(Action.PAUSE)) == ["action_refused"]  # nothing runs yet
    pressed = reading(t.press(Action.PADDLE, B)).at
    at(t, 100.0)
    r = reading(t.press(Action.PAUSE))
    assert r.extra["holds"] == ["director"] and r.message == "The director paused the clock."
    assert kinds(t.press(Action.PAUSE)) == ["action_refused"]
    at(t, 1000.0)
    assert kinds(t.press(Action.PADDLE, W)) == ["action_refused"]
    r = reading(t.press(Action.RESUME))
    assert r.remaining == pytest.approx((360.0 - (100.0 - pressed - 12.0), 360.0), abs=1e-6)
    assert kinds(t.press(Action.RESUME)) == ["action_refused"]
    at(t, 1010.0)
    assert reading(t.press(Action.PADDLE, W)).remaining[W] == pytest.approx(r.remaining[W] - (1010.0 - r.at))


def test_a_flag_loses_the_match_USBGF_5() -> None:
    t = opened(clocked(), match=MatchState(1))  # 2 minutes each
    t.press(Action.PADDLE, B)
    pressed = t.t
    at(t, pressed + 12.0 + 119.0)
    assert still(t) == [] and t.referee.state.clocks == pytest.approx((1.0, 120.0))
    at(t, pressed + 12.0 + 125.0)
    got = still(t)
    assert kinds(got) == ["clock_reading", "match_over"]
    flag, over = got
    assert isinstance(flag, ev.ClockReading) and isinstance(over, ev.MatchOver)
    assert flag.side is W and flag.remaining == (0.0, 120.0)
    assert flag.extra["flag"] == "lose_match" and flag.extra["flag_at"] == pytest.approx(pressed + 132.0)
    assert over.winner is B and over.extra["reason"] == "time"
    assert "White's time ran out" in over.message and "USBGF clock rules" in over.message
    assert over.state.phase == "match_over" and t.referee.phase == "match_over"
    assert kinds(t.press(Action.PADDLE, W)) == ["action_refused"]


def test_overtime_then_a_second_flag() -> None:
    t = opened(clocked(on_timeout=Timeout.OVERTIME, overtime=60.0), match=MatchState(1))
    t.press(Action.PADDLE, B)
    pressed = t.t
    at(t, pressed + 200.0)
    got = still(t)
    r = reading(got)
    assert kinds(got) == ["clock_reading"] and r.extra["flag"] == "overtime"
    assert r.extra["holds"] == ["overtime"] and r.remaining == (60.0, 120.0)
    assert t.referee.phase == "rolled"  # play goes on once the director restarts the clock
    at(t, pressed + 900.0)
    assert kinds(t.press(Action.PADDLE, W)) == ["action_refused"]
    resumed = reading(t.press(Action.RESUME))
    assert resumed.remaining == (60.0, 120.0) and not resumed.extra["paused"]
    at(t, pressed + 959.0)
    assert still(t) == []
    at(t, pressed + 961.0)
    assert kinds(still(t)) == ["clock_reading", "match_over"]


def test_notify_alerts_and_play_goes_on() -> None:
    t = opened(clocked(on_timeout=Timeout.NOTIFY), match=MatchState(1))
    t.press(Action.PADDLE, B)
    at(t, t.t + 500.0)
    got = still(t)
    assert kinds(got) == ["clock_reading"] and reading(got).extra["flag"] == "notify"
    assert "call the director" in got[0].message
    refused = t.press(Action.PADDLE, W)
    assert "time has run out" in refused[0].message
    play(t, "8/5 6/5")
    assert t.events[-1].kind == "play_accepted"


@pytest.mark.parametrize("reset", [False, True])
def test_clocks_stop_between_games_and_carry_or_reset(reset: bool) -> None:
    s = RefereeSettings(clock=ClockSettings(delay=0.0, per_point=108.0, per_point_scored=54.0),
                        clock_reset_each_game=reset)
    t = opened(s, match=MatchState(5, crawford_rule=False))  # 540 s each (9 min)
    pressed = reading(t.press(Action.PADDLE, B)).at
    at(t, t.t + 30.0)
    t.press(Action.RESIGN, B, level=1)
    got = t.press(Action.ACCEPT_RESIGN, W)
    assert kinds(got) == ["resignation_answered", "game_over"]
    over = got[-1].state.clocks
    assert over == pytest.approx((540.0 - (got[-1].at - pressed), 540.0))
    at(t, t.t + 300.0)  # the board is set up again: no clock runs
    assert kinds(t.press(Action.PADDLE, W)) == ["action_refused"]
    got = t.setup()
    assert kinds(got) == ["setup_checked", "game_started"]
    # carry: the reserve is for the match (USBGF 2.1); reset: 2 x 5 - 1 x 1 scored, per point of 54 s
    expected = over if not reset else (108.0 * 5 - 54.0, 108.0 * 5 - 54.0)
    assert got[-1].state.clocks == pytest.approx(expected)
    assert kinds(t.press(Action.PADDLE, B)) == ["action_refused"]  # not before the opening roll


def test_resume_restores_the_logged_clocks() -> None:
    t = opened(clocked(), match=MatchState(5))
    t.press(Action.PADDLE, B)
    at(t, 100.0)
    play(t, "8/5 6/5")
    state = t.events[-1].state
    assert state.clocks is not None and state.clocks[W] < 600.0
    ref = Referee.from_state(state, clocked())
    assert ref.clock is not None and ref.clock.running is None
    assert ref.state.clocks == pytest.approx(state.clocks)


def test_clock_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="clock.per_point"):
        clocked(per_point=0.0)
    with pytest.raises(ConfigError, match="clock.delay"):
        clocked(delay=-1.0)
    with pytest.raises(ConfigError, match="clock.on_timeout"):
        clocked(on_timeout="never")


def test_referee_clock_holds_need_every_reason_released() -> None:
    c = RefereeClock(ClockSettings(delay=0.0), match_length=1)
    c.press(B, now=0.0)
    assert c.hold("dispute", 10.0) and not c.hold("director", 11.0)
    assert not c.release("dispute", 50.0) and c.paused
    assert c.release("director", 60.0) and not c.paused
    assert c.remaining(70.0) == (100.0, 120.0)
    assert format_seconds(59.2) == "1:00" and format_seconds(0.0) == "0:00" and format_seconds(600) == "10:00"
