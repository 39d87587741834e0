"""The MQTT feed against a real Mosquitto: whole matches, broker restarts, auth, TLS.

Network waits are on conditions with timeouts, never sleeps.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tavli_pi.errors import FeedError
from tavli_pi.referee.events import from_dict, to_dict
from tavli_pi.tournament.feed import (
    FeedListener,
    FeedMessage,
    FeedSettings,
    Outbox,
    TableFeed,
    make_client,
    parse_broker,
    topic,
)

from .conftest import PASSWORD, USER, Broker
from .match_stream import match_events

WAIT = 30.0


class Collector:
    """What the director received, with a condition to wait on."""

    def __init__(self) -> None:
        self.messages: list[FeedMessage] = []
        self.cond = threading.Condition()

    def __call__(self, m: FeedMessage) -> None:
        with self.cond:
            self.messages.append(m)
            self.cond.notify_all()

    def events(self, table: str = "7") -> list[dict]:  # type: ignore[type-arg]
        with self.cond:
            return [m.data for m in self.messages if m.leaf == "events" and m.table == table]

    def wait_events(self, n: int, table: str = "7") -> list[dict]:  # type: ignore[type-arg]
        with self.cond:
            self.cond.wait_for(lambda: len(self.events(table)) >= n, WAIT)
        return self.events(table)

    def wait_status(self, value: str, table: str = "7") -> bool:
        with self.cond:
            return self.cond.wait_for(
                lambda: any(m.leaf == "status" and m.table == table and m.data["status"] == value
                            for m in self.messages), WAIT)


def settings(b: Broker, **kw: object) -> FeedSettings:
    base: dict[str, object] = {"host": b.host, "port": b.port, "event_slug": "athens-open", "table_id": "7",
                               "reconnect_min": 0.2, "reconnect_max": 1.0}
    return FeedSettings(**{**base, **kw})  # type: ignore[arg-type]


def listen(b: Broker, **kw: object) -> tuple[FeedListener, Collector]:
    got = Collector()
    lst = FeedListener(settings(b, **{"client_id": "director-test", **kw}), got)
    lst.start()
    assert lst.connected.wait(WAIT), lst.last_error
    return lst, got


# -- pure parts ---------------------------------------------------------------


def test_topics_and_broker_addresses() -> None:
    assert topic("athens-open", "7", "state") == "tavli/athens-open/table/7/state"
    assert topic("+", "+", "events") == "tavli/+/table/+/events"
    with pytest.raises(FeedError, match="table id"):
        topic("ev", "a/b", "state")
    assert parse_broker("broker.local:8883") == ("broker.local", 8883)
    assert parse_broker("broker.local") == ("broker.local", 1883)
    with pytest.raises(FeedError, match="HOST:PORT"):
        parse_broker("broker:port")


def test_sqlite_outbox_keeps_stream_numbering_and_unacked(tmp_path: Path) -> None:
    path = str(tmp_path / "outbox.sqlite")
    box = Outbox(path)
    stream = box.stream
    assert [box.add("t", {"n": i})[0] for i in range(3)] == [1, 2, 3]
    box.ack(1)
    box.close()
    box = Outbox(path)
    assert box.stream == stream and [s for s, _, _ in box.pending()] == [2, 3]
    seq, payload = box.add("t", {"n": 9})
    assert seq == 4 and json.loads(payload) == {"n": 9, "seq": 4, "stream": stream}
    assert Outbox(None).stream != stream  # a memory outbox is a new stream each time


def test_outbox_of_an_older_version_keeps_its_unacked_rows_and_answers_resends(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE outbox (seq INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload TEXT NOT NULL);"
                     "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                     "INSERT INTO meta VALUES ('stream', 'old1'), ('last_seq', '2');"
                     "INSERT INTO outbox VALUES (1, 't', '{\"seq\":1}'), (2, 't', '{\"seq\":2}');")
    db.commit()
    db.close()
    box = Outbox(str(path), keep=2)
    assert box.stream == "old1" and [s for s, _, _ in box.pending()] == [1, 2]
    for _ in range(3):
        box.add("t", {})
    for seq in range(1, 6):
        box.ack(seq)
    assert box.sent(1, 10) == [(4, '{"seq":4,"stream":"old1"}'), (5, '{"seq":5,"stream":"old1"}')]  # the last 2
    assert len(box) == 0
    box.close()


def test_rate_limited_log_counts_what_it_holds_back(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from tavli_pi.tournament.feed import _RateLog

    now = [0.0]
    log = _RateLog(logging.getLogger("tavli_pi.test"), burst=3, window=60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, "tavli_pi.test"):
        for i in range(10):
            log.warning("json" if i % 2 else "size", f"bad {i}")
        now[0] = 61.0
        log.warning("json", "bad 10")
    assert [r.getMessage() for r in caplog.records] == [
        "bad 0", "bad 1", "bad 2", "... and 7 more not logged (json 4, size 3)", "bad 10"]


def test_bad_tls_files_are_a_feed_error(tmp_path: Path) -> None:
    with pytest.raises(FeedError, match="tls-ca"):
        make_client(FeedSettings(tls_ca=str(tmp_path / "missing.crt")), "x", True)


# -- against Mosquitto -----------------------------------------------------------


def test_whole_match_survives_a_broker_restart_without_loss_or_duplicates(broker: Broker) -> None:
    events = match_events(5)
    n = len(events)
    a, b_ = n // 3, 2 * n // 3
    lst, got = listen(broker)
    feed = TableFeed(settings(broker))
    feed.start()
    assert feed.connected.wait(WAIT)
    for e in events[:a]:
        feed.publish(e)
    got.wait_events(a // 2)  # part of the first third is through; the rest is in flight
    broker.stop()  # mid-match
    for e in events[a:b_]:  # the table keeps playing while the broker is down
        feed.publish(e)
    # publish only enqueues (its speed is measured in bench/bench_feed.py): every
    # event played while the broker is down waits in the outbox
    assert feed.pending >= b_ - a
    broker.start()
    for e in events[b_:]:
        feed.publish(e)
    assert feed.wait_delivered(WAIT)
    received = got.wait_events(n)
    assert [d["seq"] for d in received] == list(range(1, n + 1))
    assert [from_dict(d) for d in received] == events  # every event intact, in order
    assert lst.stats("7")["missing"] == [] and lst.stats("7")["lost_total"] == 0
    feed.close()
    lst.close()

    # a director arriving later gets the retained state of the last event
    late, got2 = listen(broker, client_id="late-director")
    with got2.cond:
        got2.cond.wait_for(lambda: any(m.leaf == "state" for m in got2.messages), WAIT)
        state = next(m.data for m in got2.messages if m.leaf == "state")
    assert state["seq"] == n and state["state"] == to_dict(events[-1])["state"]
    assert got2.wait_status("offline")  # the table closed
    late.close()


def test_restarted_table_resends_its_sqlite_outbox(broker: Broker, tmp_path: Path) -> None:
    events = match_events(1)
    outbox = str(tmp_path / "table7.sqlite")
    lst, got = listen(broker)
    broker.stop()
    feed = TableFeed(settings(broker, outbox_path=outbox))
    feed.start()
    for e in events[:5]:
        feed.publish(e)
    feed.close()  # the table reboots before the broker came back
    broker.start()
    feed = TableFeed(settings(broker, outbox_path=outbox))
    assert feed.pending == 5
    feed.start()
    for e in events[5:]:
        feed.publish(e)
    assert feed.wait_delivered(WAIT)
    received = got.wait_events(len(events))
    assert [d["seq"] for d in received] == list(range(1, len(events) + 1)), lst.stats("7")
    assert [d["kind"] for d in received] == [e.kind for e in events]
    feed.close()
    lst.close()


def test_redelivered_events_are_dropped_by_the_director(broker: Broker) -> None:
    lst, got = listen(broker)
    raw = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="raw")
    raw.connect(broker.host, broker.port)
    raw.loop_start()
    ev = to_dict(match_events(1)[0])
    t = topic("athens-open", "7", "events")
    for seq in (1, 2, 2, 1, 3):  # QoS 1 may deliver twice
        raw.publish(t, json.dumps({**ev, "seq": seq, "stream": "s1", "table": "7"}), qos=1).wait_for_publish(WAIT)
    raw.publish(t, b"not json", qos=1).wait_for_publish(WAIT)
    assert [d["seq"] for d in got.wait_events(3)] == [1, 2, 3]
    raw.publish(t, json.dumps({**ev, "seq": 4, "stream": "s1", "table": "7"}), qos=1).wait_for_publish(WAIT)
    assert [d["seq"] for d in got.wait_events(4)] == [1, 2, 3, 4]
    assert lst.stats("7")["duplicates"] == 2
    # a lost event (e.g. a broker queue overflow) is reported as a gap, not hidden
    raw.publish(t, json.dumps({**ev, "seq": 7, "stream": "s1", "table": "7"}), qos=1).wait_for_publish(WAIT)
    got.wait_events(5)
    with got.cond:
        gaps = [m.data for m in got.messages if m.leaf == "gap"]
    assert gaps == [{"missing": [[5, 6]], "lost": [], "stream": "s1"}]
    assert lst.stats("7")["missing"] == [[5, 6]]
    assert lst.rejected["json"] == 1  # the "not json" payload
    raw.loop_stop()
    raw.disconnect()
    lst.close()


def test_username_and_password(auth_broker: Broker) -> None:
    bad = FeedListener(settings(auth_broker, username=USER, password="wrong", client_id="bad"), lambda m: None)
    bad.start()
    assert bad.wait_status("down", WAIT)  # the broker's CONNACK refused us
    assert not bad.connected.is_set() and "password" in bad.last_error
    bad.close()

    lst, got = listen(auth_broker, username=USER, password=PASSWORD)
    with TableFeed(settings(auth_broker, username=USER, password=PASSWORD)) as feed:
        for e in match_events(1)[:4]:
            feed.publish(e)
        assert feed.wait_delivered(WAIT)
    assert [d["seq"] for d in got.wait_events(4)] == [1, 2, 3, 4]
    lst.close()


def test_tls_with_a_private_ca(tls_broker: Broker, tmp_path: Path) -> None:
    assert tls_broker.tls is not None
    ca = str(tls_broker.tls["ca"])
    lst, got = listen(tls_broker, tls_ca=ca)
    with TableFeed(settings(tls_broker, tls_ca=ca)) as feed:
        for e in match_events(1)[:3]:
            feed.publish(e)
        assert feed.wait_delivered(WAIT)
    assert [d["seq"] for d in got.wait_events(3)] == [1, 2, 3]
    lst.close()
