"""A running director under hostile MQTT traffic through a real Mosquitto.

Hundreds of malformed, huge, repeated and foreign messages on the topics the
director follows; then a well-behaved table must still show exactly the state a
clean feed gives, memory must stay bounded (tracemalloc), and a director
restarted with the same persistent client id must survive the bad messages the
broker queued or retained for it. Network waits are on conditions, never sleeps.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import subprocess
import sys
import threading
import tracemalloc
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tavli_pi.referee.events import to_dict
from tavli_pi.tournament.director import Director
from tavli_pi.tournament.feed import FeedSettings, TableFeed, topic

from .conftest import Broker, free_port
from .match_stream import match_events
from .test_director import fold
from .test_feed_check import BAD_EVENTS, BAD_STATES

WAIT = 30.0
EVENT = "athens-open"
MAX_TABLES = 50
SHOWN = ("seq", "phase", "players", "score", "match_length", "crawford", "game_number", "cube_value",
         "cube_owner", "dice", "clocks", "last", "result", "alerts")


class Raw:
    """Another MQTT client on the same broker: publishes whatever it likes (QoS 1)."""

    def __init__(self, b: Broker, client_id: str = "hostile") -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.max_queued_messages_set(0)
        self.client.max_inflight_messages_set(50)
        self.client.connect(b.host, b.port)
        self.client.loop_start()
        self.infos: list[mqtt.MQTTMessageInfo] = []

    def send(self, name: str, payload: bytes | str, retain: bool = False) -> None:
        self.infos.append(self.client.publish(name, payload, qos=1, retain=retain))

    def flush(self) -> None:
        for info in self.infos:
            info.wait_for_publish(WAIT)
        self.infos = []

    def close(self) -> None:
        self.flush()
        self.client.disconnect()
        self.client.loop_stop()


def start_director(b: Broker, client_id: str = "dash-hostile") -> Director:
    d = Director(FeedSettings(host=b.host, port=b.port, event_slug="+", client_id=client_id,
                              reconnect_min=0.2, reconnect_max=1.0), port=0, max_tables=MAX_TABLES)
    d.start()
    assert d.listener.connected.wait(WAIT), d.listener.last_error
    return d


@pytest.fixture
def table7(broker: Broker) -> Iterator[TableFeed]:
    with TableFeed(FeedSettings(host=broker.host, port=broker.port, event_slug=EVENT, table_id="7",
                                reconnect_min=0.2, reconnect_max=1.0)) as feed:
        yield feed


def page_table(d: Director, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{d.server.url}api/tables", timeout=WAIT) as r:  # the real page's JSON
        data = json.load(r)
    return next(t for t in data["tables"] if t["table"] == table)


def hostile_round(raw: Raw, r: int, real: list[bytes], stream: str) -> int:
    """Publish one round of bad traffic; returns how many messages reach the director's subscription."""
    ev, st, status = (topic(EVENT, "7", leaf) for leaf in ("events", "state", "status"))
    n = 0
    for _, payload, _ in BAD_EVENTS:  # every malformed event of test_feed_check, on the good table's topic
        raw.send(ev, payload)
        n += 1
    for _, payload in BAD_STATES:
        raw.send(st, payload)
        n += 1
    raw.send(topic(EVENT, "99", "state"), b"\x89PNG garbage", retain=True)  # a malformed retained state
    n += 1
    for bad in (b"", b"ONLINE", b"online; DROP TABLE", b"\xff" * 500):
        raw.send(status, bad)
        n += 1
    for i in range(60):  # a flood of repeats of the table's own events (QoS 1 duplicates)
        raw.send(ev, real[i % len(real)])
        n += 1
    good = json.loads(real[-1])
    for seq, s in ((20_000_000, stream), (10**12, stream), (50_000, "evil"), (10**30, stream)):
        raw.send(ev, json.dumps({**good, "seq": seq, "stream": s}))  # a seq far ahead; a foreign stream
        n += 1
    for i in range(120):  # more tables than the director follows (valid status messages)
        raw.send(topic(EVENT, f"x{r}-{i}", "status"), b"online")
        n += 1
    for name in ("tavli//table//events", "tavli/a b/table/7/events", f"tavli/{EVENT}/table/{'7' * 65}/events",
                 f"tavli/{EVENT}/table/7/events/extra", "tavli/x/table/7", "junk/1"):
        raw.send(name, real[0])
        n += 1 if name.count("/") == 4 else 0  # only 5-level names match the director's subscription
    raw.flush()
    return n


def test_director_survives_hundreds_of_hostile_messages(broker: Broker, table7: TableFeed,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    events = match_events(3)
    half = len(events) // 2
    d = start_director(broker)
    raw = Raw(broker)
    try:
        for e in events[:half]:
            table7.publish(e)
        assert table7.wait_delivered(WAIT)
        assert d.listener.wait_processed(half + 2, WAIT)  # the events, the state and the status
        real = [json.dumps({**to_dict(e), "seq": i, "stream": table7.stream, "table": "7"}).encode()
                for i, e in enumerate(events[:half], 1)]

        tracemalloc.start()
        try:
            lst = d.listener

            def dealt_with() -> int:  # every hostile message: refused, a duplicate, or a table admitted
                return sum(lst.rejected.values()) + int(lst.stats("7")["duplicates"]) + lst.tables - 1

            sent = hostile_round(raw, 0, real, table7.stream)  # warm-up: the table cap fills here
            assert lst.wait_until(lambda: dealt_with() == sent, WAIT), (dealt_with(), sent)
            gc.collect()
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            for r in (1, 2, 3):
                sent += hostile_round(raw, r, real, table7.stream)
            assert lst.wait_until(lambda: dealt_with() == sent, WAIT), (dealt_with(), sent)
            gc.collect()
            now, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        growth, spike = now - base, peak - base
        print(f"\nhostile messages: {sent}; rejected {sum(d.listener.rejected.values())} "
              f"{dict(d.listener.rejected)}; duplicates {d.listener.stats('7')['duplicates']}; "
              f"memory growth over 3 rounds {growth / 1024:.0f} KiB, peak +{spike / 1024:.0f} KiB")
        assert sent >= 800
        assert growth < 512 * 1024  # three more rounds of garbage leave nothing behind
        assert spike < 16 * 1024 * 1024  # "seq": 20000000 allocates no per-gap state
        assert d.listener.tables == MAX_TABLES and len(d.dashboard.tables()) <= MAX_TABLES
        rejected = d.listener.rejected
        assert rejected["tables"] == 120 * 4 - (MAX_TABLES - 1)
        for reason in ("field", "kind", "size", "depth", "json", "encoding", "status", "topic", "seq", "stream"):
            assert rejected[reason] > 0, reason
        assert rejected["internal"] == 0  # no message reached a bug
        assert d.listener.stats("7")["duplicates"] == 60 * 4
        assert d.listener.stats("7")["missing"] == []  # a rejected seq opened no gap
        logged = [r for r in caplog.records if "bad feed message" in r.getMessage()]
        assert len(logged) == 20  # rate-limited: the first 20 of the minute, the rest counted

        # the well-behaved table goes on; the page shows exactly what a clean feed gives
        for e in events[half:]:
            table7.publish(e)
        assert table7.wait_delivered(WAIT)
        assert d.listener.wait_until(  # the last event reached the dashboard
            lambda: any(t["table"] == "7" and t["seq"] == len(events) for t in d.dashboard.tables()), WAIT)
        with urllib.request.urlopen(f"{d.server.url}api/tables", timeout=WAIT) as r:
            assert json.load(r)["broker"]["refused"] == dict(d.listener.rejected)  # the page counts them too
        shown = page_table(d, "7")
        want = fold(events)
        assert {k: shown[k] for k in SHOWN} == {k: want[k] for k in SHOWN}
        assert shown["online"] is True and shown["result"].startswith("Match:")
    finally:
        raw.close()
        d.close()


def test_restart_with_the_same_client_id_survives_queued_and_retained_garbage(
        broker: Broker, table7: TableFeed) -> None:
    events = match_events(1)
    d = start_director(broker, "dash-restart")
    d.close()  # the broker keeps this director's session (clean_session=False) and queues for it
    raw = Raw(broker)
    ev = topic(EVENT, "7", "events")
    poison: list[bytes | str] = [json.dumps({**to_dict(events[0]), "seq": 10**30, "stream": "s"}), json.dumps({
        **to_dict(events[0]), "seq": 20_000_000, "stream": "s"}), b"\xff\xfe", b"[" * 5000]
    for p in poison:
        raw.send(ev, p)
    raw.send(topic(EVENT, "66", "state"), b'{"seq": 1e400, "state": []}', retain=True)  # stays on the broker
    raw.flush()
    for e in events[:5]:
        table7.publish(e)
    assert table7.wait_delivered(WAIT)
    try:
        for restart in range(3):
            d = start_director(broker, "dash-restart")
            try:
                assert d.listener.wait_until(
                    lambda: d.listener.rejected["field"] + d.listener.rejected["json"] > 0
                    and any(t["table"] == "7" and t["seq"] >= 5 + restart for t in d.dashboard.tables()), WAIT)
                assert d.listener.rejected["internal"] == 0
                table7.publish(events[5 + restart])  # still alive: the next event gets through
                assert table7.wait_delivered(WAIT)
                assert d.listener.wait_until(lambda: page_table(d, "7")["seq"] == 6 + restart, WAIT)
            finally:
                d.close()
    finally:
        raw.close()


# -- the real command, its resident memory ------------------------------------------------


class PageWatcher:
    """A websocket client of the director's page: waits for a table's seq (event-driven, no polling)."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http://", "ws://") + "ws"
        self.seen: dict[str, int] = {}
        self.cond = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.task = asyncio.run_coroutine_threadsafe(self._run(), self.loop)

    async def _run(self) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.url) as ws:
            async for msg in ws:
                data = msg.json()
                tables = data.get("tables", []) if data["type"] == "snapshot" else (
                    [data["table"]] if data["type"] == "table" else [])
                with self.cond:
                    for t in tables:
                        self.seen[t["table"]] = t["seq"]
                    self.cond.notify_all()

    def wait_seq(self, table: str, seq: int) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.seen.get(table, 0) >= seq, WAIT)

    def close(self) -> None:
        """After the director stopped: the websocket has closed and ``_run`` returns."""
        try:
            self.task.result(WAIT)
        except Exception:  # noqa: BLE001  a reset socket ends it too
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_the_director_command_keeps_its_memory_under_a_flood(broker: Broker, table7: TableFeed) -> None:
    """The issue's repro in a real `tavli-pi director` process: RSS, not tracemalloc."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tavli_pi.cli", "director", "--broker",
                             f"{broker.host}:{broker.port}", "--port", str(port), "--client-id", "dash-rss"],
                            cwd=Path(__file__).resolve().parents[2], env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    started = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "director page on" in line:
                started.set()

    threading.Thread(target=read, daemon=True).start()
    raw = Raw(broker, "hostile-rss")
    page = None
    try:
        assert started.wait(WAIT)
        page = PageWatcher(f"http://127.0.0.1:{port}/")
        events = match_events(3)
        real = []
        for i, e in enumerate(events[:10], 1):
            table7.publish(e)
            real.append(json.dumps({**to_dict(e), "seq": i, "stream": table7.stream, "table": "7"}).encode())
        assert table7.wait_delivered(WAIT) and page.wait_seq("7", 10)
        hostile_round(raw, 0, real, table7.stream)  # warm-up
        table7.publish(events[10])
        assert table7.wait_delivered(WAIT) and page.wait_seq("7", 11)  # after every hostile message
        before = rss_kib(proc.pid)
        for r in range(1, 6):
            hostile_round(raw, r, real, table7.stream)
        table7.publish(events[11])  # the broker delivers it after the flood: its arrival means all were taken
        assert table7.wait_delivered(WAIT) and page.wait_seq("7", 12)
        after = rss_kib(proc.pid)
        print(f"\ndirector RSS {before / 1024:.1f} MiB -> {after / 1024:.1f} MiB after 5 more hostile rounds")
        assert after - before < 20 * 1024  # before the fix, "seq": 20000000 alone took ~780 MB
        assert proc.poll() is None
    finally:
        raw.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(WAIT) == 130
        if page is not None:
            page.close()
