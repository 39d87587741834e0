"""The app's frame loop: ``TableApp.process`` over the demo match and a random game (issue 12).

Run: .venv/bin/python bench/bench_loop.py  (``--quick``: the demo's first 80 frames only)

The frames are rendered first (the simulator's cost is not the table's), then fed
to a TableApp (calibrated once, logging to a temporary SQLite file, the players'
scripted presses submitted before their frame, as ``TableApp.run`` does) with
the incremental reader on and off, in the same run. Each frame's CPU time
(``time.process_time``) and wall time (``perf_counter``) is classed by the
reader's ``last_kind``: ``full`` (every frame with incremental reading off, and
the first with it on), ``changed`` or ``unchanged``; the unchanged frames are
also shown apart by whether they carried an event (such a frame commits it to
the log, with the proving frame's JPEG: the app's own cost is the rest).

CPU per second of video: the sequence at 10 fps is one frame per moment of the
script; at 15 fps every other moment shows for two frames (the extra frame the
same picture), so both cover the same seconds of play. The scripted games are
dense: something changes on most frames, where a real game's players think for
seconds between plays, so these figures are the worst case for the loop.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

from gpiozero.pins.mock import MockFactory  # noqa: E402

from tavli_pi.app import TableApp  # noqa: E402
from tavli_pi.config import parse_config  # noqa: E402
from tavli_pi.sim.camera import SimCamera  # noqa: E402
from tavli_pi.sim.script import Moment, demo_match, random_game  # noqa: E402
from tavli_pi.sim.table import scenes_of  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.camera import Frame  # noqa: E402
from tavli_pi.vision.setup import learn_board  # noqa: E402


def _frames(moments: Sequence[Moment], seed: int) -> tuple[list[Frame], Calibration]:
    frames: list[Frame] = []
    cam = SimCamera(scenes_of(moments), fps=10.0, seed=seed)
    with cam:
        for f in cam:
            if not frames:
                truth = cam.last_truth
                assert truth is not None
                cal = learn_board(f.image, Calibration(truth.corners, home=truth.home))  # type: ignore[arg-type]
            frames.append(f)
    return frames, cal


def _at(frames: list[Frame], fps: int) -> list[tuple[int, Frame]]:
    """(moment, frame) at ``fps``: at 15 every other moment is shown twice."""
    out: list[tuple[int, Frame]] = []
    for m, f in enumerate(frames):
        for _ in range(2 if fps == 15 and m % 2 else 1):
            out.append((m, Frame(f.image, len(out), len(out) / fps)))
    return out


def _loop(moments: Sequence[Moment], stream: list[tuple[int, Frame]], cal: Calibration,
          incremental: bool) -> tuple[dict[str, list[tuple[float, float]]], float, float, list[str]]:
    """Per kind of read, (cpu, wall) seconds of each process() call; total cpu, wall; the events' kinds."""
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config(f"[table]\nmatch_length = 5\n[record]\nlog = '{Path(tmp) / 'table.sqlite'}'\n")
        kinds: dict[str, list[tuple[float, float]]] = {}
        events: list[str] = []
        vision.clear()
        stages.clear()
        quiet.clear()
        with TableApp(cfg, calibration=cal, pin_factory=MockFactory(), incremental=incremental) as app:
            seen = -1
            cpu0, wall0 = time.process_time(), time.perf_counter()
            for m, frame in stream:
                if m != seen:
                    for inp in moments[m].inputs:
                        app.submit(inp)
                    seen = m
                c, w = time.process_time(), time.perf_counter()
                got = [e.kind for e in app.process(frame)]
                c, w = time.process_time() - c, time.perf_counter() - w
                events += got
                reader = app._reader  # noqa: SLF001 - which kind of read the frame took
                kind = reader.last_kind if reader is not None else "none"
                kinds.setdefault(kind, []).append((c, w))
                if kind == "unchanged":
                    # the app's own cost apart from the log: unchanged frames that carried no event
                    quiet.setdefault(not got, []).append((c, reader.timings["total"] if reader else 0.0))
                if reader is not None:
                    vision.setdefault(kind, []).append(reader.timings["total"])
                    if kind == "changed":
                        for k, v in reader.timings.items():
                            stages.setdefault(k, []).append(v)
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return kinds, cpu, wall, events


#: per kind of read, the reader's own wall time (``BoardReader.timings``), and per stage on changed frames
vision: dict[str, list[float]] = {}
stages: dict[str, list[float]] = {}
#: unchanged frames by whether they carried no event: (process() CPU, the reader's wall) seconds
quiet: dict[bool, list[tuple[float, float]]] = {}


def _ms(xs: list[float]) -> str:
    a = np.asarray(xs) * 1000
    return f"median {np.median(a):6.1f} p90 {np.percentile(a, 90):6.1f} ms"


def _single(frames: list[Frame], cal: Calibration) -> None:
    """One frame read again and again (CPU time): a full read, and an unchanged incremental one."""
    from tavli_pi.vision.reader import BoardReader

    img = frames[len(frames) // 2].image
    full = BoardReader(cal)
    cpu = []
    for _ in range(25):
        c = time.process_time()
        full.read(img)
        cpu.append(time.process_time() - c)
    inc = BoardReader(cal, incremental=True)
    inc.read(img)
    same = []
    for _ in range(300):
        c = time.process_time()
        inc.read(img)
        same.append(time.process_time() - c)
    print(f"  one frame read 25 times, full read: cpu {_ms(cpu)} (min {1000 * min(cpu):.1f}); "
          f"incremental, unchanged: cpu {_ms(same)}")


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; cores {os.cpu_count()}")
    demo = demo_match()
    games = [("demo", demo[:80] if quick else demo, 7)]
    if not quick:
        games.append(("random game 5 (8 turns)", random_game(5, turns=8), 5))
    for name, moments, seed in games:
        frames, cal = _frames(moments, seed)
        video = len(frames) / 10.0
        print(f"\n{name}: {len(frames)} frames = {video:.1f} s of video at 10 fps")
        _single(frames, cal)
        for fps in (10, 15):
            stream = _at(frames, fps)
            per: dict[bool, tuple[float, list[str]]] = {}
            for incremental in (False, True):
                kinds, cpu, wall, events = _loop(moments, stream, cal, incremental)
                per[incremental] = (cpu, events)
                label = "incremental on " if incremental else "incremental off"
                print(f"  {fps} fps, {label}: {len(stream)} frames, CPU {cpu:.2f} s = {cpu / video:.3f} CPU-s per "
                      f"s of video (wall {wall:.2f} s), {len(events)} events")
                for kind in ("full", "changed", "unchanged"):
                    got = kinds.get(kind, [])
                    if got:
                        print(f"    {kind:9s} x{len(got):3d}: process() cpu {_ms([c for c, _ in got])}; "
                              f"wall {_ms([w for _, w in got])}; the reader alone (wall) {_ms(vision[kind])}")
                for none, label in ((True, "no event"), (False, "events")):
                    got = quiet.get(none, [])
                    if got:
                        print(f"    unchanged, {label:8s} x{len(got):3d}: process() cpu {_ms([c for c, _ in got])}; "
                              f"the reader alone (wall) {_ms([v for _, v in got])}")
                if stages:
                    print("    changed frames, reader stages (median wall ms): "
                          + ", ".join(f"{k} {1000 * np.median(v):.1f}" for k, v in stages.items()))
            off, on = per[False], per[True]
            print(f"  {fps} fps: incremental on/off CPU {on[0] / off[0]:.2f}x; the same events: {on[1] == off[1]}")
    print(f"\nload average at end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
