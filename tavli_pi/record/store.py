"""The match log: an append-only SQLite file of everything the referee decided.

One row per :class:`~tavli_pi.referee.events.Event` (its ``to_dict`` JSON), in
commit order, numbered ``seq`` 1, 2, 3... without gaps. The camera frame that
proved a verdict may be saved beside its event (JPEG bytes) for disputes.

Durability: WAL journal with ``synchronous=FULL`` by default, one transaction
per :meth:`MatchLog.append` (or per :meth:`MatchLog.append_many` batch), so an
event that ``append`` returned for survives SIGKILL and power loss (SQLite:
"In WAL mode when synchronous is FULL ... the WAL file is synced after each
transaction commit", https://www.sqlite.org/pragma.html#pragma_synchronous).

Safety: the file is ours only if its ``PRAGMA application_id`` says so
(https://www.sqlite.org/pragma.html#pragma_application_id, header offset 68).
Anything else (not SQLite, a foreign SQLite database, a newer schema, a
damaged file) raises :class:`~tavli_pi.errors.StoreError` *before* anything is
written, so a file we do not understand is never modified.
"""

from __future__ import annotations

import json
import shutil
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from tavli_pi.errors import RecordError, StoreError
from tavli_pi.record.header import MatchHeader
from tavli_pi.referee.events import Event, from_dict, to_dict

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "LoggedEvent",
    "MatchLog",
    "Snapshot",
    "Synchronous",
]

#: ``PRAGMA application_id`` of a tavli-pi match log: ASCII "TvPL".
APPLICATION_ID = 0x54765042
#: ``PRAGMA user_version``: the schema this code writes and reads (1 had no snapshots; it is
#: upgraded in place, inside one transaction, the first time this code opens it for writing).
SCHEMA_VERSION = 2

_SQLITE_MAGIC = b"SQLite format 3\x00"
_JPEG_SOI = b"\xff\xd8\xff"

Synchronous = Literal["FULL", "NORMAL", "EXTRA", "OFF"]

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE events ("
    " seq INTEGER PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " at REAL NOT NULL,"
    " game INTEGER NOT NULL,"
    " body TEXT NOT NULL,"
    " committed REAL NOT NULL)",
    "CREATE TABLE frames (seq INTEGER PRIMARY KEY REFERENCES events(seq), jpeg BLOB NOT NULL)",
    # append-only: the log never forgets or rewrites a decision
    "CREATE TRIGGER events_append_only_u BEFORE UPDATE ON events"
    " BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END",
    "CREATE TRIGGER events_append_only_d BEFORE DELETE ON events"
    " BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END",
    "CREATE TRIGGER frames_append_only_u BEFORE UPDATE ON frames"
    " BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END",
    "CREATE TRIGGER frames_append_only_d BEFORE DELETE ON frames"
    " BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END",
)
# schema 2: the referee's state after the last event of each batch, and the camera frame it had read
_SCHEMA_2 = (
    "CREATE TABLE snapshots (seq INTEGER PRIMARY KEY REFERENCES events(seq),"
    " frame INTEGER NOT NULL, referee BLOB NOT NULL)",
    "CREATE TRIGGER snapshots_append_only_u BEFORE UPDATE ON snapshots"
    " BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END",
    "CREATE TRIGGER snapshots_append_only_d BEFORE DELETE ON snapshots"
    " BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END",
)
_TABLES = {"meta", "events", "frames"}  # every schema has these; schema 2 adds snapshots


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The referee's state (:mod:`tavli_pi.referee.snapshot` bytes) after event ``seq``, taken
    when the camera had delivered frame ``frame``."""

    seq: int
    frame: int
    referee: bytes


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One committed event and its place in the log."""

    seq: int
    event: Event
    has_frame: bool = False


def _fail(path: Path, what: str, todo: str) -> StoreError:
    return StoreError(f"{path}: {what}; {todo}")


def _writable_meta_key(key: str) -> None:
    """Refuse a meta key the log writes once, when it is created (``set_meta``, ``append_many``)."""
    if key in ("header", "format", "created"):
        raise RecordError(f"the log's {key} is written once, when the log is created")


class MatchLog:
    """An open match log. Use :meth:`open`; close it (or use ``with``).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.sqlite"
    >>> with MatchLog.open(p, MatchHeader(players=("Ann", "Bob"), match_length=5)) as log:
    ...     log.next_seq, log.header.players
    (1, ('Ann', 'Bob'))
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, header: MatchHeader, readonly: bool) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = conn
        self._header = header
        self._readonly = readonly
        self._lock = threading.Lock()

    # -- opening ----------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        header: MatchHeader | None = None,
        *,
        create: bool = True,
        readonly: bool = False,
        synchronous: Synchronous = "FULL",
    ) -> MatchLog:
        """Open the log at ``path``, creating it (with ``header``) if it does not exist.

        The header is written once, when the log is created; on an existing
        log the logged header wins and ``header`` is ignored. ``readonly``
        opens an existing log for reading (exports, the display).
        Raises :class:`StoreError` for a missing log (``create=False`` or
        ``readonly``), a file that is not SQLite, a foreign or newer SQLite
        database, or a damaged log; such files are left untouched.
        """
        p = Path(path)
        if p.is_dir():
            raise _fail(p, "is a folder, not a match log", "give the path of a .sqlite file")
        exists = p.exists() and p.stat().st_size > 0
        if not exists and (readonly or not create):
            raise _fail(p, "no match log here", "check the path (tavli-pi run creates the log)")
        if exists:
            cls._check_magic(p)
        if not p.parent.exists():
            raise _fail(p, "the folder does not exist", "create it first")
        try:
            if readonly:
                conn = sqlite3.connect(cls._readonly_uri(p), uri=True,
                                       isolation_level=None, check_same_thread=False)
            else:
                conn = sqlite3.connect(str(p), isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise _fail(p, f"cannot open ({exc})", "check the file's permissions") from exc
        try:
            header_ = cls._adopt(p, conn, header, create and not readonly)
            if not readonly:
                cls._upgrade(p, conn)
                # Only now that the file is known to be ours may we change it.
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise _fail(p, f"cannot switch to WAL (got {mode})", "put the log on a local disk")
                conn.execute(f"PRAGMA synchronous={synchronous}")
        except BaseException:
            conn.close()
            raise
        return cls(p, conn, header_, readonly)

    @staticmethod
    def _readonly_uri(p: Path) -> str:
        """The URI to read ``p`` without writing anything beside it.

        SQLite reads a WAL database through a ``-shm`` file it creates next to
        the log; in a read-only folder (a backup stick, a read-only mount) it
        cannot, and the log would look damaged. A log with no pending WAL is
        complete in its main file, so it is opened as immutable there; one
        whose WAL still holds events cannot be read without that index, and is
        read through a private copy of both files.
        """
        uri = f"{p.resolve().as_uri()}?mode=ro"
        if os.access(p.parent, os.W_OK):
            return uri
        wal = p.with_name(p.name + "-wal")
        shm = p.with_name(p.name + "-shm")
        if not wal.exists() or wal.stat().st_size == 0:
            return uri + "&immutable=1"
        if shm.exists() and os.access(shm, os.R_OK):
            return uri  # SQLite reads an existing index without writing it
        copy = Path(tempfile.mkdtemp(prefix="tavli-log-")) / p.name
        shutil.copyfile(p, copy)
        shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        return f"{copy.as_uri()}?mode=ro"

    @staticmethod
    def _check_magic(p: Path) -> None:
        try:
            with p.open("rb") as f:
                head = f.read(100)
        except OSError as exc:
            raise _fail(p, f"cannot read ({exc.strerror})", "check the file's permissions") from exc
        if not head.startswith(_SQLITE_MAGIC):
            raise _fail(p, "is not a tavli-pi match log (not an SQLite database)",
                        "it was left untouched: give another path or move the file aside")
        if len(head) < 100:
            raise _fail(p, f"is truncated ({len(head)} bytes, shorter than an SQLite header)",
                        "it was left untouched: restore it from a backup or start a new log")

    @classmethod
    def _adopt(cls, p: Path, conn: sqlite3.Connection, header: MatchHeader | None,
               may_create: bool) -> MatchHeader:
        """Check the file is our log (or empty) before anything is written; return its header."""
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise _fail(p, f"is damaged or not a match log ({exc})",
                        "it was left untouched: restore it from a backup or start a new log") from exc
        if app_id == 0 and version == 0 and not names:
            if not may_create:
                raise _fail(p, "is an empty database, not a match log", "check the path")
            return cls._initialise(p, conn, header or MatchHeader())
        if app_id != APPLICATION_ID:
            raise _fail(p, f"is a foreign SQLite database (application_id {app_id:#x}, "
                        f"{len(names)} tables), not a tavli-pi match log",
                        "it was left untouched: give another path for the log")
        if version > SCHEMA_VERSION:
            raise _fail(p, f"was written by a newer tavli-pi (schema {version}, this one reads "
                        f"{SCHEMA_VERSION})", "upgrade tavli-pi to read it")
        if not _TABLES <= names:
            raise _fail(p, f"is a damaged match log (missing tables {sorted(_TABLES - names)})",
                        "it was left untouched: restore it from a backup")
        try:
            problems = [r[0] for r in conn.execute("PRAGMA quick_check")]
            row = conn.execute("SELECT value FROM meta WHERE key='header'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise _fail(p, f"is damaged ({exc})",
                        "it was left untouched: restore it from a backup or start a new log") from exc
        if problems != ["ok"]:
            raise _fail(p, f"is damaged ({'; '.join(problems[:3])})",
                        "it was left untouched: restore it from a backup or start a new log")
        if row is None:
            raise _fail(p, "is a damaged match log (no header)", "restore it from a backup")
        try:
            return MatchHeader.from_dict(json.loads(row[0]))
        except (ValueError, TypeError, KeyError, RecordError) as exc:
            raise _fail(p, f"has an unreadable header ({exc})", "restore it from a backup") from exc

    @staticmethod
    def _upgrade(p: Path, conn: sqlite3.Connection) -> None:
        """Bring a schema-1 log to schema 2 (add the snapshots table), all or nothing."""
        if conn.execute("PRAGMA user_version").fetchone()[0] >= 2:
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            for stmt in _SCHEMA_2:
                conn.execute(stmt)
            conn.execute("PRAGMA user_version=2")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise _fail(p, f"cannot upgrade the log to schema 2 ({exc})", "check the disk and permissions") from exc

    @staticmethod
    def _initialise(p: Path, conn: sqlite3.Connection, header: MatchHeader) -> MatchHeader:
        # Created in rollback-journal mode so the header page with the
        # application_id reaches the main file at once; WAL comes after.
        try:
            conn.execute("BEGIN IMMEDIATE")
            for stmt in _SCHEMA + _SCHEMA_2:
                conn.execute(stmt)
            conn.executemany(
                "INSERT INTO meta(key, value) VALUES (?, ?)",
                [
                    ("format", "tavli-pi match log"),
                    ("created", repr(time.time())),
                    ("header", json.dumps(header.to_dict(), sort_keys=True)),
                ],
            )
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise _fail(p, f"cannot create the log ({exc})", "check the disk and permissions") from exc
        return header

    # -- lifecycle ----------------------------------------------------------
    @property
    def path(self) -> Path:
        return self._path

    @property
    def header(self) -> MatchHeader:
        return self._header

    @property
    def closed(self) -> bool:
        return self._conn is None

    def close(self) -> None:
        """Close the log (idempotent)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> MatchLog:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _c(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"{self._path}: the match log is closed; open it again")
        return self._conn

    # -- writing ----------------------------------------------------------
    def append(self, event: Event, frame: bytes | None = None, *, expect_seq: int | None = None) -> int:
        """Commit one event (and the JPEG frame that proved it); return its ``seq``.

        When this returns, the event is durable (with ``synchronous=FULL``).
        ``expect_seq`` guards against double appends after a restart: the
        append fails with :class:`StoreError` unless it would get that seq.
        """
        return self.append_many([(event, frame)], expect_seq=expect_seq)[0]

    def append_many(self, items: Iterable[tuple[Event, bytes | None]], *,
                    expect_seq: int | None = None,
                    snapshot: tuple[int, bytes] | None = None,
                    meta: dict[str, str] | None = None) -> list[int]:
        """Commit several events in one transaction (all or none).

        ``snapshot`` is ``(frame index, referee bytes)``: the referee's state after
        these events, stored with the last of them in the same transaction, so a
        restart finds the events and the state that produced them, or neither.
        ``meta``: values the app keeps with the match (as :meth:`set_meta`) that belong
        with these events (a calibration learnt from the board they adopt), in the same
        transaction.
        """
        for key in meta or {}:
            _writable_meta_key(key)
        rows: list[tuple[str, float, int, str, bytes | None]] = []
        for event, frame in items:
            if not isinstance(event, Event):
                raise RecordError(f"only referee events go into the log, got {type(event).__name__}")
            if frame is not None and not bytes(frame[:3]) == _JPEG_SOI:
                raise RecordError(f"the frame for a {event.kind} event is not a JPEG: encode it "
                                  "with cv2.imencode('.jpg', frame) first")
            body = json.dumps(to_dict(event), sort_keys=True, separators=(",", ":"))
            rows.append((event.kind, event.at, event.state.game_number, body,
                         None if frame is None else bytes(frame)))
        if self._readonly:
            raise StoreError(f"{self._path}: opened read-only; open it without readonly to append")
        with self._lock:
            conn = self._c()
            try:
                conn.execute("BEGIN IMMEDIATE")
                seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events").fetchone()[0]
                if expect_seq is not None and seq != expect_seq:
                    conn.execute("ROLLBACK")
                    raise StoreError(f"{self._path}: expected to append event {expect_seq} but the "
                                     f"log ends at {seq - 1}; another process is writing this log: "
                                     "stop it, then restart to resume from the log")
                now = time.time()
                out: list[int] = []
                for kind, at, game, body, frame in rows:
                    conn.execute("INSERT INTO events(seq, kind, at, game, body, committed) "
                                 "VALUES (?, ?, ?, ?, ?, ?)", (seq, kind, at, game, body, now))
                    if frame is not None:
                        conn.execute("INSERT INTO frames(seq, jpeg) VALUES (?, ?)", (seq, frame))
                    out.append(seq)
                    seq += 1
                if snapshot is not None and out:
                    conn.execute("INSERT INTO snapshots(seq, frame, referee) VALUES (?, ?, ?)",
                                 (out[-1], int(snapshot[0]), bytes(snapshot[1])))
                for key, value in (meta or {}).items():
                    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise StoreError(f"{self._path}: could not commit to the match log ({exc}); "
                                 "check free disk space") from exc
        return out

    # -- reading ----------------------------------------------------------
    @property
    def next_seq(self) -> int:
        """The seq the next appended event will get (1 for an empty log)."""
        with self._lock:
            row = self._query("SELECT COALESCE(MAX(seq), 0) + 1 FROM events").fetchone()
        return int(row[0])

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        try:
            return self._c().execute(sql, args)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self._path}: cannot read the match log ({exc}); "
                             "restore it from a backup") from exc

    def events(self, start: int = 1) -> Iterator[LoggedEvent]:
        """Every committed event from ``seq`` ``start`` on, in order."""
        with self._lock:
            rows = self._query(
                "SELECT e.seq, e.body, f.seq IS NOT NULL FROM events e "
                "LEFT JOIN frames f ON f.seq = e.seq WHERE e.seq >= ? ORDER BY e.seq",
                (start,),
            ).fetchall()
        for seq, body, has_frame in rows:
            yield LoggedEvent(int(seq), self._decode(int(seq), body), bool(has_frame))

    def last(self) -> LoggedEvent | None:
        """The last committed event, or None for an empty log."""
        with self._lock:
            row = self._query(
                "SELECT e.seq, e.body, f.seq IS NOT NULL FROM events e "
                "LEFT JOIN frames f ON f.seq = e.seq ORDER BY e.seq DESC LIMIT 1"
            ).fetchone()
        if row is None:
            return None
        return LoggedEvent(int(row[0]), self._decode(int(row[0]), row[1]), bool(row[2]))

    def frame(self, seq: int) -> bytes | None:
        """The JPEG saved with event ``seq``, or None."""
        with self._lock:
            row = self._query("SELECT jpeg FROM frames WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else bytes(row[0])

    def last_saved_frame(self) -> tuple[int, bytes] | None:
        """(the camera frame it was taken at, the JPEG) of the newest saved frame whose commit has a
        snapshot (which names the camera frame); None when there is none."""
        with self._lock:
            if not self._has_snapshots():
                return None
            row = self._query(
                "SELECT f.jpeg, (SELECT s.frame FROM snapshots s WHERE s.seq >= f.seq ORDER BY s.seq LIMIT 1) "
                "FROM frames f ORDER BY f.seq DESC LIMIT 1").fetchone()
        return None if row is None or row[1] is None else (int(row[1]), bytes(row[0]))

    def last_snapshot(self) -> Snapshot | None:
        """The newest referee snapshot, or None (an empty log, or one written before schema 2)."""
        with self._lock:
            if not self._has_snapshots():
                return None
            row = self._query("SELECT seq, frame, referee FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else Snapshot(int(row[0]), int(row[1]), bytes(row[2]))

    def _has_snapshots(self) -> bool:
        row = self._query("SELECT 1 FROM sqlite_master WHERE type='table' AND name='snapshots'").fetchone()
        return row is not None

    def meta(self, key: str) -> str | None:
        """A value the app keeps with the match (e.g. ``calibration``), or None."""
        with self._lock:
            row = self._query("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` (durably, replacing an older value; never the header)."""
        _writable_meta_key(key)
        if self._readonly:
            raise StoreError(f"{self._path}: opened read-only; open it without readonly to write")
        with self._lock:
            conn = self._c()
            try:
                conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
            except sqlite3.Error as exc:
                raise StoreError(f"{self._path}: could not write to the match log ({exc}); "
                                 "check free disk space") from exc

    def _decode(self, seq: int, body: str) -> Event:
        try:
            return from_dict(json.loads(body))
        except (ValueError, TypeError, KeyError) as exc:
            raise StoreError(f"{self._path}: event {seq} cannot be read ({exc}); it may come from "
                             "a newer tavli-pi: upgrade to read it") from exc
