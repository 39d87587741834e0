"""``tavli-pi markers``: write the four ArUco corner markers as a printable PDF or PNG.

Stick marker 0 just outside the playing field's top-left corner (seen with the
light player at the bottom), 1 top-right, 2 bottom-right, 3 bottom-left.
"""

from __future__ import annotations

import argparse
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from tavli_pi.errors import ConfigError
from tavli_pi.files import write_atomic

if TYPE_CHECKING:  # cv2 and numpy load only when the command runs (issue 12: fast start-up)
    import numpy as np

__all__ = ["HELP", "add_arguments", "run", "marker_sheet", "pdf_bytes"]

HELP = "write the four ArUco corner markers to print (PDF or PNG)"

_DPI = 300
_A4_MM = (210.0, 297.0)
_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", help="output file: markers.pdf or markers.png")
    parser.add_argument("--size-mm", type=float, default=40.0, help="marker edge in mm (default 40)")


def marker_sheet(size_mm: float = 40.0) -> np.ndarray:
    """An A4 page at 300 dpi (grayscale) with the four markers and their labels."""
    import cv2
    import numpy as np

    from tavli_pi.vision.calibration import MARKER_DICT, MARKER_IDS

    if not 10.0 <= size_mm <= 90.0:
        raise ConfigError(f"--size-mm {size_mm} is out of range: use 10 to 90 mm")

    def px(mm: float) -> int:
        return int(round(mm / 25.4 * _DPI))

    page = np.full((px(_A4_MM[1]), px(_A4_MM[0])), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICT)
    side = px(size_mm)
    for k, (mid, name) in enumerate(zip(MARKER_IDS, _NAMES)):
        marker = cv2.aruco.generateImageMarker(dictionary, mid, side)
        x = px(25) + (k % 2) * px(95)
        y = px(30) + (k // 2) * px(120)
        page[y : y + side, x : x + side] = marker
        cv2.putText(page, f"{mid}: {name}", (x, y + side + px(8)), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 3)
    return page


def pdf_bytes(gray: np.ndarray, dpi: int = _DPI) -> bytes:
    """A one-page PDF holding ``gray`` as a Flate-compressed 8-bit image (PDF 1.4, ISO 32000)."""
    import numpy as np

    h, w = gray.shape
    wpt, hpt = w * 72.0 / dpi, h * 72.0 / dpi
    data = zlib.compress(np.ascontiguousarray(gray).tobytes())
    content = f"q {wpt:.2f} 0 0 {hpt:.2f} 0 0 cm /Im0 Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {wpt:.2f} {hpt:.2f}] "
        f"/Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>".encode(),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode()
        + data
        + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def run(args: argparse.Namespace) -> int:
    import cv2

    from tavli_pi.vision.calibration import MARKER_IDS

    out = Path(args.out)
    page = marker_sheet(args.size_mm)
    suffix = out.suffix.lower()
    if suffix == ".pdf":
        data = pdf_bytes(page)
    elif suffix == ".png":
        ok, buf = cv2.imencode(".png", page)
        if not ok:  # pragma: no cover - OpenCV always encodes a grey page
            raise ConfigError(f"could not encode {out} as PNG")
        data = buf.tobytes()
    else:
        raise ConfigError(f"{out}: give a .pdf or .png file name")
    write_atomic(out, data)  # a full disk leaves no half-written sheet behind
    print(f"wrote {out}: markers {list(MARKER_IDS)} ({args.size_mm:g} mm); print at 100% scale")
    return 0
