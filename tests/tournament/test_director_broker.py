"""The director when the broker is away, and its own bad inputs.

A real closed port (a Mosquitto configured but not yet started on it), a real
Mosquitto stopped and restarted under an open page in Chromium, a password the
broker refuses; and the command with a bad --port, --host or --broker, or a
port in use: one line, exit status 2, no traceback. Waits are on conditions.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tavli_pi.cli import main
from tavli_pi.tournament.director import Director
from tavli_pi.tournament.feed import FeedSettings, TableFeed

from .conftest import PASSWORD, USER, Broker, free_port
from .match_stream import match_events

REPO = Path(__file__).resolve().parents[2]
WAIT = 30.0


def director(b: Broker, **kw: Any) -> Director:
    s = FeedSettings(**{"host": b.host, "port": b.port, "event_slug": "+", "client_id": "dash-broker",
                        "reconnect_min": 0.2, "reconnect_max": 1.0, **kw})
    return Director(s, port=0).start()


def api(d: Director) -> dict[str, Any]:
    with urllib.request.urlopen(f"{d.server.url}api/tables", timeout=WAIT) as r:
        data: dict[str, Any] = json.load(r)
    return data


def table_feed(b: Broker, table: str = "3") -> TableFeed:
    return TableFeed(FeedSettings(host=b.host, port=b.port, event_slug="ev", table_id=table,
                                  reconnect_min=0.2, reconnect_max=1.0))


@pytest.fixture
def unstarted(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path)  # configured on a free port; nothing listens there until start()
    try:
        yield b
    finally:
        b.stop()


def test_a_closed_port_is_said_loudly_and_the_director_recovers_when_the_broker_comes(
        unstarted: Broker, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    d = director(unstarted)
    try:
        assert d.listener.wait_status("down", WAIT)
        assert "connection refused" in d.listener.status.text and "Mosquitto" in d.listener.status.text
        page = api(d)
        assert page["broker"]["state"] == "down" and page["broker"]["address"] == f"127.0.0.1:{unstarted.port}"
        assert any(r.levelno == logging.ERROR and "connection refused" in r.getMessage() for r in caplog.records)
        unstarted.start()  # the broker comes
        assert d.listener.wait_status("up", WAIT)
        assert api(d)["broker"]["state"] == "up"
        with table_feed(unstarted) as feed:
            feed.publish(match_events(1)[0])
            assert feed.wait_delivered(WAIT)
        assert d.listener.wait_until(lambda: any(t["table"] == "3" for t in d.dashboard.tables()), WAIT)
    finally:
        d.close()


def test_a_broker_stopped_and_restarted_is_a_banner_on_the_page(browser: Any, broker: Broker) -> None:
    d = director(broker)
    try:
        assert d.listener.wait_status("up", WAIT)
        browser.get(d.server.url)
        wait = WebDriverWait(browser, WAIT)
        banner = browser.find_element(By.ID, "broker")
        wait.until(lambda b: browser.find_element(By.ID, "link").text == "live")
        assert not banner.is_displayed()
        broker.stop()
        assert d.listener.wait_status("down", WAIT)
        wait.until(lambda b: banner.is_displayed())
        assert "unreachable" in banner.text and f"127.0.0.1:{broker.port}" in banner.text
        assert "not live" in banner.text
        broker.start()
        assert d.listener.wait_status("up", WAIT)
        wait.until(lambda b: not banner.is_displayed())
        with table_feed(broker, "4") as feed:
            feed.publish(match_events(1)[0])
            assert feed.wait_delivered(WAIT)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, '.card[data-table="4"]'))
    finally:
        d.close()


def test_a_refused_password_is_said_on_the_page(auth_broker: Broker) -> None:
    d = director(auth_broker, username=USER, password="wrong-" + PASSWORD)
    try:
        assert d.listener.wait_status("down", WAIT)
        text = api(d)["broker"]["text"]
        assert "refused" in text and "--username/--password" in text
    finally:
        d.close()


# -- the command's bad inputs ------------------------------------------------------------


def busy_port() -> Iterator[int]:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    try:
        yield int(s.getsockname()[1])
    finally:
        s.close()


BAD_ARGS: list[tuple[list[str], str]] = [
    (["--port", "70000"], "--port 70000 is not a TCP port: use 1-65535"),
    (["--port", "-1"], "--port -1 is not a TCP port: use 1-65535"),
    (["--port", "http"], "is not a number: use 1-65535"),
    (["--host", "192.0.2.1"], "not an address of this machine"),  # TEST-NET-1: on no machine
    (["--host", ""], "--host is empty"),
    (["--broker", "mqtt.club:99999"], "the port must be a number 1-65535"),
    (["--broker", "mqtt://mqtt.club:1883"], "is not a broker address"),
    (["--broker", "mqtt club"], "is not a broker address"),
    (["--event", "a/b"], "bad event id"),
    (["--max-tables", "0"], "--max-tables '0' is not a number 1-100000"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_ARGS, ids=[" ".join(a) for a, _ in BAD_ARGS])
def test_bad_director_arguments_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
                                             unstarted: Broker) -> None:
    base = ["director", "--broker", f"127.0.0.1:{unstarted.port}", "--port", str(free_port())]
    assert main([*base, *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tavli-pi director: error: ") and message in err, err
    assert "Traceback" not in err


def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str], unstarted: Broker) -> None:
    for port in busy_port():
        assert main(["director", "--broker", f"127.0.0.1:{unstarted.port}", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"port {port} on 127.0.0.1 is in use" in err and "--port" in err


def run_director(argv: list[str]) -> tuple[subprocess.Popen[str], list[str], threading.Condition]:
    proc = subprocess.Popen([sys.executable, "-m", "tavli_pi.cli", "director", *argv], cwd=REPO,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    cond = threading.Condition()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            with cond:
                lines.append(line)
                cond.notify_all()

    threading.Thread(target=read, daemon=True).start()
    return proc, lines, cond


def test_the_command_exits_2_without_traceback() -> None:
    proc, lines, _ = run_director(["--port", "70000"])
    assert proc.wait(WAIT) == 2
    out = "".join(lines)
    assert out.strip() == "tavli-pi director: error: --port 70000 is not a TCP port: use 1-65535, e.g. --port 8090"


def test_the_command_binds_what_it_prints_and_says_the_broker_is_dead(unstarted: Broker) -> None:
    port = free_port()
    proc, lines, cond = run_director(["--broker", f"127.0.0.1:{unstarted.port}", "--port", str(port)])
    try:
        with cond:
            assert cond.wait_for(lambda: any("director page on" in x for x in lines)
                                 and any("connection refused" in x for x in lines), WAIT), "".join(lines)
        assert any(f"director page on http://127.0.0.1:{port}/ " in x for x in lines)  # the default: this machine
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=WAIT).read()
        assert json.loads(page)["broker"]["state"] == "down"
        with pytest.raises(ConnectionRefusedError):  # another local address: not bound
            socket.create_connection(("127.0.0.2", port), timeout=WAIT).close()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(WAIT) == 130
    assert not any("Traceback" in x for x in lines), "".join(lines)


def test_open_pages_are_capped() -> None:
    import asyncio

    import aiohttp

    from tavli_pi.tournament.director import WebServer, make_app

    server = WebServer(make_app(lambda: [], max_sockets=2), port=0).start()

    async def open_three() -> list[int]:
        statuses: list[int] = []
        async with aiohttp.ClientSession() as session:
            sockets = []
            for _ in range(3):
                try:
                    ws = await session.ws_connect(server.url + "ws")
                    sockets.append(ws)
                    assert (await ws.receive_json())["type"] == "snapshot"
                    statuses.append(101)
                except aiohttp.WSServerHandshakeError as exc:
                    statuses.append(exc.status)
            for ws in sockets:
                await ws.close()
        return statuses

    try:
        assert asyncio.run(open_three()) == [101, 101, 503]
    finally:
        server.stop()
