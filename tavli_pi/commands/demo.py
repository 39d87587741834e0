"""``tavli-pi demo``: a simulated table through the whole pipeline."""

from __future__ import annotations

import argparse

HELP = "play a scripted, simulated 3-point match through the whole pipeline"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-serve", action="store_true", help="run headless, as fast as possible")
    parser.add_argument("--out", default=None, help="folder for table.sqlite, match.mat, match.sgf")


def run(args: argparse.Namespace) -> int:
    print("The demo arrives with the referee (issue 4); nothing to run yet.")
    return 0
