"""The ``tavli-pi`` command line: one subcommand per module in ``tavli_pi/commands/``.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Errors of the ``TavliError`` tree become a one-line
message and exit status 2; nothing else is swallowed.

Start-up (issue 12): only the chosen subcommand's module is imported, and a
command module imports its heavy libraries (cv2, aiohttp, paho, gpiozero, the
simulator) inside ``run``, so ``tavli-pi --help`` and ``tavli-pi plays`` load
none of them. ``--help`` lists the commands from :data:`COMMANDS` (the same
one-line ``HELP``; tests/test_cli.py checks they agree). Before any command
runs, OpenCV and BLAS are pinned to one thread (:mod:`tavli_pi.threads`).
"""

from __future__ import annotations

import argparse
import importlib
import faulthandler
import signal
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from tavli_pi.errors import TavliError, TavliWarning
from tavli_pi.threads import pin_env

__all__ = ["main", "COMMANDS"]

#: subcommand name -> (module under tavli_pi.commands, its one-line HELP)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "play a scripted, simulated 3-point match through the whole pipeline"),
    "plays": ("plays", "list every legal play for a position and two dice "
              "(Portes: gnubg Position ID or XGID; Plakoto, Fevga: the RULES-TAVLI.md notation)"),
    "run": ("run", "run one table (camera, vision, referee, signals, display, log) from a config file"),
    "director": ("director", "serve a live page of every table, fed by the tables over MQTT"),
    "read": ("read", "read checkers, dice, cube and hands from one board photograph"),
    "markers": ("markers", "write the four ArUco corner markers to print (PDF or PNG)"),
    "export": ("export", "export a match log (table.sqlite) as .mat (XG, gnubg), .sgf (gnubg) or position ids; "
               "a Plakoto/Fevga/tavli match also as the tavli text record or JSON"),
}


def _load(module: str) -> ModuleType:
    return importlib.import_module(f"tavli_pi.commands.{module}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that subcommand's module is imported (the others are listed)."""
    parser = argparse.ArgumentParser(
        prog="tavli-pi", description="A camera referee for backgammon and tavli."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_) in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_)
        if only is None or name == only:
            mod = _load(module)
            mod.add_arguments(p)
            p.set_defaults(_run=mod.run)
    return parser


def chosen_command(argv: Sequence[str]) -> str:
    """The subcommand named on the command line ("" if none: usage or --help only)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else ""
    return ""


def stacks_on_usr1() -> None:
    """``kill -USR1 <pid>`` prints every thread's stack to stderr: where a hung service waits."""
    try:
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    except (AttributeError, ValueError, OSError):  # no SIGUSR1 (Windows), or stderr is no file (in-process tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    pin_env()  # before the command imports numpy or cv2: their thread pools read it once
    stacks_on_usr1()
    parser = build_parser(chosen_command(argv))
    args = parser.parse_args(argv)
    default_show = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        if issubclass(category, TavliWarning):  # ours say what to do: one line, no source location
            print(f"tavli-pi {args.command}: warning: {message}", file=sys.stderr, flush=True)
        else:
            default_show(message, category, filename, lineno, file, line)

    try:
        with warnings.catch_warnings():
            warnings.showwarning = show
            code: int = args._run(args)
    except TavliError as exc:
        print(f"tavli-pi {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
