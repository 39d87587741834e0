"""The table display: an aiohttp server with one page, pushed live over a WebSocket.

Watching needs nothing; decisions (the same as the GPIO buttons) need the table
PIN. The server runs its own asyncio loop in one background thread; ``handle``
is called from the table's thread and hands the view over thread-safely.
``on_input`` is called on the server thread: the app queues it for the referee.

Safe on a shared network (docs/display.md, RELIABILITY.md "Display"):

- wrong PINs lock out the client that sent them (by remote address, with
  exponential backoff, :mod:`.lockout`), never the table: the right PIN from
  another client always works;
- ``/api/input`` and ``/ws`` check the ``Origin`` (the page's own origin on a
  ``Host`` naming this machine, or a configured extra origin, :mod:`.guard`);
- ``/api/input`` takes only ``application/json`` with the page's CSRF token
  (embedded in the page, sent back in the ``X-Tavli-CSRF`` header) and the PIN
  as a JSON string; bodies over 4 KiB are refused;
- live sockets are capped (in all and per client); the excess is closed at
  once with code 1013 ("try again later") and a reason the page shows;
- TLS when given a certificate and key (``https://`` and ``wss://``);
- it binds one address, the one it prints (``url``).
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import json
import secrets
import socket
import ssl
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from tavli_pi.errors import ConfigError
from tavli_pi.referee.events import Event, EventSink
from tavli_pi.referee.inputs import Action, PlayerInput

from .guard import BadInput, Decision, OriginPolicy, parse_decision
from .history import TableHistory
from .lockout import LockoutPolicy, PinGuard, client_key
from .view import view_of

__all__ = ["DisplayServer", "TOUCH_ACTIONS", "CSRF_HEADER", "MAX_BODY_BYTES"]

#: The decisions the page may send (the GPIO buttons' set).
TOUCH_ACTIONS: frozenset[Action] = frozenset(
    {Action.ACCEPT, Action.CORRECT, Action.DOUBLE, Action.TAKE, Action.PASS, Action.ROLL}
)

#: The header that carries the page's CSRF token back with each decision.
CSRF_HEADER = "X-Tavli-CSRF"
#: A decision is a few dozen bytes; anything bigger is refused unread.
MAX_BODY_BYTES = 4096
#: seconds the page waits for open requests when it stops (aiohttp's default is 60)
SHUTDOWN_S = 3.0

_STATIC = {
    "index.html": "text/html",
    "app.js": "application/javascript",
    "style.css": "text/css",
}
_CSRF_SLOT = b"{{CSRF_TOKEN}}"
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _tls_context(cert: str | Path | None, key: str | Path | None) -> ssl.SSLContext | None:
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise ConfigError(
            "display TLS needs both tls_cert and tls_key: set both paths in [display], or neither for plain HTTP"
        )
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(str(cert), str(key))
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(
            f"display TLS certificate {cert} / key {key} could not be loaded ({exc}): "
            "check both paths and that the key matches the certificate (see docs/display.md)"
        ) from None
    return ctx


def _url_host(ip: str) -> str:
    return f"[{ip}]" if ":" in ip else ip


class DisplayServer(EventSink):
    """Serve the table page on exactly ``host:port`` (port 0 picks a free one)."""

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
        lockout_max_seconds: float = 3600.0,
        tls_cert: str | Path | None = None,
        tls_key: str | Path | None = None,
        max_sockets: int = 16,
        max_sockets_per_client: int = 4,
        allowed_origins: Iterable[str] = (),
        local_names: Iterable[str] | None = None,
    ) -> None:
        if not isinstance(pin, str) or not pin.isdigit() or len(pin) < 4:
            raise ConfigError(
                "display.pin must be at least 4 digits: set it in the table config "
                "so that only the players can make decisions from the page"
            )
        if not host or not host.strip():
            raise ConfigError(
                "display.host must name one address: 127.0.0.1 (this screen only) "
                "or 0.0.0.0 (every interface, for phones on the network)"
            )
        if max_sockets < 1 or max_sockets_per_client < 1:
            raise ConfigError("display.max_sockets and max_sockets_per_client must be at least 1")
        try:
            self.lockout = LockoutPolicy(max_attempts, lockout_seconds, max(lockout_max_seconds, lockout_seconds))
            self._origins = OriginPolicy.make(allowed_origins, local_names)
        except ValueError as exc:
            raise ConfigError(f"{exc}") from None
        self._ssl = _tls_context(tls_cert, tls_key)
        self._host, self._port = host, port
        self._pin = pin
        self._on_input = on_input
        self._clock = clock
        self._guard = PinGuard(self.lockout, clock)
        self.max_sockets = max_sockets
        self.max_sockets_per_client = max_sockets_per_client
        self.csrf_token = secrets.token_urlsafe(32)
        self._seq = 0
        self._history = TableHistory()
        self._latest: dict[str, Any] = {"seq": 0, "phase": "waiting", "verdict": {"text": "Waiting for the table", "style": "info", "rule": ""}}
        self._sockets: dict[web.WebSocketResponse, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopped = threading.Event()
        self._error: BaseException | None = None
        self.bound_host: str | None = None
        self.bound_port: int | None = None
        self.closed = False

    # -- lifecycle --------------------------------------------------------
    @property
    def scheme(self) -> str:
        return "https" if self._ssl is not None else "http"

    @property
    def url(self) -> str:
        """The address bound, exactly (``0.0.0.0``: every IPv4 interface)."""
        if self.bound_port is None or self.bound_host is None:
            raise RuntimeError("DisplayServer.start() first")
        return f"{self.scheme}://{_url_host(self.bound_host)}:{self.bound_port}/"

    @property
    def live_sockets(self) -> int:
        return len(self._sockets)

    def start(self) -> DisplayServer:
        self._thread = threading.Thread(target=self._run, name="tavli-display", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=30)
        err = self._error
        if err is not None:
            if isinstance(err, OSError) and err.errno == errno.EADDRNOTAVAIL:
                raise ConfigError(
                    f"display.host {self._host} is not an address of this machine: use 127.0.0.1 "
                    "(this screen only), 0.0.0.0 (phones too) or one of this machine's addresses"
                ) from None
            if isinstance(err, socket.gaierror):
                raise ConfigError(
                    f"display.host {self._host} does not resolve ({err.strerror}): use an IP address "
                    "such as 127.0.0.1 or 0.0.0.0"
                ) from None
            raise ConfigError(
                f"display could not listen on {self._host}:{self._port} ({err}); "
                "choose another display.port or stop what uses it"
            ) from None
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
            if self._runner is not None:
                loop.run_until_complete(self._runner.cleanup())
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._shutdown())
            loop.close()
            self._stopped.set()

    def _bind(self) -> socket.socket:
        """One listening socket on the first address ``host`` names: exactly what ``url`` prints."""
        family, kind, proto, _, addr = socket.getaddrinfo(
            self._host, self._port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(addr)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        return sock

    async def _serve(self) -> None:
        app = web.Application(client_max_size=MAX_BODY_BYTES)
        app.add_routes(
            [
                web.get("/", self._page),
                web.get("/static/{name}", self._static),
                web.get("/api/state", self._state),
                web.post("/api/input", self._input),
                web.get("/ws", self._ws),
            ]
        )
        app.on_response_prepare.append(self._headers)
        sock = self._bind()
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_S)
        await self._runner.setup()
        site = web.SockSite(self._runner, sock, ssl_context=self._ssl)
        await site.start()
        name = sock.getsockname()
        self.bound_host, self.bound_port = str(name[0]), int(name[1])

    async def _shutdown(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        for k, v in _SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)

    # -- output -----------------------------------------------------------
    def handle(self, event: Event) -> None:
        self._seq += 1
        self._history.feed(event)
        view = view_of(event, self._seq, self._history)
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
                self._sockets.pop(ws, None)
                continue
            asyncio.ensure_future(ws.send_str(text))

    # -- handlers ---------------------------------------------------------
    async def _page(self, request: web.Request) -> web.StreamResponse:
        return self._static_file("index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        return self._static_file(request.match_info["name"])

    def _static_file(self, name: str) -> web.StreamResponse:
        if name not in _STATIC:
            raise web.HTTPNotFound(text=f"no such file: {name}")
        body = resources.files("tavli_pi.display").joinpath("static", name).read_bytes()
        if name == "index.html":
            body = body.replace(_CSRF_SLOT, self.csrf_token.encode())
        return web.Response(body=body, content_type=_STATIC[name])

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self._latest)

    def _cross_origin(self, request: web.Request) -> str:
        """Why the request's Origin is refused ("" if allowed)."""
        origin = request.headers.get("Origin")
        if self._origins.origin_ok(origin, request.scheme, request.host):
            return ""
        if not origin:
            return "no Origin header: decisions and live updates come only from this table's page"
        if not self._origins.host_ok(request.host):
            return (
                f"unknown host {request.host!r}: open the page by this machine's address, "
                "or add its origin to display.allowed_origins"
            )
        return (
            f"cross-origin request from {origin} refused: only this table's page may send it "
            "(add the origin to display.allowed_origins if it is yours)"
        )

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        why = self._cross_origin(request)
        if why:
            return _error(403, why)
        client = client_key(request.remote)
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024)
        await ws.prepare(request)
        per_client = Counter(self._sockets.values())[client]
        if len(self._sockets) >= self.max_sockets or per_client >= self.max_sockets_per_client:
            full = (
                f"the table display is full ({self.max_sockets} live pages)"
                if len(self._sockets) >= self.max_sockets
                else f"this device already has {self.max_sockets_per_client} live pages"
            )
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=f"{full}: close another page".encode())
            return ws
        self._sockets[ws] = client
        try:
            await ws.send_str(json.dumps(self._latest))
            async for msg in ws:  # the page only listens; drain pings/closes
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._sockets.pop(ws, None)
        return ws

    async def _input(self, request: web.Request) -> web.Response:
        try:
            decision = await self._checked(request)
        except BadInput as bad:
            return _error(bad.status, str(bad))
        client = client_key(request.remote)
        wait = self._guard.locked_for(client)
        if wait > 0:
            return _locked(wait)
        if not hmac.compare_digest(decision.pin.encode(), self._pin.encode()):
            started = self._guard.failed(client)
            if started > 0:
                return _locked(started, "wrong table PIN, too many times from this device")
            return _error(403, "wrong table PIN: decisions need the PIN shown to the players")
        self._guard.succeeded(client)
        action = Action(decision.action)
        if self._on_input is not None:
            self._on_input(PlayerInput(action, None, decision.roll, source="touch"))
        return web.json_response({"ok": True, "action": action.value})

    async def _checked(self, request: web.Request) -> Decision:
        """The decision in a request that passed every check, or BadInput."""
        why = self._cross_origin(request)
        if why:
            raise BadInput(403, why)
        if request.content_type != "application/json":
            raise BadInput(
                415, f"send Content-Type: application/json (got {request.content_type or 'none'}): "
                '{"action": "double", "pin": "1234"}'
            )
        token = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(token.encode(), self.csrf_token.encode()):
            raise BadInput(
                403, f"missing or wrong CSRF token ({CSRF_HEADER} header): reload the table page and try again"
            )
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            raise BadInput(413, f"request too large (over {MAX_BODY_BYTES} bytes): send only action and pin") from None
        try:
            body = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise BadInput(400, 'send JSON: {"action": "double", "pin": "1234"}') from None
        return parse_decision(body, (a.value for a in TOUCH_ACTIONS))


def _error(status: int, message: str, retry_after: str = "") -> web.Response:
    headers = {"Retry-After": retry_after} if retry_after else None
    return web.json_response({"ok": False, "error": message}, status=status, headers=headers)


def _locked(wait: float, why: str = "too many wrong PINs from this device") -> web.Response:
    secs = int(wait) + (0 if wait == int(wait) else 1)
    return _error(429, f"{why}: this device may try again in {secs} s (other devices are not affected)", str(secs))
