"""Why is a stack counted one off? Trace one point's reading on a real-like frame (issue 9).

For each ``FRAME:POINT`` (light numbering) of ``bench_reallike.py``'s set-up-calibrated frame set
(seed 0; frames rendered and cached as ``diag_spots.py`` does), the frame is read as the app reads it
(``BoardReader``, board learnt from its set-up frame) and the point's stack traced through
``stacks._read_spots_once``: every slot's place (radii from the base), its ring-only and set-up model
occupancy, its light-given-occupied probability; the squeezed stack's two ends (ring logit, distance);
and the log-likelihood of the best hypotheses of each family (chain n = 0..7, squeezed n = 6..15, the
touching row of five). ``--crops DIR`` writes each point's canonical crop with the chain's slots
(green: read occupied, red: not) and the squeezed ends (blue) drawn.

    nice .venv/bin/python bench/probe_stack_counts.py 39:6 59:4 --crops bench/out/stack_probe
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402
from diag_spots import rendered  # noqa: E402

from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision import spot_slots  # noqa: E402
from tavli_pi.vision import stacks  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402


class Tap:
    """The arrays of each ``_read_spots_once`` call, caught as the reader makes them."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self._orig: dict[tuple[Any, str], Any] = {}

    def __enter__(self) -> "Tap":
        tap = self

        def wrap(name: str, keep: Any, module: Any = stacks) -> None:
            orig = getattr(module, name)
            self._orig[(module, name)] = orig

            def f(*a: Any, **k: Any) -> Any:
                out = orig(*a, **k)
                keep(a, k, out)
                return out

            setattr(module, name, f)

        def chains(a: Any, k: Any, out: Any) -> None:
            if not k.get("stop", False):
                return  # (a chain traced on: ``_traced_on`` below)
            cols = k.get("cols")
            tap.calls.append({"ch": out, "cols": np.arange(26) if cols is None else np.asarray(cols),
                              "canon": None})

        def traced_on(a: Any, k: Any, out: Any) -> None:
            tap.calls[-1]["ch"] = out
            tap.calls[-1].pop("p_occ", None)
            tap.calls[-1].pop("ring", None)

        def features(a: Any, k: Any, out: Any) -> None:
            tap.calls[-1]["canon"] = a[0]
            tap.calls[-1]["feats"] = out

        def sq(a: Any, k: Any, out: Any) -> None:
            tap.calls[-1]["sq"] = out

        def many(a: Any, k: Any, out: Any) -> None:
            if "p_occ" not in tap.calls[-1]:
                tap.calls[-1]["p_occ"], tap.calls[-1]["p_lt"] = a[0], a[1]

        def post(a: Any, k: Any, out: Any) -> None:
            tap.calls[-1]["logl"], tap.calls[-1]["counts"] = a[0], a[1]
            tap.calls[-1]["post"] = out

        def ring(a: Any, k: Any, out: Any) -> None:
            if "ring" not in tap.calls[-1]:
                tap.calls[-1]["ring"] = out

        wrap("spot_chains", chains)
        wrap("setup_slot_features", features, setup_slots)
        wrap("_traced_on", traced_on)
        wrap("squeezed_loglik", sq)
        wrap("chain_loglik_many", many)
        wrap("posterior_with_pins", post)
        wrap("slot_probability", ring, setup_slots)
        return self

    def __exit__(self, *exc: Any) -> None:
        for (module, name), f in self._orig.items():
            setattr(module, name, f)


def describe(call: dict[str, Any], p: int, cal: Any, lay: Any) -> list[str]:
    cols = list(call["cols"])
    if p not in cols:
        return []
    i = cols.index(p)
    ch = call["ch"]
    x, base, sign, r = (a[p] for a in spot_slots.spot_geometry(lay, cal))
    d = (ch.y[i] - base) * sign / r
    lines = [f"  chain (searched {None if ch.searched is None else int(ch.searched[i])}), r {r:.1f} px:"]
    ring = call.get("ring")
    for k in range(ch.x.shape[1]):
        lines.append(f"    slot {k}: d {d[k]:5.2f} r  x-off {(ch.x[i, k] - x) / r:+.2f}  ring p "
                     f"{ring[i, k] if ring is not None else float('nan'):.3f}  p_occ {call['p_occ'][i, k]:.3f}  "
                     f"p_lt {call['p_lt'][i, k]:.2f}  ring {np.round(ch.feats[i, k], 2).tolist()}")
        sf = call.get("feats")
        if sf is not None:
            lines.append(f"           change {sf[i, k, setup_slots.CHANGE]:.2f} typical {sf[i, k, setup_slots.TYPICAL]:.2f} "
                         f"checker {sf[i, k, 8]:.2f} board {sf[i, k, 9]:.2f} hue {sf[i, k, 10]:.2f} "
                         f"lookalike {sf[i, k, 11]:.2f} ring {sf[i, k, 12]:.2f} taught {sf[i, k, 13]:.2f}")
    sq, lz, dl, row = call["sq"]
    for e in range(lz.shape[0]):
        lines.append(f"    end {e}: ring logit {lz[e, i]:.2f} at {dl[e, i] / r:.2f} r; rim contrast n=6..15 "
                     f"{np.round(sq[e, i], 3).tolist()}")
    lines.append(f"    row of 5 contrast {row[i]:.3f}")
    logl, counts = call["logl"], call["counts"]
    lines.append("    hypotheses (loglik, colour best): " + ", ".join(
        f"{'c' if h <= spot_slots.SLOTS else ('s' if h < len(counts) - 1 else 'row')}{counts[h]}:"
        f"{max(logl[i, 0, h], logl[i, 1, h]):.1f}{'L' if logl[i, 0, h] >= logl[i, 1, h] else 'D'}"
        for h in np.argsort(-logl[i].max(axis=0))[:8]))
    lt, dk, _ = call["post"]
    lines.append(f"    posterior light {np.round(lt[i], 3).tolist()}")
    lines.append(f"    posterior dark  {np.round(dk[i], 3).tolist()}")
    return lines


def crop(call: dict[str, Any], p: int, cal: Any, lay: Any, path: Path, label: str) -> None:
    canon = call["canon"]
    if canon is None:
        return
    cols = list(call["cols"])
    i = cols.index(p)
    ch = call["ch"]
    x, base, sign, r = (float(a[p]) for a in spot_slots.spot_geometry(lay, cal))
    img = canon.copy()
    for k in range(ch.x.shape[1]):
        c = (0, 200, 0) if call["p_occ"][i, k] > 0.5 else (0, 0, 255)
        cv2.circle(img, (int(round(ch.x[i, k])), int(round(ch.y[i, k]))), int(round(r)), c, 1, cv2.LINE_AA)
    sq, lz, dl, _row = call["sq"]
    for e in range(lz.shape[0]):
        if lz[e, i] > -30:
            cv2.circle(img, (int(round(ch.x[i, 0])), int(round(base + sign * dl[e, i]))), int(round(r)),
                       (255, 0, 0) if e == 0 else (255, 200, 0), 1, cv2.LINE_AA)
    y0, y1 = sorted((base, base + sign * 17 * r))
    x0, x1 = x - 3 * r, x + 3 * r
    h, w = img.shape[:2]
    c = img[max(int(y0) - 5, 0): min(int(y1) + 5, h), max(int(x0), 0): min(int(x1), w)]
    c = cv2.resize(c, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)
    raw = canon[max(int(y0) - 5, 0): min(int(y1) + 5, h), max(int(x0), 0): min(int(x1), w)]
    raw = cv2.resize(raw, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.concatenate([raw, c], axis=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("spots", nargs="+", help="FRAME:POINT (light numbering, 1-24)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--crops", type=Path, default=None)
    args = ap.parse_args()
    want = [tuple(int(v) for v in s.split(":")) for s in args.spots]
    scenes = reallike_scenes(max(f for f, _ in want) + 1, args.seed)
    for f, pt in want:
        r, s = rendered(f, scenes[f], args.seed)
        with contextlib.redirect_stdout(io.StringIO()):
            cal = calibrate_setup(s)
        p = pt - 1
        stages: list[str] = []
        from tavli_pi.vision import reader as rd

        saved = {n: getattr(rd, n) for n in ("balance", "conserved_board", "die_hidden_tempered",
                                             "tray_evidences")}

        def staged(name: str) -> Any:
            f0 = saved[name]

            def f(*a: Any, **k: Any) -> Any:
                out = f0(*a, **k)
                if name == "tray_evidences":  # (with a hand over the board, without: the reader takes one)
                    stages.append("tray read " + ", ".join(
                        f"{how} L{ev.light.best} ({ev.light.confidence:.2f}) D{ev.dark.best} ({ev.dark.confidence:.2f})"
                        for how, ev in zip(("with a hand", "without"), out)))
                    return out
                before, after = a[0][p], (out[0] if isinstance(out, tuple) else out)[p]
                stages.append(f"{name}: L{before.light.best} ({before.light.confidence:.2f}) D{before.dark.best} "
                              f"({before.dark.confidence:.2f}) -> L{after.light.best} ({after.light.confidence:.2f}) "
                              f"D{after.dark.best} ({after.dark.confidence:.2f})")
                return out

            return f

        for n in saved:
            setattr(rd, n, staged(n))
        try:
            with Tap() as tap:
                obs = BoardReader(cal).read(r.image)
        finally:
            for n, f0 in saved.items():
                setattr(rd, n, f0)
        print("  stages: " + "; ".join(stages) + f"; off read L{obs.off.light.best} D{obs.off.dark.best} "
              f"({obs.off_source}), true L{r.truth.off[0]} D{r.truth.off[1]}; problems {list(obs.problems)}")
        ev = obs.points[p]
        print(f"frame {f} point {pt}: truth L{r.truth.light[p]} D{r.truth.dark[p]}; read L{ev.light.best} "
              f"({ev.light.confidence:.2f}) D{ev.dark.best} ({ev.dark.confidence:.2f}); hand {obs.hand}; "
              f"pitch {cal.checker_r:.3f}; calls {len(tap.calls)}")
        for n, call in enumerate(tap.calls):
            lines = describe(call, p, cal, cal.layout)
            if lines:
                print(f" call {n}:")
                print("\n".join(lines))
                if args.crops is not None:
                    crop(call, p, cal, cal.layout, args.crops / f"f{f:03d}_p{pt:02d}_c{n}.png",
                         f"{f}:{pt}")


if __name__ == "__main__":
    main()
