"""Exports of a match log: the record, ``.mat``, ``.sgf``, in one call.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> from tavli_pi.record.store import MatchLog
>>> MatchLog.open(d / "table.sqlite", MatchHeader(players=("Ann", "Bob"))).close()
>>> sorted(p.name for p in export_all(d / "table.sqlite", d).values())
['match.mat', 'match.sgf']
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tavli_pi.errors import RecordError
from tavli_pi.files import write_atomic
from tavli_pi.record.game_record import MatchRecord, build_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.mat import format_mat, write_mat
from tavli_pi.record.positions import format_positions
from tavli_pi.record.sgf import format_sgf, write_sgf
from tavli_pi.record.store import MatchLog
from tavli_pi.record.tavli_log import TavliLogRecord, build_tavli_record
from tavli_pi.record.tavli_text import format_record, record_to_json

__all__ = ["FORMATS", "TAVLI_FORMATS", "load_record", "load_tavli_record", "export_text", "export_tavli_text",
           "export_all", "MatchHeader"]

#: format name -> file suffix (tavli, json: the tavli text / JSON record of a Plakoto, Fevga or tavli match)
FORMATS: dict[str, str] = {"mat": ".mat", "sgf": ".sgf", "ids": ".txt", "tavli": ".tavli.txt", "json": ".json"}
#: the formats of the tavli record (docs/tavli-record.md)
TAVLI_FORMATS = ("tavli", "json")


def load_record(db_path: str | os.PathLike[str]) -> MatchRecord:
    """The match record of the log at ``db_path`` (opened read-only); in a tavli match its Portes games."""
    with MatchLog.open(db_path, readonly=True) as log:
        return build_record(log.header, (e.event for e in log.events()))


def load_tavli_record(db_path: str | os.PathLike[str]) -> TavliLogRecord:
    """The tavli record of a Plakoto, Fevga or tavli match log (RecordError for a Portes log)."""
    with MatchLog.open(db_path, readonly=True) as log:
        if log.header.game == "portes":
            raise RecordError(f"{db_path} holds a Portes match: export it as mat, sgf or ids "
                              "(the tavli and json formats are for Plakoto, Fevga and tavli matches)")
        return build_tavli_record(log.header, (e.event for e in log.events()))


def export_tavli_text(record: TavliLogRecord, fmt: str) -> str:
    """``tavli``: the plain-text record; ``json``: the JSON record (docs/tavli-record.md)."""
    if fmt == "tavli":
        return format_record(record.record)
    if fmt == "json":
        data = record_to_json(record.record)
        data["notes"] = list(record.notes)
        data["finished"] = record.finished
        return json.dumps(data, indent=1) + "\n"
    raise RecordError(f"unknown tavli export format {fmt!r}: use tavli or json")


def export_text(record: MatchRecord, fmt: str) -> str:
    if fmt == "mat":
        return format_mat(record)
    if fmt == "sgf":
        return format_sgf(record)
    if fmt == "ids":
        return format_positions(record)
    raise RecordError(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")


def export_all(db_path: str | os.PathLike[str], out_dir: str | os.PathLike[str],
               stem: str = "match") -> dict[str, Path]:
    """Write ``<stem>.mat`` and ``<stem>.sgf`` of the log into ``out_dir``; return format -> path."""
    record = load_record(db_path)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "mat": write_mat(record, out / f"{stem}.mat"),
        "sgf": write_sgf(record, out / f"{stem}.sgf"),
    }
    if record.header.game != "portes":
        # a Plakoto, Fevga or tavli match: .mat/.sgf hold its Portes games alone; the whole match as text and JSON
        rec = load_tavli_record(db_path)
        for fmt in TAVLI_FORMATS:
            path = out / f"{stem}{FORMATS[fmt]}"
            write_atomic(path, export_tavli_text(rec, fmt))
            files[fmt] = path
    return files
