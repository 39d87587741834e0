"""The real photos as other cameras and rooms would show them: does the reading hold? (issue 9)

The labelled real frames (wtc2022 and more) are few, and the boards and video that will judge
the reader are ones it has never seen. Each variant here changes only the view of the same
boards (``tests/vision/_variants.py``: 640 px wide, the camera turned round, tilted, slanted, a
hard JPEG, a dim room, warm light, a soft focus) and reads them as ``bench_vision.py --real``
does, in its three modes, with the same figures: a reader fitted to these photos as they are
shows it here.

    .venv/bin/python bench/bench_real_variants.py [--only "640 wide,dim"] [--modes corners,found]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_vision import OUT, REAL, real_boards  # noqa: E402
from tests.vision._eval import real_frames  # noqa: E402
from tests.vision._variants import VARIANTS, variant_frames  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="variants by name, comma-separated (default: all)")
    ap.add_argument("--modes", default="corners,found,calibrated")
    ap.add_argument("--pictures", action="store_true", help=f"write annotated pictures to {OUT}/variants/")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    names = [n.strip() for n in a.only.split(",") if n.strip()] or list(VARIANTS)
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variant(s) {unknown}; choose from {list(VARIANTS)}")
    frames = real_frames(REAL)
    for name in names:
        out = OUT / "variants" / name.replace(" ", "-") if a.pictures else None
        real_boards(out, tuple(a.modes.split(",")), frames=variant_frames(frames, name), tag=f" [{name}]")


if __name__ == "__main__":
    main()
