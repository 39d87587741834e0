"""Every read an incremental reader makes in real-like referee games, shadowed by a full read of the
very same frame (the probes of issue 12: bench/probe_promise.py, bench/probe_dice_memo.py).

``shadowed_games(games, seen)`` plays each real-like game as ``bench_reallike.py --frames 0 --games 200
--only G`` does, with ``BoardReader.read`` wrapped: after each read of an incremental reader a full
reader of the same calibration (carried to each new calibration as the app's reader is) reads the same
frame, and ``seen`` gets both (:class:`Shadowed`). ``prepare(reader)`` runs before every read; what it
returns comes back as ``Shadowed.before``. Yields each game's index once it is played; the reader's
methods are put back when the loop ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Shadowed:
    """One read of an incremental reader and the full read of the same frame."""

    reader: Any  # the incremental BoardReader (its ``last_kind``, ``last_reread``, ``dice_memo``)
    inc: Any  # its Observation
    full: Any  # the full reader's Observation of the same frame
    inc_s: float  # CPU seconds (thread_time) of the incremental read
    full_s: float  # ... of the full read, made right after it
    index: int  # the frame's index
    before: Any  # what ``prepare`` returned before the read


def shadowed_games(games: Iterable[int], seen: Callable[[Shadowed], None],
                   prepare: Callable[[Any], Any] = lambda reader: None) -> Iterator[int]:
    from bench import bench_reallike
    from tavli_pi.vision.reader import BoardReader

    read, carried = BoardReader.read, BoardReader.carried_to
    shadows: dict[int, BoardReader] = {}

    def probe(self: BoardReader, image: Any, frame_index: int = 0) -> Any:
        before = prepare(self)
        t = time.thread_time()
        obs = read(self, image, frame_index)
        t = time.thread_time() - t
        if self.incremental:
            full = shadows.get(id(self))
            if full is None:
                full = shadows[id(self)] = BoardReader(self.calibration, still_photo=self.still_photo, hide=self.hide)
            u = time.thread_time()
            whole = read(full, image, frame_index)
            u = time.thread_time() - u
            seen(Shadowed(self, obs, whole, t, u, frame_index, before))
        return obs

    def carry(self: BoardReader, calibration: Any) -> BoardReader:
        r = carried(self, calibration)
        if id(self) in shadows:
            shadows[id(r)] = carried(shadows[id(self)], calibration)
        return r

    BoardReader.read = probe  # type: ignore[method-assign]
    BoardReader.carried_to = carry  # type: ignore[method-assign]
    try:
        for g in games:
            shadows.clear()
            bench_reallike.games(200, 0, 8, only=frozenset({g}))
            yield g
    finally:
        BoardReader.read = read  # type: ignore[method-assign]
        BoardReader.carried_to = carried  # type: ignore[method-assign]
