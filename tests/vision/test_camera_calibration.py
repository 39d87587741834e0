"""Camera sources, calibration parsing/persistence and the printed markers."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tavli_pi.errors import CalibrationError, CameraError
from tavli_pi.vision.calibration import (
    Calibration,
    check_corners,
    find_marker_corners,
    order_corners,
    parse_corners,
)
from tavli_pi.vision.camera import ReplayCamera, open_camera
from tavli_pi.vision.motion import MotionGate


def test_replay_folder_plays_sorted_frames_with_a_fake_clock(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((8, 10, 3), i * 50, np.uint8))
    with open_camera(f"replay:{tmp_path}", fps=5.0) as cam:
        frames = list(cam)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.t for f in frames] == [0.0, 0.2, 0.4]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert cam.closed
    cam.close()  # idempotent
    with pytest.raises(CameraError):
        cam.read()


def test_camera_errors_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="does not exist"):
        ReplayCamera(tmp_path / "missing")
    with pytest.raises(CameraError, match="no images"):
        ReplayCamera(tmp_path)
    with pytest.raises(CameraError, match="unknown camera"):
        open_camera("webcam")


def test_parse_and_check_corners() -> None:
    pts = parse_corners("207,22 892,22 892,668 207,668")
    assert pts.shape == (4, 2) and pts[2].tolist() == [892.0, 668.0]
    check_corners(pts, (720, 1280, 3))
    for bad in ("1,2 3,4", "a,b c,d e,f g,h", ""):
        with pytest.raises(CalibrationError, match="corners"):
            parse_corners(bad)
    with pytest.raises(CalibrationError, match="order"):  # swapped: not convex in that order
        check_corners(parse_corners("207,22 892,668 892,22 207,668"), (720, 1280, 3))
    with pytest.raises(CalibrationError, match="outside"):
        check_corners(parse_corners("0,0 3000,0 3000,700 0,700"), (720, 1280, 3))
    assert order_corners(pts[[2, 0, 3, 1]]).tolist() == pts.tolist()


def test_calibration_round_trips_through_json(tmp_path: Path) -> None:
    cal = Calibration(parse_corners("10,10 500,12 498,400 12,398"), home="bottom-left", u0=0.02)
    cal.save(tmp_path / "cal.json")
    back = Calibration.load(tmp_path / "cal.json")
    assert back.home == "bottom-left" and back.u0 == pytest.approx(0.02)
    assert np.allclose(back.corners, cal.corners)
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(CalibrationError, match="not JSON"):
        Calibration.load(tmp_path / "bad.json")


def test_markers_are_found_where_they_were_stuck() -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img = np.full((720, 1280, 3), 200, np.uint8)
    field = np.float32([[300, 150], [980, 150], [980, 620], [300, 620]])
    side = 60
    # each marker lies outside its corner, touching it with its inner corner
    offsets = [(-side, -side), (0, -side), (0, 0), (-side, 0)]
    for mid, (cx, cy), (ox, oy) in zip(range(4), field, offsets):
        m = cv2.aruco.generateImageMarker(dictionary, mid, side)
        pad = cv2.copyMakeBorder(m, 0, 0, 0, 0, cv2.BORDER_CONSTANT)
        x, y = int(cx) + ox, int(cy) + oy
        img[y : y + side, x : x + side] = pad[:, :, None]
    found = find_marker_corners(img)
    # the inner corner of a drawn marker is the outer corner of its white quiet zone minus a pixel
    assert np.abs(found - field).max() < 4
    with pytest.raises(CalibrationError, match="markers"):
        find_marker_corners(np.full((100, 100, 3), 128, np.uint8))


def test_motion_gate_fires_on_change_only() -> None:
    rng = np.random.default_rng(1)
    still = rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    gate = MotionGate()
    assert gate(still) is False
    assert gate(still.copy()) is False
    moved = still.copy()
    moved[300:420, 500:640] = 255 - moved[300:420, 500:640]
    assert gate(moved) is True


def test_the_homography_is_made_once_and_maps_both_ways() -> None:
    cal = Calibration(corners=np.float32([[12, 9], [610, 14], [622, 402], [4, 391]]))
    hom = cal.homography
    assert cal.homography is hom and not hom.flags.writeable
    pts = np.float32([[0, 0], [300, 200], [1000, 600]])
    assert np.allclose(cal.to_canonical(cal.to_image(pts)), pts, atol=1e-2)
    # a calibration with other corners is another mapping, not the cached one
    moved = Calibration(corners=cal.corners + np.float32(5))
    assert not np.allclose(moved.to_image(pts), cal.to_image(pts))
