"""Shared scoring helpers for the vision tests and bench (not a test module)."""

from __future__ import annotations

import csv

import dataclasses
from collections.abc import Sequence
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.refine import refine


def spot_errors(obs: Observation, light: dict[int, int], dark: dict[int, int], bar: tuple[int, int]) -> list[Any]:
    """Spots (points 1-24 and the bar) whose best reading differs from the truth."""
    lt, dk = obs.best_counts()
    errs: list[Any] = [
        (p, (light.get(p, 0), dark.get(p, 0)), (lt[p - 1], dk[p - 1]))
        for p in range(1, 25)
        if (lt[p - 1], dk[p - 1]) != (light.get(p, 0), dark.get(p, 0))
    ]
    if (obs.bar.light.best, obs.bar.dark.best) != tuple(bar):
        errs.append(("bar", tuple(bar), (obs.bar.light.best, obs.bar.dark.best)))
    return errs


def wtc_labels(real: Path) -> dict[str, Any]:
    frames: dict[str, Any] = json.loads((real / "boards/wtc2022/labels.json").read_text())["frames"]
    return frames


def wtc_calibration(real: Path) -> Calibration:
    """Calibrate once on a clear frame with the labelled corners (like --corners)."""
    labels = wtc_labels(real)
    image = cv2.imread(str(real / "boards/wtc2022/frame0.jpg"))
    lab = labels["frame0.jpg"]
    return refine(Calibration(np.float32(lab["corners"]), home=lab["home"]), image)


def sim_calibration(scene: Any, seed: int) -> tuple[Calibration, Any]:
    """Calibrate on the same view without hand or dice, return it with the real render."""
    from tavli_pi.sim.render import render

    r = render(scene, seed)
    clear = render(dataclasses.replace(scene, hand=None, dice=()), seed)
    cal = refine(Calibration(r.truth.corners, home=r.truth.home), clear.image)  # type: ignore[arg-type]
    return cal, r


def learnt_calibration(setup_scene: Any, seed: int) -> Calibration:
    """The board learnt at set-up from ``setup_scene`` rendered with ``seed``: the calibration refined on
    the set-up frame with its true corners, then the board learnt from it (as ``run`` learns it)."""
    from tavli_pi.sim.render import render
    from tavli_pi.vision.setup import learn_board

    s = render(setup_scene, seed)
    base = refine(Calibration(s.truth.corners, home=s.truth.home), s.image)  # type: ignore[arg-type]
    return learn_board(s.image, base)


def banachowicz_faces(root: Path, want_d6: bool, limit: int = 10**6) -> list[tuple[np.ndarray, str]]:
    """Labelled crops of the banachowicz photos: six-sided pip dice (``d6-N``) or the distractors."""
    out: list[tuple[np.ndarray, str]] = []
    for split in ("train", "test"):
        with open(root / f"{split}_labels.csv") as fh:
            for row in csv.DictReader(fh):
                if row["class"].startswith("d6-") != want_d6 or len(out) >= limit:
                    continue
                img = cv2.imread(str(root / split / row["filename"]))
                assert img is not None, row["filename"]
                x0, y0, x1, y1 = (int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                out.append((img[y0:y1, x0:x1], row["class"]))
    return out


#: a labelled real die: (image path, centre x, centre y, box width, box height in image px, value, set)
DieBox = tuple[str, float, float, float, float, int, str]


def real_dice_boxes(root: Path) -> list[DieBox]:
    """Every labelled six-sided pip die of the real dice photos under ``root`` (``dice/``): banachowicz's
    ``d6-N`` classes (ivory, black pips) and fudw's classes 0-4 (blue, white pips; class 5's six is a
    printed logo), in the sets' order."""
    boxes: list[DieBox] = []
    for part in ("train", "test"):
        with open(root / "banachowicz" / f"{part}_labels.csv") as fh:
            for x in csv.DictReader(fh):
                if x["class"].startswith("d6-"):
                    a, b, c, e = (float(x[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                    boxes.append((str(root / "banachowicz" / part / x["filename"]), (a + c) / 2, (b + e) / 2,
                                  c - a, e - b, int(x["class"][3]), "banachowicz"))
    for part in ("train", "valid"):
        for lab in (root / "fudw" / "labels" / part).glob("*.txt"):  # (the directory's order, as the benches had it)
            imgs = list((root / "fudw" / "images" / part).glob(lab.stem + ".*"))
            if not imgs:
                continue
            img = cv2.imread(str(imgs[0]), cv2.IMREAD_GRAYSCALE)
            assert img is not None, imgs[0]
            hh, ww = img.shape
            for line in lab.read_text().splitlines():
                if not line.strip():
                    continue
                k, cx, cy, w, h = line.split()
                if int(k) <= 4:
                    boxes.append((str(imgs[0]), float(cx) * ww, float(cy) * hh, float(w) * ww, float(h) * hh,
                                  int(k) + 1, "fudw"))
    return boxes


def fudw_faces(root: Path, images: int | None = None) -> list[tuple[np.ndarray, int]]:
    """(crop, pips) of the fudw photos' classes 0-4 (class 5's six is a printed logo), read at 1/4 size."""
    out: list[tuple[np.ndarray, int]] = []
    for img_path in sorted(root.glob("images/*/*"))[:images]:
        lab = root / "labels" / img_path.parent.name / (img_path.stem + ".txt")
        if not lab.exists():
            continue
        img = cv2.imread(str(img_path))
        assert img is not None, img_path
        h, w = img.shape[:2]
        small = cv2.resize(img, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        for line in lab.read_text().split("\n"):
            if not line.strip() or int(line.split()[0]) > 4:
                continue
            k, cx, cy, bw, bh = (float(v) for v in line.split())
            cx, cy, bw, bh = cx * w / 4, cy * h / 4, bw * w / 4, bh * h / 4
            crop = small[int(cy - bh / 2) : int(cy + bh / 2), int(cx - bw / 2) : int(cx + bw / 2)]
            out.append((crop, int(k) + 1))
    return out


def pair_dice(truth: Sequence[Any], dice: Sequence[Any], radius: float) -> tuple[list[tuple[Any, Any]], list[Any]]:
    """Pair each true die (in order) with the nearest unpaired reading closer than ``radius`` px.

    Returns (true die, reading or None) pairs and the readings left over (false dice).
    """
    used: set[int] = set()
    pairs: list[tuple[Any, Any]] = []
    for t in truth:
        near = [(float(np.hypot(d.xy[0] - t.xy[0], d.xy[1] - t.xy[1])), j) for j, d in enumerate(dice) if j not in used]
        near = [x for x in near if x[0] < radius]
        if not near:
            pairs.append((t, None))
            continue
        j = min(near)[1]
        used.add(j)
        pairs.append((t, dice[j]))
    return pairs, [d for j, d in enumerate(dice) if j not in used]



# -- the labelled real boards (wtc2022 and more), scored the way bench/RESULTS.md reports them ----------

BOARD_SETS = ("wtc2022", "more")


@dataclasses.dataclass
class RealFrame:
    board_set: str
    name: str
    label: dict[str, Any]
    image: np.ndarray

    @property
    def corners(self) -> np.ndarray:
        return np.float32(self.label["corners"])

    @property
    def truth(self) -> tuple[dict[int, int], dict[int, int], tuple[int, int], tuple[int, int]] | None:
        """(light, dark, bar, off) when the frame's counts are labelled."""
        lab = self.label
        if "light" not in lab:
            return None
        return ({int(k): v for k, v in lab["light"].items()}, {int(k): v for k, v in lab["dark"].items()},
                (lab["bar"]["light"], lab["bar"]["dark"]), (lab["off"]["light"], lab["off"]["dark"]))


def known_of_label(truth: tuple[dict[int, int], dict[int, int], tuple[int, int], tuple[int, int]]) -> KnownBoard:
    """The labelled counts of a frame (``RealFrame.truth``) as a known position."""
    light, dark, bar, off = truth
    return KnownBoard.of_counts([light.get(p, 0) for p in range(1, 25)] + [bar[0], off[0]],
                                [dark.get(p, 0) for p in range(1, 25)] + [bar[1], off[1]])


def real_frames(real: Path) -> list[RealFrame]:
    out = []
    for bs in BOARD_SETS:
        labels = json.loads((real / "boards" / bs / "labels.json").read_text())["frames"]
        for name, lab in labels.items():
            img = cv2.imread(str(real / "boards" / bs / name))
            assert img is not None, name
            out.append(RealFrame(bs, name, lab, img))
    return out


@dataclasses.dataclass
class RealScore:
    """What one reading of one labelled frame got right and wrong."""

    spot_errors: list[Any]  # (spot, truth, read) for points, bar and both trays (when labelled)
    confident_wrong: int  # spots read wrong with confidence >= 0.9
    spots: int
    perfect: bool | None  # complete boards only: every spot right, trays included
    hand_ok: bool
    dice_right: int  # legible labelled dice read with the right value
    dice_legible: int
    dice_false: int  # reported dice with no labelled die near them
    dice_false_valued: int  # ... of which given a value
    #: labelled dice read surely (value confidence >= 0.9) and wrong: another value than the label's, or
    #: flat where the label says the die is not (cocked or leaning, E3: no roll), whatever the value
    dice_sure_wrong: int = 0
    dice_wrong: int = 0  # legible labelled dice read with another value (any confidence)
    dice_cocked_flat: int = 0  # dice labelled not flat read flat with a value (any confidence)


def score_real(frame: RealFrame, obs: Observation, die_radius: float) -> RealScore:
    lab = frame.label
    truth = frame.truth
    errs: list[Any] = []
    conf_wrong = spots = 0
    perfect: bool | None = None
    if truth is not None and not lab["hand"]:
        light, dark, bar, off = truth
        errs = spot_errors(obs, light, dark, bar)
        spots = 2 * 25 + 2
        for p in range(1, 25):
            for ev, n in ((obs.points[p - 1].light, light.get(p, 0)), (obs.points[p - 1].dark, dark.get(p, 0))):
                conf_wrong += ev.best != n and ev.confidence >= 0.9
        for ev, n in ((obs.bar.light, bar[0]), (obs.bar.dark, bar[1])):
            conf_wrong += ev.best != n and ev.confidence >= 0.9
        for k, (ev, n) in enumerate(((obs.off.light, off[0]), (obs.off.dark, off[1]))):
            known = obs.off_source[k] != "unknown"
            if not known and lab.get("empty"):
                continue  # no checkers at all: "unknown" trays are the honest answer, not a mistake
            if not known or ev.best != n:
                errs.append(("off", n, ev.best if known else "unknown"))
            conf_wrong += known and ev.best != n and ev.confidence >= 0.9
        if lab["complete"]:
            perfect = not errs
    true_dice = [d for d in lab.get("dice", [])]
    # pair globally by distance (two touching dice: each reading goes to its nearest labelled die)
    cand = sorted((float(np.hypot(g.xy[0] - d["xy"][0], g.xy[1] - d["xy"][1])), i, j)
                  for i, d in enumerate(true_dice) for j, g in enumerate(obs.dice))
    got_of: dict[int, Any] = {}
    used: set[int] = set()
    for dist, i, j in cand:
        if dist < die_radius and i not in got_of and j not in used:
            got_of[i] = obs.dice[j]
            used.add(j)
    false = [g for j, g in enumerate(obs.dice) if j not in used]
    right = legible = wrong = 0
    for i, d in enumerate(true_dice):
        if d.get("value") and d.get("flat", True) is not False:
            legible += 1
            got = got_of.get(i)
            right += got is not None and got.value == d["value"]
            wrong += got is not None and bool(got.value) and got.value != d["value"]
    sure_wrong = 0
    for i, d in enumerate(true_dice):
        got = got_of.get(i)
        if got is None or not got.value or got.value_confidence < 0.9:
            continue
        sure_wrong += (bool(d.get("value")) and got.value != d["value"]) or (d.get("flat") is False and got.flat)
    cocked_flat = sum(1 for i, d in enumerate(true_dice) if d.get("flat") is False and (got := got_of.get(i)) is not None
                      and got.value and got.flat)
    if "dice" not in lab:  # hand frames: the dice are not labelled; nothing to score
        false = []
    return RealScore(errs, conf_wrong, spots, perfect, obs.hand == lab["hand"], right, legible, len(false),
                     sum(1 for d in false if d.value), sure_wrong, wrong, cocked_flat)


@dataclasses.dataclass
class _Die:
    xy: tuple[float, float]
