"""Where does the balance (``conserve.balance``) move a count? (issue 9)

For each frame of ``bench_reallike.py``'s set-up-calibrated frame set (seed 0; frames cached as
``diag_spots.py`` does), the frame is read as the app reads it and every spot and tray whose best
count ``balance`` changes is printed with its reading (best count, confidence, the
likeliest other count), the balanced count and confidence, and the truth.

    nice .venv/bin/python bench/probe_balance.py 116 187 59
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402
from diag_spots import rendered  # noqa: E402

from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.vision import reader as reader_mod  # noqa: E402
from tavli_pi.vision.observation import CountEvidence  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402


def _fmt(e: CountEvidence) -> str:
    second = max((n for n in range(len(e.probs)) if n != e.best), key=e.p)
    return f"{e.best}@{e.confidence:.2f} (then {second}@{e.p(second):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("frames", type=int, nargs="+")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", default="", help="pickle each frame's balance input and truth to SAVE_FRAME.pkl")
    ap.add_argument("--all", action="store_true", help="every spot, not only those changed or wrong")
    args = ap.parse_args()
    scenes = reallike_scenes(max(args.frames) + 1, args.seed)
    orig = getattr(reader_mod, "balance")
    calls: list[tuple[Any, Any]] = []

    def tapped(points: Any, bar: Any, tray: Any, pinned: Any = ()) -> Any:
        out = orig(points, bar, tray, pinned)
        calls.append(((points, bar, tray), out))
        return out

    setattr(reader_mod, "balance", tapped)
    for i in args.frames:
        r, s = rendered(i, scenes[i], args.seed)
        with contextlib.redirect_stdout(io.StringIO()):
            cal = calibrate_setup(s)
        calls.clear()
        obs = BoardReader(cal).read(r.image)
        t = r.truth
        if args.save:
            import pickle

            with open(f"{args.save}_{i}.pkl", "wb") as f:
                pickle.dump((calls[-1][0], t), f)
        print(f"frame {i}: hand={obs.hand} calls={len(calls)}")
        for (pts, bar, tray), (bp, bb, boff) in calls:
            names = [f"p{k + 1}" for k in range(len(pts))] + ["bar"]
            truth = [(t.light[k], t.dark[k]) for k in range(len(pts))] + [t.bar]
            for c, ci in (("light", 0), ("dark", 1)):
                tot = sum(getattr(x, c).best for x in (*pts, bar)) + getattr(tray, c).best
                now = sum(getattr(x, c).best for x in (*bp, bb))
                print(f"  {c}: read total {tot}, tray {_fmt(getattr(tray, c))} -> {15 - now} "
                      f"(balanced {_fmt(getattr(boff, c))}), given {_fmt(getattr(obs.off, c))} "
                      f"({obs.off_source[ci]}), truth off {t.off[ci]}")
                for name, a, b, tr in zip(names, (*pts, bar), (*bp, bb), truth):
                    ea, eb = getattr(a, c), getattr(b, c)
                    if args.all or ea.best != eb.best or ea.best != tr[ci]:
                        print(f"    {name}: read {_fmt(ea)} -> {_fmt(eb)}  truth {tr[ci]}"
                              f"{'  CHANGED' if ea.best != eb.best else ''}")


if __name__ == "__main__":
    main()
