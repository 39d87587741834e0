"""``tavli-pi export``: write a match log as Jellyfish .mat or gnubg .sgf."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = ("export a match log (table.sqlite) as .mat (XG, gnubg), .sgf (gnubg) or position ids; "
        "a Plakoto/Fevga/tavli match also as the tavli text record or JSON")
#: ``--format`` choices: the keys of ``tavli_pi.record.export.FORMATS``, listed here so that
#: ``export --help`` imports no record code (issue 12; tests/test_cli.py checks they agree)
FORMATS = ("ids", "json", "mat", "sgf", "tavli")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("db", help="the match log, e.g. table.sqlite")
    parser.add_argument("--format", choices=FORMATS, default="mat",
                        help="mat: Jellyfish/XG text; sgf: GNU Backgammon; ids: the gnubg Position ID and "
                        "XGID before every turn (in a tavli match: its Portes games); tavli: the tavli text "
                        "record, json: the same as JSON, of a Plakoto, Fevga or tavli match "
                        "(docs/tavli-record.md) (default: mat)")
    parser.add_argument("--out", default=None,
                        help="file to write (default: standard output; '-' also means stdout)")


def run(args: argparse.Namespace) -> int:
    from tavli_pi.files import write_atomic
    from tavli_pi.record.export import (
        TAVLI_FORMATS,
        export_tavli_text,
        export_text,
        load_record,
        load_tavli_record,
    )

    if args.format in TAVLI_FORMATS:
        rec = load_tavli_record(args.db)
        text = export_tavli_text(rec, args.format)
        if args.out in (None, "-"):
            sys.stdout.write(text)
        else:
            write_atomic(Path(args.out), text)
            n = len(rec.record.games)
            print(f"wrote {args.out} ({n} game{'s' if n != 1 else ''})", file=sys.stderr)
        for note in rec.notes:
            print(f"note: {note}", file=sys.stderr)
        return 0
    record = load_record(args.db)
    text = export_text(record, args.format)
    if args.out in (None, "-"):
        sys.stdout.write(text)
    else:
        out = Path(args.out)
        write_atomic(out, text)
        games = len(record.games)
        print(f"wrote {out} ({games} game{'s' if games != 1 else ''}, "
              f"score {record.score[0]}-{record.score[1]})", file=sys.stderr)
    return 0
