"""Referee snapshots in the match log: committed with their events, all or nothing; old logs upgraded."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tavli_pi.errors import RecordError, StoreError
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.store import SCHEMA_VERSION, MatchLog
from tavli_pi.referee.events import Event


def test_a_snapshot_is_kept_with_the_last_event_of_its_batch(tmp_path: Path, header: MatchHeader,
                                                             events: list[Event]) -> None:
    with MatchLog.open(tmp_path / "t.sqlite", header) as log:
        assert log.last_snapshot() is None
        assert log.append_many([(events[0], None), (events[1], None)], snapshot=(17, b"state-a")) == [1, 2]
        log.append(events[2], None)  # a batch without a snapshot
        snap = log.last_snapshot()
        assert snap is not None and (snap.seq, snap.frame, snap.referee) == (2, 17, b"state-a")
        log.append_many([(events[3], None)], snapshot=(40, b"state-b"))
        snap = log.last_snapshot()
        assert snap is not None and (snap.seq, snap.frame, snap.referee) == (4, 40, b"state-b")


def test_a_refused_batch_stores_neither_events_nor_snapshot(tmp_path: Path, header: MatchHeader,
                                                           events: list[Event]) -> None:
    with MatchLog.open(tmp_path / "t.sqlite", header) as log:
        log.append(events[0], None)
        with pytest.raises(StoreError, match="another process is writing"):
            log.append_many([(events[1], None)], expect_seq=5, snapshot=(3, b"x"))
        with pytest.raises(RecordError):
            log.append_many([(events[1], None), ("not an event", None)], snapshot=(3, b"x"))  # type: ignore[list-item]
        assert log.next_seq == 2 and log.last_snapshot() is None


def test_meta_kept_with_a_batch_is_committed_with_it_or_not_at_all(tmp_path: Path, header: MatchHeader,
                                                                   events: list[Event]) -> None:
    """A calibration learnt from the board a batch adopts goes in with that batch (the app's exact resume)."""
    with MatchLog.open(tmp_path / "t.sqlite", header) as log:
        log.append_many([(events[0], None)], snapshot=(3, b"a"), meta={"calibrated_at": "3", "calibration": "{}"})
        assert (log.meta("calibrated_at"), log.meta("calibration")) == ("3", "{}")
        with pytest.raises(StoreError, match="another process is writing"):
            log.append_many([(events[1], None)], expect_seq=9, snapshot=(8, b"b"), meta={"calibrated_at": "8"})
        assert log.meta("calibrated_at") == "3"
        with pytest.raises(RecordError, match="written once"):
            log.append_many([(events[1], None)], meta={"header": "x"})
        assert log.next_seq == 2


def test_snapshots_are_append_only(tmp_path: Path, header: MatchHeader, events: list[Event]) -> None:
    p = tmp_path / "t.sqlite"
    with MatchLog.open(p, header) as log:
        log.append_many([(events[0], None)], snapshot=(1, b"s"))
    conn = sqlite3.connect(p)
    for sql in ("UPDATE snapshots SET referee = x'00'", "DELETE FROM snapshots"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute(sql)
    conn.close()


def test_a_schema_1_log_is_upgraded_in_place_and_keeps_its_events(tmp_path: Path, header: MatchHeader,
                                                                   events: list[Event]) -> None:
    p = tmp_path / "old.sqlite"
    with MatchLog.open(p, header) as log:
        for e in events[:5]:
            log.append(e, None)
    conn = sqlite3.connect(p)  # make it what schema 1 wrote: no snapshots table
    conn.executescript("DROP TRIGGER snapshots_append_only_u; DROP TRIGGER snapshots_append_only_d; "
                       "DROP TABLE snapshots; PRAGMA user_version = 1;")
    conn.close()
    with MatchLog.open(p, readonly=True) as ro:  # reading does not change the file
        assert ro.last_snapshot() is None and ro.next_seq == 6
    assert sqlite3.connect(p).execute("PRAGMA user_version").fetchone()[0] == 1
    with MatchLog.open(p) as log:
        assert [e.event for e in log.events()] == events[:5]
        log.append_many([(events[5], None)], snapshot=(9, b"s"))
        assert log.last_snapshot() is not None
    assert sqlite3.connect(p).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2


def test_meta_values_are_kept_but_the_header_is_written_once(tmp_path: Path, header: MatchHeader) -> None:
    p = tmp_path / "t.sqlite"
    with MatchLog.open(p, header) as log:
        assert log.meta("calibration") is None
        log.set_meta("calibration", '{"a": 1}')
        log.set_meta("calibration", '{"a": 2}')
        with pytest.raises(RecordError, match="written once"):
            log.set_meta("header", "{}")
    with MatchLog.open(p, readonly=True) as ro:
        assert ro.meta("calibration") == '{"a": 2}'
        assert ro.header == header
        with pytest.raises(StoreError, match="read-only"):
            ro.set_meta("calibration", "{}")


def test_the_last_saved_frame_is_named_by_the_camera_frame_of_its_commit(tmp_path: Path, header: MatchHeader,
                                                                        events: list[Event]) -> None:
    jpeg_a, jpeg_b = (b"\xff\xd8\xff" + tag for tag in (b"a", b"b"))  # a JPEG's start marker
    with MatchLog.open(tmp_path / "t.sqlite", header) as log:
        assert log.last_saved_frame() is None
        log.append_many([(events[0], jpeg_a), (events[1], None)], snapshot=(17, b"state-a"))
        assert log.last_saved_frame() == (17, jpeg_a)
        log.append_many([(events[2], None)], snapshot=(25, b"state-b"))  # no frame: the last saved stays
        assert log.last_saved_frame() == (17, jpeg_a)
        log.append_many([(events[3], jpeg_b)], snapshot=(40, b"state-c"))
        assert log.last_saved_frame() == (40, jpeg_b)
