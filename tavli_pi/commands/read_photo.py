"""What ``tavli-pi read IMAGE`` does once it runs (the reader, OpenCV): kept apart from
``commands/read.py`` so that ``tavli-pi --help`` and ``plays`` never import OpenCV (issue 12).

The field comes from ``--calibration``, ``--corners``, the printed markers, or
the picture itself. ``--save-calibration`` on a photo of the board set up to
start (B3) learns the board (``vision.setup.learn_board``); ``--setup``
confirms a set-up photo the reader does not read as the start position;
``--position XGID_OR_ID`` says which position the photo shows (any position), and
the board is learnt from it (a position that does not fit the photo is refused).
``--annotate OUT.png`` draws what was read over the photo. A complete reading
prints its XGID and gnubg Position ID (light = White = X).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tavli_pi.errors import CalibrationError, InvalidPositionError, VisionError
from tavli_pi.files import write_atomic
from tavli_pi.referee.evidence import spot_counts
from tavli_pi.rules.ids import parse_position, position_id, xgid
from tavli_pi.rules.position import Position
from tavli_pi.vision.annotate import annotate
from tavli_pi.vision.calibrate import ASSUMED, HOME_ASSUMED, SEAT_FROM_PLAY, calibrate_image
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.doubt import temper
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.quality import field_problem, image_problem
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import KNOWN_MISFIT, learn_board, setup_agreement
from tavli_pi.vision.under_hand import hidden_note

__all__ = ["read_photo", "observation_json", "calibrate_image", "complete_position", "photo_calibration", "read_observation",
           "SURE", "known_of", "check_position"]

#: every spot's count must be at least this sure for the reading to count as a complete position
SURE = 0.5


def complete_position(obs: Observation) -> Position | None:
    """The position read, light = White, when the reading is complete and sure; else None."""
    if obs.hand or obs.problems or "unknown" in obs.off_source:
        return None
    spots = [*obs.points, obs.bar, obs.off]
    if min(min(s.light.confidence, s.dark.confidence) for s in spots) < SURE:
        return None
    light, dark = obs.best_counts()
    if any(a and b for a, b in zip(light, dark)):
        return None
    try:
        pos = Position.from_counts(
            {p + 1: n for p, n in enumerate(light) if n},
            {25 - (p + 1): n for p, n in enumerate(dark) if n},
            bar=(obs.bar.light.best, obs.bar.dark.best),
        )
    except InvalidPositionError:
        return None
    if pos.off != (obs.off.light.best, obs.off.dark.best):
        return None
    return pos


def photo_calibration(image: Any, corners: str | None = None, home: str | None = None,
                      calibration: str | None = None, known: KnownBoard | None = None
                      ) -> tuple[Calibration, Calibration]:
    """(the calibration to read ``image`` with, the calibration to save) as ``calibrate_image``
    makes them. A field found in a photo of the start position learns the board from that
    photo (``setup.learn_board``), its background included: read through it, nothing
    in the photo -- its dice above all -- would stand out from the photo itself, so it is
    read without that background (as with ``--corners``), and saved with it. ``known``: the
    position the photo shows (``--position``): the board is always learnt from it."""
    cal = calibrate_image(image, corners, home, calibration, known=known)
    if known is not None and cal.position != known:
        cal = learn_board(image, cal, known)
    if (known is not None or not calibration) and cal.learnt:
        return cal.with_(background=""), cal
    return cal, cal


def known_of(text: str) -> KnownBoard:
    """The position an XGID or a gnubg Position ID gives, as vision counts it (light = White = X)."""
    pos = parse_position(text)
    light, dark = spot_counts(pos, light_is_white=True)
    return KnownBoard.of_counts(light, dark)


def check_position(obs: Observation, known: KnownBoard, text: str) -> None:
    """Raise CalibrationError unless the photo read with the board learnt from it shows ``known``
    (within ``setup.KNOWN_MISFIT`` spots) with no hand over the board."""
    agreement = setup_agreement(obs, known)
    if obs.hand:
        raise CalibrationError(f"a hand is over the board: photograph the board clear to learn it from the "
                               f"position {text}")
    if len(agreement.differences) > KNOWN_MISFIT:
        raise CalibrationError(
            f"the position {text} does not fit this photo: {agreement.message()}. Give the position the photo "
            "shows (an XGID or a gnubg Position ID, light = White = X, points in White's numbering), and check "
            "--home and the corners")


def read_observation(image: Any, cal: Calibration, learnt: Calibration) -> Observation:
    """The reading of ``image`` (``photo_calibration``'s two calibrations): where the board was
    learnt from this photo, its checkers, trays and hands are read with what was learnt and
    its dice without the background (in which they lie). A field found in the picture whose seat
    was not known (assumed, or told by the play) says so, and none of its counts is sure."""
    obs = BoardReader(learnt, still_photo=True).read(image)
    if learnt is not cal:
        obs = dataclasses.replace(obs, dice=BoardReader(cal, still_photo=True).read(image).dice)
    note = _seat_note(cal)
    if note:
        obs = dataclasses.replace(obs, problems=(*obs.problems, note))
    if cal.source in (ASSUMED, HOME_ASSUMED, SEAT_FROM_PLAY):
        # the numbering may be turned round or mirrored (the seat told by the play is likely, not
        # certain: vision/seat.py): no point's count can be sure
        obs = dataclasses.replace(obs, points=tuple(temper(s) for s in obs.points))
    return obs


def observation_json(obs: Observation) -> dict[str, Any]:
    light, dark = obs.best_counts()
    pos = complete_position(obs)
    return {
        "light": {str(i + 1): n for i, n in enumerate(light)},
        "dark": {str(i + 1): n for i, n in enumerate(dark)},
        "confidence_light": {str(i + 1): round(s.light.confidence, 3) for i, s in enumerate(obs.points)},
        "confidence_dark": {str(i + 1): round(s.dark.confidence, 3) for i, s in enumerate(obs.points)},
        "bar": {"light": obs.bar.light.best, "dark": obs.bar.dark.best},
        "off": {"light": obs.off.light.best if obs.off_source[0] != "unknown" else None,
                "dark": obs.off.dark.best if obs.off_source[1] != "unknown" else None},
        "off_source": {"light": obs.off_source[0], "dark": obs.off_source[1]},
        "dice": [
            {
                "xy": [round(d.xy[0], 1), round(d.xy[1], 1)],
                "value": d.value if d.value else None,
                "confidence": round(d.value_confidence, 3),
                "flat": d.flat,
                # no outline seen round it: a photo cannot tell it from a die turning over (DieReading.lie_seen)
                "lie_seen": d.lie_seen,
                "on_checker": d.on_checker,
                "half": d.half,
                "size_px": round(d.size_px, 1),
                **({"note": d.note} if d.note else {}),
            }
            for d in obs.dice
        ],
        # the face shown: a cube at 1 (centred, C1) shows 64
        "cube": ({"value": 64 if obs.cube.value == 1 else obs.cube.value, "place": obs.cube.place}
                 if obs.cube else {"value": 64, "place": "none"}),
        "hand": obs.hand,
        "confidence": round(obs.confidence, 3),
        "problems": list(obs.problems),
        # the spots a hand hides, reported unknown (vision/under_hand.py): points 1-24, "bar light", "bar dark"
        "hidden": [str(i + 1) if i < 24 else f"bar {'light' if i == 24 else 'dark'}" for i in obs.hidden],
        "complete": pos is not None,
        "xgid": xgid(pos) if pos else None,
        "position_id": position_id(pos) if pos else None,
    }


def _load(path: Path) -> Any:
    if path.is_dir():
        raise VisionError(f"{path} is a folder; give the path of a board photograph (.jpg or .png)")
    if not path.is_file():
        raise VisionError(f"{path} does not exist; give the path of a board photograph")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError(f"{path} is not an image OpenCV can read; use a .jpg or .png")
    return image


def _write_png(path: str, image: Any) -> None:
    """The annotated picture, whole or not at all (write_atomic)."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - OpenCV encodes any BGR image as PNG
        raise VisionError(f"cannot encode the annotated picture for {path}")
    write_atomic(path, buf.tobytes())


def _save(cal: Calibration, path: str) -> None:
    try:
        cal.save(path)
    except OSError as exc:
        cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else exc
        raise CalibrationError(f"cannot write calibration {path} ({cause.strerror}); "
                               "give a path in a folder that exists and is writable") from exc


def _seat_note(cal: Calibration) -> str:
    """What ``read`` says of how the numbering of a field found in the picture was known."""
    c = np.asarray(cal.corners, np.float64)  # TL, TR, BR, BL from the light player's seat
    seat = f"light at the {'top' if c[:2, 1].mean() > c[2:, 1].mean() else 'bottom'} of the picture"
    return {
        ASSUMED: "field found in the picture; the light player's seat and home side were assumed "
                 "(light at the bottom, home bottom-right): give --home, or photograph the set-up board",
        HOME_ASSUMED: f"field found in the picture; the light player's seat ({seat}) was told by the game in "
                      "progress (its checkers are further on from there) and the home side assumed (bottom-right "
                      "from that seat): give --home, or photograph the set-up board",
        SEAT_FROM_PLAY: f"field found in the picture; the light player's seat ({seat}) was told by the game in "
                        "progress (its checkers are further on from there): photograph the set-up board if that "
                        "is not the table's",
    }.get(cal.source, "")


def read_photo(args: argparse.Namespace) -> int:
    image = _load(Path(args.image))
    problem = image_problem(image)
    if problem:
        raise VisionError(problem)
    position = getattr(args, "position", None)
    known = known_of(position) if position else None
    cal, learnt = photo_calibration(image, args.corners, args.home, args.calibration, known)
    problem = field_problem(cal.corners)
    if problem:
        raise VisionError(problem)
    obs = read_observation(image, cal, learnt)
    if known is not None and position:
        check_position(obs, known, position)
    if args.save_calibration and known is not None:
        _save(learnt, args.save_calibration)
        print(f"learnt this board from the photo of the position given ({setup_agreement(obs, known).message()})"
              + "".join(f"; not learnt: {u}" for u in learnt.unseen), file=sys.stderr)
    elif args.save_calibration:
        agreement = setup_agreement(obs)
        learn = agreement.agrees or args.setup
        saved = learn_board(image, cal) if learn else learnt
        _save(saved, args.save_calibration)
        if learn:
            print(f"learnt this board from the set-up photo ({agreement.message()})", file=sys.stderr)
        else:
            print(f"saved without learning the board: {agreement.message()} (then give --setup)", file=sys.stderr)
    if args.annotate:
        _write_png(args.annotate, annotate(image, cal, obs))
    data = observation_json(obs)
    if args.json:
        print(json.dumps(data))
        return 0
    pts = " ".join(
        f"{p}:{'L' if data['light'][p] else 'D'}{data['light'][p] or data['dark'][p]}"
        for p in data["light"]
        if data["light"][p] or data["dark"][p]
    )
    print(f"points {pts}")
    off = {k: (v if v is not None else "unknown") for k, v in data["off"].items()}
    print(f"bar {data['bar']} off {off} ({data['off_source']['light']}/{data['off_source']['dark']}) "
          f"hand {data['hand']} confidence {data['confidence']}")
    for d in data["dice"]:
        what = d.get("note") or (f"{d['value']}" if d["value"] else "unread")
        lie = "" if d["lie_seen"] else " (its outline not seen: it may be leaning)"
        print(f"die {what} at {d['xy']} flat={d['flat']}{lie} half={d['half']}")
    for p in data["problems"]:
        print(f"note: {p}")
    if obs.hidden:
        print(f"note: {hidden_note(obs.hidden)}")
    if data["complete"]:
        print(f"{data['xgid']}  (light = White = X, White to play)")
        print(f"gnubg Position ID {data['position_id']}")
    else:
        print("not a complete position: no XGID (see the counts' confidence, hands and notes above)")
    return 0
