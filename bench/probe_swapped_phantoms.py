"""Which slots does the swapped re-read (``setup_slots._swapped_reread``) lift on the real-like frames?

For each frame given, reads it with a set-up calibration (as ``diag_spots.py``) and prints every slot
the re-read lifts by more than 0.2, with the features against the set-up view and against the empty
point beside it, and the truth there.

    nice .venv/bin/python bench/probe_swapped_phantoms.py 155 97 121
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402
from diag_spots import rendered  # noqa: E402

from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402

LOG: list[tuple[Any, ...]] = []
_orig = setup_slots._swapped_reread


def _spy(p_occ: np.ndarray, feats: np.ndarray, ch: Any, cal: Any, lay: Any, cols: np.ndarray, searched: np.ndarray,
         view: Any, g: Any) -> np.ndarray:
    out = _orig(p_occ, feats, ch, cal, lay, cols, searched, view, g)
    for i, k in zip(*np.nonzero(out - p_occ > 0.2)):
        LOG.append((int(cols[i]), int(k), float(p_occ[i, k]), float(out[i, k]), feats[i, k].copy()))
    return np.asarray(out)


def main() -> None:
    setup_slots._swapped_reread = _spy
    frames = [int(a) for a in sys.argv[1:]]
    scenes = reallike_scenes(max(frames) + 1, 0)
    for i in frames:
        r, s = rendered(i, scenes[i], 0)
        with contextlib.redirect_stdout(io.StringIO()):
            cal = calibrate_setup(s)
        LOG.clear()
        obs = BoardReader(cal).read(r.image)
        t = r.truth
        for col, k, before, after, f in LOG:
            print(f"frame {i} column {col} slot {k}: p_occ {before:.2f} -> {after:.2f}; ring {f[setup_slots.RING]:.2f} "
                  f"taught {f[setup_slots.TAUGHT]:.2f} change {f[setup_slots.CHANGE]:.2f} typical {f[setup_slots.TYPICAL]:.2f}")
        for p in range(24):
            ev = obs.points[p]
            if (ev.light.best, ev.dark.best) != (t.light[p], t.dark[p]):
                print(f"frame {i} point {p + 1}: true L{t.light[p]} D{t.dark[p]} read L{ev.light.best} D{ev.dark.best}")


if __name__ == "__main__":
    main()
