"""Dice reading under a few pixels of field shift: the labelled corners of every real photo with
dice moved together by (dx, dy), each photo read as ``tavli-pi read --corners`` reads it.

Run: .venv/bin/python bench/bench_dice_shift.py [--reach 6] [--step 2] [--only test9.jpg,frame5.jpg] [--verbose]

The labels' corners are hand-placed to about +-6 px, and the field found without them (``read``
with no corners) lands a few pixels from them: a dice reading that holds only at one placement of
the field is fragile. For each shift the table prints, summed over the photos, the legible
labelled dice read right, read with another value (wrong), read so at confidence >= 0.9 (surely
wrong, as ``score_real`` counts it), missed, the false dice, and the dice labelled cocked (not flat)
read flat with a value at any confidence. ``--verbose`` adds what each
photo's dice read at each shift.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.vision.calibrate import calibrate_image  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tests.vision._eval import RealFrame, real_frames, score_real  # noqa: E402

REAL = Path(os.environ.get("TAVLI_REAL_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data" / "real")


def _corner_text(c: np.ndarray) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in np.asarray(c).reshape(4, 2))


def read_shifted(f: RealFrame, dx: float, dy: float) -> Any:
    """The photo read with its labelled corners moved by (dx, dy) px."""
    cal = calibrate_image(f.image, _corner_text(f.corners + np.float32((dx, dy))), f.label["home"])
    return BoardReader(cal, still_photo=True).read(f.image)


def _shown(obs: Any) -> str:
    return " ".join(f"{d.value}@{d.value_confidence:.2f}({d.xy[0]:.0f},{d.xy[1]:.0f})" for d in obs.dice) or "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reach", type=int, default=6, help="largest shift, px (default 6)")
    ap.add_argument("--step", type=int, default=2, help="grid step, px (default 2)")
    ap.add_argument("--only", default="", help="comma-separated photo names")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    frames = [f for f in real_frames(REAL) if any(d.get("value") for d in f.label.get("dice", []))]
    if a.only:
        frames = [f for f in frames if f.name in a.only.split(",")]
    steps = range(-a.reach, a.reach + 1, a.step)
    per_photo: dict[str, list[int]] = {f.name: [0, 0, 0] for f in frames}  # right, legible, surely wrong
    total = {"right": 0, "legible": 0, "wrong": 0, "sure": 0, "missed": 0, "false": 0, "cocked_flat": 0, "shifts": 0,
             "perfect": 0}
    print(f"{len(frames)} photos with legible dice; shifts {a.reach} px either way in steps of {a.step}")
    print(" dx  dy  right  wrong  surely  missed  false  cocked read flat")
    for dy in steps:
        for dx in steps:
            row = dict.fromkeys(("right", "legible", "wrong", "sure", "missed", "false", "cocked_flat"), 0)
            notes = []
            for f in frames:
                obs = read_shifted(f, dx, dy)
                sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
                row["right"] += sc.dice_right
                row["legible"] += sc.dice_legible
                row["wrong"] += sc.dice_wrong
                row["sure"] += sc.dice_sure_wrong
                row["missed"] += sc.dice_legible - sc.dice_right - sc.dice_wrong
                row["false"] += sc.dice_false
                row["cocked_flat"] += sc.dice_cocked_flat
                p = per_photo[f.name]
                p[0] += sc.dice_right
                p[1] += sc.dice_legible
                p[2] += sc.dice_sure_wrong
                if a.verbose or sc.dice_right < sc.dice_legible:
                    notes.append(f"{f.name} {sc.dice_right}/{sc.dice_legible}: {_shown(obs)}")
            for k in row:
                total[k] += row[k]
            total["shifts"] += 1
            total["perfect"] += row["right"] == row["legible"] and not row["false"]
            print(f"{dx:+3d} {dy:+3d}  {row['right']:2d}/{row['legible']}  {row['wrong']:5d}  {row['sure']:6d}  "
                  f"{row['missed']:6d}  {row['false']:5d}  {row['cocked_flat']:5d}  {'; '.join(notes) if a.verbose or notes else ''}")
    print(f"total over {total['shifts']} shifts: right {total['right']}/{total['legible']}, wrong {total['wrong']}, "
          f"surely wrong {total['sure']}, missed {total['missed']}, false {total['false']}, "
          f"labelled cocked read flat {total['cocked_flat']}; "
          f"shifts with every die right and no false die {total['perfect']}/{total['shifts']}")
    for name, (right, legible, sure) in per_photo.items():
        print(f"  {name}: right {right}/{legible}{f', surely wrong {sure}' if sure else ''}")


if __name__ == "__main__":
    main()
