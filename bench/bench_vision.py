"""Vision benchmark: accuracy on real and simulated boards, and speed per frame (one core).

Run: .venv/bin/python bench/bench_vision.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.sim.datasets import easy_scenes, hard_scenes  # noqa: E402
from tavli_pi.vision.motion import MotionGate  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tests.vision._eval import sim_calibration, spot_errors, wtc_calibration, wtc_labels  # noqa: E402

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "real"


def boards(name: str, items: list[tuple[BoardReader, np.ndarray, dict[int, int], dict[int, int], tuple[int, int]]]) -> None:
    spots = wrong = perfect = 0
    for reader, img, light, dark, bar in items:
        errs = spot_errors(reader.read(img), light, dark, bar)
        spots += 25
        wrong += len(errs)
        perfect += not errs
    print(f"{name}: {len(items)} boards, per-spot error {100 * wrong / spots:.2f}% "
          f"({wrong}/{spots}), perfect boards {100 * perfect / len(items):.1f}%")


def main() -> None:
    cv2.setNumThreads(1)
    labels = wtc_labels(REAL)
    cal = wtc_calibration(REAL)
    reader = BoardReader(cal)
    items = []
    hands_ok = 0
    for name, lab in labels.items():
        img = cv2.imread(str(REAL / "boards/wtc2022" / name))
        hands_ok += reader.read(img).hand == lab["hand"]
        if "light" in lab and not lab["hand"]:
            items.append((reader, img, {int(k): v for k, v in lab["light"].items()},
                          {int(k): v for k, v in lab["dark"].items()},
                          (lab["bar"]["light"], lab["bar"]["dark"])))
    boards("real WTC 2022 (labelled, no hand)", items)
    print(f"real WTC 2022 hand flag correct: {hands_ok}/{len(labels)}")
    for kind, scenes in (("sim easy", easy_scenes(30, 11)), ("sim hard (no hand)", [s for s in hard_scenes(40, 11) if s.hand is None][:30])):
        sims = []
        for i, sc in enumerate(scenes):
            c, r = sim_calibration(sc, i)
            t = r.truth
            sims.append((BoardReader(c), r.image, {p + 1: n for p, n in enumerate(t.light)},
                         {p + 1: n for p, n in enumerate(t.dark)}, t.bar))
        boards(kind, sims)
    # dice pip accuracy on the real photo sets (see tests/vision/test_dice_real.py)
    import csv

    from tavli_pi.vision.dice import read_pips
    ok = tot = 0
    root = REAL / "dice/banachowicz"
    for split in ("train", "test"):
        for row in csv.DictReader(open(root / f"{split}_labels.csv")):
            if row["class"].startswith("d6-"):
                img = cv2.imread(str(root / split / row["filename"]))
                x0, y0, x1, y1 = (int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                tot += 1
                ok += read_pips(img[y0:y1, x0:x1])[0] == int(row["class"][3])
    print(f"dice pips, banachowicz d6-1..6: {100 * ok / tot:.1f}% ({ok}/{tot})")
    ok = tot = 0
    root = REAL / "dice/fudw"
    for p in sorted(root.glob("images/*/*")):
        lab = root / "labels" / p.parent.name / (p.stem + ".txt")
        if not lab.exists():
            continue
        img = cv2.imread(str(p))
        h, w = img.shape[:2]
        small = cv2.resize(img, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        for line in lab.read_text().split("\n"):
            if line.strip() and int(line.split()[0]) <= 4:
                k, cx, cy, bw, bh = (float(v) for v in line.split())
                cx, cy, bw, bh = cx * w / 4, cy * h / 4, bw * w / 4, bh * h / 4
                tot += 1
                ok += read_pips(small[int(cy - bh / 2):int(cy + bh / 2), int(cx - bw / 2):int(cx + bw / 2)])[0] == int(k) + 1
    print(f"dice pips, fudw classes 0-4: {100 * ok / tot:.1f}% ({ok}/{tot})")
    # speed on a 1280x720 frame
    img = cv2.imread(str(REAL / "boards/wtc2022/frame0.jpg"))
    for _ in range(3):
        reader.read(img)
    n = 30
    t = time.perf_counter()
    for _ in range(n):
        reader.read(img)
    full = (time.perf_counter() - t) / n * 1000
    gate = MotionGate()
    gate(img)
    t = time.perf_counter()
    for _ in range(200):
        gate(img)
    g = (time.perf_counter() - t) / 200 * 1000
    print(f"full read: {full:.1f} ms per 1280x720 frame (1 thread); motion gate: {g:.2f} ms")


if __name__ == "__main__":
    main()
