"""The display server over real HTTP and WebSocket on loopback."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from tavli_pi.display import DisplayServer
from tavli_pi.errors import ConfigError
from tavli_pi.referee.inputs import Action, PlayerInput

from .helpers import accepted, illegal


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def server() -> Iterator[tuple[DisplayServer, list[PlayerInput], FakeClock]]:
    got: list[PlayerInput] = []
    clock = FakeClock()
    srv = DisplayServer("127.0.0.1", 0, pin="4711", on_input=got.append, clock=clock, max_attempts=3)
    srv.start()
    try:
        yield srv, got, clock
    finally:
        srv.close()


def _post(url: str, body: Any) -> tuple[int, dict[str, Any]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url + "api/input", data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_page_and_assets_are_served(server: Any) -> None:
    srv, _, _ = server
    with urllib.request.urlopen(srv.url, timeout=10) as r:
        assert b'id="verdict"' in r.read()
    for name in ("app.js", "style.css"):
        with urllib.request.urlopen(srv.url + "static/" + name, timeout=10) as r:
            assert r.status == 200 and len(r.read()) > 100
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(srv.url + "static/../server.py", timeout=10)
    assert e.value.code == 404


def test_state_follows_events(server: Any) -> None:
    srv, _, _ = server
    srv.handle(accepted())
    srv.handle(illegal())
    for _ in range(200):  # handed to the server thread; poll the API, not the clock
        with urllib.request.urlopen(srv.url + "api/state", timeout=10) as r:
            st = json.loads(r.read())
        if st["seq"] == 2:
            break
    assert st["seq"] == 2 and st["phase"] == "illegal" and st["wrong_points"] == [13, 18]


def test_websocket_pushes_each_event(server: Any) -> None:
    srv, _, _ = server

    async def run() -> list[dict[str, Any]]:
        async with aiohttp.ClientSession() as s:
            async with s.ws_connect(srv.url + "ws") as ws:
                first = json.loads((await ws.receive(timeout=10)).data)
                srv.handle(accepted())
                second = json.loads((await ws.receive(timeout=10)).data)
                return [first, second]

    first, second = asyncio.run(run())
    assert first["seq"] == 0 and first["phase"] == "waiting"
    assert second["seq"] == 1 and second["kind"] == "play_accepted" and second["score"] == [1, 0]


def test_decisions_need_the_pin(server: Any) -> None:
    srv, got, _ = server
    assert _post(srv.url, {"action": "double", "pin": "0000"})[0] == 403
    assert got == []
    status, body = _post(srv.url, {"action": "double", "pin": "4711"})
    assert status == 200 and body["ok"]
    assert got == [PlayerInput(Action.DOUBLE, None, source="touch")]


def test_bad_requests_get_clear_errors(server: Any) -> None:
    srv, got, _ = server
    status, body = _post(srv.url, b"not json")
    assert status == 400 and "JSON" in body["error"]
    status, body = _post(srv.url, {"action": "resign", "pin": "4711"})
    assert status == 400 and "use one of" in body["error"]
    assert got == []


def test_wrong_pins_lock_out_until_the_clock_moves_on(server: Any) -> None:
    srv, got, clock = server
    for _ in range(3):
        assert _post(srv.url, {"action": "take", "pin": "1"})[0] == 403
    status, body = _post(srv.url, {"action": "take", "pin": "4711"})
    assert status == 429 and "try again" in body["error"]
    clock.t += 61
    assert _post(srv.url, {"action": "take", "pin": "4711"})[0] == 200
    assert [i.action for i in got] == [Action.TAKE]


def test_a_missing_or_short_pin_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="display.pin"):
        DisplayServer("127.0.0.1", 0, pin="12")
