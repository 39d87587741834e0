"""The match log as an output: an :class:`~tavli_pi.referee.events.EventSink` that commits every event."""

from __future__ import annotations

from collections.abc import Callable

from tavli_pi.record.store import MatchLog
from tavli_pi.referee.events import Event, EventSink

__all__ = ["LogSink"]


class LogSink(EventSink):
    """Append each event to ``log``; ``frame_for(event)`` may return the JPEG that proved it."""

    def __init__(self, log: MatchLog, frame_for: Callable[[Event], bytes | None] | None = None) -> None:
        self._log = log
        self._frame_for = frame_for

    def handle(self, event: Event) -> None:
        frame = self._frame_for(event) if self._frame_for is not None else None
        self._log.append(event, frame)

    def close(self) -> None:
        self._log.close()
