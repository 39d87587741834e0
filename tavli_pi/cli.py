"""The ``tavli-pi`` command line: one subcommand per module in ``tavli_pi/commands/``.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Errors of the ``TavliError`` tree become a one-line
message and exit status 2; nothing else is swallowed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from tavli_pi.errors import TavliError, TavliWarning

__all__ = ["main", "COMMANDS"]

#: subcommand name -> module under tavli_pi.commands
COMMANDS: dict[str, str] = {
    "demo": "demo",
    "plays": "plays",
    "run": "run",
    "director": "director",
    "read": "read",
    "markers": "markers",
    "export": "export",
}


def _load(module: str) -> ModuleType:
    return importlib.import_module(f"tavli_pi.commands.{module}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tavli-pi", description="A camera referee for backgammon and tavli."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        mod = _load(module)
        p = sub.add_parser(name, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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
