"""Tournament feed benchmark: table publish -> Mosquitto -> director -> websocket client.

Starts a real Mosquitto (persistence on, 127.0.0.1), a director (``Director``,
page on a free port), one websocket client of the page and one ``TableFeed``.

1. Latency: events are published one at a time (the next after the previous
   one reached the page); per event it records publish -> director received
   (paho callback) and publish -> websocket message in the client.
2. Throughput: a burst of events published back to back; events/s until the
   broker acknowledged all of them and until the page client saw the last one.
3. Hostile: a burst of malformed messages (tests/tournament/test_feed_check.BAD_EVENTS,
   round robin) from another client; messages/s until the director refused them all.

Usage: .venv/bin/python bench/bench_feed.py [--latency N] [--burst M] [--hostile K] [--sqlite]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tavli_pi.tournament.director import Director  # noqa: E402
from tavli_pi.tournament.feed import FeedSettings, TableFeed  # noqa: E402
from tests.tournament.conftest import Broker  # noqa: E402  (the test suite's Mosquitto launcher)
from tests.tournament.match_stream import match_events  # noqa: E402


class PageClient:
    """A websocket client of the director page on its own loop thread; records arrivals by seq."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http://", "ws://") + "ws"
        self.arrived: dict[tuple[str, int], tuple[float, float]] = {}  # (table, seq) -> (director got, page got)
        self.cond = threading.Condition()
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._run(), self.loop)

    async def _run(self) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.url) as ws:
            self.ready.set()
            async for msg in ws:
                now = time.time()
                if msg.type != aiohttp.WSMsgType.TEXT:
                    print("page client got", msg.type, msg.data, file=sys.stderr)
                    break
                data = msg.json()
                if data["type"] != "table":
                    continue
                t = data["table"]
                with self.cond:
                    self.arrived.setdefault((t["table"], t["seq"]), (t["received_at"], now))
                    self.cond.notify_all()

    def wait_seq(self, table: str, seq: int, timeout: float = 30.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: (table, seq) in self.arrived, timeout)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency", type=int, default=300, help="events for the latency run")
    ap.add_argument("--burst", type=int, default=3000, help="events for the throughput run")
    ap.add_argument("--hostile", type=int, default=3000, help="malformed messages for the hostile run")
    ap.add_argument("--sqlite", action="store_true", help="tables keep their outbox in a SQLite file")
    args = ap.parse_args()

    stream = match_events(11)
    tmp = Path(tempfile.mkdtemp(prefix="bench-mqtt-"))
    broker = Broker(tmp)
    broker.start()
    director = Director(FeedSettings(host=broker.host, port=broker.port, event_slug="+", client_id="bench-dir"),
                        port=0).start()
    assert director.listener.connected.wait(30)
    page = PageClient(director.server.url)
    assert page.ready.wait(30)
    try:
        # 1. latency, one event at a time
        feed = TableFeed(FeedSettings(host=broker.host, port=broker.port, event_slug="bench", table_id="1",
                                      outbox_path=str(tmp / "t1.sqlite") if args.sqlite else None))
        feed.start()
        assert feed.connected.wait(30)
        sent: dict[int, float] = {}
        for i in range(args.latency):
            seq = i + 1
            sent[seq] = time.time()
            feed.publish(stream[i % len(stream)])
            if not page.wait_seq("1", seq):
                raise SystemExit(f"event {seq} never reached the page")
        to_director = [(page.arrived["1", s][0] - sent[s]) * 1000 for s in sent]
        to_page = [(page.arrived["1", s][1] - sent[s]) * 1000 for s in sent]
        feed.close()

        # 2. throughput, a burst on a second table
        feed = TableFeed(FeedSettings(host=broker.host, port=broker.port, event_slug="bench", table_id="2",
                                      outbox_path=str(tmp / "t2.sqlite") if args.sqlite else None))
        feed.start()
        assert feed.connected.wait(30)
        t0 = time.perf_counter()
        for i in range(args.burst):
            feed.publish(stream[i % len(stream)])
        t_enqueued = time.perf_counter() - t0
        assert feed.wait_delivered(120)
        t_acked = time.perf_counter() - t0
        if not page.wait_seq("2", args.burst, 20):
            last = max((k[1] for k in page.arrived if k[0] == "2"), default=0)
            st = director.listener.stats("2")
            raise SystemExit(f"the page saw table 2 only up to seq {last}; director pushed {director.pushed};"
                             f" listener last_seq {st['last_seq']} missing {st['missing']} lost {st['lost_total']}"
                             f" dups {st['duplicates']}")
        t_page = time.perf_counter() - t0
        feed.close()

        # 3. hostile: malformed messages from another client, round robin over the test suite's bad inputs
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from tests.tournament.test_feed_check import BAD_EVENTS

        raw = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-hostile")
        raw.connect(broker.host, broker.port)
        raw.loop_start()
        lst = director.listener
        before = sum(lst.rejected.values())
        t0 = time.perf_counter()
        infos = [raw.publish("tavli/bench/table/7/events", BAD_EVENTS[i % len(BAD_EVENTS)][1], qos=1)
                 for i in range(args.hostile)]
        for info in infos:
            info.wait_for_publish(60)
        if not lst.wait_until(lambda: sum(lst.rejected.values()) - before >= args.hostile, 120):
            raise SystemExit(f"the director refused only {sum(lst.rejected.values()) - before} of {args.hostile}")
        t_hostile = time.perf_counter() - t0
        raw.disconnect()
        raw.loop_stop()
    finally:
        director.close()
        broker.stop()

    print("tavli-pi tournament feed benchmark (Mosquitto on 127.0.0.1, QoS 1, one table -> director -> page),"
          f" outbox: {'SQLite file' if args.sqlite else 'memory'}")
    print(f"latency over {args.latency} events, one at a time (ms):")
    for name, xs in (("publish -> director received", to_director), ("publish -> page websocket", to_page)):
        print(f"  {name:30s} median {statistics.median(xs):6.2f}  p95 {pct(xs, 95):6.2f}  max {max(xs):6.2f}")
    print(f"throughput, burst of {args.burst} events:")
    print(f"  publish() calls (enqueue only)  {args.burst / t_enqueued:10.0f} events/s"
          f"  ({t_enqueued / args.burst * 1e6:.1f} us per call)")
    print(f"  acknowledged by the broker      {args.burst / t_acked:10.0f} events/s")
    print(f"  arrived on the page             {args.burst / t_page:10.0f} events/s")
    print(f"hostile, burst of {args.hostile} malformed messages ({len(BAD_EVENTS)} kinds, sizes up to 1 MB):")
    print(f"  refused by the director         {args.hostile / t_hostile:10.0f} messages/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
