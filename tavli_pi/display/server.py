"""The table display: an aiohttp server with one page, pushed live over a WebSocket.

Watching needs nothing; decisions (the same as the GPIO buttons) need the table
PIN. The server runs its own asyncio loop in one background thread; ``handle``
is called from the table's thread and hands the view over thread-safely.
``on_input`` is called on the server thread: the app queues it for the referee.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import threading
import time
from collections.abc import Callable
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from tavli_pi.errors import ConfigError
from tavli_pi.referee.events import Event, EventSink
from tavli_pi.referee.inputs import Action, PlayerInput

from .view import view_of

__all__ = ["DisplayServer", "TOUCH_ACTIONS"]

#: The decisions the page may send (the GPIO buttons' set).
TOUCH_ACTIONS: frozenset[Action] = frozenset(
    {Action.ACCEPT, Action.CORRECT, Action.DOUBLE, Action.TAKE, Action.PASS}
)

_STATIC = {
    "index.html": "text/html",
    "app.js": "application/javascript",
    "style.css": "text/css",
}


class DisplayServer(EventSink):
    """Serve the table page on ``host:port`` (port 0 picks a free one)."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 8080,
        *,
        pin: str,
        on_input: Callable[[PlayerInput], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_attempts: int = 5,
        lockout_seconds: float = 60.0,
    ) -> None:
        if not pin or not pin.isdigit() or len(pin) < 4:
            raise ConfigError(
                "display.pin must be at least 4 digits: set it in the table config "
                "so that only the players can make decisions from the page"
            )
        self._host, self._port = host, port
        self._pin = pin
        self._on_input = on_input
        self._clock = clock
        self._max_attempts = max_attempts
        self._lockout = lockout_seconds
        self._failures = 0
        self._locked_until = 0.0
        self._seq = 0
        self._latest: dict[str, Any] = {"seq": 0, "phase": "waiting", "verdict": {"text": "Waiting for the table", "style": "info", "rule": ""}}
        self._sockets: set[web.WebSocketResponse] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopped = threading.Event()
        self._error: BaseException | None = None
        self.bound_port: int | None = None
        self.closed = False

    # -- lifecycle --------------------------------------------------------
    @property
    def url(self) -> str:
        if self.bound_port is None:
            raise RuntimeError("DisplayServer.start() first")
        return f"http://{self._host}:{self.bound_port}/"

    def start(self) -> DisplayServer:
        self._thread = threading.Thread(target=self._run, name="tavli-display", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=30)
        if self._error is not None:
            raise ConfigError(
                f"display could not listen on {self._host}:{self._port} ({self._error}); "
                "choose another display.port or stop what uses it"
            ) from self._error
        return self

    def __enter__(self) -> DisplayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        loop = self._loop
        if loop is not None and not self._stopped.is_set():
            loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # reported to start()
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._shutdown())
            loop.close()
            self._stopped.set()

    async def _serve(self) -> None:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self._page),
                web.get("/static/{name}", self._static),
                web.get("/api/state", self._state),
                web.post("/api/input", self._input),
                web.get("/ws", self._ws),
            ]
        )
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        server = site._server  # aiohttp keeps the asyncio server here
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.bound_port = sockets[0].getsockname()[1] if sockets else self._port

    async def _shutdown(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- output -----------------------------------------------------------
    def handle(self, event: Event) -> None:
        self._seq += 1
        view = view_of(event, self._seq)
        loop = self._loop
        if loop is None or self.closed:
            self._latest = view
            return
        loop.call_soon_threadsafe(self._publish, view)

    def _publish(self, view: dict[str, Any]) -> None:
        self._latest = view
        text = json.dumps(view)
        for ws in list(self._sockets):
            if ws.closed:
                self._sockets.discard(ws)
                continue
            asyncio.ensure_future(ws.send_str(text))

    # -- handlers ---------------------------------------------------------
    async def _page(self, request: web.Request) -> web.StreamResponse:
        return await self._static_file("index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        return await self._static_file(request.match_info["name"])

    async def _static_file(self, name: str) -> web.StreamResponse:
        if name not in _STATIC:
            raise web.HTTPNotFound(text=f"no such file: {name}")
        body = resources.files("tavli_pi.display").joinpath("static", name).read_bytes()
        return web.Response(body=body, content_type=_STATIC[name], headers={"Cache-Control": "no-store"})

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self._latest)

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        self._sockets.add(ws)
        await ws.send_str(json.dumps(self._latest))
        try:
            async for msg in ws:  # the page only listens; drain pings/closes
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._sockets.discard(ws)
        return ws

    async def _input(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            return _error(400, "send JSON: {\"action\": \"double\", \"pin\": \"1234\"}")
        if not isinstance(body, dict):
            return _error(400, "send a JSON object with action and pin")
        now = self._clock()
        if now < self._locked_until:
            wait = int(self._locked_until - now) + 1
            return _error(429, f"too many wrong PINs: try again in {wait} s")
        pin = str(body.get("pin", ""))
        if not hmac.compare_digest(pin.encode(), self._pin.encode()):
            self._failures += 1
            if self._failures >= self._max_attempts:
                self._failures = 0
                self._locked_until = now + self._lockout
            return _error(403, "wrong table PIN: decisions need the PIN shown to the players")
        self._failures = 0
        try:
            action = Action(str(body.get("action", "")))
        except ValueError:
            action = None
        if action is None or action not in TOUCH_ACTIONS:
            allowed = ", ".join(sorted(a.value for a in TOUCH_ACTIONS))
            return _error(400, f"unknown action {body.get('action')!r}: use one of {allowed}")
        if self._on_input is not None:
            self._on_input(PlayerInput(action, None, source="touch"))
        return web.json_response({"ok": True, "action": action.value})


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)
