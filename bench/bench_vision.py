"""Vision benchmark: accuracy on real and simulated boards, and speed per frame (one core).

Run: .venv/bin/python bench/bench_vision.py  (``--real``: only the real boards, with annotated
pictures written to bench/out/; ``--found``: only their reading with the field found in the picture;
``--learn``: the WTC frames read with the board learnt from another frame's labelled position)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.sim.datasets import easy_scenes, hard_scenes  # noqa: E402
from tavli_pi.vision.motion import MotionGate  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tests.vision._eval import sim_calibration, spot_errors, wtc_calibration, wtc_labels  # noqa: E402

#: the real photos: ../shared/data/real beside the checkout, or ``TAVLI_REAL_DATA`` (a git worktree)
REAL = Path(os.environ.get("TAVLI_REAL_DATA") or Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "real")
#: annotated pictures of every real frame (not committed)
OUT = Path(__file__).resolve().parent / "out"


def boards(name: str, items: list[tuple[BoardReader, np.ndarray, dict[int, int], dict[int, int], tuple[int, int]]]) -> None:
    spots = wrong = perfect = 0
    p_true: list[float] = []
    for reader, img, light, dark, bar in items:
        obs = reader.read(img)
        errs = spot_errors(obs, light, dark, bar)
        spots += 25
        wrong += len(errs)
        perfect += not errs
        # calibration: the probability each spot's evidence gives the true count
        for p in range(1, 25):
            p_true += [obs.points[p - 1].light.p(light.get(p, 0)), obs.points[p - 1].dark.p(dark.get(p, 0))]
        p_true += [obs.bar.light.p(bar[0]), obs.bar.dark.p(bar[1])]
    pt = np.asarray(p_true)
    print(f"{name}: {len(items)} boards, per-spot error {100 * wrong / spots:.2f}% "
          f"({wrong}/{spots}), perfect boards {100 * perfect / len(items):.1f}%; "
          f"true count: mean log-lik {np.mean(np.log(pt)):.3f}, p<0.01 in {int((pt < 0.01).sum())}/{len(pt)}")


def _corner_text(c: np.ndarray) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in np.asarray(c).reshape(4, 2))


def _tally(tot: dict[str, int], sc: Any) -> None:
    """Add one real frame's score (``score_real``) to the running totals of a mode."""
    tot["frames"] += 1
    tot["spots"] += sc.spots
    tot["wrong"] += len(sc.spot_errors)
    tot["conf_wrong"] += sc.confident_wrong
    tot["complete"] += sc.perfect is not None
    tot["perfect"] += bool(sc.perfect)
    tot["hand_ok"] += sc.hand_ok


def real_boards(out_dir: Path | None = OUT, modes: tuple[str, ...] = ("corners", "found", "calibrated"),
                frames: list[Any] | None = None, tag: str = "") -> None:
    """Every labelled real frame (wtc2022 and more), read as ``tavli-pi read`` reads it.

    Modes: ``corners`` (the labelled corners and home, calibrated on the frame itself, one photo),
    ``found`` (no corners, no markers: the field found in the picture), ``calibrated`` (WTC: frame0's
    calibration, made with its corners; the rosewood board: learnt from its own set-up photo).
    ``frames``: these frames instead of the photos as they are (``bench_real_variants.py``: the same
    photos as another camera would take them), named ``tag`` in the figures.
    """
    from tavli_pi.commands.read_photo import photo_calibration, read_observation
    from tavli_pi.errors import CalibrationError
    from tavli_pi.vision.annotate import annotate
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.refine import refine
    from tavli_pi.vision.setup import learn_board
    from tests.vision._eval import real_frames, score_real

    frames = real_frames(REAL) if frames is None else frames
    wtc0 = next(f for f in frames if f.name == "frame0.jpg")
    wtc_cal = refine(Calibration(wtc0.corners, home=wtc0.label["home"]), wtc0.image)
    setup = {f.name: learn_board(f.image, refine(Calibration(f.corners, home=f.label["home"]), f.image))
             for f in frames if f.name == "bcv-hough-test12.jpg"}
    for mode in modes:
        tot = {"spots": 0, "wrong": 0, "conf_wrong": 0, "perfect": 0, "complete": 0, "hand_ok": 0, "frames": 0,
               "dice_right": 0, "dice_legible": 0, "dice_false": 0, "dice_false_valued": 0, "dice_sure_wrong": 0,
               "no_board": 0}
        lines = []
        for f in frames:
            try:
                if mode == "corners":
                    cal = calibrate_image(f.image, _corner_text(f.corners), f.label["home"])
                elif mode == "found":  # as ``tavli-pi read IMAGE`` calibrates and reads
                    cal, learnt = photo_calibration(f.image)
                elif f.board_set == "wtc2022":
                    cal = wtc_cal
                elif f.name in setup:
                    cal = setup[f.name]
                else:
                    continue
            except CalibrationError as exc:
                tot["frames"] += 1
                tot["no_board"] += 1
                lines.append(f"  {f.name}: {str(exc)[:70]}")
                continue
            obs = (read_observation(f.image, cal, learnt) if mode == "found"
                   else BoardReader(cal, still_photo=True).read(f.image))
            sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
            _tally(tot, sc)
            for k in ("dice_right", "dice_legible", "dice_false", "dice_false_valued", "dice_sure_wrong"):
                tot[k] += getattr(sc, k)
            lines.append(f"  {f.name}: errors {sc.spot_errors[:4]}{' ...' if len(sc.spot_errors) > 4 else ''} "
                         f"hand {obs.hand}/{f.label['hand']} dice {sc.dice_right}/{sc.dice_legible} false {sc.dice_false}"
                         f"{f' SURELY WRONG {sc.dice_sure_wrong}' if sc.dice_sure_wrong else ''}")
            if out_dir is not None:
                out_dir.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(out_dir / f"{mode}-{Path(f.name).stem}.png"), annotate(f.image, cal, obs))
        print(f"real boards{tag}, {mode}: {tot['frames']} frames; complete boards perfect (trays included) "
              f"{tot['perfect']}/{tot['complete']}; wrong spots {tot['wrong']}/{tot['spots']} "
              f"(confidently wrong, conf >= 0.9: {tot['conf_wrong']}); hand flag right {tot['hand_ok']}/{tot['frames'] - tot['no_board']}; "
              f"legible dice right {tot['dice_right']}/{tot['dice_legible']}; false dice {tot['dice_false']} "
              f"({tot['dice_false_valued']} with a value); labelled dice read surely wrong (a value at >= 0.9 "
              f"not the label's, or flat where the label says not flat) {tot['dice_sure_wrong']}; "
              f"no board found {tot['no_board']}")
        for line in lines:
            print(line)


def learnt_from_any() -> None:
    """The WTC 2022 frames (one board, all mid-game), leave one out: each hand-free frame whose
    labelled position is whole (15 a colour) teaches the board (``setup.learn_board`` with that
    position, as ``read --position`` and a game joined in progress do), and every other frame is
    read with what it taught. Beside it, the same frames read as today: ``corners`` (each frame
    calibrated on itself, ``read --corners``) and ``unlearnt`` (the teaching frame's corners
    calibration, not learnt: what ``run`` read a joined game with)."""
    from tavli_pi.errors import CalibrationError
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.refine import refine
    from tavli_pi.vision.setup import learn_board
    from tests.vision._eval import known_of_label, real_frames, score_real

    frames = [f for f in real_frames(REAL) if f.board_set == "wtc2022"]
    teachers = [f for f in frames if f.truth is not None and not f.label["hand"] and f.label["complete"]]
    for mode in ("corners", "unlearnt", "learnt"):
        tot = {"spots": 0, "wrong": 0, "conf_wrong": 0, "perfect": 0, "complete": 0, "hand_ok": 0, "frames": 0,
               "boards": 0}
        lines = []
        for t in teachers:
            base = refine(Calibration(t.corners, home=t.label["home"]), t.image)
            try:
                cal = learn_board(t.image, base, known_of_label(t.truth)) if mode == "learnt" else base
            except CalibrationError as exc:
                lines.append(f"  taught by {t.name}: {exc}")
                continue
            errs = []
            for f in frames:
                if f.name == t.name:
                    continue
                own = calibrate_image(f.image, _corner_text(f.corners), f.label["home"]) if mode == "corners" else cal
                obs = BoardReader(own, still_photo=True).read(f.image)
                sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
                _tally(tot, sc)
                tot["boards"] += sc.spots > 0
                if sc.spot_errors:
                    errs.append(f"{f.name} {sc.spot_errors[:3]}")
            if mode == "learnt":
                lines.append(f"  taught by {t.name} ({cal.source}; unseen: {'; '.join(cal.unseen) or 'nothing'}): "
                             + (", ".join(errs) or "no wrong spot"))
            elif errs:
                lines.append(f"  with {t.name}: " + ", ".join(errs))
        print(f"WTC 2022 leave-one-out, {mode}: {tot['frames']} readings ({tot['boards']} labelled hand-free); "
              f"per-spot error {100 * tot['wrong'] / max(tot['spots'], 1):.2f}% ({tot['wrong']}/{tot['spots']}); "
              f"complete boards perfect {tot['perfect']}/{tot['complete']}; confidently wrong (>= 0.9) "
              f"{tot['conf_wrong']}; hand flag right {tot['hand_ok']}/{tot['frames']}")
        for line in lines:
            print(line)


def corners_off() -> None:
    """The labelled corners moved 40 px (4 ways) on every labelled hand-free frame: how many counts
    are then wrong at confidence 0.9 or more (the worst output there is)."""
    from tavli_pi.errors import CalibrationError
    from tavli_pi.vision.calibrate import calibrate_image
    from tests.vision._eval import real_frames, score_real

    readings = wrong = sure_wrong = refused = 0
    for f in real_frames(REAL):
        if f.truth is None or f.label["hand"]:
            continue
        for shift in ((40, 0), (0, 40), (-40, -40), (30, -20)):
            try:
                cal = calibrate_image(f.image, _corner_text(f.corners + np.float32(shift)), f.label["home"])
            except CalibrationError:
                refused += 1  # corners outside the picture: refused, nothing read
                continue
            sc = score_real(f, BoardReader(cal, still_photo=True).read(f.image), 30)
            readings += 1
            wrong += len(sc.spot_errors)
            sure_wrong += sc.confident_wrong
    print(f"real boards, corners 40 px off: {readings} readings, {wrong} wrong spots, "
          f"{sure_wrong} wrong at confidence >= 0.9; {refused} refused (corners outside the picture)")


def sim_setup(n: int = 30) -> None:
    """Simulated boards read with a calibration learnt from the same table set up to start (B3),
    as the app will: the start position rendered with the scene's look and camera, then the scene."""
    import dataclasses

    from tavli_pi.rules.position import Position
    from tavli_pi.sim.render import render
    from tavli_pi.sim.scene import scene_from_position
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.setup import learn_board
    from tests.vision._eval import spot_errors

    for kind, scenes in (("easy", easy_scenes(n, 11)), ("hard (no hand)", [s for s in hard_scenes(40, 11) if s.hand is None][:n])):
        wrong = spots = sure_wrong = 0
        for i, sc in enumerate(scenes):
            start = dataclasses.replace(scene_from_position(Position.start(), home=sc.home), look=sc.look, pose=sc.pose)
            s0 = render(start, i)
            cal = learn_board(s0.image, Calibration(s0.truth.corners, home=s0.truth.home))  # type: ignore[arg-type]
            r = render(sc, i)
            obs = BoardReader(cal).read(r.image)
            t = r.truth
            light, dark = {p + 1: v for p, v in enumerate(t.light)}, {p + 1: v for p, v in enumerate(t.dark)}
            wrong += len(spot_errors(obs, light, dark, t.bar))
            spots += 25
            for p in range(1, 25):
                for ev, v in ((obs.points[p - 1].light, light[p]), (obs.points[p - 1].dark, dark[p])):
                    sure_wrong += ev.best != v and ev.confidence >= 0.9
        print(f"sim {kind} with a set-up calibration (learn_board): per-spot error {100 * wrong / spots:.2f}% "
              f"({wrong}/{spots}), counts wrong at confidence >= 0.9: {sure_wrong}")


def main() -> None:
    cv2.setNumThreads(1)
    if "--found" in sys.argv:  # only the field found without corners or markers
        real_boards(modes=("found",))
        return
    if "--learn" in sys.argv:  # only the board learnt from any known position, leave one out
        learnt_from_any()
        return
    real_boards()
    corners_off()
    sim_setup()
    if "--real" in sys.argv:
        return
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
    from tavli_pi.vision.dice import read_pips
    from tests.vision._eval import banachowicz_faces, fudw_faces

    faces = banachowicz_faces(REAL / "dice/banachowicz", True)
    ok = sum(read_pips(crop)[0] == int(cls[3]) for crop, cls in faces)
    print(f"dice pips, banachowicz d6-1..6: {100 * ok / len(faces):.1f}% ({ok}/{len(faces)})")
    pf = fudw_faces(REAL / "dice/fudw")
    ok = sum(read_pips(crop)[0] == pips for crop, pips in pf)
    print(f"dice pips, fudw classes 0-4: {100 * ok / len(pf):.1f}% ({ok}/{len(pf)})")
    # distractors (d6p numerals, d8, d10): a confident reading (>= 0.6) is a false accept
    dis = banachowicz_faces(REAL / "dice/banachowicz", False)
    fa = sum(read_pips(crop)[1] >= 0.6 for crop, _ in dis)
    print(f"dice pips, distractor false accepts (conf >= 0.6): {100 * fa / len(dis):.1f}% ({fa}/{len(dis)})")
    # dice on simulated boards (true corners, true checker discs: the dice step alone)
    from tests.vision.test_dice_sim import score
    for kind, scenes in (("easy", easy_scenes(40, 21)), ("hard", hard_scenes(80, 21))):
        st = score(scenes, 0)
        found = st["found_flat"] + st["found_not_flat"] + st["found_moving"]
        n = st["n_flat"] + st["n_not_flat"] + st["n_moving"]
        print(f"sim {kind} dice: recall {found}/{n} (flat {st['found_flat']}/{st['n_flat']}, cocked/leaning/on-checker "
              f"{st['found_not_flat']}/{st['n_not_flat']}, tumbling {st['found_moving']}/{st['n_moving']}), "
              f"false dice {st['false_alarm']} ({st['false_alarm_confident']} confident); "
              f"value on flat {st['value_ok']}/{st['found_flat']} (confidently wrong {st['confident_wrong']}); "
              f"cocked recall {st['cocked_hit']}/{st['found_not_flat']}; flat called cocked {st['false_cocked']}/{st['found_flat']}; "
              f"on_checker {st['on_checker_ok']}/{found}; half {st['half_ok']}/{found}")
    # dice at the demo's setup (see tests/vision/test_dice_grid.py)
    from tests.vision import test_dice_grid as grid
    base = grid.scene_of(grid.demo_match()[1])
    clear = grid.render(base)
    gcal = grid.refine(grid.Calibration(clear.truth.corners), clear.image)
    gcan = gcal.warp(clear.image)
    gsetup = (base, gcal, grid.read_spots(gcan, grid.ck.gradients(gcan), gcal.layout, gcal)[2])
    fl, co = grid._score(gsetup, False), grid._score(gsetup, True)
    print(f"demo-setup dice: flat found {fl['flat_found']}/{fl['n_flat']}, right with conf >= 0.6 {fl['flat_ok']}, "
          f"confidently wrong {fl['confident_wrong']}, called cocked {fl['false_cocked']}, false dice {fl['false_die']}; "
          f"cocked called cocked (conf >= 0.6) {co['cocked_ok']}/{co['n_cocked']}, flat beside them called cocked {co['false_cocked']}")
    from tavli_pi.vision.dice import find_dice
    cal0 = wtc_calibration(REAL)
    img0 = cv2.imread(str(REAL / "boards/wtc2022/frame0.jpg"))
    can0 = cal0.warp(img0)
    t0 = time.perf_counter()
    for _ in range(20):
        find_dice(can0, cal0.layout, cal0, [], None, img0)
    print(f"find_dice on a WTC frame: {(time.perf_counter() - t0) / 20 * 1000:.1f} ms")
    # the doubling cube (see tests/vision/test_cube.py) and tumbling dice (test_dice_tumbling.py)
    from tavli_pi.sim.render import render
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.cube import find_cube
    from tests.vision.test_cube import _face, _scenes
    place_ok = value_ok = cubes = false_cubes = 0
    for i, (_, place, value, scene) in enumerate(_scenes()):
        r = render(scene, i + 1)  # type: ignore[arg-type]
        c = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
        got = find_cube(c.warp(r.image), c.layout, c, r.image)
        place_ok += (got.place if got else "none") == place
        cubes += place != "none"
        false_cubes += place == "none" and got is not None
        value_ok += place != "none" and got is not None and got.value != 0 and _face(got.value) == _face(value)
    print(f"cube on sim boards (3 designs, every face and place, mild poses): place {place_ok}/84, "
          f"face {value_ok}/{cubes}, cube seen where there is none {false_cubes}")
    wtc_cubes = [find_cube(cal0.warp(im), cal0.layout, cal0, im) for im in
                 (cv2.imread(str(REAL / "boards/wtc2022" / n)) for n in labels)]
    print("cube on the WTC frames: " + ", ".join(f"{c.place}/{c.value}/{c.confidence:.1f}" if c else "none" for c in wtc_cubes))
    t0 = time.perf_counter()
    for _ in range(20):
        find_cube(can0, cal0.layout, cal0, img0)
    print(f"find_cube on a WTC frame: {(time.perf_counter() - t0) / 20 * 1000:.1f} ms")
    # speed on a 1280x720 frame
    img = cv2.imread(str(REAL / "boards/wtc2022/frame0.jpg"))
    for _ in range(3):
        reader.read(img)
    n = 30
    stages: dict[str, list[float]] = {}
    t = time.perf_counter()
    for _ in range(n):
        reader.read(img)
        for k, v in reader.timings.items():
            stages.setdefault(k, []).append(v * 1000)
    full = (time.perf_counter() - t) / n * 1000
    print("full read stages (median ms): " + ", ".join(f"{k} {np.median(v):.1f}" for k, v in stages.items()))
    gate = MotionGate()
    gate(img)
    t = time.perf_counter()
    for _ in range(200):
        gate(img)
    g = (time.perf_counter() - t) / 200 * 1000
    print(f"full read: {full:.1f} ms per 1280x720 frame (1 thread); motion gate: {g:.2f} ms")


if __name__ == "__main__":
    main()
