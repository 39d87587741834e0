"""The match clock: USBGF reserve formula, 12 s delay, pauses, flags. Time is injected."""

from __future__ import annotations

import pytest

from tavli_pi.rules.position import Side
from tavli_pi.referee.match_clock import ClockSettings, Flag, MatchClock, Timeout

W, B = Side.WHITE, Side.BLACK


@pytest.mark.parametrize(
    ("length", "score", "minutes"),
    [
        (5, (0, 0), 10.0),  # 2 min per point
        (7, (0, 0), 14.0),
        (11, (4, 2), 16.0),  # 22 - 1 per point scored by either player
        (9, (5, 3), 10.0),  # = 1 min per point still needed: 4 + 6
        (1, (0, 0), 2.0),
    ],
)
def test_usbgf_reserve_formula(length: int, score: tuple[int, int], minutes: float) -> None:
    assert ClockSettings().reserve(length, score) == minutes * 60
    needed = (length - score[0]) + (length - score[1])
    assert ClockSettings().reserve(length, score) == needed * 60


def test_doubles_and_money_settings() -> None:
    d = ClockSettings.doubles()
    assert (d.reserve(7), d.delay) == (7 * 150.0, 18.0)
    assert d.reserve(7, (2, 2)) == 7 * 150.0 - 4 * 75.0
    assert ClockSettings(money_reserve=900.0).reserve(0) == 900.0
    assert ClockSettings(per_point=180.0, per_point_scored=90.0).reserve(3, (1, 0)) == 450.0


def test_opening_press_starts_the_opponent_and_delay_is_free() -> None:
    c = MatchClock(ClockSettings(), match_length=5)
    assert c.running is None
    assert c.remaining(100.0) == (600.0, 600.0)  # nothing runs between games
    assert c.press(B, now=100.0)  # Black lost the opening roll
    assert c.running is W
    assert c.remaining(111.0) == (600.0, 600.0)  # inside the 12 s delay
    assert c.delay_left(111.0) == pytest.approx(1.0)
    assert c.remaining(130.0) == (582.0, 600.0)


def test_turns_alternate_and_only_the_runner_can_press() -> None:
    c = MatchClock(ClockSettings(), match_length=3)  # 360 s each
    c.press(W, now=0.0)  # Black's clock runs
    assert not c.press(W, now=5.0)  # not White's clock: nothing happens
    assert c.press(B, now=20.0)  # Black used 8 s of reserve
    assert c.remaining(20.0) == (360.0, 352.0)
    assert c.press(W, now=25.0)  # 5 s: within the delay, free
    assert c.remaining(25.0) == (360.0, 352.0)
    assert c.press(B, now=25.0 + 12 + 40)
    assert c.remaining(77.0) == (360.0, 312.0)
    assert c.running is W


def test_pause_freezes_both_and_keeps_the_move_delay() -> None:
    c = MatchClock(ClockSettings(), match_length=5)
    c.press(B, now=0.0)
    c.pause(now=8.0)  # dispute: 4 s of delay left
    assert c.paused
    assert not c.press(W, now=50.0)  # paddles do nothing while paused
    assert c.remaining(500.0) == (600.0, 600.0)
    c.resume(now=500.0)
    assert c.delay_left(502.0) == pytest.approx(2.0)
    assert c.remaining(514.0) == (590.0, 600.0)  # 4 s delay then 10 s of reserve


def test_stop_between_games_then_next_opening() -> None:
    c = MatchClock(ClockSettings(delay=0.0), match_length=5)
    c.press(B, now=0.0)
    c.stop(now=30.0)
    assert c.running is None and c.remaining(1000.0) == (570.0, 600.0)
    c.press(W, now=1000.0)  # next game: White lost the opening roll
    assert c.remaining(1010.0) == (570.0, 590.0)


def test_flag_loses_the_match_at_the_exact_instant() -> None:
    c = MatchClock(ClockSettings(), match_length=1)  # 120 s each
    c.press(B, now=0.0)
    assert c.poll(131.9) is None
    flag = c.flagged(500.0)
    assert flag == Flag(W, at=132.0, timeout=Timeout.LOSE_MATCH)
    assert c.poll(500.0) == flag and c.poll(501.0) is None  # reported once
    assert c.remaining(600.0) == (0.0, 120.0)
    assert not c.press(W, now=600.0)  # the match is over


def test_flag_after_a_pause_accounts_for_the_paused_stretch() -> None:
    c = MatchClock(ClockSettings(delay=10.0), match_length=1)
    c.press(W, now=0.0)  # Black runs; flag would fall at 130
    c.pause(now=50.0)
    c.resume(now=1050.0)
    f = c.flagged(2000.0)
    assert f is not None and (f.side, f.at) == (B, 1130.0)


def test_overtime_option_then_second_flag_loses() -> None:
    s = ClockSettings(on_timeout=Timeout.OVERTIME, overtime=60.0)
    c = MatchClock(s, match_length=1)
    c.press(B, now=0.0)
    first = c.poll(200.0)
    assert first == Flag(W, 132.0, Timeout.OVERTIME)
    assert c.flagged(200.0) is None and c.paused  # director called: clock waits
    assert c.remaining(300.0) == (60.0, 120.0)
    c.resume(now=300.0)
    assert c.press(W, now=330.0)  # the delay of that move was already spent: 30 s charged
    assert c.remaining(330.0) == (30.0, 120.0)
    c.press(B, now=340.0)
    final = c.poll(1000.0)
    assert final == Flag(W, 340.0 + 12 + 30, Timeout.LOSE_MATCH)


def test_notify_flag_lets_the_director_set_time_and_play_on() -> None:
    c = MatchClock(ClockSettings(on_timeout=Timeout.NOTIFY, delay=0.0), match_length=1)
    c.press(B, now=0.0)
    f = c.flagged(200.0)
    assert f is not None and f.timeout is Timeout.NOTIFY
    c.set_remaining(W, 30.0, now=210.0)
    assert c.flagged(210.0) is None
    c.resume(now=220.0)
    assert c.remaining(230.0) == (20.0, 120.0)

