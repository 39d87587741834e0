"""``tavli-pi read`` end to end on a real photograph and on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tavli_pi.cli import main
from tests.mounts import run_with_mount

CORNERS = "207,22 892,22 892,668 207,668"


def test_read_prints_the_documented_json(real_data: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    img = real_data / "boards/wtc2022/frame1.jpg"
    cal = tmp_path / "cal.json"
    assert main(["read", str(img), "--corners", CORNERS, "--home", "bottom-right", "--json", "--save-calibration", str(cal)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"light", "dark", "bar", "off", "dice", "cube", "hand", "confidence"}
    assert data["light"]["3"] == 2 and data["dark"]["9"] == 4 and data["hand"] is False
    assert sorted(map(int, data["light"])) == list(range(1, 25))
    # the centred cube shows 64 (C1), as the JSON has it
    assert data["cube"] == {"value": 64, "place": "middle"}
    # the saved calibration reads the same frame the same way
    assert main(["read", str(img), "--calibration", str(cal), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["light"] == data["light"]


def test_read_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.jpg"
    bad.write_bytes(b"not an image")
    assert main(["read", str(bad), "--corners", CORNERS]) == 2
    assert "not an image" in capsys.readouterr().err
    assert main(["read", str(tmp_path / "missing.jpg")]) == 2
    assert "missing.jpg does not exist" in capsys.readouterr().err
    assert main(["read", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["read", str(tmp_path / "x.jpg"), "--calibration", str(tmp_path / "none.json")]) == 2


def test_unwritable_calibration_path_is_a_clear_error(real_data: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    img = real_data / "boards/wtc2022/frame0.jpg"
    target = tmp_path / "no-such-dir" / "cal.json"
    assert main(["read", str(img), "--corners", CORNERS, "--save-calibration", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write calibration" in err and "Traceback" not in err
    assert main(["read", str(img), "--calibration", str(target)]) == 2
    assert "--save-calibration" in capsys.readouterr().err


def test_bad_corners_exit_2(real_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = real_data / "boards/wtc2022/frame0.jpg"
    assert main(["read", str(img), "--corners", "1,2 3,4"]) == 2
    assert "four" in capsys.readouterr().err


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and "Traceback" not in out.err
    return out.err


def test_pictures_with_no_readable_board_say_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((720, 1280, 3), np.uint8))
    assert main(["read", str(black)]) == 2
    assert "too dark" in _one_line_error(capsys)
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), (np.random.default_rng(0).random((480, 640, 3)) * 60 + 90).astype(np.uint8))
    assert main(["read", str(noise)]) == 2
    assert "no board found" in _one_line_error(capsys)
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.full((60, 80, 3), 128, np.uint8))
    assert main(["read", str(tiny)]) == 2
    assert "too small" in _one_line_error(capsys)


def test_a_one_pixel_field_is_refused(real_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = real_data / "boards/wtc2022/frame0.jpg"
    assert main(["read", str(img), "--corners", "500,300 501,300 501,301 500,301"]) == 2
    err = _one_line_error(capsys)
    assert "corners" in err or "field" in err


@pytest.mark.parametrize("shift", [(40, 0), (0, 40), (-40, -40), (30, -20)])
def test_corners_40_px_off_are_never_read_with_confidence(real_data: Path, capsys: pytest.CaptureFixture[str],
                                                          shift: tuple[int, int]) -> None:
    img = real_data / "boards/wtc2022/frame1.jpg"
    pts = [(207, 22), (892, 22), (892, 668), (207, 668)]
    corners = " ".join(f"{x + shift[0]},{y + shift[1]}" for x, y in pts)
    assert main(["read", str(img), "--corners", corners, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    truth = json.loads((real_data / "boards/wtc2022/labels.json").read_text())["frames"]["frame1.jpg"]
    wrong_sure = [p for p in data["light"] if data["light"][p] != truth["light"].get(p, 0)
                  and data["confidence_light"][p] >= 0.9]
    wrong_sure += [p for p in data["dark"] if data["dark"][p] != truth["dark"].get(p, 0)
                   and data["confidence_dark"][p] >= 0.9]
    assert not wrong_sure
    if data["complete"]:
        # the field, the bar and the points were found again from the picture itself: then every
        # count must be right (a complete reading is one command from analysis)
        for colour in ("light", "dark"):
            assert {p: n for p, n in data[colour].items() if n} == truth[colour]
            assert data["bar"][colour] == truth["bar"][colour] and data["off"][colour] == truth["off"][colour]
        assert data["xgid"] is not None
    else:
        assert data["xgid"] is None and data["problems"]


def test_annotate_and_position_ids_of_a_complete_reading(real_data: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from tavli_pi.rules.ids import parse_xgid, position_from_id

    img = real_data / "boards/wtc2022/frame1.jpg"
    out = tmp_path / "read.png"
    assert main(["read", str(img), "--corners", CORNERS, "--annotate", str(out)]) == 0
    text = capsys.readouterr().out
    drawn = cv2.imread(str(out))
    photo = cv2.imread(str(img))
    assert drawn is not None and drawn.shape == photo.shape and np.abs(drawn.astype(int) - photo).sum() > 0
    xg = next(line.split()[0] for line in text.splitlines() if line.startswith("XGID="))
    pid = next(line.split()[-1] for line in text.splitlines() if line.startswith("gnubg Position ID"))
    pos, _ = parse_xgid(xg)
    assert position_from_id(pid).points == pos.points
    truth = json.loads((real_data / "boards/wtc2022/labels.json").read_text())["frames"]["frame1.jpg"]
    assert [pos.points[p - 1] for p in (3, 9, 18)] == [truth["light"]["3"], -truth["dark"]["9"], -truth["dark"]["18"]]


def test_save_calibration_learns_from_a_set_up_photo_and_refuses_another_board(
        real_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    setup = real_data / "boards/more/bcv-hough-test12.jpg"
    lab = json.loads((real_data / "boards/more/labels.json").read_text())["frames"]["bcv-hough-test12.jpg"]
    corners = " ".join(f"{x},{y}" for x, y in lab["corners"])
    cal = tmp_path / "rosewood.json"
    # this set-up photo reads as B3 (point 6's five touching pearl checkers: vision/stacks.py's row), so
    # it is learnt at once; --setup (the players' confirmation) learns it too
    assert main(["read", str(setup), "--corners", corners, "--home", lab["home"], "--save-calibration", str(cal)]) == 0
    assert "learnt this board from the set-up photo" in capsys.readouterr().err
    assert main(["read", str(setup), "--corners", corners, "--home", lab["home"], "--setup",
                 "--save-calibration", str(cal)]) == 0
    assert "learnt this board" in capsys.readouterr().err
    # a photo whose reading is not the start position is saved unlearnt unless confirmed
    mid = json.loads((real_data / "boards/wtc2022/labels.json").read_text())["frames"]["frame0.jpg"]
    mid_corners = " ".join(f"{x},{y}" for x, y in mid["corners"])
    unlearnt = tmp_path / "mid.json"
    assert main(["read", str(real_data / "boards/wtc2022/frame0.jpg"), "--corners", mid_corners, "--home", mid["home"],
                 "--save-calibration", str(unlearnt)]) == 0
    assert "saved without learning the board" in (err := capsys.readouterr().err) and "then give --setup" in err
    assert main(["read", str(setup), "--calibration", str(cal), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["light"]["13"] == 5 and data["dark"]["12"] == 5
    other = real_data / "boards/wtc2022/frame0.jpg"
    assert main(["read", str(other), "--calibration", str(cal)]) == 2
    assert "this calibration does not fit this board" in _one_line_error(capsys)


def test_home_auto_learns_the_home_side_from_the_set_up_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tavli_pi.rules.position import Position
    from tavli_pi.sim.render import render
    from tavli_pi.sim.scene import scene_from_position
    from tavli_pi.vision.calibration import Calibration

    r = render(scene_from_position(Position.start(), home="bottom-left"), seed=4)
    img = tmp_path / "start.png"
    cv2.imwrite(str(img), r.image)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in r.truth.corners)
    cal = tmp_path / "cal.json"
    assert main(["read", str(img), "--corners", corners, "--home", "auto", "--json", "--save-calibration", str(cal)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["light"]["24"], data["light"]["13"], data["light"]["8"]) == (2, 5, 3)
    assert Calibration.load(str(cal)).home == "bottom-left"


def test_a_full_disk_leaves_no_half_written_calibration(real_data: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    img = real_data / "boards/wtc2022/frame0.jpg"
    script = (f"import os, sys; from tavli_pi.cli import main; "
              f"open('{disk}/filler', 'wb').write(b'x' * 4096 * 3); "  # the disk is now nearly full
              f"code = main(['read', '{img}', '--corners', '{CORNERS}', '--save-calibration', '{disk}/cal.json']); "
              f"print(sorted(os.listdir('{disk}'))); sys.exit(code)")
    proc = run_with_mount(disk, script, tmpfs_bytes=4 * 4096)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "cannot write calibration" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "['filler']"  # no empty cal.json, no temp file


def test_without_corners_the_field_is_found_and_an_assumed_seat_is_said_and_not_sure(
        real_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = real_data / "boards/more/bcv-test3.jpg"
    assert main(["read", str(img), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    truth = json.loads((real_data / "boards/more/labels.json").read_text())["frames"]["bcv-test3.jpg"]
    assert {p: n for p, n in data["light"].items() if n} == truth["light"]
    assert {p: n for p, n in data["dark"].items() if n} == truth["dark"]
    # not the start position: which side the light player sits is assumed, so nothing is sure
    assert any("assumed" in p for p in data["problems"]) and not data["complete"]
    assert max(data["confidence_light"].values()) <= 0.75


def test_dice_on_a_set_up_photo_stand_out_though_the_board_is_learnt_from_it(
        real_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # learnt from this very photo, the background holds its dice: read through it, none stood out
    name = "bcv-template3.jpg"
    lab = json.loads((real_data / "boards/more/labels.json").read_text())["frames"][name]
    corners = " ".join(f"{x},{y}" for x, y in lab["corners"])
    assert main(["read", str(real_data / "boards/more" / name), "--corners", corners, "--home", "auto", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    flat = [d for d in data["dice"] if d["flat"]]

    def true_value(d: dict) -> int | None:  # type: ignore[type-arg]
        near = [t["value"] for t in lab["dice"] if np.hypot(t["xy"][0] - d["xy"][0], t["xy"][1] - d["xy"][1]) < 12]
        return near[0] if near else None

    assert len(flat) >= 3 and all(d["value"] == true_value(d) for d in flat)


def _labelled(real_data: Path, name: str) -> tuple[str, str, dict[str, object]]:
    """(the labelled position's XGID, its gnubg Position ID, the label) of a WTC frame (light = White)."""
    from tavli_pi.rules.ids import position_id, xgid
    from tavli_pi.rules.position import Position

    lab = json.loads((real_data / "boards/wtc2022/labels.json").read_text())["frames"][name]
    pos = Position.from_counts({int(p): n for p, n in lab["light"].items()},
                               {25 - int(p): n for p, n in lab["dark"].items()})
    return xgid(pos), position_id(pos), lab


def test_position_learns_the_board_from_a_photo_of_a_game_in_progress(
        real_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every WTC frame is mid-game: a calibration is made from one with its position given (an XGID,
    or a gnubg Position ID), and reads another; a position that does not fit the photo is refused."""
    frame0, frame1 = real_data / "boards/wtc2022/frame0.jpg", real_data / "boards/wtc2022/frame1.jpg"
    x0, pid0, lab0 = _labelled(real_data, "frame0.jpg")
    x1, pid1, _ = _labelled(real_data, "frame1.jpg")
    cal = tmp_path / "wtc.json"
    assert main(["read", str(frame0), "--corners", CORNERS, "--home", "bottom-right", "--position", x0,
                 "--save-calibration", str(cal)]) == 0
    out = capsys.readouterr()
    assert "learnt this board from the photo of the position given" in out.err
    assert x0.split(":")[0] in out.out  # the photo read as the position it shows
    saved = json.loads(cal.read_text())
    assert saved["source"] == "position" and saved["background"]
    assert saved["position"]["light"] == lab0["light"] and saved["position"]["dark"] == lab0["dark"]
    assert main(["read", str(frame1), "--calibration", str(cal), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["light"]["16"] == 1 and data["dark"]["9"] == 4 and data["hand"] is False
    # frame1's position is not what frame0 shows: refused, and nothing is saved
    cal.unlink()
    for given in (x1, pid1):
        assert main(["read", str(frame0), "--corners", CORNERS, "--home", "bottom-right", "--position", given,
                     "--save-calibration", str(cal)]) == 2
        assert f"the position {given} does not fit this photo" in _one_line_error(capsys)
        assert not cal.exists()
    # frame0's own position as a gnubg Position ID is as good as its XGID
    assert main(["read", str(frame0), "--corners", CORNERS, "--home", "bottom-right", "--position", pid0]) == 0
    capsys.readouterr()
    assert main(["read", str(frame0), "--corners", CORNERS, "--position", "XGID=nonsense"]) == 2
    assert "XGID" in _one_line_error(capsys)


def test_corners_given_by_the_pictures_axes_on_a_board_seen_from_its_end_are_refused_with_both_orders(
        real_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A photo turned a quarter (a camera at an end of the table, the light player at the picture's left)
    with its corners given top-left first by the picture's axes runs across the points: read, every
    checker would be a quarter off. It is refused, and the message's order for a light player at the
    picture's left reads the board as labelled."""
    import re

    from tests.vision._eval import real_frames, score_real
    from tests.vision._variants import variant

    frame = variant(next(f for f in real_frames(real_data) if f.name == "bcv-test3.jpg"), "turned 90 cw")
    img = tmp_path / "end.png"
    cv2.imwrite(str(img), frame.image)
    q = np.float32(frame.label["corners"])
    by_axes = np.roll(q, 1, axis=0)  # the light player at the picture's left: the field's TL is its TR
    given = " ".join(f"{x:.0f},{y:.0f}" for x, y in by_axes)
    assert main(["read", str(img), "--corners", given, "--json"]) == 2
    err = _one_line_error(capsys)
    assert "seen from an end of the table" in err
    left = re.search(r'--corners "([^"]+)" if at its left', err)
    assert left is not None
    assert main(["read", str(img), "--corners", left.group(1), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    truth = frame.truth
    assert truth is not None
    light, dark, _, _ = truth
    assert {int(k): v for k, v in data["light"].items() if v} == light
    assert {int(k): v for k, v in data["dark"].items() if v} == dark


def test_no_labelled_photo_has_its_own_corners_refused_as_a_quarter_off(real_data: Path) -> None:
    """``calibrate.check_quarter`` on every labelled real photo, as it is and turned round, with its
    labelled corners and with them 40 px off: never refused (the refusal is for corners across the points)."""
    from tavli_pi.vision.calibrate import check_quarter
    from tests.vision._eval import real_frames
    from tests.vision._variants import variant

    for frame in real_frames(real_data):
        for view in (frame, variant(frame, "turned round")):
            q = np.float32(view.label["corners"])
            for shift in ((0, 0), (40, 0), (0, 40), (-40, -40)):
                check_quarter(q + np.float32(shift), view.image)
