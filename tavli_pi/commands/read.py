"""``tavli-pi read IMAGE``: read one photograph of the board and print what is on it.

The field comes from ``--calibration``, ``--corners``, the printed markers, or
the picture itself; ``--save-calibration`` on a set-up photo learns the board (``--position`` on a
photo of any known position);
``--annotate OUT.png`` draws what was read; a complete reading prints its XGID
and gnubg Position ID. The work is in ``commands/read_photo.py``, imported only
when the command runs (OpenCV and the reader stay out of start-up).
"""

from __future__ import annotations

import argparse

__all__ = ["HELP", "HOMES", "add_arguments", "run"]

HELP = "read checkers, dice, cube and hands from one board photograph"
#: ``--home`` choices: ``tavli_pi.vision.calibrate.HOMES`` without importing cv2 (tests/test_cli.py checks)
HOMES = ("bottom-right", "bottom-left", "auto")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="photograph of the board (jpg, png)")
    parser.add_argument(
        "--corners",
        help='playing-field corners "x,y x,y x,y x,y" (top-left, top-right, bottom-right, '
        "bottom-left); default: the printed ArUco markers, else the field found in the picture",
    )
    parser.add_argument(
        "--home", choices=HOMES, default=None,
        help="where the light player's home board lies (default bottom-right); "
        "auto: learn it from a board set up to start (B4)",
    )
    parser.add_argument("--calibration", help="a calibration JSON file (from --save-calibration)")
    parser.add_argument("--save-calibration",
                        help="write the calibration to this JSON file; on a photo of the board set up to "
                        "start (B3) it learns this board's checkers, geometry and background")
    known = parser.add_mutually_exclusive_group()
    known.add_argument("--setup", action="store_true",
                       help="the photo shows the start position (B3): learn from it even where the "
                       "reading differs (the players' confirmation)")
    known.add_argument("--position", metavar="XGID_OR_ID",
                       help="the photo shows this position (an XGID or a gnubg Position ID; light = White = X): "
                       "learn the board from it, whatever the position (with --save-calibration, keep it); "
                       "refused when it does not fit what is seen")
    parser.add_argument("--annotate", help="write the photo with what was read drawn over it to this PNG")
    parser.add_argument("--json", action="store_true", help="print JSON (default: a short summary)")


def run(args: argparse.Namespace) -> int:
    from tavli_pi.commands.read_photo import read_photo
    from tavli_pi.threads import pin_threads

    pin_threads()
    return read_photo(args)
