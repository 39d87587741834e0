"""``tavli-pi markers`` writes a printable sheet whose markers the calibration finds."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from tavli_pi.cli import main
from tavli_pi.vision.calibration import find_marker_corners


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
    assert "does the folder exist?" in capsys.readouterr().err
