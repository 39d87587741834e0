"""Drive a table with a script: each moment's inputs, then its rendered frame.

Shared by ``tavli-pi demo``, the end-to-end tests and the referee benchmark,
so that all three run the same loop. The table is anything with ``submit``
(player inputs) and ``process`` (one frame in, the referee's events out):
:class:`tavli_pi.app.TableApp`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from tavli_pi.referee.events import Event, Phase
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.sim.script import Moment
from tavli_pi.vision.camera import Camera, Frame

__all__ = ["Table", "Step", "drive", "asks_setup_confirmation"]


class Table(Protocol):
    def submit(self, inp: PlayerInput) -> None: ...

    def process(self, frame: Frame) -> list[Event]: ...


@dataclass(frozen=True, slots=True)
class Step:
    """What happened on one scripted moment."""

    index: int
    moment: Moment
    frame: Frame
    events: tuple[Event, ...]
    #: event kinds since the last moment that expected something (this one's included)
    window: tuple[str, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(e.kind for e in self.events)

    @property
    def missing(self) -> tuple[str, ...]:
        """Event kinds the script expects by this moment that the referee has not given
        since the previous moment that expected something (a verdict may come a frame early)."""
        return tuple(k for k in self.moment.expect if k not in self.window)


def asks_setup_confirmation(events: Sequence[Event]) -> bool:
    """Whether the referee asks the players to fix or confirm the set-up board (B3): a set-up
    found wrong, or a request for a clear view, while the table is at set-up."""
    return any(e.state.phase is Phase.SETUP and (e.kind == "clear_view_needed"
                                                 or (e.kind == "setup_checked" and not getattr(e, "ok", True)))
               for e in events)


def drive(table: Table, camera: Camera, moments: Sequence[Moment], *,
          confirm_setup: bool = False) -> Iterator[Step]:
    """Feed ``moments`` (whose scenes ``camera`` renders, in the same order) to ``table``.

    ``confirm_setup``: the players do what players at a real table do when the referee reads
    their set-up board otherwise than they set it up (the script sets it up right): one of them
    presses ACCEPT before the next frame (B3).
    """
    window: list[str] = []
    confirm = False
    for i, m in enumerate(moments):
        if confirm:
            table.submit(PlayerInput(Action.ACCEPT, None, source="touch"))
            confirm = False
        for inp in m.inputs:
            table.submit(inp)
        frame = camera.read()
        if frame is None:
            return
        events = tuple(table.process(frame))
        confirm = confirm_setup and asks_setup_confirmation(events)
        window += [e.kind for e in events]
        yield Step(i, m, frame, events, tuple(window))
        if m.expect:
            window = []
