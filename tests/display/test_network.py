"""The display on a shared network: per-client lockout, socket cap, TLS, the bound address.

Each "device" connects from its own loopback address (127.0.0.2, 127.0.0.3...),
so the server sees distinct remote addresses as it would on a LAN. The lockout
runs on an injected clock: no sleeps.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tavli_pi.display import DisplayServer
from tavli_pi.errors import ConfigError
from tavli_pi.referee.inputs import Action, PlayerInput

from .client import Device
from .helpers import accepted

ATTACKER, PLAYER = "127.0.0.2", "127.0.0.3"


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def table() -> Iterator[tuple[DisplayServer, list[PlayerInput], FakeClock]]:
    got: list[PlayerInput] = []
    clock = FakeClock()
    srv = DisplayServer("127.0.0.1", 0, pin="2468", on_input=got.append, clock=clock).start()
    try:
        yield srv, got, clock
    finally:
        srv.close()


def test_wrong_pins_lock_out_that_device_only_never_the_table(table: Any) -> None:
    srv, got, clock = table
    attacker, player = Device(srv.url, ATTACKER), Device(srv.url, PLAYER)
    for _ in range(4):
        assert attacker.post({"action": "double", "pin": "0000"})[0] == 403
    status, body, headers = attacker.post({"action": "double", "pin": "1111"})  # the 5th wrong PIN
    assert status == 429 and "60 s" in body["error"] and "other devices are not affected" in body["error"]
    assert headers["retry-after"] == "60"
    # locked: even the right PIN from the attacker's device is refused ...
    status, body, _ = attacker.post({"action": "double", "pin": "2468"})
    assert status == 429 and "try again in 60 s" in body["error"]
    # ... while the players' device decides as usual
    status, body, _ = player.post({"action": "double", "pin": "2468"})
    assert status == 200 and body["ok"]
    assert got == [PlayerInput(Action.DOUBLE, None, source="touch")]
    # a wrong PIN from the player is its own count, not the attacker's lockout
    assert player.post({"action": "take", "pin": "9999"})[0] == 403
    assert player.post({"action": "take", "pin": "2468"})[0] == 200


def test_lockouts_back_off_exponentially_on_the_injected_clock(table: Any) -> None:
    srv, got, clock = table
    attacker = Device(srv.url, ATTACKER)
    waits = []
    for _ in range(4):
        for _ in range(5):
            status, body, headers = attacker.post({"action": "pass", "pin": "1357"})
        assert status == 429
        wait = int(headers["retry-after"])
        waits.append(wait)
        clock.t += wait - 1
        assert attacker.post({"action": "pass", "pin": "2468"})[0] == 429  # one second early
        clock.t += 1
    assert waits == [60, 120, 240, 480]
    assert attacker.post({"action": "pass", "pin": "2468"})[0] == 200  # the right PIN forgives
    for _ in range(5):
        status = attacker.post({"action": "pass", "pin": "1357"})[0]
    assert status == 429 and int(attacker.post({"action": "pass", "pin": "1"})[2]["retry-after"]) == 60
    assert [i.action for i in got] == [Action.PASS]


def _ws_run(url: str, source: str, hold: asyncio.Event, results: list[Any]) -> Any:
    async def one() -> None:
        conn = aiohttp.TCPConnector(local_addr=(source, 0))
        async with aiohttp.ClientSession(connector=conn) as s:
            async with s.ws_connect(url + "ws", origin=url.rstrip("/")) as ws:
                msg = await ws.receive(timeout=10)
                if msg.type == aiohttp.WSMsgType.TEXT:
                    results.append(("open", source, json.loads(msg.data)["seq"]))
                    await hold.wait()
                else:
                    results.append(("closed", source, ws.close_code, msg.extra))

    return one()


def test_websockets_are_capped_and_the_excess_refused_cleanly() -> None:
    srv = DisplayServer("127.0.0.1", 0, pin="2468", max_sockets=3, max_sockets_per_client=2).start()
    try:

        async def run() -> list[Any]:
            hold = asyncio.Event()
            res: list[Any] = []
            keep = [asyncio.ensure_future(_ws_run(srv.url, src, hold, res)) for src in ("127.0.0.2", "127.0.0.2")]
            while len(res) < 2:
                await asyncio.sleep(0)  # yield to the client tasks (no wall-clock wait)
            await _ws_run(srv.url, "127.0.0.2", hold, res)  # a third page on the same device
            keep.append(asyncio.ensure_future(_ws_run(srv.url, "127.0.0.3", hold, res)))
            while len(res) < 4:
                await asyncio.sleep(0)
            await _ws_run(srv.url, "127.0.0.4", hold, res)  # the table is full
            assert srv.live_sockets == 3
            hold.set()
            await asyncio.gather(*keep)
            return res

        res = asyncio.run(run())
    finally:
        srv.close()
    opened = [r for r in res if r[0] == "open"]
    closed = [r for r in res if r[0] == "closed"]
    assert sorted(r[1] for r in opened) == ["127.0.0.2", "127.0.0.2", "127.0.0.3"]
    assert [(r[1], r[2]) for r in closed] == [("127.0.0.2", 1013), ("127.0.0.4", 1013)]
    assert "this device already has 2 live pages" in closed[0][3]
    assert "the table display is full (3 live pages)" in closed[1][3]


def _self_signed(tmp: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 made here with the openssl CLI (never downloaded)."""
    openssl = shutil.which("openssl")
    if openssl is None:  # never skip: TLS is part of the display (CI or not)
        pytest.fail("openssl CLI missing: install the Debian package openssl")
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=tavli-table",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )
    return cert, key


def test_tls_round_trip(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    got: list[PlayerInput] = []
    srv = DisplayServer("127.0.0.1", 0, pin="2468", on_input=got.append, tls_cert=cert, tls_key=key).start()
    try:
        assert srv.url.startswith("https://127.0.0.1:")
        trust = ssl.create_default_context(cafile=str(cert))
        dev = Device(srv.url, ssl_context=trust)
        status, body, _ = dev.post({"action": "double", "pin": "2468"})  # page (token) then decision, both TLS
        assert status == 200 and body["ok"]
        assert got == [PlayerInput(Action.DOUBLE, None, source="touch")]

        async def wss() -> list[dict[str, Any]]:
            async with aiohttp.ClientSession() as s:
                async with s.ws_connect(srv.url + "ws", origin=srv.url.rstrip("/"), ssl=trust) as ws:
                    first = json.loads((await ws.receive(timeout=10)).data)
                    srv.handle(accepted())
                    return [first, json.loads((await ws.receive(timeout=10)).data)]

        first, second = asyncio.run(wss())
        assert first["seq"] == 0 and second["kind"] == "play_accepted"
        # a client that does not trust the certificate gets no answer at all
        with pytest.raises(ssl.SSLError):
            Device(srv.url, ssl_context=ssl.create_default_context()).get("/")
        # plain HTTP to the TLS port is not served
        with pytest.raises(Exception):
            Device(srv.url.replace("https:", "http:")).get("/")
    finally:
        srv.close()


def test_tls_configuration_errors_are_clear(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    with pytest.raises(ConfigError, match="needs both tls_cert and tls_key"):
        DisplayServer("127.0.0.1", 0, pin="2468", tls_cert=cert)
    with pytest.raises(ConfigError, match="could not be loaded"):
        DisplayServer("127.0.0.1", 0, pin="2468", tls_cert=tmp_path / "missing.pem", tls_key=key)
    with pytest.raises(ConfigError, match="could not be loaded"):
        DisplayServer("127.0.0.1", 0, pin="2468", tls_cert=key, tls_key=cert)


def _refused(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=5):
            return False
    except ConnectionRefusedError:
        return True


def test_binds_exactly_the_printed_address() -> None:
    srv = DisplayServer("127.0.0.1", 0, pin="2468").start()
    try:
        assert srv.url == f"http://127.0.0.1:{srv.bound_port}/"
        assert Device(srv.url).get("/")[0] == 200
        assert srv.bound_port is not None and _refused("127.0.0.2", srv.bound_port)  # another loopback address: not bound
    finally:
        srv.close()
    every = DisplayServer("0.0.0.0", 0, pin="2468").start()
    try:
        assert every.url == f"http://0.0.0.0:{every.bound_port}/"  # says it listens everywhere
        assert Device(f"http://127.0.0.2:{every.bound_port}/").get("/")[0] == 200
    finally:
        every.close()


def test_bad_addresses_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="must name one address"):
        DisplayServer("", 0, pin="2468")
    with pytest.raises(ConfigError, match="not an address of this machine"):
        DisplayServer("192.0.2.1", 0, pin="2468").start()  # TEST-NET-1 (RFC 5737): on no machine
    holder = DisplayServer("127.0.0.1", 0, pin="2468").start()
    try:
        with pytest.raises(ConfigError, match="choose another display.port"):
            DisplayServer("127.0.0.1", holder.bound_port or 0, pin="2468").start()
    finally:
        holder.close()

