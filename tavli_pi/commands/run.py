"""``tavli-pi run --config FILE``: one table, from one TOML file."""

from __future__ import annotations

import argparse

HELP = "run one table (camera, vision, referee, signals, display, log) from a config file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the table's TOML file (see config/table.example.toml)")
    parser.add_argument("--max-frames", type=int, default=None, help="stop after this many frames")


def run(args: argparse.Namespace) -> int:
    from tavli_pi.app import TableApp
    from tavli_pi.config import load_config

    cfg = load_config(args.config)
    with TableApp(cfg) as app:
        print(f"tavli-pi run: table {cfg.table.id}: " + ", ".join(app.wired or ["no outputs"]), flush=True)
        return app.run(max_frames=args.max_frames)
