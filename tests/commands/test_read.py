"""``tavli-pi read`` end to end on a real photograph and on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
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
    assert main(["read", str(img)]) == 2  # no markers in a broadcast frame
    assert "markers" in capsys.readouterr().err


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
