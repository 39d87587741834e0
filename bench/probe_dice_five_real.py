"""False fives on real photos (issue 9, session 59): ``dice_five``'s proof on what is not a five.

    .venv/bin/python bench/probe_dice_five_real.py boards [SCALES]   (default 1,0.5)
    .venv/bin/python bench/probe_dice_five_real.py dice [SIZES]      (default 8,9,10,11)

``boards``: each labelled board photo (``boards/wtc2022``, ``boards/more``), shrunk to each scale (INTER_AREA:
0.5 makes the 1280 px broadcast's dice 8-10 px, as a 640 px camera shows them), read as one frame of a
stream (``BoardReader``, calibrated on its labelled corners; a photo's own read never reaches
``small_fives``) with ``small_fives`` watched: every die its gate lets through, by what the label says lies
there (a face, a die not lying flat, or no die: a print, the cube, the clock, a checker's rim), and whether
it was turned into a five.

``dice``: each labelled real die (``dice/banachowicz`` ivory with black pips, ``dice/fudw`` blue with white,
faces 1-5 there: its six is a logo) cut round its box, shrunk so its side shows T px and passed through a
JPEG 80 (as ``bench_real_small_dice``), its face shown to ``five_shown`` round its centre (moved up to 1 px)
at the side a reader measures (1.1 T) with no polarity given (as reader.py wires it): ``is_five`` by true face.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_vision import REAL  # noqa: E402
from tests.vision._eval import real_dice_boxes  # noqa: E402
from tavli_pi.vision.dice_five import face_crop_at, five_gate, five_shown, is_five  # noqa: E402
from tavli_pi.vision.observation import DieReading  # noqa: E402


def boards(scales: Sequence[float]) -> None:
    from tavli_pi.vision import reader as reader_module
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.reader import BoardReader
    from tests.vision._eval import real_frames

    original = getattr(reader_module, "small_fives")
    counts: Counter[tuple[float, str, str]] = Counter()
    label: list[tuple[float, float, int, bool]] = []
    now = [""]

    def fives(dice: Sequence[DieReading], image: np.ndarray, dark: bool | None = None,
              **kw: float) -> list[DieReading]:
        out: list[DieReading] = original(dice, image, dark, **kw)
        for d, o in zip(dice, out):
            if not five_gate(d):
                continue
            near = [(float(np.hypot(x - d.xy[0], y - d.xy[1])), v, flat) for x, y, v, flat in label]
            r, v, flat = min(near) if near else (np.inf, 0, True)
            what = ("no die" if r > max(d.size_px, 6.0) else str(v) if flat else "not flat")
            fired = o.value == 5 and d.value != 5
            counts[(scale, what, "five" if fired else "left")] += 1
            if fired and what != "5":
                f = five_shown(face_crop_at(image, d.xy, d.size_px), dark)
                print(f"  {now[0]} x{scale:g}: FALSE FIVE on {what} (read {d.value} at {d.value_confidence:.2f}, "
                      f"{d.size_px:.1f} px): {f}", flush=True)
        return out

    setattr(reader_module, "small_fives", fives)
    frames = real_frames(REAL)
    try:
        for scale in scales:
            for fr in frames:
                if "corners" not in fr.label:
                    continue
                now[0] = f"{fr.board_set}/{fr.name}"
                image = fr.image if scale == 1 else cv2.resize(fr.image, None, fx=scale, fy=scale,
                                                                interpolation=cv2.INTER_AREA)
                label[:] = [(float(d["xy"][0]) * scale, float(d["xy"][1]) * scale, int(d.get("value") or 0),
                             bool(d.get("flat", True))) for d in fr.label.get("dice", [])]
                cal = Calibration(np.asarray(fr.corners, np.float32) * np.float32(scale), home=fr.label.get("home", "bottom-right"))
                try:
                    BoardReader(cal).read(image)
                except Exception as exc:  # a frame the reader cannot take: said, not counted
                    print(f"  {now[0]} x{scale:g}: {type(exc).__name__}: {str(exc)[:60]}")
    finally:
        setattr(reader_module, "small_fives", original)
    for (s, w, f), n in sorted(counts.items()):
        print(f"x{s:g}: truly {w:8s} -> {f}: {n}")
    print(f"{len(frames)} frames; false fives {sum(n for (_, w, f), n in counts.items() if f == 'five' and w != '5')}; "
          f"true fives called {sum(n for (_, w, f), n in counts.items() if f == 'five' and w == '5')}"
          f"/{sum(n for (_, w, _), n in counts.items() if w == '5')}")


def _gray(path: str) -> np.ndarray:
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    assert img is not None, path
    return np.asarray(img, np.uint8)


def dice(sizes: Sequence[float]) -> None:
    boxes = real_dice_boxes(REAL / "dice")
    rng = np.random.default_rng(7)
    counts: Counter[tuple[str, float, int, bool]] = Counter()
    path_now, img = "", np.zeros((1, 1), np.uint8)
    for path, cx, cy, w, h, v, st in boxes:
        if path != path_now:
            path_now, img = path, _gray(path)
        ext = (w + h) / 2
        half = int(1.6 * ext)
        x0, y0 = int(cx) - half, int(cy) - half
        if x0 < 0 or y0 < 0 or x0 + 2 * half >= img.shape[1] or y0 + 2 * half >= img.shape[0]:
            continue
        crop = img[y0:y0 + 2 * half, x0:x0 + 2 * half]
        for t in sizes:
            n = max(int(round(2 * half * t * 1.15 / ext)), 8)
            small = cv2.resize(crop, (n, n), interpolation=cv2.INTER_AREA)
            small = np.asarray(cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])[1],
                                            cv2.IMREAD_GRAYSCALE), np.uint8)
            sc = n / (2 * half)
            xy = ((cx - x0 + 0.5) * sc - 0.5 + rng.uniform(-1, 1), (cy - y0 + 0.5) * sc - 0.5 + rng.uniform(-1, 1))
            counts[(st, t, v, is_five(five_shown(face_crop_at(small, xy, 1.1 * t))))] += 1
    for st in ("banachowicz", "fudw"):
        for t in sizes:
            cells = [f"{v}: {counts[(st, t, v, True)]}/{counts[(st, t, v, True)] + counts[(st, t, v, False)]}"
                     for v in range(1, 7) if counts[(st, t, v, True)] + counts[(st, t, v, False)]]
            print(f"{st} {t:g} px: called five / dice, by true face: " + ", ".join(cells), flush=True)
    wrong = sum(n for (_, _, v, f), n in counts.items() if f and v != 5)
    others = sum(n for (_, _, v, _), n in counts.items() if v != 5)
    right = sum(n for (_, _, v, f), n in counts.items() if f and v == 5)
    fives = sum(n for (_, _, v, _), n in counts.items() if v == 5)
    print(f"all: other faces called five {wrong}/{others}; fives called five {right}/{fives}")


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "boards"
    arg = sys.argv[2] if len(sys.argv) > 2 else ""
    if what == "boards":
        boards([float(x) for x in (arg or "1,0.5").split(",")])
    else:
        dice([float(x) for x in (arg or "8,9,10,11").split(",")])


if __name__ == "__main__":
    main()
