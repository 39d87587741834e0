"""Real photos as clips: `tavli-pi run` joins a game on a real board (issue 9).

Each labelled real photo of a whole board (``../shared/data/real/boards``: the WTC 2022 broadcast and the
other boards) is held still as a short recording (a few seconds at 10 fps, fresh sensor noise on every
frame, MP4-compressed as a recording is), and the app runs over it unattended, the field found in the
picture, as it runs over a video that starts in the middle of a game. Nobody tells it the position.
For each photo it prints:

- the board it took: the start (set up), or a game in progress (adopted), against the label, spot by spot
  (points in the light player's numbering, the bar and the trays);
- the roll it took as the one lying, against the labelled dice (only where exactly two dice are labelled,
  legible and flat: a roll; four dice on a product photo are none);
- how long it took (frames) and its CPU.

A real video that starts mid-game must first get exactly this right. The photos are the ones
``bench_vision.py --real`` reads; this measures the app's join on them, not the reader alone.

Run: .venv/bin/python bench/bench_real_join.py [--frames 30] [--width 640] [--only NAME,...]
(``TAVLI_REAL_DATA``: where the real photos are, when not ../shared/data/real beside the checkout)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from tavli_pi.app import TableApp  # noqa: E402
from tavli_pi.config import parse_config  # noqa: E402
from tavli_pi.referee.events import BoardAdopted, Event, GameStarted, RollAccepted  # noqa: E402

REAL = Path(os.environ.get("TAVLI_REAL_DATA") or Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "real")
BOARD_SETS = ("wtc2022", "more")
#: the recording's frame rate (as bench_video's)
FPS = 10
#: the sensor noise added to each frame (grey levels, one sigma)
NOISE = 2.0


@dataclass
class Joined:
    """What the app took from one photo held as a clip."""

    board: list[int] | None  # the 24 points as the app took them (+ light, - dark), light's numbering
    bar: tuple[int, int]
    off: tuple[int, int]
    how: str  # "start" (set up) or "adopted" (a game in progress) or "none"
    roll: tuple[int, ...] | None
    frame: int | None  # the frame the board was taken on


def labelled_board(lab: dict[str, Any]) -> tuple[list[int], tuple[int, int], tuple[int, int]]:
    """A label's points (+ light, - dark, light's numbering 1-24), bar and trays (light, dark)."""
    pts = [lab["light"].get(str(p), 0) - lab["dark"].get(str(p), 0) for p in range(1, 25)]
    return pts, (lab["bar"]["light"], lab["bar"]["dark"]), (lab["off"]["light"], lab["off"]["dark"])


def labelled_roll(lab: dict[str, Any]) -> tuple[int, ...] | None:
    """The labelled roll: two legible dice lying flat; None when the photo shows no such roll."""
    dice = lab.get("dice", [])
    if len(dice) != 2 or any(d.get("value") is None or d.get("flat") is False or d.get("on_checker") for d in dice):
        return None
    return tuple(sorted(int(d["value"]) for d in dice))


def write_clip(path: Path, image: np.ndarray, frames: int, seed: int) -> None:
    """``image`` held ``frames`` frames, fresh sensor noise on each, as an MP4 recording."""
    h, w = image.shape[:2]
    image = image[: h - h % 2, : w - w % 2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (image.shape[1], image.shape[0]))
    rng = np.random.default_rng(seed)
    for _ in range(frames):
        out.write((image.astype(np.float32) + rng.normal(0.0, NOISE, image.shape)).clip(0, 255).astype(np.uint8))
    out.release()


def join(image: np.ndarray, home: str, frames: int, seed: int, tmp: Path) -> Joined:
    """The app run unattended over ``image`` held as a clip; what it took."""
    video = tmp / "clip.mp4"
    write_clip(video, image, frames, seed)
    text = (f"[camera]\nsource = 'replay:{video}'\nfps = {FPS}\n"
            f"[table]\nhome = '{home}'\nmatch_length = 5\nattended = false\n"
            f"[record]\nlog = '{tmp / 't.sqlite'}'\n")
    cfg = parse_config(text, str(tmp / "t.toml"))
    taken: dict[str, int] = {}

    def on_frame(frame: Any, events: list[Event]) -> None:
        for e in events:
            taken.setdefault(e.kind, frame.index)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, pin_factory=MockFactory()) as app:
            app.run(on_frame=on_frame)
            events = list(app.events)
    adopted = [e for e in events if isinstance(e, BoardAdopted)]
    rolls = [e for e in events if isinstance(e, RollAccepted)]
    roll = tuple(sorted(rolls[0].dice)) if rolls else None
    if adopted:
        after = adopted[0].after
        return Joined(list(after.points), tuple(after.bar), tuple(after.off), "adopted", roll,  # type: ignore[arg-type]
                      taken.get("board_adopted"))
    if any(isinstance(e, GameStarted) for e in events):
        start = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
        return Joined(start, (0, 0), (0, 0), "start", roll, taken.get("game_started"))
    return Joined(None, (0, 0), (0, 0), "none", roll, None)


def wrong_spots(got: Joined, lab: dict[str, Any]) -> list[str]:
    """The spots where the board taken differs from the label."""
    pts, bar, off = labelled_board(lab)
    if got.board is None:
        return ["no board"]
    out = [f"{p + 1}: {got.board[p]:+d} not {pts[p]:+d}" for p in range(24) if got.board[p] != pts[p]]
    if got.bar != bar:
        out.append(f"bar {got.bar} not {bar}")
    if got.off != off:
        out.append(f"off {got.off} not {off}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=30, help="frames each photo is held (10 fps)")
    ap.add_argument("--width", type=int, default=0, help="scale each photo to this width first (0: as it is; a smaller photo is left as it is)")
    ap.add_argument("--only", default="", help="only these photos (names, comma separated)")
    ap.add_argument("--seeds", type=int, default=3, help="clips per photo, each with its own sensor noise")
    ap.add_argument("--turned", action="store_true",
                    help="turn each photo half round first (the camera on the other player's side)")
    args = ap.parse_args()
    only = {s for s in args.only.split(",") if s}
    print(f"machine: {os.uname().machine}  Python {sys.version.split()[0]}; each photo held {args.frames} frames "
          f"at {FPS} fps (noise {NOISE}), MP4; field found; unattended" + (f"; scaled to {args.width} px" if args.width else "")
          + ("; turned half round" if args.turned else ""))
    boards_right = boards = rolls_right = rolls = rolls_wrong = 0
    for k, bs in enumerate(BOARD_SETS):
        labels = json.loads((REAL / "boards" / bs / "labels.json").read_text())["frames"]
        for i, (name, lab) in enumerate(labels.items()):
            if (only and name not in only) or not lab.get("complete") or lab.get("empty") or lab.get("hand"):
                continue
            image = cv2.imread(str(REAL / "boards" / bs / name))
            if args.width and image.shape[1] > args.width:
                image = cv2.resize(image, (args.width, round(image.shape[0] * args.width / image.shape[1])),
                                   interpolation=cv2.INTER_AREA)
            if args.turned:
                image = cv2.rotate(image, cv2.ROTATE_180)
            for seed in range(args.seeds):
                before = resource.getrusage(resource.RUSAGE_SELF)
                with tempfile.TemporaryDirectory() as t:
                    got = join(image, lab["home"], args.frames, 1000 * seed + 100 * k + i, Path(t))
                after = resource.getrusage(resource.RUSAGE_SELF)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                wrong = wrong_spots(got, lab)
                want = labelled_roll(lab)
                boards += 1
                boards_right += not wrong
                rolls += want is not None
                rolls_right += want is not None and got.roll == want
                rolls_wrong += got.roll is not None and got.roll != want
                roll = "-" if got.roll is None else "-".join(map(str, got.roll))
                print(f"  {bs}/{name} (noise {seed}): board {got.how} on frame {got.frame}: "
                      + ("right" if not wrong else f"wrong at {len(wrong)}: " + "; ".join(wrong[:6]))
                      + f"; roll taken {roll} (labelled {'-'.join(map(str, want)) if want else 'none'}); "
                      f"{cpu:.1f} CPU-s", flush=True)
    print(f"clips: boards taken right {boards_right}/{boards}; rolls taken right {rolls_right}/{rolls}; "
          f"rolls taken that are not the labelled roll {rolls_wrong}")


if __name__ == "__main__":
    main()
