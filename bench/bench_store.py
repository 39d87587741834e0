"""How many events per second the match log commits, one durable transaction each.

    .venv/bin/python bench/bench_store.py [--events N]

Runs, in the same process and folder, synchronous=FULL (the default: every
committed turn survives power loss) against NORMAL (WAL: survives a process
crash, may lose the last commits on power loss), with and without a 640x480
JPEG frame attached to every play, and with the referee snapshot the app commits with every
batch (a mid-match referee pickled each time). Prints one line per case.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tavli_pi.record.header import MatchHeader  # noqa: E402
from tavli_pi.record.store import MatchLog, Synchronous  # noqa: E402
from tavli_pi.record.synthetic import synthetic_match  # noqa: E402
from tavli_pi.referee import snapshot  # noqa: E402
from tavli_pi.referee.events import Event, PlayAccepted  # noqa: E402
from tavli_pi.referee.referee import Referee  # noqa: E402


def _frame() -> bytes:
    rng = np.random.default_rng(1)
    img = cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (9, 9), 3)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return buf.tobytes()


def _events(n: int) -> list[Event]:
    out: list[Event] = []
    seed = 0
    h = MatchHeader(players=("A", "B"), match_length=7)
    while len(out) < n:
        out += synthetic_match(seed, h)
        seed += 1
    return out[:n]


def run(sync: Synchronous, frames: bool, events: list[Event], jpeg: bytes, folder: Path,
        referee: Referee | None = None) -> float:
    """Events per second; with ``referee`` each commit also pickles it and stores the snapshot
    (what the app does for an exact resume)."""
    p = folder / f"bench-{sync}-{frames}-{referee is not None}.sqlite"
    with MatchLog.open(p, MatchHeader(), synchronous=sync) as log:
        t0 = time.perf_counter()
        for i, e in enumerate(events):
            frame = jpeg if frames and isinstance(e, PlayAccepted) else None
            if referee is None:
                log.append(e, frame)
            else:
                log.append_many([(e, frame)], snapshot=(i, snapshot.dumps(referee)))
        dt = time.perf_counter() - t0
    return len(events) / dt


def _mid_match_referee() -> Referee:
    """The referee of the demo match after 120 frames (dice watches, evidence frames, the clock)."""
    from tavli_pi.app import TableApp
    from tavli_pi.config import parse_config

    cfg = parse_config('[table]\nmatch_length = 3\n[camera]\nsource = "sim:demo"\n'
                       'corners = "324.8,64.8 955.2,64.8 955.2,655.2 324.8,655.2"\n')
    with TableApp(cfg, record=False) as app:
        app.run(max_frames=120)
        return app.referee


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=1000)
    args = ap.parse_args()
    events = _events(args.events)
    jpeg = _frame()
    plays = sum(isinstance(e, PlayAccepted) for e in events)
    print(f"{len(events)} events ({plays} plays), JPEG frame {len(jpeg) // 1024} KiB")
    with tempfile.TemporaryDirectory(prefix="bench-store-", dir=".") as d:
        for frames in (False, True):
            for sync in ("FULL", "NORMAL"):
                rate = run(sync, frames, events, jpeg, Path(d))  # type: ignore[arg-type]
                print(f"synchronous={sync:<6} frames={'yes' if frames else 'no ':<3}  snapshot=no   "
                      f"{rate:8.0f} events/s  ({1000 / rate:6.2f} ms per commit)")
        ref = _mid_match_referee()
        blob = len(snapshot.dumps(ref))
        for sync in ("FULL", "NORMAL"):
            rate = run(sync, True, events, jpeg, Path(d), ref)  # type: ignore[arg-type]
            print(f"synchronous={sync:<6} frames=yes snapshot=yes "
                  f"{rate:8.0f} events/s  ({1000 / rate:6.2f} ms per commit; referee {blob / 1024:.1f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
