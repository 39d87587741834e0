"""A match log in a read-only folder (a backup stick, a read-only mount) is read, never called damaged.

The folder is a real read-only bind mount (tests/mounts.py).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tavli_pi.record.export import export_text, load_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.store import MatchLog
from tavli_pi.referee.events import Event
from tests.mounts import run_with_mount

EXPORT = """
import sys
from tavli_pi.record.export import export_text, load_record
print(export_text(load_record(sys.argv[-1] if len(sys.argv) > 1 else '{log}'), 'mat'), end='')
"""


def _fill(path: Path, header: MatchHeader, events: list[Event]) -> None:
    with MatchLog.open(path, header) as log:
        for e in events:
            log.append(e, None)


def test_a_closed_log_in_a_read_only_folder_exports(tmp_path: Path, header: MatchHeader,
                                                     events: list[Event]) -> None:
    folder = tmp_path / "stick"
    folder.mkdir()
    _fill(folder / "table.sqlite", header, events)
    assert sorted(p.name for p in folder.iterdir()) == ["table.sqlite"]  # a clean close leaves no WAL
    (tmp_path / "copy").mkdir()
    shutil.copyfile(folder / "table.sqlite", tmp_path / "copy" / "table.sqlite")
    expected = export_text(load_record(tmp_path / "copy" / "table.sqlite"), "mat")
    mount = tmp_path / "ro"
    proc = run_with_mount(mount, EXPORT.format(log=mount / "table.sqlite"), read_only_of=folder)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    assert sorted(p.name for p in folder.iterdir()) == ["table.sqlite"]


def test_a_crashed_log_whose_wal_holds_events_exports_them_all(tmp_path: Path, header: MatchHeader,
                                                               events: list[Event]) -> None:
    live = tmp_path / "live.sqlite"
    log = MatchLog.open(live, header)
    keep = sqlite3.connect(live)  # holds the WAL open: the copy below is what a crash leaves
    keep.execute("PRAGMA wal_autocheckpoint=0")
    try:
        for e in events:
            log.append(e, None)
        folder = tmp_path / "stick"
        folder.mkdir()
        shutil.copyfile(live, folder / "table.sqlite")
        shutil.copyfile(live.with_name("live.sqlite-wal"), folder / "table.sqlite-wal")
    finally:
        keep.close()
        log.close()
    assert (folder / "table.sqlite-wal").stat().st_size > 0
    expected = export_text(load_record(live), "mat")
    mount = tmp_path / "ro"
    proc = run_with_mount(mount, EXPORT.format(log=mount / "table.sqlite"), read_only_of=folder)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    assert f"Game {len(load_record(live).games)}" in proc.stdout
