"""Camera mount arithmetic: height above the board, mm per pixel, pixels per die.

    python hardware/mount.py                   # the table in hardware/MOUNT.md
    python hardware/mount.py --board 600x480   # your board's open W x D in mm

The camera looks straight down at the board's centre, the board's width along
the sensor's long side. For a rectilinear lens the footprint at height H is
``2 H tan(fov/2)`` in each direction, so the lowest height that fits the board
plus a margin on every side is

    H = max(W' / (2 tan(hfov/2)), D' / (2 tan(vfov/2))),  W' = W (1 + 2m), D' = D (1 + 2m)

and then ``mm/px = 2 H tan(hfov/2) / 4608`` at full resolution, and a die of
side ``s`` spans ``s / (mm/px)`` pixels. Camera facts (Raspberry Pi
documentation, "Camera hardware", Camera Module 3 table): Sony IMX708,
4608 x 2592 pixels, horizontal x vertical field of view 66 x 41 degrees
(Camera Module 3) and 102 x 67 degrees (Camera Module 3 Wide); the 2304 x 1296
mode bins 2 x 2, so it halves the pixels per die. The Wide lens distorts
towards the edges, so its corner figures are optimistic.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass

__all__ = ["Camera", "Board", "CAMERAS", "BOARDS", "Mount", "mount", "table", "main"]

SENSOR_PX = (4608, 2592)
BINNED_PX = (2304, 1296)
DIE_MM = 15.9  # 5/8 inch precision dice
MARGIN = 0.05  # of the board's size, on each side


@dataclass(frozen=True, slots=True)
class Camera:
    name: str
    hfov_deg: float
    vfov_deg: float


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    width_mm: float  # open board, along the 12 points of a side and the bar
    depth_mm: float  # between the two players


CAMERAS = (
    Camera("Camera Module 3", 66.0, 41.0),
    Camera("Camera Module 3 Wide", 102.0, 67.0),
)
# Outer size of the open board; measure yours and pass --board WxD.
BOARDS = (
    Board("15 in travel", 470.0, 381.0),
    Board("18 in club", 560.0, 457.0),
    Board("21 in tournament", 660.0, 533.0),
)


@dataclass(frozen=True, slots=True)
class Mount:
    camera: Camera
    board: Board
    height_mm: float
    footprint_mm: tuple[float, float]
    mm_per_px: float
    px_per_die: float
    px_per_die_binned: float


def mount(camera: Camera, board: Board, margin: float = MARGIN, die_mm: float = DIE_MM) -> Mount:
    th = math.tan(math.radians(camera.hfov_deg) / 2)
    tv = math.tan(math.radians(camera.vfov_deg) / 2)
    w, d = board.width_mm * (1 + 2 * margin), board.depth_mm * (1 + 2 * margin)
    h = max(w / (2 * th), d / (2 * tv))
    fw, fd = 2 * h * th, 2 * h * tv
    mm_px = fw / SENSOR_PX[0]
    return Mount(camera, board, h, (fw, fd), mm_px, die_mm / mm_px, die_mm / (fw / BINNED_PX[0]))


def table(boards: tuple[Board, ...] = BOARDS) -> str:
    """The Markdown table printed by the script (and copied into MOUNT.md)."""
    rows = [
        "| camera | board (W x D mm) | height (mm) | footprint (mm) | mm/px | px per die | px per die (2304x1296) |",
        "|---|---|---|---|---|---|---|",
    ]
    for cam in CAMERAS:
        for b in boards:
            m = mount(cam, b)
            rows.append(
                f"| {cam.name} | {b.name} ({b.width_mm:.0f} x {b.depth_mm:.0f}) | {m.height_mm:.0f} | "
                f"{m.footprint_mm[0]:.0f} x {m.footprint_mm[1]:.0f} | {m.mm_per_px:.3f} | "
                f"{m.px_per_die:.0f} | {m.px_per_die_binned:.0f} |"
            )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Camera height and resolution over a backgammon board.")
    ap.add_argument("--board", help="open board size in mm, WxD (e.g. 600x480)")
    args = ap.parse_args(argv)
    boards: tuple[Board, ...] = BOARDS
    if args.board:
        try:
            w, d = (float(x) for x in args.board.lower().split("x"))
        except ValueError:
            ap.error("--board takes WxD in millimetres, e.g. 600x480")
        boards = (Board("yours", w, d),)
    print(table(boards))
    return 0


if __name__ == "__main__":
    sys.exit(main())
