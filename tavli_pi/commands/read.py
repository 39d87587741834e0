"""``tavli-pi read IMAGE``: read one photograph of the board and print what is on it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tavli_pi.errors import CalibrationError, VisionError

if TYPE_CHECKING:  # cv2 and the reader load only when the command runs (issue 12: fast start-up)
    from tavli_pi.vision.observation import Observation

__all__ = ["HELP", "HOMES", "add_arguments", "run", "observation_json"]

HELP = "read checkers, dice, cube and hands from one board photograph"
#: ``--home`` choices: ``tavli_pi.vision.calibrate.HOMES`` without importing cv2 (tests/test_cli.py checks)
HOMES = ("bottom-right", "bottom-left", "auto")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="photograph of the board (jpg, png)")
    parser.add_argument(
        "--corners",
        help='playing-field corners "x,y x,y x,y x,y" (top-left, top-right, bottom-right, '
        "bottom-left); default: find the printed ArUco markers",
    )
    parser.add_argument(
        "--home", choices=HOMES, default=None,
        help="where the light player's home board lies (default bottom-right); "
        "auto: learn it from a board set up to start (B4)",
    )
    parser.add_argument("--calibration", help="a calibration JSON file (from --save-calibration)")
    parser.add_argument("--save-calibration", help="write the calibration used to this JSON file")
    parser.add_argument("--json", action="store_true", help="print JSON (default: a short summary)")


def observation_json(obs: Observation) -> dict[str, Any]:
    light, dark = obs.best_counts()
    return {
        "light": {str(i + 1): n for i, n in enumerate(light)},
        "dark": {str(i + 1): n for i, n in enumerate(dark)},
        "bar": {"light": obs.bar.light.best, "dark": obs.bar.dark.best},
        "off": {"light": obs.off.light.best, "dark": obs.off.dark.best},
        "dice": [
            {
                "xy": [round(d.xy[0], 1), round(d.xy[1], 1)],
                "value": d.value,
                "flat": d.flat,
                "on_checker": d.on_checker,
                "half": d.half,
            }
            for d in obs.dice
        ],
        # the face shown: a cube at 1 (centred, C1) shows 64
        "cube": ({"value": 64 if obs.cube.value == 1 else obs.cube.value, "place": obs.cube.place}
                 if obs.cube else {"value": 64, "place": "none"}),
        "hand": obs.hand,
        "confidence": round(obs.confidence, 3),
    }


def run(args: argparse.Namespace) -> int:
    import cv2

    from tavli_pi.threads import pin_threads
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.reader import BoardReader

    pin_threads()
    path = Path(args.image)
    if path.is_dir():
        raise VisionError(f"{path} is a folder; give the path of a board photograph (.jpg or .png)")
    if not path.is_file():
        raise VisionError(f"{path} does not exist; give the path of a board photograph")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError(f"{path} is not an image OpenCV can read; use a .jpg or .png")
    try:
        cal = calibrate_image(image, args.corners, args.home, args.calibration)
    except CalibrationError:
        raise
    if args.save_calibration:
        try:
            cal.save(args.save_calibration)
        except OSError as exc:
            cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else exc
            raise CalibrationError(f"cannot write calibration {args.save_calibration} ({cause.strerror}); "
                                   "give a path in a folder that exists and is writable") from exc
    obs = BoardReader(cal).read(image)
    data = observation_json(obs)
    if args.json:
        print(json.dumps(data))
    else:
        pts = " ".join(
            f"{p}:{'L' if data['light'][p] else 'D'}{data['light'][p] or data['dark'][p]}"
            for p in data["light"]
            if data["light"][p] or data["dark"][p]
        )
        print(f"points {pts}")
        print(f"bar {data['bar']} off {data['off']} hand {data['hand']} confidence {data['confidence']}")
        for d in data["dice"]:
            print(f"die {d['value']} at {d['xy']} flat={d['flat']} half={d['half']}")
    return 0
