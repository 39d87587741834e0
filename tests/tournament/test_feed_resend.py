"""The resend protocol against a real Mosquitto that really drops messages.

The broker runs with ``max_queued_messages 5``: while the director is away it
keeps only the first 5 messages queued for it and drops the rest (Mosquitto's
own overflow rule). When the director is back, the next live event
shows the gap; the director asks ``tavli/<event>/table/<table>/resend`` and the
table answers from its outbox, or the gap is reported lost after the retries.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavli_pi.tournament.director import Dashboard
from tavli_pi.tournament.feed import FeedListener, FeedSettings, TableFeed, topic

from .conftest import Broker
from .match_stream import match_events
from .test_feed import WAIT, Collector, settings
from .test_feed_hostile import Raw


@pytest.fixture
def small_queue(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path, max_queued=5)
    b.start()
    try:
        yield b
    finally:
        b.stop()


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def director(b: Broker, got: Collector, clock: Clock | None = None) -> FeedListener:
    lst = FeedListener(settings(b, client_id="director-resend"), got, clock, resend_after=5.0, resend_tries=2)
    lst.start()
    assert lst.connected.wait(WAIT), lst.last_error
    return lst


def make_gap(b: Broker, feed: TableFeed, clock: Clock | None = None) -> tuple[FeedListener, Collector, list[int]]:
    """Events 1-3 seen; 4-13 published while the director is away; then 14 live.

    The broker keeps 5 messages for the away director (events, and the table's
    state and status: how many of each depends on how the table batched them)
    and drops the rest; returns the gap [lo, hi] the director found.
    """
    events = match_events(1)
    got = Collector()
    lst = director(b, got, clock)
    for e in events[:3]:
        feed.publish(e)
    assert feed.wait_delivered(WAIT) and len(got.wait_events(3)) == 3
    lst.close()
    for e in events[3:13]:
        feed.publish(e)
    assert feed.wait_delivered(WAIT)
    got = Collector()
    lst = director(b, got, clock)  # subscribed: the broker has sent the queue; event 14 comes after it
    feed.publish(events[13])
    with got.cond:
        assert got.cond.wait_for(lambda: any(m.leaf == "gap" for m in got.messages), WAIT)
        first_gap = next(i for i, m in enumerate(got.messages) if m.leaf == "gap")
        gap = got.messages[first_gap].data["missing"]
        before = [m.data["seq"] for m in got.messages[:first_gap] if m.leaf == "events"]
    assert before[-1] == 14  # the live event that showed the gap, just before the gap report
    queued = before[:-1]
    # (1-3 may come again: QoS 1 redelivers what the first director had not acknowledged when it closed)
    assert len(gap) == 1 and gap[0][1] == 13 and [q for q in queued if q >= 4] == list(range(4, gap[0][0]))
    assert gap[0][1] - gap[0][0] + 1 >= 5  # Mosquitto dropped at least 5 of the 10
    return lst, got, gap[0]


def test_a_gap_is_filled_by_a_resend_from_the_tables_outbox(small_queue: Broker) -> None:
    with TableFeed(settings(small_queue)) as feed:
        lst, got, (lo, hi) = make_gap(small_queue, feed)
        assert lst.wait_until(lambda: lst.stats("7")["filled"] == hi - lo + 1, WAIT)
        seqs = [d["seq"] for d in got.events()]
        assert len(seqs) == len(set(seqs)) and set(range(4, 15)) <= set(seqs)  # each exactly once
        with got.cond:
            refilled = [m.data["seq"] for m in got.messages if m.leaf == "events" and m.refill]
            gaps = [m.data for m in got.messages if m.leaf == "gap"]
        assert refilled == list(range(lo, hi + 1))
        assert gaps[-1] == {"missing": [], "lost": [], "stream": feed.stream}
        assert feed.resent == hi - lo + 1
        assert lst.stats("7")["filled"] == hi - lo + 1 and lst.stats("7")["missing"] == []

        d = Dashboard()
        for m in got.messages:
            d.apply(m)
        t = d.tables()[0]
        assert t["seq"] == 14 and t["refilled"] == hi - lo + 1  # the board is event 14's, never rewound by the refill
        assert [(a["kind"], a["open"]) for a in t["alerts"] if a["kind"].startswith("feed")] == [("feed_gap", False)]
        lst.close()


def test_a_gap_the_table_no_longer_has_is_reported_lost_after_the_retries(small_queue: Broker) -> None:
    clock = Clock()
    with TableFeed(settings(small_queue, keep_sent=0)) as feed:  # keeps nothing once acknowledged
        lst, got, (lo, hi) = make_gap(small_queue, feed, clock)
        assert lst.stats("7")["missing"] == [[lo, hi]] and lst.stats("7")["tries"] == 1
        lst.tick()
        assert lst.stats("7")["tries"] == 1  # not yet: resend_after is 5 s
        clock.t += 5
        lst.tick()
        assert lst.stats("7")["tries"] == 2  # asked again
        clock.t += 5
        lst.tick()  # two asks unanswered: given up
        st = lst.stats("7")
        assert st["missing"] == [] and st["lost"] == [[lo, hi]] and st["lost_total"] == hi - lo + 1
        with got.cond:
            gaps = [m.data for m in got.messages if m.leaf == "gap"]
        assert gaps[-1] == {"missing": [], "lost": [[lo, hi]], "stream": feed.stream}
        d = Dashboard()
        for m in list(got.messages):
            d.apply(m)
        lost = next(a for a in d.tables()[0]["alerts"] if a["kind"] == "feed_lost")
        assert lost["open"] and f"events {lo}-{hi}" in lost["text"]
        lst.close()


def test_the_table_ignores_bad_and_foreign_resend_requests(small_queue: Broker) -> None:
    got = Collector()
    lst = director(small_queue, got)
    raw = Raw(small_queue, "resend-spammer")
    with TableFeed(settings(small_queue)) as feed:
        for e in match_events(1)[:3]:
            feed.publish(e)
        assert feed.wait_delivered(WAIT) and len(got.wait_events(3)) == 3
        name = topic("athens-open", "7", "resend")
        for bad in (b"\xff", b"[]", b"{}", json.dumps({"stream": feed.stream, "from": 3, "to": 1}).encode(),
                    json.dumps({"stream": feed.stream, "from": "1", "to": 3}).encode(),
                    json.dumps({"stream": "other", "from": 1, "to": 3}).encode(), b"x" * 5000):
            raw.send(name, bad)
        raw.send(name, json.dumps({"stream": feed.stream, "from": 1, "to": 3}))  # a real request, answered
        raw.flush()
        assert lst.wait_until(lambda: lst.stats("7")["duplicates"] == 3, WAIT)
        assert feed.resent == 3 and feed.resend_refused == 7
        assert [d["seq"] for d in got.events()] == [1, 2, 3]  # the director took the answers as duplicates
    raw.close()
    lst.close()
