"""Simulator speed: milliseconds per rendered frame (1280x720 unless told).

Run: .venv/bin/python bench/bench_sim.py [--n 60]
Prints the wall-clock median and 90th percentile and the median CPU time
(all threads) per scene family; caches (empty boards, noise bank) are warmed
first, as they are in a running demo. On a busy machine the CPU column is
the steadier figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tavli_pi.rules.position import Position
from tavli_pi.sim.datasets import easy_scenes, hard_scenes
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec, HandSpec, Look, Scene, scene_from_position


def _time(scenes: list[Scene], repeat: int = 1) -> tuple[float, float, float]:
    for s in scenes[:3]:
        render(s, 0)  # warm caches
    times, cpu = [], []
    for _ in range(repeat):
        for i, s in enumerate(scenes):
            t0, c0 = time.perf_counter(), time.process_time()
            render(s, i)
            times.append((time.perf_counter() - t0) * 1000.0)
            cpu.append((time.process_time() - c0) * 1000.0)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))], statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    args = ap.parse_args()
    start = scene_from_position(
        Position.start(), dice=(DieSpec(3, 0.75, 0.5, 20), DieSpec(5, 0.82, 0.52, -15))
    )
    families = {
        "demo (start position, 2 flat dice, no effects)": [start] * args.n,
        "demo + mild noise/gradient": [
            scene_from_position(Position.start(), dice=start.dice, look=Look(light_gradient=0.2, noise=2.0))
        ] * args.n,
        "hand over the board": [
            scene_from_position(Position.start(), hand=HandSpec(0.4, 0.6, 0.2, "bottom"))
        ] * args.n,
        "easy_set scenes": easy_scenes(args.n, 1),
        "hard_set scenes (tilt, glare, noise, blur, JPEG, 0-4 dice)": hard_scenes(args.n, 1),
        "640x480 start position": [
            scene_from_position(Position.start(), width=640, height=480)
        ] * args.n,
    }
    print(f"{'scene family':60s} {'median ms':>10s} {'p90 ms':>8s} {'cpu ms':>8s}")
    for name, scenes in families.items():
        med, p90, cpu = _time(scenes)
        print(f"{name:60s} {med:10.2f} {p90:8.2f} {cpu:8.2f}")


if __name__ == "__main__":
    main()
