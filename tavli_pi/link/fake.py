"""A scriptable stand-in for :class:`~tavli_pi.link.table_link.TableLink`.

For other outputs' and the app's tests: it maps events exactly as the real
link does (same :class:`~tavli_pi.link.mapping.EventMapper`) but records the
commands instead of sending them, checks them against expectations, and lets
a test press the clock paddles::

    link = FakeLink(on_paddle=presses.append)
    link.expect(ScoreSet(1, 0, 7, False))
    link.handle(game_over_event)      # AssertionError if another command comes first
    link.assert_done()
    link.press(Side.BLACK)            # calls on_paddle(Side.BLACK)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from tavli_pi.link.mapping import Command, EventMapper
from tavli_pi.referee.events import Event
from tavli_pi.rules.position import Side

__all__ = ["FakeLink"]


class FakeLink:
    def __init__(self, on_paddle: Callable[[Side], None] | None = None, *, strict: bool = False) -> None:
        """``strict``: every command must have been expected (else only expected ones are checked in order)."""
        self.on_paddle = on_paddle
        self.strict = strict
        self.mapper = EventMapper()
        self.sent: list[Command] = []
        self._expected: deque[Command] = deque()
        self.closed = False
        self.state = "ready"

    @property
    def view(self) -> list[Command]:
        """The unit's current view: scene, clock, score."""
        return self.mapper.view.commands()

    def expect(self, *commands: Command) -> FakeLink:
        self._expected.extend(commands)
        return self

    def handle(self, event: Event) -> None:
        for cmd in self.mapper.apply(event):
            self.sent.append(cmd)
            if self._expected and self._expected[0] == cmd:
                self._expected.popleft()
            elif self.strict or (self._expected and type(self._expected[0]) is type(cmd)):
                want = self._expected[0] if self._expected else "nothing"
                raise AssertionError(f"FakeLink: expected {want!r}, got {cmd!r}")

    def assert_done(self) -> None:
        if self._expected:
            raise AssertionError(f"FakeLink: still expecting {list(self._expected)!r}")

    def press(self, side: Side) -> None:
        """Simulate a debounced paddle press arriving from the unit."""
        if self.on_paddle is not None:
            self.on_paddle(side)

    def poll(self, now: float | None = None) -> None:
        """Nothing to do: no I/O."""

    def close(self) -> None:
        self.closed = True
