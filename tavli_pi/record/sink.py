"""The match log as an output: the record policy and the sink that commits every event.

:data:`PROVING_KINDS` is the record policy: the verdicts whose camera frame is
saved beside them (as JPEG) as the evidence for a dispute. The frame travels
with the event it proves: ``LogSink.handle(event, frame)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.record.store import MatchLog
from tavli_pi.referee.events import Event

__all__ = ["LogSink", "RecordPolicy", "PROVING_KINDS"]

#: events whose frame is saved beside them in the log (the evidence for a dispute)
PROVING_KINDS = frozenset(
    {"play_accepted", "illegal_play", "illegal_play_resolved", "roll_void", "premature_roll",
     "opening_roll", "roll_accepted", "setup_checked"}
)


@dataclass(frozen=True, slots=True)
class RecordPolicy:
    """Which events keep their proving frame, and how it is stored.

    >>> RecordPolicy().keeps_frame("play_accepted"), RecordPolicy(save_frames=False).keeps_frame("play_accepted")
    (True, False)
    """

    save_frames: bool = True
    proving: frozenset[str] = PROVING_KINDS
    jpeg_quality: int = 80

    def keeps_frame(self, kind: str) -> bool:
        return self.save_frames and kind in self.proving


class LogSink:
    """An :class:`~tavli_pi.referee.events.EventSink` that appends each event to ``log``,
    with the frame that proved it (BGR image) when the policy keeps it."""

    def __init__(self, log: MatchLog, policy: RecordPolicy = RecordPolicy()) -> None:
        self.log = log
        self.policy = policy

    def handle(self, event: Event, frame: np.ndarray | None = None) -> None:
        self.commit([event], frame)

    def commit(self, events: Sequence[Event], frame: np.ndarray | None = None,
               snapshot: tuple[int, bytes] | None = None, meta: dict[str, str] | None = None) -> None:
        """Append ``events`` in one transaction, each with ``frame`` where the policy keeps it, and
        ``snapshot`` (camera frame index, referee bytes): the state they left, for an exact resume;
        ``meta``: the app's values that go with them (``MatchLog.append_many``)."""
        if not events:
            return
        jpeg: bytes | None = None
        if frame is not None and any(self.policy.keeps_frame(e.kind) for e in events):
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.policy.jpeg_quality])
            jpeg = buf.tobytes() if ok else None
        items = [(e, jpeg if self.policy.keeps_frame(e.kind) else None) for e in events]
        self.log.append_many(items, snapshot=snapshot, meta=meta)

    def close(self) -> None:
        if not self.log.closed:
            self.log.close()
