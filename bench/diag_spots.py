"""Why are points read wrong on the real-like set? (issue 9 diagnostic)

Reads the first ``--frames`` real-like frames (``bench_reallike``'s set, seed 0) with a
set-up calibration (``learn_board``, as the app does; ``--single``: each frame calibrated on
itself, as ``read --corners`` does) and classes every wrong point:

- ``missed``: checkers there, none read; ``phantom``: none there, some read;
- ``under`` / ``over``: the right colour, too few / too many; ``colour``: the other colour;
- ``unknown``: no value given, every colour read wrong reported unknown (``sim.spot_score``);

split by the true stack height, board design and the scene's features, with the
confidence of the wrong count, and a tally for flat and thick tables (``Build.thickness``). ``--annotate N`` writes the N frames with the most wrong
points to ``bench/out/diag_spots/`` (``vision/annotate.py``, plus the truth of every wrong
point in red), to look at. Rendered frames are cached under ``/tmp/diag_spots_cache``.

``--why``: every frame with a wrong spot in view is read again from the same table rendered (set-up
frame too) without what might have caused it -- the overlays and the board's prints, the hand, the
dice, the props on the field -- and each such spot is classed by what put it right (``why=`` on its
line, and a tally at the end: the first cause alone, "several" when more than one does, "none"
when none does). Rendered again, the frame's noise is drawn anew, so a spot put right by several is
a marginal one, not one of several causes. About 4 s a re-read.

    nice .venv/bin/python bench/diag_spots.py --frames 120 --annotate 12
    nice .venv/bin/python bench/diag_spots.py --frames 120 --seed 1 --list --why
    nice .venv/bin/python bench/diag_spots.py --frames 40 --single --tilt 40   # a camera at a strong slant
"""

from __future__ import annotations

import argparse
import contextlib
import io
import pickle
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import (  # noqa: E402
    HIDDEN_SHARE,
    _features,
    calibrate_read,
    calibrate_setup,
    truly_hidden,
    truth_hidden_shares,
)

from tavli_pi.errors import TavliError  # noqa: E402
from tavli_pi.sim.datasets import reallike_scenes, reallike_setup  # noqa: E402
from tavli_pi.sim.render import render  # noqa: E402
from tavli_pi.sim.spot_score import score_spots  # noqa: E402
from tavli_pi.vision.annotate import annotate  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402

CACHE = Path("/tmp/diag_spots_cache")
OUT = Path(__file__).resolve().parent / "out" / "diag_spots"


def _height(n: int) -> str:
    return str(n) if n <= 3 else ("4-5" if n <= 5 else ("6-9" if n <= 9 else "10-15"))


def rendered(i: int, scene: Any, seed: int) -> tuple[Any, Any]:
    """(frame, set-up frame) of scene ``i``, from the cache when there."""
    path = CACHE / f"{seed}_{i}_{scene.digest()}.pkl"  # keyed by the scene: a changed table renders anew
    if path.exists():
        with path.open("rb") as f:
            got: tuple[Any, Any] = pickle.load(f)
            return got
    r = render(scene, seed * 100003 + i)
    s = render(reallike_setup(scene), seed * 100003 + i)
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump((r, s), f)
    return r, s


def geometry_off(cal: Any, scene: Any) -> float:
    """The largest distance, in point widths, of a point's column (as calibrated) from where it is."""
    from tavli_pi.sim import _layout as SL
    from tavli_pi.vision.calibration import Calibration

    lay = SL.layout(scene.home, scene.trays, scene.build.bar)
    true = Calibration(cal.corners, home=cal.home, u0=0.0, u1=1.0, bar=lay.bar_u, v0=cal.v0, v1=cal.v1).layout
    got = cal.layout
    return float(max(abs(a.x - b.x) / b.width for a, b in zip(got.columns, true.columns)))


def hidden_shares(cal: Any, scene: Any, r: Any, seed: int, i: int) -> np.ndarray | None:
    """Per spot (24 points, light numbering; 24, 25 the bar's light and dark halves), the share of its
    first true slots (one when empty) the hand hides: the frame against the same scene rendered without
    the hand (``bench_reallike.truth_hidden_shares``; None: no hand)."""
    import dataclasses

    if scene.hand is None:
        return None
    path = CACHE / f"{seed}_{i}_{scene.digest()}_bare.pkl"
    if path.exists():
        with path.open("rb") as f:
            bare = pickle.load(f)
    else:
        bare = render(dataclasses.replace(scene, hand=None), seed * 100003 + i)
        with path.open("wb") as f:
            pickle.dump(bare, f)
    return truth_hidden_shares(cal, r.image, bare.image, r.truth)


def without(scene: Any) -> dict[str, Any]:
    """The scene less each thing that might cause a wrong spot (``--why``): name -> scene."""
    import dataclasses

    out: dict[str, Any] = {}
    if scene.overlays or scene.build.prints:
        out["overlays/prints"] = dataclasses.replace(scene, overlays=(), build=dataclasses.replace(scene.build, prints=()))
    if scene.hand is not None:
        out["hand"] = dataclasses.replace(scene, hand=None)
    if scene.dice:
        out["dice"] = dataclasses.replace(scene, dice=())
    kept = tuple(p for p in scene.props if not (0 <= p.u <= 1 and 0 <= p.v <= 1))
    if len(kept) != len(scene.props):
        out["field props"] = dataclasses.replace(scene, props=kept)
    return out


def put_right(scene: Any, i: int, seed: int, truth: Any, spots: list[int]) -> dict[int, list[str]]:
    """Per spot of ``spots`` (score_spots' order), the removals (``without``) that read it right."""
    out: dict[int, list[str]] = {p: [] for p in spots}
    for name, bare in without(scene).items():
        try:
            r = render(bare, seed * 100003 + i)
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_setup(render(reallike_setup(bare), seed * 100003 + i))
            got = score_spots(BoardReader(cal).read(r.image), truth.light, truth.dark, truth.bar, truth.off)
        except TavliError:
            continue
        for p in spots:
            if not got[p].wrong:
                out[p].append(name)
    return out


def classify(tl: int, td: int, rl: int, rd: int) -> tuple[str, int]:
    """(kind of error, the true height) of one point read (rl, rd) where (tl, td) stand."""
    t, r = tl + td, rl + rd
    if t == 0:
        return "phantom", 0
    if r == 0:
        return "missed", t
    if (tl > 0) != (rl > 0):
        return "colour", t
    return ("under" if r < t else "over"), t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="first frame (to look at a later slice)")
    ap.add_argument("--annotate", type=int, default=0, help="write the N worst frames to bench/out/diag_spots")
    ap.add_argument("--list", action="store_true", help="one line per wrong point")
    ap.add_argument("--single", action="store_true", help="read each frame as a single photo (``read --corners``: "
                    "calibrated on the frame itself) instead of against its set-up frame")
    ap.add_argument("--why", action="store_true", help="read each frame with a wrong spot in view again without "
                    "its overlays and prints, hand, dice, field props: what puts each right")
    ap.add_argument("--tilt", type=float, default=None, help="every table's camera tilted this many degrees (its "
                    "direction as drawn): a phone held at an angle, the field's far side narrower (issue 9)")
    ap.add_argument("--only", default=None, help="only these frames (comma-separated, within the slice)")
    args = ap.parse_args()
    only = None if args.only is None else {int(x) for x in args.only.split(",")}
    why_tally: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    by: dict[str, Counter[str]] = {}
    spots: Counter[str] = Counter()
    conf_hist: Counter[str] = Counter()
    confident: list[str] = []
    worst: list[tuple[int, int]] = []
    geo_off: list[tuple[float, int]] = []
    total = wrong_total = sure_right = unknown_total = 0
    # the spots split by the truth (bench_reallike.truly_hidden): under a hand, or in view
    hid_n = hid_wrong = hid_unknown = view_n = view_wrong = view_values = 0
    # per flat/thick table: [spots, wrong, in view wrong, under, over, wrong at >= 0.9]
    split: dict[str, list[int]] = {"flat": [0] * 6, "thick": [0] * 6}
    scenes = reallike_scenes(args.start + args.frames, args.seed)
    if args.tilt is not None:
        import dataclasses

        scenes = [dataclasses.replace(s, pose=dataclasses.replace(s.pose, tilt_deg=args.tilt)) for s in scenes]
    for i in range(args.start, args.start + args.frames):
        if only is not None and i not in only:
            continue
        scene = scenes[i]
        r, s = rendered(i, scene, args.seed)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_read(r) if args.single else calibrate_setup(s)
            obs = BoardReader(cal).read(r.image)
        except TavliError as e:
            print(f"frame {i}: {e}")
            continue
        t = r.truth
        feats = _features(scene) + ["thick" if scene.build.thickness > 0 else "flat"]
        off = geometry_off(cal, scene)
        geo_off.append((round(off, 2), i))
        if off > 0.25:
            feats = feats + ["GEOMETRY OFF"]
        bad = 0
        wrong_pts = []
        hidden = hidden_shares(cal, scene, r, args.seed, i) if obs.hand or scene.hand is not None else None
        verdicts = score_spots(obs, t.light, t.dark, t.bar, t.off)
        under = truly_hidden(hidden, scene.trays != "none")
        in_view_wrong = [p for p in range(26) if verdicts[p].wrong and not under[p]]
        why = put_right(scene, i, args.seed, t, in_view_wrong) if args.why and in_view_wrong else {}
        for p in in_view_wrong if args.why else []:
            why_tally[why[p][0] if len(why[p]) == 1 else ("several" if why[p] else "none")] += 1
        tally = split["thick" if scene.build.thickness > 0 else "flat"]
        for v, u in zip(verdicts, under):
            tally[0] += 1
            tally[1] += v.wrong
            tally[2] += v.wrong and not u
            if u:
                hid_n, hid_wrong, hid_unknown = hid_n + 1, hid_wrong + v.wrong, hid_unknown + (v.verdict == "unknown")
            else:
                view_n, view_wrong, view_values = view_n + 1, view_wrong + v.wrong, view_values + (v.verdict == "wrong")
        for p in range(26):
            ev = obs.points[p] if p < 24 else (obs.bar if p == 24 else obs.off)
            tl, td = (t.light[p], t.dark[p]) if p < 24 else (t.bar if p == 24 else t.off)
            where = "point" if p < 24 else ("bar" if p == 24 else "trays")
            rl, rd = ev.light.best, ev.dark.best
            total += 1
            for f in feats:
                spots[f] += 1
            spots[f"height {_height(tl + td)}"] += 1
            if (rl, rd) == (min(tl, 15), min(td, 15)):
                sure_right += min(ev.light.confidence, ev.dark.confidence) >= 0.9
                continue
            bad += 1
            wrong_total += 1
            kind, h = classify(tl, td, rl, rd)
            if verdicts[p].verdict == "unknown":
                kind = "unknown"  # reported unknown: no value given
                unknown_total += 1
            conf = max(e.confidence for e, n, m in ((ev.light, tl, rl), (ev.dark, td, rd)) if n != m)
            kinds[kind] += 1
            tally[3] += kind == "under"
            tally[4] += kind == "over"
            tally[5] += conf >= 0.9 and kind != "unknown"
            by.setdefault("spot", Counter())[where] += 1
            key = f"{kind} h{_height(h)}"
            by.setdefault("kind/height", Counter())[key] += 1
            for f in feats:
                by.setdefault("feature", Counter())[f] += 1
            if scene.hand is not None:
                h_share = hidden[p] if hidden is not None and p < 24 else 0.0
                by.setdefault("hand", Counter())["hidden (>= half a slot)" if h_share >= 0.5 else
                                                 ("partly hidden" if h_share > 0.05 else "in view")] += 1
            by.setdefault("height", Counter())[f"height {_height(h)}"] += 1
            conf_hist["<0.5" if conf < 0.5 else ("0.5-0.9" if conf < 0.9 else ">=0.9")] += 1
            name = f"point {p + 1:2d}" if p < 24 else where
            hid = f" hidden={hidden[p]:.2f}" if hidden is not None and p < 24 else ""
            seen = "" if under[p] else " in-view"
            put = f" why={','.join(why[p]) or 'none'}" if p in why else ""
            line = (f"frame {i:3d} {name}: true L{tl} D{td} read L{rl} D{rd} ({kind}, conf {conf:.2f}) "
                    f"hand={obs.hand}{hid}{seen}{put} problems={len(obs.problems)} [{', '.join(feats)}]")
            if conf >= 0.9:
                confident.append(line)
            if args.list:
                print(line)
            wrong_pts.append((p, tl, td, rl, rd))
        worst.append((bad, i))
        if args.annotate and bad:
            OUT.mkdir(parents=True, exist_ok=True)
            img = annotate(r.image, cal, obs)
            canon = cal.warp(img)
            for p, tl, td, rl, rd in wrong_pts:
                if p >= 24:
                    continue
                col = cal.layout.columns[p]
                y = cal.layout.top_y - 8 if col.top else cal.layout.bottom_y + 22
                cv2.putText(canon, f"{tl}/{td}", (int(col.x - 14), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                            (0, 0, 255), 2, cv2.LINE_AA)
            cv2.imwrite(str(OUT / f"f{i:03d}_{bad}.png"), np.concatenate(
                [cv2.resize(img, (int(img.shape[1] * canon.shape[0] / img.shape[0]), canon.shape[0])), canon], axis=1))
    print(f"{args.frames} frames from {args.start}, seed {args.seed}: {wrong_total}/{total} spots wrong "
          f"({100 * wrong_total / max(total, 1):.2f}%)")
    print(f"of them wrong values {wrong_total - unknown_total} ({100 * (wrong_total - unknown_total) / max(total, 1):.2f}%), "
          f"reported unknown {unknown_total} ({100 * unknown_total / max(total, 1):.2f}%)")
    print(f"spots under a hand (the truth hidden, >= {HIDDEN_SHARE:g} of a slot): {hid_n}, wrong {hid_wrong} "
          f"(reported unknown {hid_unknown}, a value given {hid_wrong - hid_unknown}); spots in view {view_n}: "
          f"per-spot error {100 * view_wrong / max(view_n, 1):.2f}% ({view_wrong}), wrong values "
          f"{100 * view_values / max(view_n, 1):.2f}% ({view_values})")
    print(f"right spots read at >= 0.9 (both colours): {sure_right}/{total - wrong_total}")
    for name, (n, w, wv, un, ov, sure) in split.items():
        print(f"{name} tables: {w}/{n} spots wrong, in view {wv} (under {un}, over {ov}), wrong at >= 0.9 {sure}")
    print("by kind:", dict(kinds.most_common()))
    print("confidence of the wrong count:", dict(conf_hist))
    for name, c in by.items():
        if name == "feature" or name == "height":
            print(f"by {name} (wrong / points, %):", ", ".join(
                f"{k} {v}/{spots[k]} {100 * v / max(spots[k], 1):.1f}" for k, v in sorted(c.items())))
        else:
            print(f"by {name}:", dict(c.most_common()))
    if args.why:
        print("wrong spots in view, put right by removing (one alone / several / none):", dict(why_tally.most_common()))
    print("geometry off by > 0.25 point:", sorted(x for x in geo_off if x[0] > 0.25))
    print("worst frames:", sorted(worst, reverse=True)[:15])
    for line in confident:
        print("CONFIDENT", line)


if __name__ == "__main__":
    main()
