"""``tavli-pi run --config FILE``: one table, from one TOML file."""

from __future__ import annotations

import argparse
import threading

from tavli_pi.commands.stopping import stop_on_signals

HELP = "run one table (camera, vision, referee, signals, display, log) from a config file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the table's TOML file (see config/table.example.toml)")
    parser.add_argument("--max-frames", type=int, default=None, help="stop after this many frames")


def run(args: argparse.Namespace) -> int:
    from tavli_pi.app import TableApp
    from tavli_pi.config import load_config

    cfg = load_config(args.config)
    stop = threading.Event()
    with stop_on_signals(stop), TableApp(cfg) as app:
        print(f"tavli-pi run: table {cfg.table.id}: " + ", ".join(app.wired or ["no outputs"]), flush=True)
        code = app.run(max_frames=args.max_frames, stop=stop)
    if stop.is_set():
        print(f"tavli-pi run: table {cfg.table.id}: stopped (SIGTERM) after {app.frames} frames; "
              "outputs closed, the match log kept", flush=True)
    return code
