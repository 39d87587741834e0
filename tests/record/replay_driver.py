"""Replay driver for the crash test: append a fixed match to a log, resuming where it ends.

    python tests/record/replay_driver.py DB SEED JPEG

Appends the events of ``synthetic_match(SEED)`` one committed transaction at
a time (frames attached to plays), starting after the last event the log
holds, and prints each committed seq. Killed at any moment and restarted, it
must end with exactly the log an uninterrupted run writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tavli_pi.record.header import MatchHeader  # noqa: E402
from tavli_pi.record.resume import open_for_resume  # noqa: E402
from tavli_pi.record.synthetic import synthetic_match  # noqa: E402
from tavli_pi.referee.events import IllegalPlay, PlayAccepted, to_dict  # noqa: E402

HEADER = MatchHeader(players=("Kill", "Nine"), match_length=5, event="Crash test", date="2024-05-01")


def main(db: str, seed: int, jpeg_path: str) -> int:
    jpeg = Path(jpeg_path).read_bytes()
    events = synthetic_match(seed, HEADER)
    log, info = open_for_resume(db, HEADER)
    with log:
        done = info.next_seq - 1
        if done:  # the log must be a prefix of the stream
            assert info.last is not None
            assert to_dict(info.last.event) == to_dict(events[done - 1]), "log diverged from stream"
        for i in range(done, len(events)):
            e = events[i]
            frame = jpeg if isinstance(e, (PlayAccepted, IllegalPlay)) else None
            seq = log.append(e, frame, expect_seq=i + 1)
            print(seq, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
