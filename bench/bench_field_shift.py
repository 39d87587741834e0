"""How steady the real photos' reading is under a few px of field: each labelled photo read with its
field (found in the picture, ``--fields found``; the labelled corners, ``labelled``) moved by -4..+4 px
(``--shifts``; straight down the picture, ``--axis y``, or across it, ``x``), two ways: as a photo
(``photo``: ``BoardReader`` on the field as given, the overhang measured on the photo) and with the
board learnt from the photo's labelled position (``learnt``: ``setup.learn_board``, the learnt
overhang, ``Calibration.overhang``). Per field, way and shift: perfect boards, wrong spots (points,
bar, trays), spots read right but unsure (the right count below 0.9), confidently wrong spots
(>= 0.9); ``--verbose`` lists each photo's wrong and unsure spots.

    TAVLI_REAL_DATA=/work/shared/data/real .venv/bin/python bench/bench_field_shift.py \
        [--fields found,labelled] [--ways photo,learnt] [--shifts -4,-3,-2,-1,0,1,2,3,4] [--axis y] [--verbose]
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

from tavli_pi.errors import CalibrationError  # noqa: E402
from tavli_pi.vision.calibrate import calibrate_image  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.setup import learn_board  # noqa: E402
from tests.vision._eval import known_of_label, real_frames, score_real  # noqa: E402

REAL = Path(os.environ.get("TAVLI_REAL_DATA") or Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "real")


def unsure_spots(f: Any, obs: Any) -> list[str]:
    """The points and bar halves read right but with the right count below 0.9."""
    light, dark, bar, _off = f.truth
    out = []
    for p in range(1, 25):
        for c, ev, n in (("L", obs.points[p - 1].light, light.get(p, 0)), ("D", obs.points[p - 1].dark, dark.get(p, 0))):
            if ev.best == n and ev.confidence < 0.9:
                out.append(f"p{p}{c}{n}@{ev.confidence:.2f}")
    for c, ev, n in (("L", obs.bar.light, bar[0]), ("D", obs.bar.dark, bar[1])):
        if ev.best == n and ev.confidence < 0.9:
            out.append(f"bar{c}{n}@{ev.confidence:.2f}")
    return out


def base_field(f: Any, field: str) -> Calibration:
    if field == "found":
        return calibrate_image(f.image)
    c = np.asarray(f.corners, np.float64).reshape(4, 2)
    text = ";".join(f"{x:.1f},{y:.1f}" for x, y in c)
    return calibrate_image(f.image, text, f.label["home"])


def read(f: Any, cal: Calibration, way: str) -> Any:
    if way == "learnt":
        cal = learn_board(f.image, cal, known_of_label(f.truth))
    return BoardReader(cal, still_photo=True).read(f.image)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fields", default="found,labelled")
    ap.add_argument("--ways", default="photo,learnt")
    ap.add_argument("--shifts", default="-4,-3,-2,-1,0,1,2,3,4")
    ap.add_argument("--axis", default="y", choices=("x", "y"))
    ap.add_argument("--only", default="", help="comma-separated photo names")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    shifts = [float(s) for s in a.shifts.split(",")]
    frames = [f for f in real_frames(REAL) if f.truth is not None and not f.label["hand"] and f.label["complete"]
              and (not a.only or f.name in a.only.split(","))]
    print(f"{len(frames)} photos (complete, no hand); shifts {shifts} px along {a.axis}")
    for field in a.fields.split(","):
        bases: dict[str, Calibration | None] = {}
        for f in frames:
            try:
                bases[f.name] = base_field(f, field)
            except CalibrationError:
                bases[f.name] = None
        for way in a.ways.split(","):
            tot_w = tot_u = tot_c = tot_p = 0
            for s in shifts:
                perfect = wrong = unsure = sure_wrong = n = 0
                lines = []
                for f in frames:
                    base = bases[f.name]
                    if base is None:
                        lines.append(f"    {f.name}: no board")
                        continue
                    move = np.float32([s, 0.0] if a.axis == "x" else [0.0, s])
                    try:
                        obs = read(f, base.with_(corners=np.float32(base.corners) + move), way)
                    except CalibrationError as exc:
                        lines.append(f"    {f.name}: {str(exc)[:60]}")
                        continue
                    sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
                    u = unsure_spots(f, obs)
                    n += 1
                    perfect += bool(sc.perfect)
                    wrong += len(sc.spot_errors)
                    unsure += len(u)
                    sure_wrong += sc.confident_wrong
                    if sc.spot_errors or u:
                        lines.append(f"    {f.name}: wrong {sc.spot_errors} unsure {u}")
                tot_w, tot_u, tot_c, tot_p = tot_w + wrong, tot_u + unsure, tot_c + sure_wrong, tot_p + perfect
                print(f"  {field} {way} {s:+.0f} px: perfect {perfect}/{n}, wrong {wrong}, unsure {unsure}, "
                      f"sure wrong {sure_wrong}", flush=True)
                if a.verbose:
                    for line in lines:
                        print(line)
            print(f"{field} {way} over the shifts: perfect {tot_p}/{len(frames) * len(shifts)}, wrong {tot_w}, "
                  f"unsure {tot_u}, sure wrong {tot_c}", flush=True)


if __name__ == "__main__":
    main()
