"""The table's GPIO: LEDs, buzzer and buttons through gpiozero.

``Signals`` is an EventSink. ``handle(event)`` picks the patterns;
``tick(now)`` drives the pins (call it every frame; nothing blinks on a
background thread, so time stays injectable). Buttons become PlayerInputs
through ``on_input``. Tests pass ``pin_factory=MockFactory()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpiozero import LED, Button, Buzzer

from tavli_pi.referee import events as ev
from tavli_pi.referee.events import Event
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Side
from tavli_pi.signals.patterns import OUTPUTS, Pattern, standing_for, transient_for
from tavli_pi.signals.pinout import Pinout, load_pinout

__all__ = ["Signals"]

_BUTTON_ACTIONS = {
    "accept": Action.ACCEPT,
    "correct": Action.CORRECT,
    "double": Action.DOUBLE,
    "take": Action.TAKE,
    "pass": Action.PASS,
}


class Signals:
    """LEDs + buzzer + buttons of one table."""

    def __init__(
        self,
        pinout: Pinout | None = None,
        *,
        pin_factory: Any = None,
        on_input: Callable[[PlayerInput], None] | None = None,
        paddles: bool = False,
    ) -> None:
        self.pinout = pinout or load_pinout()
        self.on_input = on_input
        self._devices: dict[str, Any] = {}
        self._buttons: list[Button] = []
        self.closed = False
        for name, pin in self.pinout.leds.items():
            self._devices[name] = LED(pin, pin_factory=pin_factory)
        self._devices["buzzer"] = Buzzer(self.pinout.buzzer, pin_factory=pin_factory)
        for name, pin in self.pinout.buttons.items():
            b = Button(pin, pull_up=True, pin_factory=pin_factory)
            b.when_pressed = self._press(PlayerInput(_BUTTON_ACTIONS[name], None, source="button"))
            self._buttons.append(b)
        if paddles:
            for side_name, pin in self.pinout.paddles.items():
                b = Button(pin, pull_up=True, pin_factory=pin_factory)
                side = Side[side_name.upper()]
                b.when_pressed = self._press(PlayerInput(Action.PADDLE, side, source="paddle"))
                self._buttons.append(b)
        self._transient: dict[str, tuple[float, Pattern]] = {}
        self._standing: dict[str, tuple[float, Pattern]] = {}
        self._value = {name: False for name in OUTPUTS}
        #: (time, output, on) for every change, at the injected times
        self.history: list[tuple[float, str, bool]] = []

    def _press(self, inp: PlayerInput) -> Callable[[], None]:
        def pressed() -> None:
            if self.on_input is not None:
                self.on_input(inp)

        return pressed

    # -- EventSink ---------------------------------------------------------------
    def handle(self, event: Event) -> None:
        if self.closed:
            return
        now = event.at
        kind = _pattern_kind(event)
        state = event.state
        standing = standing_for(state.phase, clear_view=state.clear_view, setup_wrong=state.setup_wrong)
        for name, pattern in standing.items():
            old = self._standing.get(name)
            if old is None or old[1] != pattern:
                self._standing[name] = (now, pattern)
        for name, pattern in transient_for(kind).items():
            self._transient[name] = (now, pattern)
        self.tick(now)

    def tick(self, now: float) -> None:
        """Set every output as its patterns say at time ``now``."""
        if self.closed:
            return
        for name in OUTPUTS:
            on: bool | None = None
            tr = self._transient.get(name)
            if tr is not None:
                on = tr[1].value(now - tr[0])
                if on is None:
                    del self._transient[name]
            if on is None:
                st = self._standing.get(name)
                on = bool(st and st[1].value(now - st[0]))
            if on != self._value[name]:
                self._value[name] = on
                dev = self._devices[name]
                dev.on() if on else dev.off()
                self.history.append((now, name, on))

    def value(self, name: str) -> bool:
        return self._value[name]

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for b in self._buttons:
            b.close()
        for d in self._devices.values():
            d.close()


def _pattern_kind(event: Event) -> str:
    """The pattern an event sounds: its kind, split where one kind has two outcomes."""
    match event:
        case ev.OpeningRoll(winner=None):
            return "opening_tie"
        case ev.IllegalPlayResolved(accepted=True):
            return "illegal_play_accepted"
        case ev.SetupChecked(ok=False):
            return "setup_wrong"
    return event.kind
