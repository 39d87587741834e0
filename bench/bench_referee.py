"""Referee benchmark: verdict latency and CPU per second of video (sim camera -> vision -> referee).

Plays the demo script's frames at 10 frames a second through the real
renderer, the real vision reader and the referee, and prints:
- CPU seconds per second of video, split into render / vision / referee;
- latency from the frame in which the roller's dice leave the board to the
  verdict (frames and seconds of table time), and the referee's own compute
  time for the verdict step.

    .venv/bin/python bench/bench_referee.py [--frames N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tavli_pi.referee.referee import Referee
from tavli_pi.rules.match import MatchState
from tavli_pi.sim.render import render
from tavli_pi.sim.script import demo_match
from tavli_pi.sim.table import scene_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine

FPS = 10.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=0, help="stop after N frames (0 = the whole demo match)")
    args = ap.parse_args()
    moments = demo_match()
    if args.frames:
        moments = moments[: args.frames]
    clear = render(scene_of(moments[1]))
    reader = BoardReader(refine(Calibration(clear.truth.corners), clear.image))
    ref = Referee(match=MatchState(3))
    cpu = {"render": 0.0, "vision": 0.0, "referee": 0.0}
    leave_at: int | None = None
    latencies: list[int] = []
    verdict_cpu: list[float] = []
    for i, m in enumerate(moments):
        t = i / FPS
        c0 = time.process_time()
        image = render(scene_of(m), seed=7, noise_seed=7 + i).image
        c1 = time.process_time()
        obs = reader.read(image, i)
        c2 = time.process_time()
        got = []
        for inp in m.inputs:
            got += ref.step(inp, t)
        got += ref.step(obs, t)
        c3 = time.process_time()
        cpu["render"] += c1 - c0
        cpu["vision"] += c2 - c1
        cpu["referee"] += c3 - c2
        prev = moments[i - 1] if i else None
        # the roller's dice leave the board: dice down before, none now, no hand
        if prev is not None and prev.dice and not m.dice and not m.hand and not any(d.moving for d in prev.dice):
            leave_at = i
        kinds = [e.kind for e in got]
        if leave_at is not None and any(k in kinds for k in ("play_accepted", "illegal_play")):
            latencies.append(i - leave_at)
            verdict_cpu.append(c3 - c2)
            leave_at = None
    seconds = len(moments) / FPS
    total = sum(cpu.values())
    print(f"frames: {len(moments)} ({seconds:.1f} s of video at {FPS:g} fps)")
    print(f"CPU per second of video: {total / seconds:.3f} s "
          + " ".join(f"{k}={v / seconds:.3f}" for k, v in cpu.items()))
    print(f"referee CPU per frame: {1000 * cpu['referee'] / len(moments):.2f} ms")
    if latencies:
        print(f"verdicts timed: {len(latencies)}; latency from dice leaving to verdict: "
              f"median {statistics.median(latencies)} frames ({statistics.median(latencies) / FPS:.1f} s), "
              f"max {max(latencies)} frames; referee compute for the verdict frame: "
              f"median {1000 * statistics.median(verdict_cpu):.2f} ms, max {1000 * max(verdict_cpu):.2f} ms")
    else:
        print("no verdict followed the dice leaving (vision did not read the turns)")
    print(f"final phase {ref.phase}, score {ref.match.score}")


if __name__ == "__main__":
    main()
