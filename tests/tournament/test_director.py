"""The director: the dashboard model, the live page in real Chromium, the CLI command."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tavli_pi.commands.director import add_arguments, settings_from
from tavli_pi.referee.events import ClockReading, Event, to_dict
from tavli_pi.rules.position import Side
from tavli_pi.tournament.director import Dashboard, Director
from tavli_pi.tournament.feed import FeedMessage, FeedSettings, TableFeed

from .conftest import Broker, free_port
from .match_stream import PLAYERS, match_events

REPO = Path(__file__).resolve().parents[2]
WAIT = 30.0


def fold(events: list[Event], table: str = "7") -> dict[str, Any]:
    d = Dashboard()
    out: dict[str, Any] = {}
    for seq, e in enumerate(events, 1):
        out = d.apply(FeedMessage(table, "events", {**to_dict(e), "seq": seq}, "ev"))
    return out


def test_dashboard_summarises_a_whole_match() -> None:
    events = match_events(5)
    t = fold(events)
    assert t["players"] == list(PLAYERS) and t["match_length"] == 5 and t["score"] == [5, 1]
    assert t["seq"] == len(events) and t["phase"] == "match_over"
    assert t["result"] == f"Match: {PLAYERS[0]} (white) wins 5-1"
    kinds = [a["kind"] for a in t["alerts"]]
    assert {"illegal", "resolved", "clear_view"} <= set(kinds)
    assert not any(a["open"] for a in t["alerts"])  # the illegal play was corrected; the view cleared
    illegal = next(a for a in t["alerts"] if a["kind"] == "illegal")
    assert "points 6, 19" in illegal["text"] and "(M6)" in illegal["text"]


def test_dashboard_mid_match_alerts_and_crawford() -> None:
    events = match_events(5)
    illegal_at = next(i for i, e in enumerate(events) if e.kind == "illegal_play")
    t = fold(events[: illegal_at + 1])
    assert t["phase"] == "illegal" and t["alerts"][0]["open"]
    crawford_start = next(i for i, e in enumerate(events) if e.kind == "game_started" and e.state.crawford)
    t = fold(events[: crawford_start + 1])
    assert t["crawford"] is True and t["score"] == [4, 1]


def test_clock_flag_and_stale_state_do_not_rewind() -> None:
    events = match_events(1)
    last = events[-2]
    flag = ClockReading(at=last.at + 1, state=replace(last.state, clocks=(0.0, 55.0)), side=Side.WHITE,
                        remaining=(0.0, 55.0))
    d = Dashboard()
    for seq, e in enumerate([*events[:-1], flag], 1):
        t = d.apply(FeedMessage("7", "events", {**to_dict(e), "seq": seq}))
    assert t["alerts"][0]["kind"] == "flag_white" and "ran out of time" in t["alerts"][0]["text"]
    old = d.apply(FeedMessage("7", "state", {"seq": 3, "state": to_dict(events[2])["state"]}))
    assert old["seq"] == len(events) and old["clocks"] == [0.0, 55.0]  # a stale retained state is ignored
    assert d.apply(FeedMessage("7", "status", {"status": "offline"}))["online"] is False
    n = len(events)
    gap = d.apply(FeedMessage("7", "gap", {"missing": [[n + 1, n + 2]], "lost": []}))
    assert gap["alerts"][0]["kind"] == "feed_gap" and gap["alerts"][0]["open"]
    assert f"events {n + 1}-{n + 2} missing" in gap["alerts"][0]["text"]
    refill = d.apply(FeedMessage("7", "events", {**to_dict(events[1]), "seq": n + 1}, refill=True))
    assert refill["seq"] == n and refill["refilled"] == 1 and refill["clocks"] == [0.0, 55.0]  # no rewind
    lost = d.apply(FeedMessage("7", "gap", {"missing": [], "lost": [[n + 2, n + 2]]}))
    assert [a["kind"] for a in lost["alerts"][:1]] == ["feed_lost"] and "max_queued_messages" in lost["alerts"][0]["text"]
    assert not any(a["kind"] == "feed_gap" and a["open"] for a in lost["alerts"])
    assert [x["table"] for x in (d.apply(FeedMessage("12", "status", {"status": "online"})), )] == ["12"]
    assert [x["table"] for x in d.tables()] == ["7", "12"]  # numeric order


# -- the live page in Chromium ---------------------------------------------------------


@pytest.fixture
def director(broker: Broker) -> Iterator[Director]:
    d = Director(FeedSettings(host=broker.host, port=broker.port, event_slug="+", client_id="dash"), port=0)
    d.start()
    assert d.listener.connected.wait(WAIT)
    try:
        yield d
    finally:
        d.close()


def table_feed(b: Broker, table: str) -> TableFeed:
    return TableFeed(FeedSettings(host=b.host, port=b.port, event_slug="athens-open", table_id=table,
                                  reconnect_min=0.2, reconnect_max=1.0))


def test_page_shows_tables_and_updates_live(browser: Any, broker: Broker, director: Director) -> None:
    events = match_events(3)
    illegal_at = next(i for i, e in enumerate(events) if e.kind == "illegal_play")
    with table_feed(broker, "7") as t7, table_feed(broker, "12") as t12:
        for e in events[:illegal_at]:
            t7.publish(e)
        for e in events[:4]:
            t12.publish(e)
        assert t7.wait_delivered(WAIT) and t12.wait_delivered(WAIT)
        browser.get(director.server.url)
        wait = WebDriverWait(browser, WAIT, ignored_exceptions=[StaleElementReferenceException])
        card7 = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, '.card[data-table="7"]'))
        wait.until(lambda b: card7.get_attribute("data-seq") == str(illegal_at))
        assert card7.find_element(By.CSS_SELECTOR, ".white").text == PLAYERS[0]
        assert card7.find_element(By.CSS_SELECTOR, ".black").text == PLAYERS[1]
        assert card7.find_element(By.CSS_SELECTOR, ".length").text == "to 3"
        assert card7.find_element(By.CSS_SELECTOR, ".clock-white").text.startswith("⏱ ")
        assert browser.find_element(By.CSS_SELECTOR, '.card[data-table="12"]').get_attribute("data-seq") == "4"

        t7.publish(events[illegal_at])  # a new event: the open alert appears without a reload
        # (alert items are redrawn on every update, so read them inside the wait)
        text = wait.until(lambda b: card7.find_element(By.CSS_SELECTOR, ".alert.illegal.open").text)
        assert "points 6, 19" in text
        assert "alarm" in card7.get_attribute("class")

        for e in events[illegal_at + 1:]:
            t7.publish(e)
        wait.until(lambda b: "wins 3-1" in card7.find_element(By.CSS_SELECTOR, ".result").text)
        assert card7.find_element(By.CSS_SELECTOR, ".score").text == "3 – 1"
        assert card7.get_attribute("data-seq") == str(len(events))
        assert "alarm" not in card7.get_attribute("class")
    # closing a table feed marks it offline on the page
    wait.until(lambda b: "offline" in card7.get_attribute("class"))


# -- the command ------------------------------------------------------------------------


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def test_cli_arguments_become_feed_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVLI_MQTT_PASSWORD", "from-env")
    args = parse([ "--broker", "mqtt.club:8884", "--username", "td",
                                      "--tls-ca", "/etc/ca.crt", "--port", "9000", "--event", "athens-open"])
    s = settings_from(args)
    assert (s.host, s.port, s.username, s.password, s.tls_ca, s.event_slug) == (
        "mqtt.club", 8884, "td", "from-env", "/etc/ca.crt", "athens-open")
    assert args.port == "9000"
    assert settings_from(parse(["--tls-ca", "x", "--broker", "h"])).port == 8883


def test_cli_serves_the_page(broker: Broker) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tavli_pi.cli", "director", "--broker", f"{broker.host}:{broker.port}",
         "--host", "127.0.0.1", "--port", str(port)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        # started as a background job of a non-interactive shell is (SIGINT ignored, inherited):
        # Ctrl-C must still stop it (CI run in the background hung here for 30 s)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    ready = threading.Event()
    out: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.append(line)
            if "director page on" in line:
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert ready.wait(WAIT), "".join(out)
        with table_feed(broker, "5") as feed:
            feed.publish(match_events(1)[0])
            assert feed.wait_delivered(WAIT)
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=WAIT).read().decode()
        assert "tavli-pi director: all events" in page
        assert "/static/director.js" in page
        js = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/director.js", timeout=WAIT).read()
        assert b"new WebSocket" in js
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(WAIT)
        except subprocess.TimeoutExpired:  # hung: its stacks (faulthandler on SIGUSR1) say where
            proc.send_signal(signal.SIGUSR1)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
            raise AssertionError("director did not stop on SIGINT:\n" + "".join(out)) from None
        assert code == 130, "".join(out)


def test_cli_can_be_stopped_as_soon_as_it_announces_the_page(broker: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stop handlers are in place when the page line is printed: a Ctrl-C sent the moment a
    script reads that line stops the director (a CI run once sent it before they were, and the
    director, started with SIGINT ignored, ran on)."""
    import tavli_pi.commands.director as command

    seen: list[object] = []
    stop = threading.Event()

    def announce(*args: object, **kwargs: object) -> None:
        seen.append(signal.getsignal(signal.SIGINT))
        stop.set()

    monkeypatch.setattr(command, "print", announce, raising=False)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        args = parse(["--broker", f"{broker.host}:{broker.port}", "--host", "127.0.0.1", "--port", "0"])
        assert command.run(args, stop) == 0
        assert seen == [signal.default_int_handler]
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # put back on leaving
    finally:
        signal.signal(signal.SIGINT, before)
