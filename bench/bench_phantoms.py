"""Phantom dice on real-like frames read as single photos (``tavli-pi read PHOTO --corners ...``).

Each frame of ``reallike_scenes(n, seed)`` is calibrated on itself (``calibrate_read``) and read by
``BoardReader(cal, still_photo=True)`` as ``read`` reads a photo (``--video``: as a feed's frame);
a die reported where no die lies (farther than ``FrameScore``'s radius from every true die) is a
phantom. Prints each phantom (frame, place, value, confidence, flat/cocked) and the
totals: all, with a value, at >= 0.9, cocked.

    python bench/bench_phantoms.py --frames 60 --seed 0
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_reallike import CONFIDENT, calibrate_read  # noqa: E402
from tavli_pi.errors import TavliError  # noqa: E402
from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.sim.render import render  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true", help="totals only")
    ap.add_argument("--video", action="store_true", help="read each frame as a feed's (not still_photo)")
    args = ap.parse_args()
    total = valued = confident = cocked = failed = 0
    for i, scene in enumerate(reallike_scenes(args.frames, args.seed)):
        r = render(scene, args.seed * 100003 + i)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_read(r)
            obs = BoardReader(cal, still_photo=not args.video).read(r.image)
        except TavliError:
            failed += 1
            continue
        used: set[int] = set()
        for t in r.truth.dice:  # as FrameScore matches them
            radius = max(0.9 * t.size_px, 8.0)
            near = [(float(np.hypot(d.xy[0] - t.xy[0], d.xy[1] - t.xy[1])), j)
                    for j, d in enumerate(obs.dice) if j not in used]
            near = [x for x in near if x[0] < radius]
            if near:
                used.add(min(near)[1])
        kinds = [o.kind for o in scene.overlays]
        for j, d in enumerate(obs.dice):
            if j in used:
                continue
            total += 1
            valued += bool(d.value)
            confident += bool(d.value) and d.value_confidence >= CONFIDENT
            cocked += not d.flat and not d.on_checker and not d.moving
            if not args.quiet:
                lie = "moving" if d.moving else "on checker" if d.on_checker else "flat" if d.flat else "cocked"
                print(f"frame {i}: ({d.xy[0]:.0f}, {d.xy[1]:.0f}) value {d.value} conf {d.value_confidence:.2f} "
                      f"{lie} size {d.size_px:.0f} px; overlays {kinds}")
    print(f"{args.frames} frames, seed {args.seed}, {'video' if args.video else 'still photo'} ({failed} not calibrated): phantom dice {total}, "
          f"with a value {valued}, at >= {CONFIDENT} {confident}, cocked {cocked}")


if __name__ == "__main__":
    main()
