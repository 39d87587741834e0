"""Probe (stop 26): every die under ``dice_vet.NEED_PX`` whose face the reader asks its pip places about
(``dice._sites_lift``), against the truth, over ``bench_video.py --size 640`` recordings.

Each still die of each frame is read by a fresh reader (``bench_video.read_dice``'s way); for every
face the pip finder read on a small die not shown resolved, the probe keeps the true value, the
face read and its confidence, and ``pip_sites.site_value``'s reading (value, clear, lead), then tallies
the faces the places would confirm -- right and wrong -- over a grid of ``SITES_FLOOR`` and
``LEAD_SHARE``. What ``pip_sites.LEAD_SHARE`` and ``dice.SITES_FLOOR`` were set from.

    .venv/bin/python bench/probe_pip_sites.py --seeds 0,1,2,3
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.bench_video as bv  # noqa: E402
import tavli_pi.vision.dice as dice  # noqa: E402
from tavli_pi.vision import pip_sites  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="0,1,2,3")
    ap.add_argument("--turns", type=int, default=6)
    args = ap.parse_args()
    asked: list[tuple[float, float, int, float, pip_sites.SiteRead]] = []
    rows: list[tuple[int, float, int, float, pip_sites.SiteRead]] = []  # truth, px, face, conf, sites

    def lift(src: np.ndarray, to_src: Any, die: Any, side: float, conf: float) -> bool:
        r = pip_sites.site_value(pip_sites.face_crop(src, to_src, die.centre, side))
        xy = to_src(np.asarray([die.centre], np.float32))[0]
        asked.append((float(xy[0]), float(xy[1]), int(die.value), conf, r))
        return False  # the base's reading: nothing confirmed

    def read_dice(video: Path, truths: list[Any], setup_frame: int, tally: Counter[str], verbose: bool = False) -> None:
        from tavli_pi.vision.reader import BoardReader

        frames, cal = bv.recorded(video, truths, setup_frame)
        for img, t in zip(frames, truths):
            still = [d for d in t.dice if not d.moving]
            if not still:
                continue
            asked.clear()
            BoardReader(cal).read(img)
            for x, y, v, conf, r in asked:
                near = [d for d in still if np.hypot(d.xy[0] - x, d.xy[1] - y) < max(0.9 * d.size_px, 8.0)]
                if near:
                    rows.append((near[0].value, near[0].size_px, v, conf, r))

    dice._sites_lift = lift  # type: ignore[assignment]
    bv.read_dice = read_dice  # type: ignore[assignment]
    for seed in args.seeds.split(","):
        sys.argv = ["bench_video.py", "--turns", str(args.turns), "--size", "640", "--dice-only", "--seed", seed]
        with contextlib.redirect_stdout(io.StringIO()):
            bv.main()
    print(f"small dice asked: {len(rows)}; face read right {sum(r[2] == r[0] for r in rows)}, "
          f"places right {sum(r[4].value == r[0] for r in rows)}")
    for floor in (0.0, 0.6, 0.85):
        for lead in (0.2, 0.3, 0.35, 0.4):
            ok = [r for r in rows if r[4].value == r[2] and r[4].clear >= pip_sites.CLEAR_SHARE
                  and r[4].lead >= lead and r[3] >= floor]
            by = Counter(int(r[1]) for r in ok if r[2] == r[0])
            print(f"  floor {floor:.2f} lead {lead:.2f}: confirmed right {sum(r[2] == r[0] for r in ok)}, "
                  f"wrong {sum(r[2] != r[0] for r in ok)}; right by px {dict(sorted(by.items()))}")


if __name__ == "__main__":
    main()
