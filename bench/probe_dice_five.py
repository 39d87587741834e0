"""Which dice reach ``dice_five.small_fives`` in real-like games, and which it turns into a five (issue 9,
session 59: false fives).

Plays real-like games (``bench_reallike``: the app, its readers and referee, the players answering) with
``small_fives`` watched: every die a frame's reader hands it that its gate lets through (small, flat, still,
lie seen, unread or read 1, 2 or 4 unsurely) is matched to the frame's true dice (the nearest within its
side) and counted by what it truly is -- a five, another face, a moving die, or no die at all (a print, the
cube, a checker's rim, a shadow) -- and by whether its face showed a five (``is_five``). The game's own
line is printed as ``bench_reallike --verbose --why`` prints it (the probe only watches: identical).

    .venv/bin/python bench/probe_dice_five.py --only 5,11,36
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tavli_pi.vision.dice_five import face_crop_at, five_gate, five_shown, is_five  # noqa: E402
from tavli_pi.vision.observation import DieReading  # noqa: E402


def truly(d: DieReading, truth: Any) -> tuple[str, float]:
    """What ``d`` truly is on the frame: ``"5"``, another face's digit, ``"moving"``, ``"cocked"`` or
    ``"no die"`` (no true die within its side of its place); and the true die's side (px; 0: none)."""
    if truth is None:
        return "no truth", 0.0
    best, dist = None, float("inf")
    for t in truth.dice:
        r = float(np.hypot(t.xy[0] - d.xy[0], t.xy[1] - d.xy[1]))
        if r < dist:
            best, dist = t, r
    if best is None or dist > max(d.size_px, best.size_px, 6.0):
        return "no die", 0.0
    if best.moving:
        return "moving", best.size_px
    if not best.flat:
        return "cocked", best.size_px
    return str(best.value), best.size_px


@contextmanager
def watched(counts: Counter[tuple[str, str, str]], notes: list[str], game: int,
            table: Counter[tuple[str, str]]) -> Iterator[None]:
    """Watch ``small_fives`` (as reader.py calls it) and the games' cameras (for each frame's truth).
    ``table``: what the proof would say at the table's learnt die size (``small_faces`` is handed it just
    before) instead of the die's own measure, by what the die truly is."""
    import bench.bench_reallike as bench
    from tavli_pi.vision import reader as reader_module

    cams: list[Any] = []
    make_camera = bench.game_camera
    original = getattr(reader_module, "small_fives")
    faces = getattr(reader_module, "small_faces")
    table_px = [0.0]

    def small_faces(dice: Sequence[DieReading], image: np.ndarray, cal: Any, px: float, dark: bool | None) -> Any:
        table_px[0] = px
        return faces(dice, image, cal, px, dark)

    def camera(*a: Any, **kw: Any) -> Any:
        cam = make_camera(*a, **kw)
        cams.append(cam)
        return cam

    def fives(dice: Sequence[DieReading], image: np.ndarray, dark: bool | None = None,
              **kw: float) -> list[DieReading]:
        out: list[DieReading] = original(dice, image, dark, **kw)
        truth = cams[-1].last_truth if cams else None
        for d, o in zip(dice, out):
            if not five_gate(d):
                continue
            what, side = truly(d, truth)
            fired = o.value == 5 and d.value != 5
            r = five_shown(face_crop_at(image, d.xy, d.size_px), dark)
            if table_px[0]:
                own = is_five(r)
                at = is_five(five_shown(face_crop_at(image, d.xy, table_px[0]), dark))
                table[(what, f"own size {'five' if own else 'left'}, table size {'five' if at else 'left'}")] += 1
            counts[(what, f"read {d.value}", "five" if fired else "left")] += 1
            if fired and what != "5":
                notes.append(f"    game {game} frame {cams[-1].index if cams else '?'}: FALSE FIVE on {what} "
                             f"(read {d.value} at {d.value_confidence:.2f}, {d.size_px:.1f} px at "
                             f"({d.xy[0]:.0f}, {d.xy[1]:.0f})): clear {r.clear:.2f} even {r.even:.2f} "
                             f"body {r.body:.2f} lead {r.lead:.2f}")
            elif what == "5" and not fired:
                notes.append(f"    game {game}: five left (read {d.value} at {d.value_confidence:.2f}, "
                             f"{d.size_px:.1f} px, truly {side:.1f}, table {table_px[0]:.1f}): clear {r.clear:.2f} "
                             f"even {r.even:.2f} body {r.body:.2f} lead {r.lead:.2f}")
            if os.environ.get("FIVES59_DUMP") and (what == "5") != fired:  # a crop to look at, 8 times larger
                x, y = int(d.xy[0]), int(d.xy[1])
                cut = image[max(y - 12, 0):y + 12, max(x - 12, 0):x + 12]
                cv2.imwrite(f"{os.environ['FIVES59_DUMP']}/g{game}_{len(notes)}_{what}.png",
                            cv2.resize(cut, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST))
        return out

    setattr(bench, "game_camera", camera)
    setattr(reader_module, "small_fives", fives)
    setattr(reader_module, "small_faces", small_faces)
    try:
        yield
    finally:
        setattr(bench, "game_camera", make_camera)
        setattr(reader_module, "small_fives", original)
        setattr(reader_module, "small_faces", faces)


def main() -> None:
    from bench.bench_reallike import games

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", required=True, help="game numbers, comma separated (a-b ranges too)")
    ap.add_argument("--quiet", action="store_true", help="no line per five left or false five")
    args = ap.parse_args()
    only: list[int] = []
    for part in args.only.split(","):
        a, _, b = part.partition("-")
        only += list(range(int(a), int(b or a) + 1))
    total: Counter[tuple[str, str, str]] = Counter()
    table: Counter[tuple[str, str]] = Counter()
    for g in only:
        counts: Counter[tuple[str, str, str]] = Counter()
        notes: list[str] = []
        with watched(counts, notes, g, table):
            games(200, 0, 8, verbose=True, only=frozenset({g}), why=True)
        sys.stdout.flush()
        print(f"  fives59 game {g}: " + ", ".join(f"{w} {r} -> {f}: {n}" for (w, r, f), n in sorted(counts.items())))
        if not args.quiet:
            print("\n".join(notes[:40]))
        total.update(counts)
        sys.stdout.flush()
    print("all games:")
    for (w, r, f), n in sorted(total.items()):
        print(f"  truly {w:8s} {r:7s} -> {f:5s}: {n}")
    false = sum(n for (w, _, f), n in total.items() if f == "five" and w != "5")
    fives = [sum(n for (w, _, f), n in total.items() if w == "5" and f == k) for k in ("five", "left")]
    for (w, f), n in sorted(table.items()):
        print(f"  truly {w:8s} {f}: {n}")
    print(f"false fives {false}; true fives called {fives[0]}/{sum(fives)}; candidates not a die "
          f"{sum(n for (w, _, _), n in total.items() if w == 'no die')}")


if __name__ == "__main__":
    main()
