"""hardware/mount.py: the arithmetic, and MOUNT.md carries its current output."""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

HW = Path(__file__).resolve().parents[2] / "hardware"


@pytest.fixture(scope="module")
def mount_mod() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tavli_hw_mount", HW / "mount.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["tavli_hw_mount"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_doc_table_is_the_scripts_output() -> None:
    out = subprocess.run([sys.executable, str(HW / "mount.py")], capture_output=True, text=True, check=True).stdout
    doc = (HW / "MOUNT.md").read_text()
    start = doc.index("<!-- mount.py table -->\n") + len("<!-- mount.py table -->\n")
    end = doc.index("<!-- end mount.py table -->")
    assert doc[start:end].strip() == out.strip()


def test_worked_example_by_hand(mount_mod: ModuleType) -> None:
    cam = mount_mod.CAMERAS[0]
    board = mount_mod.Board("18", 560.0, 457.0)
    m = mount_mod.mount(cam, board)
    # depth-limited: 457 * 1.1 / (2 tan 20.5 deg)
    assert m.height_mm == pytest.approx(457 * 1.1 / (2 * math.tan(math.radians(20.5))))
    assert m.footprint_mm[1] == pytest.approx(457 * 1.1)
    assert m.footprint_mm[0] >= 560 * 1.1  # the width fits too
    assert m.mm_per_px == pytest.approx(m.footprint_mm[0] / 4608)
    assert m.px_per_die == pytest.approx(2 * m.px_per_die_binned)
    assert round(m.px_per_die) == 84


def test_wide_camera_sits_lower_for_the_same_board(mount_mod: ModuleType) -> None:
    b = mount_mod.BOARDS[1]
    normal, wide = (mount_mod.mount(c, b) for c in mount_mod.CAMERAS)
    assert wide.height_mm < normal.height_mm


def test_custom_board_option() -> None:
    out = subprocess.run([sys.executable, str(HW / "mount.py"), "--board", "600x480"], capture_output=True,
                         text=True, check=True).stdout
    assert out.count("yours (600 x 480)") == 2
