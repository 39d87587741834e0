"""How far the field found without markers (``calibrate.locate_field``) is from the true corners.

On every frame with known corners: the labelled real photos (``--real``), the same photos as other
cameras take them (``--variants``, ``tests/vision/_variants.py``) and the set-up frames of the
recordings ``bench_video.py`` writes (``--video``: frame 1 of each game, MP4-compressed as the app
sees it, at 640 and 1280 px, seeds 0 and 1). Each frame: the worst and the mean corner distance (px,
the corners matched in the best cyclic order), and as a share of the field's width; per set: the
median and largest worst corner, the mean of the means. ``--placed``: the found field with its top
and bottom edges placed on the points' bases (``fieldfit.placed``; not what ``locate_field``
returns). ``--climbed`` also prints where the fit (``fieldfit.fit_corners``) climbs to from the
true corners: its own bias, apart from the search.

    .venv/bin/python bench/bench_field_corners.py [--real] [--variants "turned round,tilted 6 deg"] \
        [--video] [--seeds 0,1] [--sizes 640,1280] [--climbed] [--placed]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.errors import CalibrationError  # noqa: E402
from tavli_pi.vision.calibrate import locate_field  # noqa: E402


#: ``--placed``: the found field's top and bottom edges placed on the points' bases (``fieldfit.placed``)
PLACED = False


def corner_errors(found: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """(worst, mean) corner distance in px, the corners matched in the best cyclic order."""
    f, t = np.asarray(found, np.float64).reshape(4, 2), np.asarray(truth, np.float64).reshape(4, 2)
    best = min((np.hypot(*(np.roll(f, k, 0) - t).T) for k in range(4)), key=lambda d: float(d.max()))
    return float(best.max()), float(best.mean())


def _width(truth: np.ndarray) -> float:
    t = np.asarray(truth, np.float64)
    return float(max(np.ptp(t[:, 0]), np.ptp(t[:, 1])))


def measure(name: str, image: np.ndarray, truth: np.ndarray, climbed: bool, rows: list[tuple[float, float, float]]) -> None:
    try:
        found, _ = locate_field(image)
        if PLACED:
            from tavli_pi.vision.fieldfit import placed

            found = placed(image, found)
    except CalibrationError:
        print(f"  {name}: no board found")
        rows.append((float("inf"), float("inf"), float("inf")))
        return
    worst, mean = corner_errors(found, truth)
    rel = worst / _width(truth)
    off = np.hypot(*(np.asarray(found, np.float64) - np.asarray(truth, np.float64)).T) if worst < 1e9 else []
    extra = ""
    if climbed:
        from tavli_pi.vision.fieldfit import field_fit, fit_corners, prepared

        lab, scale = prepared(image)
        q = np.asarray(truth, np.float32) * scale
        fq, f, _ = fit_corners(lab, q)
        cw, cm = corner_errors(fq / scale, truth)
        fl = found
        extra = (f"; truth fits {field_fit(lab, q)[0]:.2f}, climbed from it {f:.2f} ({cw:.1f} / {cm:.1f} px off), "
                 f"found fits {field_fit(lab, np.asarray(fl, np.float32) * scale)[0]:.2f}")
    print(f"  {name}: worst {worst:.1f} px ({100 * rel:.1f} % of the field), mean {mean:.1f} px"
          f" [{' '.join(f'{v:.1f}' for v in np.roll(off, 0))}]{extra}")
    rows.append((worst, mean, rel))


def summary(tag: str, rows: list[tuple[float, float, float]]) -> None:
    found = [r for r in rows if np.isfinite(r[0])]
    if not found:
        print(f"{tag}: {len(rows)} frames, none found")
        return
    w = np.array([r[0] for r in found])
    print(f"{tag}: {len(rows)} frames, {len(rows) - len(found)} not found; worst corner median {np.median(w):.1f} px, "
          f"largest {w.max():.1f} px; mean corner {np.mean([r[1] for r in found]):.1f} px; "
          f"worst as share of the field: median {100 * np.median([r[2] for r in found]):.1f} %, "
          f"largest {100 * max(r[2] for r in found):.1f} %")


def real(climbed: bool, variants: list[str]) -> None:
    from bench.bench_vision import REAL
    from tests.vision._eval import real_frames
    from tests.vision._variants import variant_frames

    frames = real_frames(REAL)
    for tag, fs in [("photos", frames)] + [(v, variant_frames(frames, v)) for v in variants]:
        rows: list[tuple[float, float, float]] = []
        print(f"{tag}:")
        for f in fs:
            measure(f.name, f.image, f.corners, climbed, rows)
        summary(f"real {tag}", rows)


def video(seeds: list[int], sizes: list[int], games: int, climbed: bool, frame: int) -> None:
    from bench.bench_video import write_video
    from tavli_pi.sim.datasets import reallike_game_tables
    from tavli_pi.sim.render import Truth
    from tavli_pi.sim.script import random_game

    for seed in seeds:
        for size in sizes:
            rows: list[tuple[float, float, float]] = []
            print(f"recordings seed {seed}, {size} px, frame {frame}:")
            tables = reallike_game_tables(8 * games, seed)
            keep = [g for g, kw in enumerate(tables) if kw["width"] == size][:games]
            for g in keep:
                kw = tables[g]
                moments = random_game(1000 * seed + g, turns=6, plant_illegal=0)[:frame + 1]
                with tempfile.TemporaryDirectory() as d:
                    path = Path(d) / "game.mp4"
                    truths: list[Truth] = []
                    write_video(path, moments, kw, 1000 * seed + g, 1, truths)
                    cap = cv2.VideoCapture(str(path))
                    img: Any = None
                    for _ in range(frame + 1):
                        ok, img = cap.read()
                    cap.release()
                board = getattr(kw.get("look"), "board", "?")
                measure(f"game {g} ({board})", img, np.asarray(truths[frame].corners), climbed, rows)
            summary(f"recordings seed {seed} {size} px", rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--variants", default="", help="variant names, comma-separated ('all': every one)")
    ap.add_argument("--video", action="store_true")
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--sizes", default="640,1280")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--frame", type=int, default=1, help="the recording's frame the field is found on")
    ap.add_argument("--climbed", action="store_true", help="also climb the fit from the true corners")
    ap.add_argument("--placed", action="store_true", help="the found field's edges placed (fieldfit.placed)")
    a = ap.parse_args()
    global PLACED
    PLACED = a.placed
    cv2.setNumThreads(1)
    from tests.vision._variants import VARIANTS

    variants = list(VARIANTS) if a.variants == "all" else [v.strip() for v in a.variants.split(",") if v.strip()]
    if a.real or variants:
        real(a.climbed, variants)
    if a.video:
        video([int(s) for s in a.seeds.split(",")], [int(s) for s in a.sizes.split(",")], a.games, a.climbed, a.frame)


if __name__ == "__main__":
    main()
