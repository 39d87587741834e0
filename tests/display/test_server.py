"""The display server over real HTTP and WebSocket on loopback (aiohttp's own server)."""

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

from .client import Device
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


def test_page_and_assets_are_served(server: Any) -> None:
    srv, _, _ = server
    status, headers, page = Device(srv.url).get("/")
    assert status == 200 and b'id="verdict"' in page
    assert srv.csrf_token.encode() in page and b"{{CSRF_TOKEN}}" not in page
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
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
            async with s.ws_connect(srv.url + "ws", origin=srv.url.rstrip("/")) as ws:
                first = json.loads((await ws.receive(timeout=10)).data)
                srv.handle(accepted())
                second = json.loads((await ws.receive(timeout=10)).data)
                return [first, second]

    first, second = asyncio.run(run())
    assert first["seq"] == 0 and first["phase"] == "waiting"
    assert second["seq"] == 1 and second["kind"] == "play_accepted" and second["score"] == [1, 0]


def test_decisions_need_the_pin(server: Any) -> None:
    srv, got, _ = server
    dev = Device(srv.url)
    status, body, _ = dev.post({"action": "double", "pin": "0000"})
    assert status == 403 and "wrong table PIN" in body["error"]
    assert got == []
    status, body, _ = dev.post({"action": "double", "pin": "4711"})
    assert status == 200 and body == {"ok": True, "action": "double"}
    assert got == [PlayerInput(Action.DOUBLE, None, source="touch")]


def test_bad_bodies_get_clear_errors(server: Any) -> None:
    srv, got, _ = server
    dev = Device(srv.url)
    status, body, _ = dev.post(b"not json")
    assert status == 400 and "send JSON" in body["error"]
    status, body, _ = dev.post({"action": "resign", "pin": "4711"})
    assert status == 400 and "use one of" in body["error"]
    status, body, _ = dev.post(["double", "4711"])
    assert status == 400 and "JSON object" in body["error"]
    status, body, _ = dev.post({"action": "double"})
    assert status == 400 and "no PIN" in body["error"]
    status, body, _ = dev.post(b'{"action": "double", "pin": "' + b"1" * 5000 + b'"}')
    assert status == 413 and "too large" in body["error"]
    assert got == []


def test_a_numeric_pin_is_refused_and_never_counts_as_a_guess(server: Any) -> None:
    srv, got, _ = server
    dev = Device(srv.url)
    for pin in (4711, 4711.0, True, ["4711"]):
        status, body, _ = dev.post({"action": "take", "pin": pin})
        assert status == 400 and "the PIN must be a JSON string" in body["error"], body
    assert dev.post({"action": "take", "pin": "4711"})[0] == 200  # not locked by the refused requests
    assert [i.action for i in got] == [Action.TAKE]


def test_text_plain_is_refused(server: Any) -> None:
    srv, got, _ = server
    status, body, _ = Device(srv.url).post({"action": "take", "pin": "4711"}, content_type="text/plain")
    assert status == 415 and "application/json" in body["error"]
    status, body, _ = Device(srv.url).post({"action": "take", "pin": "4711"},
                                          content_type="application/x-www-form-urlencoded")
    assert status == 415
    assert got == []


def test_missing_or_wrong_csrf_token_is_refused(server: Any) -> None:
    srv, got, _ = server
    dev = Device(srv.url)
    for token in ("", "not-the-token", srv.csrf_token[:-1]):
        status, body, _ = dev.post({"action": "take", "pin": "4711"}, token=token)
        assert status == 403 and "CSRF token" in body["error"] and "reload" in body["error"]
    assert got == []
    other = DisplayServer("127.0.0.1", 0, pin="4711").start()  # another table's token is no good here
    try:
        assert other.csrf_token != srv.csrf_token
        assert dev.post({"action": "take", "pin": "4711"}, token=other.csrf_token)[0] == 403
    finally:
        other.close()


def test_cross_origin_posts_are_refused(server: Any) -> None:
    srv, got, _ = server
    dev = Device(srv.url)
    port = srv.bound_port
    for origin in ("http://evil.example", f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}", "null"):
        status, body, _ = dev.post({"action": "take", "pin": "4711"}, origin=origin)
        assert status == 403 and "refused" in body["error"], origin
    status, body, _ = dev.post({"action": "take", "pin": "4711"}, origin=None)
    assert status == 403 and "no Origin" in body["error"]
    # DNS rebinding: a foreign name resolving to the table; its Origin matches its Host, yet it is refused
    status, body, _ = dev.post({"action": "take", "pin": "4711"}, origin=f"http://evil.example:{port}",
                               host=f"evil.example:{port}")
    assert status == 403 and "unknown host" in body["error"]
    assert got == []


def test_configured_extra_origins_are_allowed() -> None:
    got: list[PlayerInput] = []
    srv = DisplayServer("127.0.0.1", 0, pin="4711", on_input=got.append,
                        allowed_origins=["https://Kiosk.Example:8443"]).start()
    try:
        dev = Device(srv.url)
        assert dev.post({"action": "take", "pin": "4711"}, origin="https://kiosk.example:8443")[0] == 200
        assert dev.post({"action": "take", "pin": "4711"}, origin="https://kiosk.example:9999")[0] == 403
        # a name this machine answers to: the own origin on a local name is the page
        port = srv.bound_port
        assert dev.post({"action": "take", "pin": "4711"}, origin=f"http://localhost:{port}",
                        host=f"localhost:{port}")[0] == 200
    finally:
        srv.close()
    assert len(got) == 2
    with pytest.raises(ConfigError, match="not an origin"):
        DisplayServer("127.0.0.1", 0, pin="4711", allowed_origins=["kiosk.example"])


def test_websocket_from_another_origin_is_refused(server: Any) -> None:
    srv, _, _ = server

    async def run(origin: str | None) -> int:
        async with aiohttp.ClientSession() as s:
            try:
                headers = {} if origin is None else {"Origin": origin}
                async with s.ws_connect(srv.url + "ws", headers=headers):
                    return 101
            except aiohttp.WSServerHandshakeError as e:
                return e.status

    assert asyncio.run(run("http://evil.example")) == 403
    assert asyncio.run(run(None)) == 403
    assert asyncio.run(run(srv.url.rstrip("/"))) == 101
    for _ in range(200):  # the server drops the closed page on its own thread; ask it, no clock
        if srv.live_sockets == 0:
            break
        urllib.request.urlopen(srv.url + "api/state", timeout=10).close()
    assert srv.live_sockets == 0  # the refused ones never counted


def test_a_missing_or_short_pin_is_a_config_error() -> None:
    for pin in ("12", "", "12ab"):
        with pytest.raises(ConfigError, match="display.pin"):
            DisplayServer("127.0.0.1", 0, pin=pin)
