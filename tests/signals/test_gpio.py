"""Signals on gpiozero's MockFactory, driven at fake times (no sleeping)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tavli_pi.errors import ConfigError
from tavli_pi.referee import events as ev
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Position, Side
from tavli_pi.signals.gpio import Signals
from tavli_pi.signals.patterns import _TRANSIENT
from tavli_pi.signals.pinout import load_pinout

START = Position.start()


def state(phase: str = "awaiting_roll", *, clear_view: bool = False) -> ev.TableState:
    return ev.TableState(phase=ev.Phase(phase), position=START, clear_view=clear_view)


@pytest.fixture
def sig() -> Signals:
    s = Signals(load_pinout(), pin_factory=MockFactory())
    yield s
    s.close()


def at(s: Signals, name: str, times: list[float]) -> list[bool]:
    out = []
    for t in times:
        s.tick(t)
        out.append(s.value(name))
    return out


def test_play_accepted_lights_green_for_a_second(sig: Signals) -> None:
    factory = sig._devices["green"].pin_factory
    sig.handle(ev.PlayAccepted(at=10.0, state=state(), side=Side.WHITE, dice=(3, 1), play="8/5 6/5",
                               before=START, after=START))
    assert factory.pin(17).state is True
    assert at(sig, "green", [10.5, 10.99, 11.0, 12.0]) == [True, True, False, False]
    assert factory.pin(17).state is False
    assert sig.history == [(10.0, "green", True), (11.0, "green", False)]
    factory.pin(17).assert_states([False, True, False])


def test_void_roll_blinks_amber_four_times_and_beeps_twice(sig: Signals) -> None:
    sig.handle(ev.RollVoid(at=0.0, state=state(), side=Side.BLACK, reason="cocked"))
    times = [i * 0.05 for i in range(50)]
    amber = at(sig, "amber", times)
    rises = sum(1 for a, b in zip([False] + amber, amber) if b and not a)
    assert rises == 4 and not amber[-1]
    beeps = [t for t, name, on in sig.history if name == "buzzer" and on]
    assert beeps == [0.0, pytest.approx(0.2)]
    assert sig._devices["amber"].pin_factory.pin(27).state is False


def test_illegal_play_blinks_red_until_resolved(sig: Signals) -> None:
    sig.handle(ev.IllegalPlay(at=0.0, state=state("illegal"), side=Side.WHITE, dice=(3, 1), before=START,
                              observed=START, wrong_points=(4, 5), nearest=("8/5 6/5",)))
    red = at(sig, "red", [0.0, 0.1, 0.2, 0.35, 5.0, 5.1, 5.2])
    assert True in red and False in red  # blinking, still after 5 s
    assert sig.value("buzzer") is False  # the long beep ended at 0.8 s
    sig.handle(ev.IllegalPlayResolved(at=6.0, state=state(), side=Side.WHITE, accepted=False,
                                      play="8/5 6/5", after=START))
    assert at(sig, "green", [6.1, 6.7, 6.9, 7.7]) == [True, False, True, False]
    assert at(sig, "red", [8.0, 9.0]) == [False, False]


def test_correction_holds_red_and_cube_holds_amber(sig: Signals) -> None:
    sig.handle(ev.CorrectionDemanded(at=1.0, state=state("correcting"), side=Side.WHITE))
    assert at(sig, "red", [1.0, 3.0, 60.0]) == [True, True, True]
    sig.handle(ev.CubeOffered(at=61.0, state=state("cube"), side=Side.BLACK, value=2))
    assert at(sig, "amber", [61.0, 70.0]) == [True, True] and sig.value("red") is False
    sig.handle(ev.CubeTaken(at=71.0, state=state(), side=Side.WHITE, value=2))
    assert at(sig, "amber", [71.0]) == [False]


def test_clear_view_blinks_amber_slowly_until_a_verdict(sig: Signals) -> None:
    sig.handle(ev.ClearViewNeeded(at=0.0, state=state("judging", clear_view=True), reason="hand"))
    assert at(sig, "amber", [0.1, 0.6, 1.1, 30.2]) == [True, False, True, True]
    sig.handle(ev.PlayAccepted(at=31.0, state=state(), side=Side.WHITE, dice=(3, 1), play="",
                               before=START, after=START))
    assert at(sig, "amber", [31.0, 31.6, 32.1]) == [False, False, False]


def test_clear_view_stays_on_when_the_clock_pauses_for_it(sig: Signals) -> None:
    # the referee pauses the clock in the same step as it asks for a clear view
    sig.handle(ev.ClearViewNeeded(at=0.0, state=state("judging", clear_view=True), reason="hand"))
    sig.handle(ev.ClockReading(at=0.0, state=state("judging", clear_view=True), side=Side.WHITE, remaining=(600.0, 600.0),
                               extra={"paused": True}))
    assert at(sig, "amber", [0.1, 0.6, 1.1]) == [True, False, True]


def test_each_event_has_its_own_pattern() -> None:
    seen = {}
    for kind, outs in _TRANSIENT.items():
        if not outs:
            continue
        key = tuple(sorted((n, p) for n, p in outs.items()))
        assert key not in seen, f"{kind} looks like {seen.get(key)}"
        seen[key] = kind


def test_buttons_become_player_inputs() -> None:
    got: list[PlayerInput] = []
    factory = MockFactory()
    s = Signals(load_pinout(), pin_factory=factory, on_input=got.append, paddles=True)
    try:
        pins = load_pinout()
        for name in ("accept", "correct", "double", "take", "pass"):
            factory.pin(pins.buttons[name]).drive_low()
            factory.pin(pins.buttons[name]).drive_high()
        factory.pin(pins.paddles["black"]).drive_low()
        assert [i.action for i in got] == [Action.ACCEPT, Action.CORRECT, Action.DOUBLE, Action.TAKE,
                                           Action.PASS, Action.PADDLE]
        assert got[-1].side is Side.BLACK and got[0].side is None
    finally:
        s.close()
    s.close()  # idempotent


def test_pinout_errors_name_the_key(tmp_path: Path) -> None:
    p = tmp_path / "pinout.toml"
    p.write_text("[leds]\ngreen = 17\namber = 27\n[buzzer]\npin = 18\n")
    with pytest.raises(ConfigError, match=r"\[leds\] red"):
        load_pinout(p)
    p.write_text("[leds]\ngreen = 17\namber = 27\nred = 17\n[buzzer]\npin = 18\n"
                 "[buttons]\naccept = 5\ncorrect = 6\ndouble = 13\ntake = 19\npass = 26\n")
    with pytest.raises(ConfigError, match="used twice"):
        load_pinout(p)
    with pytest.raises(ConfigError, match="not found"):
        load_pinout(tmp_path / "missing.toml")


def test_standing_patterns_come_from_the_table_state_not_the_event_stream_B3(sig: Signals) -> None:
    # the referee says the set-up is wrong in the state; any event carrying that state holds amber
    wrong = ev.TableState(phase=ev.Phase.SETUP, position=START, setup_wrong=True)
    sig.handle(ev.ActionRefused(at=0.0, state=wrong, side=None, action="double"))
    assert at(sig, "amber", [0.1, 5.0]) == [True, True]
    sig.handle(ev.SetupChecked(at=6.0, state=state("opening"), ok=True))
    assert at(sig, "amber", [6.1]) == [False]
