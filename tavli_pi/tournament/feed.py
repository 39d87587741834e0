"""The tournament feed over MQTT (paho-mqtt 2.x, any broker; tested on Mosquitto).

Topics, for an event slug and a table id (MQTT 3.1.1 topic names; ids are 1-64
of ``A-Z a-z 0-9 _ -``)::

    tavli/<event>/table/<table>/state    retained, QoS 1: {"seq", "stream", "table", "state": TableState}
    tavli/<event>/table/<table>/events   QoS 1: to_dict(event) + {"seq", "stream", "table"}
    tavli/<event>/table/<table>/status   retained: "online" / "offline" (the broker's will)
    tavli/<event>/table/<table>/resend   QoS 1, director -> table: {"stream", "from", "to", "by"}

The table side (:class:`TableFeed`) never blocks the referee: ``publish()``
only puts the event on a queue. One worker thread numbers it (``seq`` grows by
one per table stream), stores it in the :class:`Outbox` (memory or SQLite) and
hands it to paho with QoS 1. paho keeps QoS 1 messages while the broker is away
and resends them in order after it reconnects; the outbox row is marked sent
only when the broker acknowledges (PUBACK -> ``on_publish``), so a table
restarted with a SQLite outbox resends what was never acknowledged. The outbox
also keeps the last ``keep_sent`` acknowledged events to answer resends.

The director side (:class:`FeedListener`) subscribes with a persistent session
(``clean_session=False``, QoS 1), so the broker queues events while the
director is away (run Mosquitto with ``persistence true`` to survive broker
restarts), and delivers each (table, stream, seq) once, in order, however often
QoS 1 redelivers it. Every message is checked first (``feed_check``: topic
shape, size, UTF-8, JSON depth, the type and range of every field); a bad one is
counted, logged (at most ``log_burst`` lines a minute) and dropped. Memory is
bounded: at most ``max_tables`` tables, ``MAX_RANGES`` missing ranges per table,
and a seq may jump at most ``max_jump`` ahead of the last one.

The resend protocol. When an event arrives with ``seq`` more than one past the
last one of its stream, the seqs between are a gap (kept as ranges, never per
seq). The director publishes on the table's ``resend`` topic, QoS 1, not retained::

    {"stream": "<the stream id>", "from": 5, "to": 9, "by": "<director client id>"}

(at most ``max_resend`` seqs a request). The table answers by publishing the
events it still keeps in that range again on its ``events`` topic, unchanged
(same ``seq`` and ``stream``); a request for another stream, or for seqs the
table no longer keeps, is ignored, and the table answers at most
``RESEND_BUDGET`` events a minute. The director takes a resent event once
(an older seq fills its gap; it never rewinds the page's board), asks again
after ``resend_after`` seconds, and after ``resend_tries`` asks reports the
rest as lost.
"""

from __future__ import annotations

import collections
import json
import logging
import queue
import socket
import sqlite3
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from tavli_pi.errors import FeedError
from tavli_pi.referee.events import Event, to_dict
from tavli_pi.tournament.feed_check import (
    ID_RE,
    MAX_PAYLOAD,
    BadMessage,
    check_event,
    check_resend,
    check_state_message,
    check_status,
    parse_payload,
    parse_topic,
)

__all__ = [
    "FeedSettings",
    "Outbox",
    "TableFeed",
    "FeedListener",
    "FeedMessage",
    "BrokerStatus",
    "topic",
    "parse_broker",
    "make_client",
    "describe_connect_error",
]

QOS = 1
LOG = logging.getLogger("tavli_pi.feed")
MAX_RANGES = 16  # missing seq ranges kept per table; older ones are reported lost
RESEND_BUDGET = 2000  # events a table re-publishes a minute at most (a flood of requests is not amplified)


def topic(event_slug: str, table_id: str, leaf: str) -> str:
    """``tavli/<event>/table/<table>/<leaf>``; ``+`` wildcards are allowed for subscribing."""
    for name, part in (("event", event_slug), ("table", table_id)):
        if part != "+" and not ID_RE.fullmatch(part):
            raise FeedError(f"bad {name} id {part!r} for a topic: use 1-64 letters, digits, '-' or '_'")
    return f"tavli/{event_slug}/table/{table_id}/{leaf}"


_HOST_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:")


def parse_broker(text: str, default_port: int = 1883) -> tuple[str, int]:
    """``"host"``, ``"host:port"`` or ``"[v6]:port"`` -> (host, port); anything else is a FeedError."""
    example = "write HOST:PORT, e.g. localhost:1883 or 192.168.1.10:1883"
    raw = text.strip()
    if raw.startswith("["):  # [::1]:1883
        host, sep, rest = raw[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        if not sep or (rest and not rest.startswith(":")):
            raise FeedError(f"broker {text!r} is not a broker address: {example}")
    elif raw.count(":") == 1:
        host, _, port_text = raw.partition(":")
    else:
        host, port_text = raw, ""
    if port_text == "" and raw.endswith(":"):
        raise FeedError(f"broker {text!r} has no port after ':': {example}")
    if not host or len(host) > 253 or not set(host) <= _HOST_CHARS or (":" in host and not raw.startswith("[")):
        raise FeedError(f"broker {text!r} is not a broker address: {example}")
    if port_text == "":
        return host, default_port
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise FeedError(f"broker {text!r}: the port must be a number 1-65535; {example}")
    return host, int(port_text)


@dataclass(frozen=True, slots=True)
class FeedSettings:
    """Where and how to reach the broker. TLS is on when ``tls_ca`` is set (or ``tls=True``)."""

    host: str = "localhost"
    port: int = 1883
    event_slug: str = "local"
    table_id: str = "1"
    username: str | None = None
    password: str | None = None
    tls: bool = False
    tls_ca: str | None = None  # CA file that signed the broker's certificate
    tls_cert: str | None = None  # client certificate, when the broker asks for one
    tls_key: str | None = None
    tls_insecure: bool = False  # skip the host name check (self-signed test brokers only)
    keepalive: int = 30
    reconnect_min: float = 1.0
    reconnect_max: float = 30.0
    outbox_path: str | None = None  # SQLite file keeping unacknowledged events across restarts
    client_id: str | None = None
    keep_sent: int = 1000  # acknowledged events the table keeps to answer resend requests


class _Client(mqtt.Client):
    """paho's client, remembering why the last connection attempt failed (paho does not say)."""

    connect_error: BaseException | None = None

    def reconnect(self) -> MQTTErrorCode:
        try:
            rc = super().reconnect()
        except OSError as exc:
            self.connect_error = exc
            raise
        self.connect_error = None
        return rc


def make_client(settings: FeedSettings, client_id: str, clean_session: bool) -> mqtt.Client:
    """A paho client with credentials, TLS and reconnect delays from ``settings``."""
    client = _Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    client.suppress_exceptions = True  # a bug in a callback is logged by paho, never ends its thread
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls or settings.tls_ca or settings.tls_cert:
        try:
            client.tls_set(
                ca_certs=settings.tls_ca,
                certfile=settings.tls_cert,
                keyfile=settings.tls_key,
                cert_reqs=ssl.CERT_REQUIRED,
                tls_version=ssl.PROTOCOL_TLS_CLIENT,
            )
        except (OSError, ssl.SSLError) as exc:
            raise FeedError(f"cannot load the TLS files ({exc}): check --tls-ca / tls_cert / tls_key") from exc
        client.tls_insecure_set(settings.tls_insecure)
    # paho sleeps these (floats work) between reconnect attempts.
    client.reconnect_delay_set(settings.reconnect_min, settings.reconnect_max)  # type: ignore[arg-type]
    return client


def describe_connect_error(exc: BaseException | None, host: str, port: int) -> str:
    """One line on why the broker at host:port could not be reached, and what to do."""
    where = f"{host}:{port}"
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve the broker's host name {host!r} ({exc.strerror}): check --broker and DNS"
    if isinstance(exc, ConnectionRefusedError):
        return f"connection refused by {where}: is Mosquitto running there? check --broker"
    if isinstance(exc, (TimeoutError, socket.timeout)):
        return f"no answer from {where}: check the address, the network and the firewall"
    if isinstance(exc, ssl.SSLError):
        why = getattr(exc, "reason", None) or exc
        return f"TLS handshake with {where} failed ({why}): check --tls-ca and the broker's certificate"
    if isinstance(exc, OSError):
        return f"cannot reach {where} ({exc.strerror or exc}): check --broker and the network"
    return f"cannot reach {where}: check --broker and that the broker runs"


# -- the table side -------------------------------------------------------------


class Outbox:
    """Events in order, memory or a SQLite file: those not yet acknowledged by the broker,
    and the last ``keep`` acknowledged ones (to answer resend requests).

    Only the feed's worker thread touches it. The stream id and the last seq are
    kept with the rows, so a restarted table continues its numbering.
    """

    def __init__(self, path: str | None = None, keep: int = 1000) -> None:
        self.keep = keep
        try:
            self._db = sqlite3.connect(path or ":memory:", check_same_thread=False)
            self._db.executescript(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                "CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, topic TEXT NOT NULL,"
                " payload TEXT NOT NULL);"
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            )
            columns = [r[1] for r in self._db.execute("PRAGMA table_info(outbox)")]
            if "acked" not in columns:  # an outbox of an older tavli-pi: every row it kept was unacknowledged
                with self._db:
                    self._db.execute("ALTER TABLE outbox ADD COLUMN acked INTEGER NOT NULL DEFAULT 0")
            row = self._db.execute("SELECT value FROM meta WHERE key='stream'").fetchone()
            if row is None:
                self.stream = uuid.uuid4().hex[:12]
                with self._db:
                    self._db.execute("INSERT INTO meta VALUES ('stream', ?), ('last_seq', '0')", (self.stream,))
            else:
                self.stream = str(row[0])
            self.last_seq = int(self._db.execute("SELECT value FROM meta WHERE key='last_seq'").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            raise FeedError(f"feed outbox {path!r} is unreadable ({exc}): move it aside and restart") from exc

    def add(self, topic_name: str, body: dict[str, Any]) -> tuple[int, str]:
        """Number ``body`` with the next seq, store it; returns (seq, JSON payload)."""
        seq = self.last_seq + 1
        payload = json.dumps({**body, "seq": seq, "stream": self.stream}, separators=(",", ":"))
        with self._db:
            self._db.execute("INSERT INTO outbox (seq, topic, payload) VALUES (?, ?, ?)", (seq, topic_name, payload))
            self._db.execute("UPDATE meta SET value=? WHERE key='last_seq'", (str(seq),))
        self.last_seq = seq
        return seq, payload

    def ack(self, seq: int) -> None:
        """The broker has it: keep it for resends, and forget acknowledged rows older than ``keep``."""
        with self._db:
            self._db.execute("UPDATE outbox SET acked=1 WHERE seq=?", (seq,))
            self._db.execute("DELETE FROM outbox WHERE acked=1 AND seq<=?", (seq - self.keep,))

    def pending(self) -> Iterator[tuple[int, str, str]]:
        """(seq, topic, payload) of every unacknowledged event, oldest first."""
        yield from self._db.execute("SELECT seq, topic, payload FROM outbox WHERE acked=0 ORDER BY seq").fetchall()

    def sent(self, lo: int, hi: int) -> list[tuple[int, str]]:
        """(seq, payload) of the acknowledged events kept with lo <= seq <= hi."""
        rows = self._db.execute(
            "SELECT seq, payload FROM outbox WHERE acked=1 AND seq BETWEEN ? AND ? ORDER BY seq", (lo, hi)
        ).fetchall()
        return [(int(s), str(p)) for s, p in rows]

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM outbox WHERE acked=0").fetchone()[0])

    def close(self) -> None:
        self._db.close()


class TableFeed:
    """Publishes one table's events and state; survives broker outages; answers resends.

    Use (it needs a broker, so this is no doctest)::

        feed = TableFeed(FeedSettings(host="broker.local", table_id="7"))
        feed.start(); feed.publish(event); feed.close()

    Order is kept across reconnects: paho resends what it had in flight right
    after the CONNACK, so new events wait until those are acknowledged.
    """

    def __init__(self, settings: FeedSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        s = settings
        self.events_topic = topic(s.event_slug, s.table_id, "events")
        self.state_topic = topic(s.event_slug, s.table_id, "state")
        self.status_topic = topic(s.event_slug, s.table_id, "status")
        self.resend_topic = topic(s.event_slug, s.table_id, "resend")
        self._now = clock
        self._outbox = Outbox(s.outbox_path, s.keep_sent)
        self._client = make_client(s, s.client_id or f"tavli-table-{s.event_slug}-{s.table_id}", True)
        self._client.will_set(self.status_topic, "offline", qos=QOS, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_resend_request
        self._inbox: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        # worker-thread state: events not yet handed to paho, and those paho holds
        self._backlog: collections.deque[tuple[int, str]] = collections.deque(self._pending_rows())
        self._inflight: dict[int, int] = {}  # paho mid -> seq
        self._stale: set[int] = set()  # mids paho holds from before the last disconnect
        self._latest_state: str | None = None
        if self._backlog:
            seq, payload = self._backlog[-1]
            self._set_state(seq, json.loads(payload)["state"])
        self._online = False
        self._unacked = len(self._backlog)
        self._idle = threading.Condition()
        self._worker = threading.Thread(target=self._run, name=f"feed-{s.table_id}", daemon=True)
        self.connected = threading.Event()
        self._started = False
        self._budget = float(RESEND_BUDGET)
        self._budget_at = clock()
        self._rate_log = _RateLog(LOG, 20, 60.0, clock)
        self.resent = 0  # events re-published on request
        self.resend_refused = 0  # requests ignored (malformed, another stream, over the budget)

    def _pending_rows(self) -> list[tuple[int, str]]:
        return [(seq, payload) for seq, _, payload in self._outbox.pending()]

    @property
    def stream(self) -> str:
        return self._outbox.stream

    # -- API (any thread) ----------------------------------------------------
    def start(self) -> None:
        """Connect in the background (the broker may be down) and resend stored events."""
        if self._started:
            return
        self._started = True
        self._worker.start()
        self._client.connect_async(self.settings.host, self.settings.port, self.settings.keepalive)
        self._client.loop_start()

    def publish(self, event: Event) -> None:
        """Queue ``event`` for the broker. Never blocks, never raises for the network."""
        with self._idle:
            self._unacked += 1
        self._inbox.put(("event", event))

    @property
    def pending(self) -> int:
        """Events not yet acknowledged by the broker (including queued ones)."""
        with self._idle:
            return self._unacked

    def wait_delivered(self, timeout: float) -> bool:
        """Block until the broker acknowledged everything published so far."""
        with self._idle:
            return self._idle.wait_for(lambda: self._unacked == 0, timeout)

    def handle(self, event: Event) -> None:
        """An :class:`~tavli_pi.referee.events.EventSink`: :meth:`publish` the event."""
        self.publish(event)

    def close(self, timeout: float = 5.0) -> None:
        """Stop after storing queued events in the outbox; unacknowledged ones stay there."""
        if self._started:
            self._inbox.put(("stop", None))
            self._worker.join(timeout)
            if self.connected.is_set():
                info = self._client.publish(self.status_topic, "offline", qos=QOS, retain=True)
                info.wait_for_publish(timeout)
            self._client.disconnect()
            self._client.loop_stop()
            self._started = False
        self._outbox.close()

    def __enter__(self) -> TableFeed:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- paho callbacks (paho's thread) ---------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if not rc.is_failure:
            client.publish(self.status_topic, "online", qos=QOS, retain=True)
            client.subscribe(self.resend_topic, QOS)
            self._inbox.put(("up", None))
            self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        self.connected.clear()
        self._inbox.put(("down", None))

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, rc: Any, props: Any = None) -> None:
        self._inbox.put(("ack", mid))

    def _on_resend_request(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            request = check_resend(parse_payload(bytes(msg.payload), 1024), max_count=1000)
        except BadMessage as exc:
            self.resend_refused += 1
            self._rate_log.warning(exc.reason, f"table {self.settings.table_id}: ignored a resend request: {exc.detail}")
            return
        self._inbox.put(("resend", request))

    # -- the worker --------------------------------------------------------------
    def _run(self) -> None:
        while True:
            what, item = self._inbox.get()
            if what == "stop":
                while not self._inbox.empty():  # store what the referee queued before close()
                    w, e = self._inbox.get()
                    if w == "event":
                        self._store(e)
                return
            if what == "event":
                self._store(item)
            elif what == "ack":
                self._acked(item)
            elif what == "up":
                self._online = True
            elif what == "down":
                self._online = False
                self._stale = set(self._inflight)
            elif what == "resend":
                self._resend(*item)
            self._flush()

    def _store(self, event: Event) -> None:
        body = {**to_dict(event), "table": self.settings.table_id}
        seq, payload = self._outbox.add(self.events_topic, body)
        self._backlog.append((seq, payload))
        self._set_state(seq, body["state"])

    def _set_state(self, seq: int, state: dict[str, Any]) -> None:
        msg = {"seq": seq, "stream": self._outbox.stream, "table": self.settings.table_id, "state": state}
        self._latest_state = json.dumps(msg, separators=(",", ":"))

    def _acked(self, mid: int) -> None:
        self._stale.discard(mid)
        seq = self._inflight.pop(mid, None)
        if seq is not None:
            self._outbox.ack(seq)
            with self._idle:
                self._unacked -= 1
                self._idle.notify_all()

    def _resend(self, stream: str, lo: int, hi: int) -> None:
        """Publish again the kept, acknowledged events lo..hi of our stream (unacked ones go out anyway)."""
        if stream != self._outbox.stream or not self._online:
            self.resend_refused += 1
            return
        now = self._now()
        self._budget = min(float(RESEND_BUDGET), self._budget + (now - self._budget_at) * RESEND_BUDGET / 60.0)
        self._budget_at = now
        rows = self._outbox.sent(lo, hi)[: int(self._budget)]
        if not rows:
            self.resend_refused += 1
            return
        self._budget -= len(rows)
        for _, payload in rows:
            self._client.publish(self.events_topic, payload, qos=QOS)
        self.resent += len(rows)
        LOG.info("table %s: resent events %d-%d on request", self.settings.table_id, rows[0][0], rows[-1][0])

    def _flush(self) -> None:
        """Hand the backlog to paho, in order, once paho resent what it held from before."""
        if not (self._online and not self._stale and self._backlog):
            return
        while self._backlog:
            seq, payload = self._backlog.popleft()
            self._inflight[self._client.publish(self.events_topic, payload, qos=QOS).mid] = seq
        if self._latest_state is not None:
            self._client.publish(self.state_topic, self._latest_state, qos=QOS, retain=True)


# -- the director side -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FeedMessage:
    """One delivery to the director.

    ``leaf`` is "events", "state" or "status" (checked data from the table), or
    "gap" (from the listener: ``data = {"missing": [[lo, hi], ...], "lost": [[lo, hi], ...]}``
    whenever the table's missing ranges change). ``refill`` marks an event that
    arrived late, on a resend, to fill a gap: it is older than the board shown.
    """

    table: str
    leaf: str
    data: dict[str, Any]
    event_slug: str = ""
    received_at: float = 0.0  # time.time() when the listener got it
    refill: bool = False


@dataclass(frozen=True, slots=True)
class BrokerStatus:
    """The director's link to the broker: ``state`` is "connecting", "up" or "down"."""

    state: str
    address: str
    text: str
    since: float

    def as_dict(self) -> dict[str, Any]:
        return {"state": self.state, "address": self.address, "text": self.text, "since": self.since}


@dataclass
class _Stream:
    slug: str = ""
    stream: str = ""
    last_seq: int = 0
    duplicates: int = 0
    missing: list[list[int]] = field(default_factory=list)  # [lo, hi] ranges, oldest first
    lost: list[list[int]] = field(default_factory=list)  # the last MAX_RANGES ranges given up
    lost_total: int = 0
    filled: int = 0
    asked_at: float = 0.0
    tries: int = 0


def _count(ranges: list[list[int]]) -> int:
    return sum(hi - lo + 1 for lo, hi in ranges)


class _RateLog:
    """At most ``burst`` log lines per ``window`` seconds; then one line with what was held back."""

    def __init__(self, logger: logging.Logger, burst: int, window: float, clock: Callable[[], float]) -> None:
        self.logger, self.burst, self.window, self._now = logger, burst, window, clock
        self._start = clock()
        self._lines = 0
        self._held: collections.Counter[str] = collections.Counter()

    def warning(self, key: str, text: str) -> None:
        now = self._now()
        if now - self._start >= self.window:
            if self._held:
                held = ", ".join(f"{k} {n}" for k, n in sorted(self._held.items()))
                self.logger.warning("... and %d more not logged (%s)", sum(self._held.values()), held)
            self._start, self._lines, self._held = now, 0, collections.Counter()
        if self._lines < self.burst:
            self._lines += 1
            self.logger.warning("%s", text)
        else:
            self._held[key] += 1


class FeedListener:
    """Subscribes to every table of an event (``event_slug="+"``: all events).

    ``on_message(FeedMessage)`` runs on paho's thread, once per event in seq
    order; duplicates (QoS 1 redeliveries) are dropped and counted; malformed
    messages are counted in :attr:`rejected` by reason and logged, rate-limited.
    ``on_status(BrokerStatus)`` runs whenever the link to the broker changes.
    Call :meth:`tick` about once a second to re-ask for gaps (the director does).
    """

    def __init__(
        self,
        settings: FeedSettings,
        on_message: Callable[[FeedMessage], None],
        clock: Callable[[], float] | None = None,
        *,
        on_status: Callable[[BrokerStatus], None] | None = None,
        max_tables: int = 200,
        max_jump: int = 10_000,
        max_payload: int = MAX_PAYLOAD,
        max_resend: int = 500,
        resend_after: float = 5.0,
        resend_tries: int = 3,
        log_burst: int = 20,
        logger: logging.Logger = LOG,
    ) -> None:
        self.settings = settings
        self._on_message = on_message
        self._on_status = on_status
        self._now = clock or time.time
        self.max_tables, self.max_jump, self.max_payload = max_tables, max_jump, max_payload
        self.max_resend, self.resend_after, self.resend_tries = max_resend, resend_after, resend_tries
        self.log = logger
        self._rate_log = _RateLog(logger, log_burst, 60.0, self._now)
        self._streams: dict[str, _Stream] = {}
        self._lock = threading.RLock()
        self._done = threading.Condition()  # its own lock: a waiting predicate may read anything
        self.processed = 0  # messages taken from the broker, good or bad
        self.accepted = 0
        self.rejected: collections.Counter[str] = collections.Counter()
        self.client_id = settings.client_id or f"tavli-director-{settings.event_slug.replace('+', 'all')}"
        self._client = make_client(settings, self.client_id, clean_session=False)
        self._client.on_connect = self._on_connect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_mqtt
        self._client.on_subscribe = self._on_subscribe
        self.connected = threading.Event()
        self.address = f"{settings.host}:{settings.port}"
        self.status = BrokerStatus("connecting", self.address, f"connecting to the broker at {self.address}",
                                   self._now())
        self.last_error: str = ""
        self._closing = False
        self._status_changed = threading.Condition()

    # -- API ------------------------------------------------------------------------
    def start(self) -> None:
        self.log.info("connecting to the MQTT broker at %s (event %r)", self.address, self.settings.event_slug)
        self._client.connect_async(self.settings.host, self.settings.port, self.settings.keepalive)
        self._client.loop_start()

    def close(self) -> None:
        self._closing = True
        self._client.disconnect()
        self._client.loop_stop()

    def stats(self, table: str) -> dict[str, Any]:
        with self._lock:
            st = self._streams.get(table, _Stream())
            return {"stream": st.stream, "last_seq": st.last_seq, "duplicates": st.duplicates,
                    "missing": [list(r) for r in st.missing], "lost": [list(r) for r in st.lost],
                    "lost_total": st.lost_total, "filled": st.filled, "tries": st.tries}

    def counts(self) -> dict[str, Any]:
        """Messages accepted, and refused by reason (a copy; any thread)."""
        with self._lock:
            return {"accepted": self.accepted, "refused": dict(self.rejected)}

    @property
    def tables(self) -> int:
        with self._lock:
            return len(self._streams)

    def wait_processed(self, n: int, timeout: float) -> bool:
        """Block until ``n`` messages were taken from the broker (tests and benches)."""
        with self._done:
            return self._done.wait_for(lambda: self.processed >= n, timeout)

    def wait_status(self, state: str, timeout: float) -> bool:
        """Block until the link to the broker is in ``state`` ("up", "down", "connecting")."""
        with self._status_changed:
            return self._status_changed.wait_for(lambda: self.status.state == state, timeout)

    def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block until ``predicate()`` holds, checked after each message taken (tests and benches)."""
        with self._done:
            return self._done.wait_for(predicate, timeout)

    def tick(self) -> None:
        """Ask again for gaps not filled after ``resend_after`` s; give up after ``resend_tries`` asks."""
        now = self._now()
        reports: list[FeedMessage] = []
        with self._lock:
            for table, st in self._streams.items():
                if not st.missing or now - st.asked_at < self.resend_after:
                    continue
                if st.tries < self.resend_tries:
                    self._ask(table, st, now)
                    continue
                gone = st.missing
                st.missing, st.tries = [], 0
                self._give_up(st, gone)
                self.log.warning("table %s: events %s never came back after %d resend requests",
                                 table, _ranges_text(gone), self.resend_tries)
                reports.append(self._gap_message(table, st))
        for m in reports:
            self._on_message(m)

    # -- the link to the broker (paho's thread) ------------------------------------------
    def _set_status(self, state: str, text: str) -> None:
        old = self.status
        if old.state == state and old.text == text:
            return
        # the new status is in place before the log says it (a reader of the log who then asks the
        # director's page finds it), and the log says it before anyone waiting on the status hears of
        # it (a waiter finds the line in the log): both under the lock a waiter wakes on
        with self._status_changed:
            self.status = BrokerStatus(state, self.address, text, self._now())
            if state == "up":
                self.log.info("broker %s: %s", self.address, text)
            else:
                self.log.error("broker %s: %s", self.address, text)
            self._status_changed.notify_all()
        if self._on_status is not None:
            self._on_status(self.status)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        text = describe_connect_error(getattr(client, "connect_error", None), self.settings.host, self.settings.port)
        self.last_error = text
        self._set_status("down", f"{text}; retrying every {self.settings.reconnect_max:g} s at most")

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            # CONNACK 4/5 (3.1.1) and 134/135 (5.0): bad user name or password, not authorised
            hint = "check --username/--password" if rc.value in (4, 5, 134, 135) else "see the broker's log"
            self.last_error = f"broker refused the connection: {rc} ({hint})"
            self._set_status("down", self.last_error)
            return
        self.last_error = ""
        base = f"tavli/{self.settings.event_slug}/table/+"
        # All at QoS 1. (QoS 0 for the retained state/status would keep superseded copies out of the
        # director's queue, but then the director sends nothing back for them and Nagle + delayed ACK
        # hold the next event ~40 ms: bench/bench_feed.py median 0.6 ms -> 7-24 ms.)
        client.subscribe([(f"{base}/events", QOS), (f"{base}/state", QOS), (f"{base}/status", QOS)])

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        self.connected.clear()
        if self.status.state == "up" and not self._closing:
            self._set_status("down", f"lost the broker ({rc}); reconnecting")

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, rcs: Any, props: Any = None) -> None:
        if any(getattr(r, "is_failure", False) for r in rcs):
            self._set_status("down", f"the broker refused the subscription ({rcs}): check the broker's ACL")
            return
        self.connected.set()  # subscribed: from now on the broker keeps our events in the session
        self._set_status("up", "connected and subscribed")

    # -- messages (paho's thread) -------------------------------------------------------
    def _on_mqtt(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        name = "?"
        try:
            name = msg.topic
            self._take(name, bytes(msg.payload))
        except BadMessage as exc:
            self._reject(exc.reason, name, exc.detail)
        except Exception as exc:  # noqa: BLE001  the last guard: one message never stops the director
            self._reject("internal", name, f"{type(exc).__name__}: {exc}")
            self.log.exception("feed message on %r broke the director's handler", name[:120])
        finally:
            with self._done:
                self.processed += 1
                self._done.notify_all()

    def _reject(self, reason: str, name: str, detail: str) -> None:
        with self._lock:
            self.rejected[reason] += 1
        self._rate_log.warning(reason, f"bad feed message on {name[:120]!r} dropped: {detail}")

    def _admit(self, table: str) -> _Stream:
        st = self._streams.get(table)
        if st is None:
            if len(self._streams) >= self.max_tables:
                raise BadMessage("tables", f"table {table!r} would be over the {self.max_tables} tables followed"
                                           " (pass a larger max_tables)")
            st = self._streams[table] = _Stream()
        return st

    def _take(self, name: str, payload: bytes) -> None:
        t = parse_topic(name)
        now = self._now()
        if t.leaf == "status":
            status = check_status(payload)
            with self._lock:
                self._admit(t.table)
            self._deliver(FeedMessage(t.table, "status", {"status": status}, t.event_slug, now))
            return
        data = parse_payload(payload, self.max_payload)
        if t.leaf == "state":
            check_state_message(data, t.table)
            with self._lock:
                st = self._admit(t.table)
                if st.stream and data["stream"] == st.stream and data["seq"] > st.last_seq + self.max_jump:
                    raise BadMessage("seq", f"table {t.table}: state seq {data['seq']} is over {self.max_jump}"
                                            f" past the last event {st.last_seq}")
                if st.stream and data["stream"] != st.stream and data["seq"] > self.max_jump:
                    raise BadMessage("stream", f"table {t.table}: state of stream {data['stream']!r} at seq"
                                               f" {data['seq']}, over {self.max_jump}; the table's stream is"
                                               f" {st.stream!r}")
            self._deliver(FeedMessage(t.table, "state", data, t.event_slug, now))
            return
        check_event(data, t.table)
        verdict, gap = self._accept(t.table, t.event_slug, data["stream"], data["seq"], now)
        if verdict == "dup":
            return
        self._deliver(FeedMessage(t.table, "events", data, t.event_slug, now, refill=verdict == "fill"))
        if gap is not None:
            self._on_message(gap)

    def _deliver(self, m: FeedMessage) -> None:
        with self._lock:
            self.accepted += 1
        self._on_message(m)

    def _accept(self, table: str, slug: str, stream: str, seq: int, now: float) -> tuple[str, FeedMessage | None]:
        """("new" | "fill" | "dup", a "gap" message when the missing ranges changed)."""
        with self._lock:
            st = self._admit(table)
            if stream != st.stream:
                if st.stream and seq > self.max_jump:
                    raise BadMessage("stream", f"table {table}: stream {stream!r} starts at seq {seq}, over"
                                               f" {self.max_jump}; the table's stream is {st.stream!r}")
                # first sight, or a table restarted without its outbox: a new numbering, followed from here
                st.slug, st.stream, st.last_seq, st.missing, st.tries = slug, stream, seq, [], 0
                return "new", None
            if seq <= st.last_seq:
                for i, (lo, hi) in enumerate(st.missing):
                    if lo <= seq <= hi:
                        parts = [r for r in ([lo, seq - 1], [seq + 1, hi]) if r[0] <= r[1]]
                        st.missing[i:i + 1] = parts
                        st.filled += 1
                        if len(st.missing) > MAX_RANGES:
                            self._give_up(st, [st.missing.pop(0)])
                        if not st.missing:
                            st.tries = 0
                        return "fill", self._gap_message(table, st) if not parts else None
                st.duplicates += 1
                return "dup", None
            if seq > st.last_seq + self.max_jump:
                raise BadMessage("seq", f"table {table}: seq {seq} jumps over {self.max_jump} past {st.last_seq}")
            gap: FeedMessage | None = None
            if seq > st.last_seq + 1:
                st.missing.append([st.last_seq + 1, seq - 1])
                while len(st.missing) > MAX_RANGES:
                    self._give_up(st, [st.missing.pop(0)])
                self.log.warning("table %s: events %d-%d missing; asking the table to resend",
                                 table, st.last_seq + 1, seq - 1)
                st.tries = 0
                self._ask(table, st, now)
                gap = self._gap_message(table, st)
            st.last_seq = seq
            return "new", gap

    def _give_up(self, st: _Stream, ranges: list[list[int]]) -> None:
        st.lost = (st.lost + ranges)[-MAX_RANGES:]
        st.lost_total += _count(ranges)

    def _gap_message(self, table: str, st: _Stream) -> FeedMessage:
        return FeedMessage(table, "gap", {"missing": [list(r) for r in st.missing], "lost": [list(r) for r in st.lost],
                                          "stream": st.stream}, st.slug, self._now())

    def _ask(self, table: str, st: _Stream, now: float) -> None:
        """Publish one resend request per missing range (at most ``max_resend`` seqs each)."""
        st.asked_at, st.tries = now, st.tries + 1
        name = topic(st.slug, table, "resend")
        for lo, hi in st.missing:
            body = {"stream": st.stream, "from": lo, "to": min(hi, lo + self.max_resend - 1), "by": self.client_id}
            self._client.publish(name, json.dumps(body, separators=(",", ":")), qos=QOS)


def _ranges_text(ranges: list[list[int]]) -> str:
    return ", ".join(f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in ranges)
