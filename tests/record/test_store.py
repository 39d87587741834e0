"""The SQLite match log: append-only, durable, and never touching a file it does not own."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import pytest

from tavli_pi.errors import RecordError, StoreError
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.store import APPLICATION_ID, SCHEMA_VERSION, MatchLog
from tavli_pi.referee.events import Event, PlayAccepted, to_dict


def _digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _fill(path: Path, header: MatchHeader, events: list[Event], jpeg: bytes | None, n: int | None = None) -> None:
    with MatchLog.open(path, header) as log:
        for e in events[:n]:
            log.append(e, jpeg if isinstance(e, PlayAccepted) else None)


def test_round_trip_every_event_in_order(tmp_path: Path, header: MatchHeader, events: list[Event],
                                         jpeg: bytes) -> None:
    p = tmp_path / "table.sqlite"
    _fill(p, header, events, jpeg)
    with MatchLog.open(p, readonly=True) as log:
        assert log.header == header
        got = list(log.events())
        assert [g.seq for g in got] == list(range(1, len(events) + 1))
        assert [to_dict(g.event) for g in got] == [to_dict(e) for e in events]
        plays = [g for g in got if isinstance(g.event, PlayAccepted)]
        assert plays and all(g.has_frame for g in plays)
        assert log.frame(plays[0].seq) == jpeg
        assert log.frame(1) is None
        assert log.next_seq == len(events) + 1
        last = log.last()
        assert last is not None and to_dict(last.event) == to_dict(events[-1])


def test_the_file_is_marked_as_ours_and_uses_wal(tmp_path: Path, header: MatchHeader) -> None:
    p = tmp_path / "t.sqlite"
    MatchLog.open(p, header).close()
    raw = p.read_bytes()
    assert int.from_bytes(raw[68:72], "big") == APPLICATION_ID  # SQLite header offset 68
    assert int.from_bytes(raw[60:64], "big") == SCHEMA_VERSION  # user_version, offset 60
    assert raw[18:20] == b"\x02\x02"  # WAL read/write versions


def test_log_is_append_only(tmp_path: Path, header: MatchHeader, events: list[Event]) -> None:
    p = tmp_path / "t.sqlite"
    _fill(p, header, events, None, n=5)
    conn = sqlite3.connect(p)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events WHERE seq = 2")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET kind = 'x' WHERE seq = 1")
    conn.close()
    with MatchLog.open(p, readonly=True) as log:
        assert [e.seq for e in log.events()] == [1, 2, 3, 4, 5]


def test_append_many_is_one_transaction_and_expect_seq_guards(tmp_path: Path, header: MatchHeader,
                                                              events: list[Event], jpeg: bytes) -> None:
    with MatchLog.open(tmp_path / "t.sqlite", header) as log:
        assert log.append_many([(e, None) for e in events[:3]]) == [1, 2, 3]
        assert log.append(events[3], expect_seq=4) == 4
        with pytest.raises(StoreError, match="expected to append event 4"):
            log.append(events[4], expect_seq=4)  # a replay after restart must not double-log
        with pytest.raises(RecordError, match="not a JPEG"):
            log.append_many([(events[4], None), (events[5], b"PNG not jpeg")])
        assert log.next_seq == 5  # nothing of the failed batch was written


def test_readonly_log_refuses_appends_and_closed_log_refuses_everything(
        tmp_path: Path, header: MatchHeader, events: list[Event]) -> None:
    p = tmp_path / "t.sqlite"
    MatchLog.open(p, header).close()
    log = MatchLog.open(p, readonly=True)
    with pytest.raises(StoreError, match="read-only"):
        log.append(events[0])
    log.close()
    log = MatchLog.open(p)
    log.close()
    log.close()  # idempotent
    assert log.closed
    with pytest.raises(StoreError, match="closed"):
        log.append(events[0])
    with pytest.raises(StoreError, match="closed"):
        list(log.events())


def test_threads_append_without_gaps(tmp_path: Path, header: MatchHeader, events: list[Event]) -> None:
    with MatchLog.open(tmp_path / "t.sqlite", header, synchronous="NORMAL") as log:
        def work(chunk: list[Event]) -> None:
            for e in chunk:
                log.append(e)
        ts = [threading.Thread(target=work, args=(events[i::4][:20],)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert [e.seq for e in log.events()] == list(range(1, 81))


def test_existing_header_wins(tmp_path: Path, header: MatchHeader) -> None:
    p = tmp_path / "t.sqlite"
    MatchLog.open(p, header).close()
    with MatchLog.open(p, MatchHeader(players=("X", "Y"))) as log:
        assert log.header == header


# -- files that are not ours ----------------------------------------------------
def _refused(p: Path, match: str) -> None:
    before = _digest(p)
    for kw in ({}, {"readonly": True}):
        with pytest.raises(StoreError, match=match):
            MatchLog.open(p, MatchHeader(), **kw)  # type: ignore[arg-type]
    assert _digest(p) == before, "a refused file must never be modified"
    assert not Path(f"{p}-wal").exists() or Path(f"{p}-wal").stat().st_size == 0


def test_garbage_bytes_are_refused_untouched(tmp_path: Path) -> None:
    p = tmp_path / "table.sqlite"
    p.write_bytes(bytes(range(256)) * 40)
    _refused(p, "not an SQLite database")


def test_a_jpeg_is_refused_untouched(tmp_path: Path, jpeg: bytes) -> None:
    p = tmp_path / "table.sqlite"
    p.write_bytes(jpeg)
    _refused(p, "not an SQLite database")


def test_foreign_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    p = tmp_path / "notes.sqlite"
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes(text) VALUES ('keep me')")
    conn.commit()
    conn.close()
    _refused(p, "foreign SQLite database")
    conn = sqlite3.connect(p)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
    conn.close()


def test_foreign_application_id_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "other.db"
    conn = sqlite3.connect(p)
    conn.execute("PRAGMA application_id = 1234")
    conn.commit()
    conn.close()
    _refused(p, "application_id 0x4d2")


def test_newer_schema_is_refused(tmp_path: Path, header: MatchHeader) -> None:
    p = tmp_path / "t.sqlite"
    MatchLog.open(p, header).close()
    conn = sqlite3.connect(p)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    _refused(p, "newer tavli-pi")


@pytest.mark.parametrize("keep", [0.5, 0.9])
def test_truncated_log_is_refused_untouched(tmp_path: Path, header: MatchHeader, events: list[Event],
                                            jpeg: bytes, keep: float) -> None:
    p = tmp_path / "t.sqlite"
    _fill(p, header, events, jpeg)  # closing checkpoints the WAL into the file
    assert not Path(f"{p}-wal").exists()
    data = p.read_bytes()
    p.write_bytes(data[: int(len(data) * keep) // 512 * 512 + 100])
    _refused(p, "damaged")


def test_file_shorter_than_a_header_is_refused(tmp_path: Path, header: MatchHeader) -> None:
    p = tmp_path / "t.sqlite"
    MatchLog.open(p, header).close()
    p.write_bytes(p.read_bytes()[:60])
    _refused(p, "truncated")


def test_corrupt_page_is_refused(tmp_path: Path, header: MatchHeader, events: list[Event]) -> None:
    p = tmp_path / "t.sqlite"
    _fill(p, header, events, None)
    data = bytearray(p.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for i in range(page * 2, page * 3):  # scribble over the third page
        data[i] = 0xA5
    p.write_bytes(bytes(data))
    _refused(p, "damaged")


def test_empty_file_becomes_a_log_and_missing_logs_are_reported(tmp_path: Path, header: MatchHeader) -> None:
    p = tmp_path / "t.sqlite"
    p.touch()
    with MatchLog.open(p, header) as log:
        assert log.next_seq == 1
    with pytest.raises(StoreError, match="no match log here"):
        MatchLog.open(tmp_path / "missing.sqlite", readonly=True)
    with pytest.raises(StoreError, match="no match log here"):
        MatchLog.open(tmp_path / "missing.sqlite", create=False)
    with pytest.raises(StoreError, match="is a folder"):
        MatchLog.open(tmp_path)
    assert not (tmp_path / "missing.sqlite").exists()
