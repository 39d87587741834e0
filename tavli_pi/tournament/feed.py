"""The tournament feed over MQTT (paho-mqtt 2.x, any broker; tested on Mosquitto).

Topics, for an event slug and a table id (MQTT 3.1.1 topic names)::

    tavli/<event>/table/<table>/state    retained, QoS 1: {"seq", "stream", "table", "state": TableState}
    tavli/<event>/table/<table>/events   QoS 1: to_dict(event) + {"seq", "stream", "table"}
    tavli/<event>/table/<table>/status   retained: "online" / "offline" (the broker's will)

The table side (:class:`TableFeed`) never blocks the referee: ``publish()``
only puts the event on a queue. One worker thread numbers it (``seq`` grows by
one per table stream), stores it in the :class:`Outbox` (memory or SQLite) and
hands it to paho with QoS 1. paho keeps QoS 1 messages while the broker is away
and resends them in order after it reconnects; the outbox row is dropped only
when the broker acknowledges (PUBACK -> ``on_publish``), so a table restarted
with a SQLite outbox resends what was never acknowledged.

The director side (:class:`FeedListener`) subscribes with a persistent session
(``clean_session=False``, QoS 1), so the broker queues events while the
director is away (run Mosquitto with ``persistence true`` to survive broker
restarts), and delivers each (table, stream, seq) once, in order, however often
QoS 1 redelivers it.
"""

from __future__ import annotations

import collections
import json
import queue
import sqlite3
import ssl
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tavli_pi.errors import FeedError
from tavli_pi.referee.events import Event, to_dict

__all__ = [
    "FeedSettings",
    "Outbox",
    "TableFeed",
    "FeedListener",
    "FeedMessage",
    "topic",
    "parse_broker",
    "make_client",
]

QOS = 1


def topic(event_slug: str, table_id: str, leaf: str) -> str:
    """``tavli/<event>/table/<table>/<leaf>``; ``+`` wildcards are allowed for subscribing."""
    for name, part in (("event", event_slug), ("table", table_id)):
        if not part or "/" in part or "#" in part or (part != "+" and "+" in part):
            raise FeedError(f"bad {name} id {part!r} for a topic: use letters, digits, '-' or '_'")
    return f"tavli/{event_slug}/table/{table_id}/{leaf}"


def parse_broker(text: str, default_port: int = 1883) -> tuple[str, int]:
    """``"host"`` or ``"host:port"`` -> (host, port)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, default_port
    if not port.isdigit() or not host:
        raise FeedError(f"broker {text!r} is not HOST:PORT, e.g. localhost:1883")
    return host, int(port)


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


def make_client(settings: FeedSettings, client_id: str, clean_session: bool) -> mqtt.Client:
    """A paho client with credentials, TLS and reconnect delays from ``settings``."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
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


# -- the table side -------------------------------------------------------------


class Outbox:
    """Events not yet acknowledged by the broker, in order; memory or a SQLite file.

    Only the feed's worker thread touches it. The stream id and the last seq are
    kept with the rows, so a restarted table continues its numbering.
    """

    def __init__(self, path: str | None = None) -> None:
        try:
            self._db = sqlite3.connect(path or ":memory:", check_same_thread=False)
            self._db.executescript(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                "CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, topic TEXT NOT NULL,"
                " payload TEXT NOT NULL);"
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            )
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
            self._db.execute("INSERT INTO outbox VALUES (?, ?, ?)", (seq, topic_name, payload))
            self._db.execute("UPDATE meta SET value=? WHERE key='last_seq'", (str(seq),))
        self.last_seq = seq
        return seq, payload

    def ack(self, seq: int) -> None:
        with self._db:
            self._db.execute("DELETE FROM outbox WHERE seq=?", (seq,))

    def pending(self) -> Iterator[tuple[int, str, str]]:
        """(seq, topic, payload) of every unacknowledged event, oldest first."""
        yield from self._db.execute("SELECT seq, topic, payload FROM outbox ORDER BY seq").fetchall()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def close(self) -> None:
        self._db.close()


class TableFeed:
    """Publishes one table's events and state; survives broker outages.

    >>> feed = TableFeed(FeedSettings(host="broker.local", table_id="7"))  # doctest: +SKIP
    >>> feed.start(); feed.publish(event); feed.close()                     # doctest: +SKIP

    Order is kept across reconnects: paho resends what it had in flight right
    after the CONNACK, so new events wait until those are acknowledged.
    """

    def __init__(self, settings: FeedSettings) -> None:
        self.settings = settings
        s = settings
        self.events_topic = topic(s.event_slug, s.table_id, "events")
        self.state_topic = topic(s.event_slug, s.table_id, "state")
        self.status_topic = topic(s.event_slug, s.table_id, "status")
        self._outbox = Outbox(s.outbox_path)
        self._client = make_client(s, s.client_id or f"tavli-table-{s.event_slug}-{s.table_id}", True)
        self._client.will_set(self.status_topic, "offline", qos=QOS, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
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

    def _pending_rows(self) -> list[tuple[int, str]]:
        return [(seq, payload) for seq, _, payload in self._outbox.pending()]

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
            self._inbox.put(("up", None))
            self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        self.connected.clear()
        self._inbox.put(("down", None))

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, rc: Any, props: Any = None) -> None:
        self._inbox.put(("ack", mid))

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
    """One delivery to the director: ``leaf`` is "events", "state" or "status"."""

    table: str
    leaf: str
    data: dict[str, Any]
    event_slug: str = ""
    received_at: float = 0.0  # time.time() when the listener got it
    missed: tuple[int, ...] = ()  # seqs skipped just before this event (lost upstream)


@dataclass
class _Stream:
    stream: str = ""
    last_seq: int = 0
    duplicates: int = 0
    gaps: list[int] = field(default_factory=list)


class FeedListener:
    """Subscribes to every table of an event (``event_slug="+"``: all events).

    ``on_message(FeedMessage)`` runs on paho's thread, once per event in seq
    order; duplicates (QoS 1 redeliveries) are dropped and counted.
    """

    def __init__(
        self,
        settings: FeedSettings,
        on_message: Callable[[FeedMessage], None],
        clock: Callable[[], float] | None = None,
    ) -> None:
        import time

        self.settings = settings
        self._on_message = on_message
        self._now = clock or time.time
        self._streams: dict[str, _Stream] = {}
        self._lock = threading.Lock()
        cid = settings.client_id or f"tavli-director-{settings.event_slug.replace('+', 'all')}"
        self._client = make_client(settings, cid, clean_session=False)
        self._client.on_connect = self._on_connect
        self.connected = threading.Event()
        self._client.on_disconnect = lambda *a: self.connected.clear()
        self._client.on_message = self._on_mqtt
        self._client.on_subscribe = self._on_subscribe
        self.last_error: str = ""

    def start(self) -> None:
        self._client.connect_async(self.settings.host, self.settings.port, self.settings.keepalive)
        self._client.loop_start()

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def stats(self, table: str) -> dict[str, Any]:
        with self._lock:
            st = self._streams.get(table, _Stream())
            return {"stream": st.stream, "last_seq": st.last_seq, "duplicates": st.duplicates, "gaps": list(st.gaps)}

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            self.last_error = f"broker refused the connection: {rc} (check --username/--password)"
            return
        self.last_error = ""
        base = f"tavli/{self.settings.event_slug}/table/+"
        client.subscribe([(f"{base}/events", QOS), (f"{base}/state", QOS), (f"{base}/status", QOS)])

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, rcs: Any, props: Any = None) -> None:
        self.connected.set()  # subscribed: from now on the broker keeps our events in the session

    def _on_mqtt(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        parts = msg.topic.split("/")
        if len(parts) != 5 or parts[0] != "tavli" or parts[2] != "table":
            return
        slug, table, leaf = parts[1], parts[3], parts[4]
        if leaf == "status":
            data: dict[str, Any] = {"status": msg.payload.decode("utf-8", "replace")}
        else:
            try:
                data = json.loads(msg.payload)
                seq = int(data["seq"])
            except (ValueError, KeyError, TypeError):
                return  # not ours; a garbage payload never stops the dashboard
            if leaf == "events":
                missed = self._accept(table, str(data.get("stream", "")), seq)
                if missed is None:
                    return
                self._on_message(FeedMessage(table, leaf, data, slug, self._now(), missed))
                return
        self._on_message(FeedMessage(table, leaf, data, slug, self._now()))

    def _accept(self, table: str, stream: str, seq: int) -> tuple[int, ...] | None:
        """None for a duplicate, else the seqs missing before ``seq`` (usually none)."""
        with self._lock:
            st = self._streams.setdefault(table, _Stream())
            if stream != st.stream:  # a table restarted without its outbox: a new numbering
                st.stream, st.last_seq = stream, 0
            if seq <= st.last_seq:
                st.duplicates += 1
                return None
            missed = tuple(range(st.last_seq + 1, seq))
            st.gaps.extend(missed)
            st.last_seq = seq
            return missed
