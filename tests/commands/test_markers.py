"""``tavli-pi markers`` writes a printable sheet whose markers the calibration finds."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from tavli_pi.cli import main
from tavli_pi.vision.calibration import find_marker_corners
from tests.mounts import run_with_mount


def test_png_sheet_markers_are_detected(tmp_path: Path) -> None:
    out = tmp_path / "m.png"
    assert main(["markers", str(out)]) == 0
    page = cv2.imread(str(out))
    assert page.shape[:2] == (3508, 2480)  # A4 at 300 dpi
    corners = find_marker_corners(cv2.resize(page, (1240, 1754)))
    assert corners.shape == (4, 2)


def test_pdf_sheet_is_a_pdf(tmp_path: Path) -> None:
    out = tmp_path / "m.pdf"
    assert main(["markers", str(out), "--size-mm", "30"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF") and b"/FlateDecode" in data
    assert main(["markers", str(tmp_path / "m.txt")]) == 2


@pytest.mark.parametrize("name", ["m.pdf", "m.png"])
def test_missing_folder_is_a_clear_error(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["markers", str(tmp_path / "no-such-dir" / name)]) == 2
    assert "exists and is writable" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["m.pdf", "m.png"])
def test_a_full_disk_leaves_no_half_written_sheet(tmp_path: Path, name: str) -> None:
    disk = tmp_path / "disk"
    script = (f"import sys; from tavli_pi.cli import main; code = main(['markers', '{disk / name}']); "
              f"import os; print(sorted(os.listdir('{disk}'))); sys.exit(code)")
    proc = run_with_mount(disk, script, tmpfs_bytes=16 * 1024)  # the sheet is ~50-100 KB
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "cannot write" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout.strip() == "[]"  # no 0-byte file, no temp file left behind
