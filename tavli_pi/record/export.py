"""Exports of a match log: the record, ``.mat``, ``.sgf``, in one call.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> from tavli_pi.record.store import MatchLog
>>> MatchLog.open(d / "table.sqlite", MatchHeader(players=("Ann", "Bob"))).close()
>>> sorted(p.name for p in export_all(d / "table.sqlite", d).values())
['match.mat', 'match.sgf']
"""

from __future__ import annotations

import os
from pathlib import Path

from tavli_pi.errors import RecordError
from tavli_pi.record.game_record import MatchRecord, build_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.mat import format_mat, write_mat
from tavli_pi.record.positions import format_positions
from tavli_pi.record.sgf import format_sgf, write_sgf
from tavli_pi.record.store import MatchLog

__all__ = ["FORMATS", "load_record", "export_text", "export_all", "MatchHeader"]

#: format name -> file suffix
FORMATS: dict[str, str] = {"mat": ".mat", "sgf": ".sgf", "ids": ".txt"}


def load_record(db_path: str | os.PathLike[str]) -> MatchRecord:
    """The match record of the log at ``db_path`` (opened read-only)."""
    with MatchLog.open(db_path, readonly=True) as log:
        return build_record(log.header, (e.event for e in log.events()))


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
    return {
        "mat": write_mat(record, out / f"{stem}.mat"),
        "sgf": write_sgf(record, out / f"{stem}.sgf"),
    }
