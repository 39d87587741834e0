"""The doubling cube: found beside the field or on the bar, its place (C1: who owns it) and number.

Sim scenes cover every face (1 shows 64) in every place on all three board
designs with mild camera poses, noise and blur; the WTC 2022 frames show a
real centred cube whose top face carries a sponsor's logo instead of 64.
Thresholds are the figures measured on these seeds (bench/RESULTS.md)
with a small margin.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from tavli_pi.sim.datasets import easy_scenes
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import CameraPose, CubeSpec, Look
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.cube import find_cube, place_of
from tavli_pi.vision.digits import FACES, read_face
from tests.vision._eval import wtc_calibration, wtc_labels


def _face(value: int) -> int:
    """The number on top: a cube at 1 shows 64."""
    return 64 if value in (1, 64) else value


def _synthetic_face(value: int, font: int, turn: float, body: tuple[int, int, int], ink: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    img = np.full((120, 120, 3), body, np.uint8)
    text = str(value)
    scale = 1.2 if len(text) == 2 else 1.6
    (tw, th), _ = cv2.getTextSize(text, font, scale, 3)
    cv2.putText(img, text, (60 - tw // 2, 60 + th // 2), font, scale, ink, 3, cv2.LINE_AA)
    img = cv2.warpAffine(img, cv2.getRotationMatrix2D((60, 60), turn, 1.0), (120, 120), borderValue=body)
    g = cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[20:100, 20:100], (40, 40), interpolation=cv2.INTER_AREA)
    g = np.clip(g + rng.normal(0, 4, g.shape), 0, 255).astype(np.uint8)
    return cv2.resize(g, (48, 48))


@pytest.mark.parametrize("font", [cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX])
def test_faces_read_in_any_quarter_turn(font: int) -> None:
    # fonts other than the simulator's, turned 0/90/180/270 deg (+-5), light on red and dark on white
    rng = np.random.default_rng(font)
    wrong = []
    for value in FACES:
        for turn in (0, 90, 180, 270):
            for body, ink in (((40, 36, 190), (240, 240, 245)), ((240, 240, 240), (20, 20, 20))):
                got, score, _ = read_face(_synthetic_face(value, font, turn + rng.uniform(-5, 5), body, ink, rng))
                if got != value:
                    wrong.append((value, turn, got, round(score, 2)))
    assert len(wrong) <= 1, wrong  # measured: 0 of 48 for each font


def test_a_plain_face_has_no_number() -> None:
    assert read_face(np.full((48, 48), 120, np.uint8))[0] == 0
    stripes = np.full((48, 48), 40, np.uint8)
    stripes[6:42:6, 4:44] = 230  # a tray's borne-off checkers standing on edge
    assert read_face(stripes)[0] == 0


def test_place_from_height_on_the_field() -> None:
    assert (place_of(0.5), place_of(0.96), place_of(0.04)) == ("middle", "light", "dark")


def _scenes() -> list[tuple[str, str, int, object]]:
    base = easy_scenes(12, 4)
    rng = np.random.default_rng(0)
    out = []
    i = 0
    for board in ("tournament", "wood", "green"):
        for place in ("middle", "light", "dark", "none"):
            for value in (1, 2, 4, 8, 16, 32, 64):
                pose = CameraPose(
                    tilt_deg=float(rng.uniform(0, 12)), rotation_deg=float(rng.uniform(-6, 6)),
                    height=float(rng.uniform(1.0, 1.3)), tilt_dir_deg=float(rng.uniform(0, 360)),
                )
                look = Look(board=board, noise=float(rng.uniform(0, 4)), blur=float(rng.uniform(0, 1.0)))
                scene = dataclasses.replace(base[i % len(base)], cube=CubeSpec(value, place), look=look, pose=pose)  # type: ignore[arg-type]
                out.append((board, place, value, scene))
                i += 1
    return out


def test_every_face_and_place_on_sim_boards() -> None:
    place_ok = value_ok = cubes = false_cubes = confident_wrong = 0
    for i, (board, place, value, scene) in enumerate(_scenes()):
        r = render(scene, i + 1)  # type: ignore[arg-type]
        cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
        got = find_cube(cal.warp(r.image), cal.layout, cal, r.image)
        place_ok += (got.place if got else "none") == place
        if place == "none":
            false_cubes += got is not None
            continue
        cubes += 1
        right = got is not None and got.place == place and got.value != 0 and _face(got.value) == _face(value)
        value_ok += right
        confident_wrong += (not right) and got is not None and got.confidence >= 0.6
        if right and place == "middle" and value == 1:
            assert got is not None and got.value == 1  # a centred cube showing 64 is a cube at 1
    # measured: places 83/84, faces 62/63 (a red cube touching a red point on the tournament board)
    assert cubes == 63
    assert place_ok >= 81
    assert value_ok >= 60
    assert false_cubes == 0
    assert confident_wrong == 0


def test_the_centred_cube_on_the_wtc_frames(real_data: Path) -> None:
    """The real cube (beside the field, right, half-way up) is found in every frame; its top
    face is a logo, so the value does not read: reported as a centred cube at 1, not confident."""
    cal = wtc_calibration(real_data)
    frames = wtc_labels(real_data)
    assert len(frames) == 8
    for name in frames:
        img = cv2.imread(str(real_data / "boards/wtc2022" / name))
        got = find_cube(cal.warp(img), cal.layout, cal, img)
        assert got is not None, name
        assert (got.place, got.value) == ("middle", 1), name
        assert got.confidence < 0.6, name
