"""How much the reading hinges on a few px of the field: simulated 640 px games read with their field
moved (issue 9).

Two fields as close to the true one (5-7 px off either way) gave a held-out beech game different
readings: calibrated frames apart, a point read otherwise. This bench takes each game's set-up frame
and a few still frames later in the game (``--frames``), and reads them as ``tavli-pi run`` reads a field
found in the picture, with the home side given (``calibrate.calibrate_image`` with the field as found,
``seated``; the set-up frame read unlearnt, learnt as the start, ``setup.learn_board``, read back, and
accepted where that reading is the start, ``setup_watch.setup_problem``; the later frames read with the board
learnt), once through the true field and once through each of ``--draws`` fields whose corners are each
moved ``--px`` px (a random direction each). Per field: whether set-up was accepted, the spots the
unlearnt set-up reading puts off the start, the spots (points and bar) of the later frames read wrong and
read wrong at 0.9 or more, and how far from the true corners the refined calibration's corners are.
Printed: one line a game where a moved field differs from the true one (``--verbose``: every game), and the
totals -- the figure to keep at 0 is "differs".

    .venv/bin/python bench/bench_field_jitter.py [--seeds 7,10,11] [--games 6] [--turns 6] [--px 3,5,7]
        [--draws 2] [--frames 3] [--reallike 0,2,4] [--only 6] [--verbose]

``--seeds`` are ``bench_video.py --size 640 --seed S`` clips' games (``--games``, ``--turns`` as there);
``--reallike`` adds games of ``bench_reallike.py`` (seed 0, 8 turns) by index (its 640 px games only).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_reallike import game_list, game_plans, game_script  # noqa: E402
from tavli_pi.setup_watch import setup_problem  # noqa: E402
from tavli_pi.errors import CalibrationError  # noqa: E402
from tavli_pi.sim.camera import SimCamera  # noqa: E402
from tavli_pi.sim.datasets import reallike_game_tables  # noqa: E402
from tavli_pi.sim.render import Truth  # noqa: E402
from tavli_pi.sim.script import Moment, random_game  # noqa: E402
from tavli_pi.sim.table import scenes_of  # noqa: E402
from tavli_pi.vision.calibrate import FieldMemory, calibrate_image  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.setup import learn_board, setup_agreement  # noqa: E402

FPS = 10.0


class _Placed(FieldMemory):
    """A field memory that has found ``corners`` (as ``FieldMemory.locate`` returns a field found)."""

    def __init__(self, corners: np.ndarray) -> None:
        super().__init__()
        self.field = (np.asarray(corners, np.float32), "found")

    def locate(self, image: np.ndarray) -> tuple[np.ndarray, str]:
        assert self.field is not None
        return self.field


def clip_games(seed: int, games: int, turns: int) -> list[tuple[str, dict[str, Any], list[Moment], int]]:
    """The 640 px games of ``bench_video.py --size 640 --seed SEED --games GAMES --turns TURNS``."""
    tables = reallike_game_tables(8 * games, seed)
    keep = [i for i, kw in enumerate(tables) if kw["width"] == 640][:games]
    out = []
    for g in keep:
        plant = (2 + g % max(turns - 2, 1)) if g % 2 == 0 else 0
        out.append((f"s{seed} g{g}", tables[g], random_game(1000 * seed + g, turns=turns, plant_illegal=plant),
                    1000 * seed + g))
    return out


def reallike_games(only: frozenset[int]) -> list[tuple[str, dict[str, Any], list[Moment], int]]:
    """``bench_reallike.py``'s games (seed 0, 8 turns) of ``only`` that are on 640 px tables."""
    if not only:
        return []
    plans = game_plans(max(only) + 1, 0, 8)
    return [(f"r g{g}", plans[g][0], game_script(g, 0, 8, plans[g][1]), g) for g in sorted(only)
            if plans[g][0].get("width") == 640]


def frames_of(kw: dict[str, Any], moments: list[Moment], seed: int, later: int) -> list[tuple[int, np.ndarray, Truth]]:
    """The set-up frame (the first still frame with no hand, no dice) and ``later`` still frames with no hand
    and no dice moving, spread over the rest of the game."""
    camera = SimCamera(scenes_of(moments, **kw), fps=FPS, seed=seed)
    shots: list[tuple[int, np.ndarray, Truth]] = []
    i = 0
    while (frame := camera.read()) is not None:
        t = camera.last_truth
        assert t is not None
        if not (t.hand or t.motion or any(d.moving for d in t.dice)):
            shots.append((i, frame.image, t))
        i += 1
    first = next((s for s in shots if not s[2].dice), None)
    if first is None:
        return []
    rest = [s for s in shots if s[0] > first[0] + 2]
    picks = [rest[int(j)] for j in np.linspace(0, len(rest) - 1, later + 2)[1:-1].round()] if rest and later else []
    return [first, *picks]


def moved(corners: np.ndarray, px: float, rng: np.random.Generator) -> np.ndarray:
    """``corners`` each moved ``px`` px in a random direction."""
    a = rng.uniform(0, 2 * np.pi, 4)
    return (np.asarray(corners, np.float64) + px * np.stack([np.cos(a), np.sin(a)], axis=1)).astype(np.float32)


def wrong_spots(obs: Any, t: Truth) -> tuple[int, int]:
    """(spots read wrong, of them read at 0.9 or more): the 24 points and the bar, each colour."""
    wrong = sure = 0
    spots = [(s.light, t.light[p]) for p, s in enumerate(obs.points)] + [(s.dark, t.dark[p]) for p, s in enumerate(obs.points)]
    spots += [(obs.bar.light, t.bar[0]), (obs.bar.dark, t.bar[1])]
    for ev, n in spots:
        if ev.best != n:
            wrong += 1
            sure += ev.confidence >= 0.9
    return wrong, sure


def read_through(corners: np.ndarray, kw: dict[str, Any], shots: list[tuple[int, np.ndarray, Truth]]) -> dict[str, Any]:
    """What reading the game's frames through the field ``corners`` gives (see the module doc)."""
    i0, img0, t0 = shots[0]
    out: dict[str, Any] = {"accepted": False, "off_start": -1, "wrong": 0, "sure": 0, "refined": float("nan"),
                           "points": [], "back": frozenset()}
    try:
        cal = calibrate_image(img0, home=kw["home"], field=_Placed(corners))
    except CalibrationError:
        return out
    got, true = np.asarray(cal.corners, float), np.asarray(t0.corners, float)
    out["refined"] = float(min(np.hypot(*(got - true).T).max(), np.hypot(*(got[[2, 3, 0, 1]] - true).T).max()))
    obs0 = BoardReader(cal).read(img0, i0)
    out["off_start"] = len(setup_agreement(obs0).differences)
    try:
        learnt = learn_board(img0, cal, dice=obs0.dice)
    except CalibrationError:
        learnt = None
    if learnt is not None:
        back = BoardReader(learnt.with_(taught_ring=None)).read(img0, i0)
        out["accepted"] = setup_problem(back, expect_start=True) is None
        out["back"] = frozenset(str(d[0]) for d in setup_agreement(back).differences)
    use = learnt if learnt is not None and out["accepted"] else cal
    for i, img, t in shots[1:]:
        obs = BoardReader(use, still_photo=True).read(img, i)
        w, s = wrong_spots(obs, t)
        out["wrong"] += w
        out["sure"] += s
        out["points"].append(tuple((p.light.best, p.dark.best) for p in obs.points))
    return out


def where(spot: str) -> str:
    """The kind of place a spot (a point's number, "bar", "off") is: a point at an end of the field (beside a
    tray or the frame), a point beside the bar, another point, or the bar or the trays."""
    if not spot.isdigit():
        return "bar/trays"
    p = int(spot)
    return "field end" if p in (1, 12, 13, 24) else "beside the bar" if p in (6, 7, 18, 19) else "other point"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seeds", default="7,10,11", help="bench_video.py --size 640 clips' seeds")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument("--only", default="", help="only these clip games (by index, as bench_video.py numbers them)")
    ap.add_argument("--reallike", default="", help="bench_reallike.py games (seed 0) by index, e.g. 0,2,4-5")
    ap.add_argument("--px", default="3,5,7", help="how far each corner is moved, px")
    ap.add_argument("--draws", type=int, default=2, help="moved fields per distance")
    ap.add_argument("--frames", type=int, default=3, help="still frames read after the set-up frame")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    only = game_list(args.only)
    games = [g for s in (int(x) for x in args.seeds.split(",") if x.strip())
             for g in clip_games(s, args.games, args.turns) if not only or int(g[0].split("g")[1]) in only]
    games += reallike_games(game_list(args.reallike))
    pxs = [float(x) for x in args.px.split(",")]
    fields = flips = acc_flips = read_flips = 0
    acc_true = acc_moved = wrong_true = wrong_moved = sure_true = sure_moved = 0
    refined: list[float] = []
    kinds: Counter[str] = Counter()
    t_start = time.process_time()
    for name, kw, moments, seed in games:
        shots = frames_of(kw, moments, seed, args.frames)
        if not shots:
            print(f"{name}: no set-up frame")
            continue
        truth = shots[0][2].corners
        base = read_through(truth, kw, shots)
        acc_true += base["accepted"]
        rng = np.random.default_rng([seed, 55])
        lines = []
        for px in pxs:
            for _ in range(args.draws):
                r = read_through(moved(truth, px, rng), kw, shots)
                fields += 1
                wrong_true += base["wrong"]
                sure_true += base["sure"]
                wrong_moved += r["wrong"]
                sure_moved += r["sure"]
                acc_moved += r["accepted"]
                refined.append(r["refined"])
                a = r["accepted"] != base["accepted"]
                d = r["points"] != base["points"]
                # the spots that read otherwise: in the set-up frame read back, and in the later frames
                spots = set(r["back"] ^ base["back"])
                spots |= {str(p + 1) for x, y in zip(r["points"], base["points"]) for p in range(24) if x[p] != y[p]}
                kinds.update(where(x) for x in spots)
                acc_flips += a
                read_flips += d
                flips += a or d
                if a or d or args.verbose:
                    lines.append(f"    {px:.0f} px: accepted {r['accepted']} (true {base['accepted']}), off the start "
                                 f"{r['off_start']} (true {base['off_start']}), later frames wrong {r['wrong']} "
                                 f"(sure {r['sure']}; true {base['wrong']}, {base['sure']}), refined corners off "
                                 f"{r['refined']:.1f} px (true field {base['refined']:.1f})")
        if lines or args.verbose:
            look = kw.get("look")
            print(f"{name} ({getattr(look, 'board', '?')}, set-up frame {shots[0][0]}, later {[s[0] for s in shots[1:]]}):")
            print("\n".join(lines))
    n = max(fields, 1)
    print(f"field jitter over {len(games)} games, {fields} moved fields ({args.px} px, {args.draws} draws each; "
          f"{args.frames} later frames): differs from the true field {flips} (set-up accepted otherwise {acc_flips}, "
          f"later frames read otherwise {read_flips})")
    print(f"  set-up accepted: true field {acc_true}/{len(games)}, moved fields {acc_moved}/{fields}; later spots wrong "
          f"(sure) per field: true {wrong_true / n:.2f} ({sure_true / n:.2f}), moved {wrong_moved / n:.2f} "
          f"({sure_moved / n:.2f}); refined corners off the true ones: median "
          f"{np.nanmedian(refined) if refined else float('nan'):.1f} px, max {np.nanmax(refined) if refined else float('nan'):.1f}; "
          f"{time.process_time() - t_start:.0f} CPU-s")
    print("  spots read otherwise through a moved field, by place: " + (", ".join(
        f"{k} {n}" for k, n in kinds.most_common()) or "none"))


if __name__ == "__main__":
    main()
