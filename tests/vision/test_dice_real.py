"""Pip reading on the labelled real dice photographs, and dice on the WTC 2022 frames.

Measured (bench/RESULTS.md): banachowicz d6 99.5 %, fudw classes 0-4
about 94 %; thresholds below keep a small margin.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np

from tavli_pi.vision.dice import find_dice, read_pips
from tests.vision._eval import wtc_calibration, wtc_labels


def _banachowicz(root: Path, want_d6: bool, limit: int = 10**6) -> list[tuple[np.ndarray, str]]:
    out = []
    for split in ("train", "test"):
        with open(root / f"{split}_labels.csv") as fh:
            for row in csv.DictReader(fh):
                if row["class"].startswith("d6-") != want_d6 or len(out) >= limit:
                    continue
                img = cv2.imread(str(root / split / row["filename"]))
                x0, y0, x1, y1 = (int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                out.append((img[y0:y1, x0:x1], row["class"]))
    return out


def test_banachowicz_ivory_dice(real_data: Path) -> None:
    items = _banachowicz(real_data / "dice/banachowicz", True)
    assert len(items) == 551
    ok = 0
    for crop, cls in items:
        value, conf = read_pips(crop)
        ok += value == int(cls[3])
        assert 0.0 <= conf <= 1.0
    assert ok / len(items) >= 0.97  # measured 0.995 (was 0.842 before pip layouts)


def test_distractor_dice_are_rarely_called_backgammon_dice(real_data: Path) -> None:
    # d6p (numerals), d8 and d10: a confident reading (>= 0.6, the referee's bar) is a false accept
    items = _banachowicz(real_data / "dice/banachowicz", False, limit=500)
    accepted = sum(1 for crop, _ in items if read_pips(crop)[1] >= 0.6)
    assert accepted / len(items) <= 0.16  # measured 0.11 on all 2198; weak, see RESULTS


def test_fudw_blue_dice(real_data: Path) -> None:
    root = real_data / "dice/fudw"
    ok = tot = 0
    for img_path in sorted(root.glob("images/*/*"))[:12]:
        lab = root / "labels" / img_path.parent.name / (img_path.stem + ".txt")
        if not lab.exists():
            continue
        img = cv2.imread(str(img_path))
        h, w = img.shape[:2]
        small = cv2.resize(img, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        for line in lab.read_text().split("\n"):
            if not line.strip():
                continue
            k, cx, cy, bw, bh = line.split()
            if int(k) > 4:
                continue  # class 5 is a printed logo, not pips
            cx_, cy_, bw_, bh_ = float(cx) * w / 4, float(cy) * h / 4, float(bw) * w / 4, float(bh) * h / 4
            crop = small[int(cy_ - bh_ / 2) : int(cy_ + bh_ / 2), int(cx_ - bw_ / 2) : int(cx_ + bw_ / 2)]
            tot += 1
            ok += read_pips(crop)[0] == int(k) + 1
    assert tot > 50
    assert ok / tot >= 0.85  # measured 0.937 on all 365 (was 0.496)


def test_dice_on_the_wtc_frames(real_data: Path) -> None:
    """13 px dice: some are read; no die is read wrongly with the referee's confidence."""
    cal = wtc_calibration(real_data)
    right = labelled = confident_wrong = 0
    for name, lab in wtc_labels(real_data).items():
        if not lab.get("dice"):
            continue
        img = cv2.imread(str(real_data / "boards/wtc2022" / name))
        dice = find_dice(cal.warp(img), cal.layout, cal, [], None, img)
        for d in dice:
            near = [t for t in lab["dice"] if np.hypot(t["xy"][0] - d.xy[0], t["xy"][1] - d.xy[1]) < 10]
            if near and near[0].get("value") == d.value:
                continue
            confident_wrong += d.value_confidence >= 0.6
        for t in lab["dice"]:
            if "value" not in t:
                continue
            labelled += 1
            right += any(np.hypot(t["xy"][0] - d.xy[0], t["xy"][1] - d.xy[1]) < 10 and d.value == t["value"] for d in dice)
    assert labelled == 9
    assert right >= 3  # measured 4 of 9 (frame0's 5, frame1's 1, frame5's 4, test8's 3)
    assert confident_wrong == 0
