"""The tournament director's dashboard: every table live, from the MQTT feed.

Three small parts:

- :class:`Dashboard` folds feed messages into one JSON summary per table
  (players, score, match length, Crawford, clocks, alerts, result). Pure.
- :func:`make_app` is the aiohttp application: ``/`` the page, ``/api/tables``
  the summaries, ``/ws`` a websocket that sends ``{"type": "snapshot"}`` once
  and then ``{"type": "table", "table": {...}}`` on every change.
- :class:`WebServer` runs an aiohttp app on its own event-loop thread, so a
  feed thread (paho) can push into it with :meth:`WebServer.call`. It listens
  on exactly the address it reports in :attr:`WebServer.url` (127.0.0.1 by
  default; "0.0.0.0" opens it to every interface), and a bad address or a port
  in use is a :class:`DirectorError` with one line saying what to do.
  :class:`Director` wires listener, dashboard and server together, and shows the
  broker's state (``{"type": "broker"}`` on the websocket, ``"broker"`` in
  ``/api/tables``): a broker that cannot be reached is a red banner on the page
  and an error in the log until it is back.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tavli_pi.errors import TavliError
from tavli_pi.tournament.feed import BrokerStatus, FeedListener, FeedMessage, FeedSettings

__all__ = ["Dashboard", "Hub", "HUB", "make_app", "WebServer", "Director", "DirectorError", "STATIC", "check_port"]

LOG = logging.getLogger("tavli_pi.director")


class DirectorError(TavliError, OSError):
    """The director page cannot listen where it was asked to."""

STATIC = Path(__file__).with_name("static")
MAX_ALERTS = 12
#: seconds the page waits for open requests when it stops (aiohttp's default is 60: Ctrl-C must not hang)
SHUTDOWN_S = 3.0
SIDES = ("white", "black")


def _side_name(summary: dict[str, Any], side: str | None) -> str:
    if side not in SIDES:
        return "?"
    players = summary.get("players") or ["White", "Black"]
    return f"{players[SIDES.index(side)]} ({side})"


class Dashboard:
    """Per-table summaries built from feed messages (any thread; locked)."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def tables(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(t) for _, t in sorted(self._tables.items(), key=lambda kv: _table_key(kv[0]))]

    def apply(self, msg: FeedMessage) -> dict[str, Any]:
        """Fold ``msg`` into its table; returns a copy of the table's new summary."""
        with self._lock:
            t = self._tables.setdefault(msg.table, _blank(msg.table, msg.event_slug))
            t["received_at"] = msg.received_at
            stream = msg.data.get("stream")
            if msg.leaf in ("state", "events") and stream and stream != t["stream"] and not msg.refill:
                t["stream"], t["seq"] = stream, 0  # a table restarted without its outbox numbers from 1 again
            if msg.leaf == "status":
                t["online"] = msg.data.get("status") == "online"
            elif msg.leaf == "state":
                if msg.data.get("seq", 0) >= t["seq"]:  # a retained state never rewinds the page
                    _take_state(t, msg.data.get("state") or {})
                    t["seq"] = msg.data.get("seq", 0)
                    t["online"] = t["online"] or t["online"] is None
            elif msg.leaf == "gap":
                _take_gap(t, msg.data.get("missing", []), msg.data.get("lost", []))
            elif msg.leaf == "events":
                if msg.refill:  # an older event resent to fill a gap: the board shown is newer
                    t["refilled"] += 1
                else:
                    _take_event(t, msg.data)
            return dict(t)


def _table_key(table: str) -> tuple[int, str]:
    return (int(table), "") if table.isdigit() else (1 << 30, table)


def _blank(table: str, event_slug: str) -> dict[str, Any]:
    return {
        "table": table, "event": event_slug, "online": None, "seq": 0, "phase": "", "players": ["White", "Black"],
        "score": [0, 0], "match_length": 0, "crawford": False, "game_number": 0, "cube_value": 1,
        "cube_owner": None, "dice": [], "clocks": None, "last": "", "alerts": [], "result": "", "received_at": 0.0,
        "stream": "", "refilled": 0,
    }


def _ranges(ranges: list[list[int]]) -> str:
    return ", ".join(f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in ranges)


def _take_gap(t: dict[str, Any], missing: list[list[int]], lost: list[list[int]]) -> None:
    """One "feed_gap" alert while events are missing, one "feed_lost" alert for those given up."""
    had_gap = any(a["kind"] == "feed_gap" and a["open"] for a in t["alerts"])
    t["alerts"] = [a for a in t["alerts"] if a["kind"] != "feed_gap"]
    if missing:
        _alert(t, "feed_gap", f"Feed gap: events {_ranges(missing)} missing; asked the table to resend them",
               missing[0][0])
    elif had_gap and not lost:
        _alert(t, "feed_gap", "Feed gap filled: the table resent the missing events", t["seq"], open_=False)
    if lost:
        text = (f"Feed lost events {_ranges(lost)}: the table no longer has them (raise the broker's"
                " max_queued_messages); the board above is still current")
        if not any(a["kind"] == "feed_lost" and a["text"] == text for a in t["alerts"]):
            t["alerts"] = [a for a in t["alerts"] if a["kind"] != "feed_lost"]
            _alert(t, "feed_lost", text, lost[-1][0])


def _take_state(t: dict[str, Any], s: dict[str, Any]) -> None:
    for key in ("phase", "players", "score", "match_length", "crawford", "game_number", "cube_value",
                "cube_owner", "dice", "clocks"):
        if key in s:
            t[key] = s[key]


def _alert(t: dict[str, Any], kind: str, text: str, seq: int, open_: bool = True) -> None:
    t["alerts"] = ([{"kind": kind, "text": text, "seq": seq, "open": open_}] + t["alerts"])[:MAX_ALERTS]


def _take_event(t: dict[str, Any], e: dict[str, Any]) -> None:
    t["seq"] = max(t["seq"], int(e.get("seq", 0)))
    _take_state(t, e.get("state") or {})
    kind, seq, side = e.get("kind", ""), int(e.get("seq", 0)), e.get("side")
    who = _side_name(t, side)
    rule = f" ({e['rule']})" if e.get("rule") else ""
    t["last"] = kind.replace("_", " ")
    if kind == "play_accepted":
        t["last"] = f"{who} played {e.get('dice')}: {e.get('play')}"
        if (e.get("extra") or {}).get("unchecked"):
            # taken with a roll the camera never read, nobody entering it: legal for some roll only
            t["last"] += " (not checked: roll not seen)"
    elif kind == "game_started":
        t["result"] = ""
        if e.get("game_number") == 1:  # a new match: a fresh alert list
            t["alerts"] = []
    elif kind == "illegal_play":
        pts = ", ".join(str(p) for p in e.get("wrong_points", []))
        _alert(t, "illegal", f"Illegal play by {who}{rule}: check points {pts}. {e.get('message', '')}".strip(), seq)
    elif kind == "illegal_play_resolved":
        for a in t["alerts"]:
            if a["kind"] == "illegal":
                a["open"] = False
        how = "accepted by the opponent" if e.get("accepted") else "corrected"
        _alert(t, "resolved", f"Illegal play {how}{rule}: {e.get('play', '')}", seq, open_=False)
    elif kind == "clear_view_needed":
        _alert(t, "clear_view", f"Clear view needed: {e.get('reason', '')}", seq)
    elif kind == "clock_reading":
        remaining = e.get("remaining") or t["clocks"] or []
        for i, left in enumerate(remaining):
            if left is not None and left <= 0 and not any(a["kind"] == f"flag_{SIDES[i]}" for a in t["alerts"]):
                _alert(t, f"flag_{SIDES[i]}", f"Clock flag: {_side_name(t, SIDES[i])} ran out of time", seq)
    elif kind == "game_over":
        _close(t, "clear_view")
        winner = _side_name(t, e.get("winner"))
        t["result"] = f"Game {t['game_number']}: {winner} wins {e.get('points')} ({e.get('result')})"
    elif kind == "match_over":
        score = e.get("score") or t["score"]
        t["result"] = f"Match: {_side_name(t, e.get('winner'))} wins {score[0]}-{score[1]}"
        t["phase"] = "match_over"


def _close(t: dict[str, Any], kind: str) -> None:
    for a in t["alerts"]:
        if a["kind"] == kind:
            a["open"] = False


# -- the web side ---------------------------------------------------------------


class Hub:
    """The open websockets of one app; ``broadcast`` runs on the app's loop."""

    def __init__(self) -> None:
        self.sockets: set[web.WebSocketResponse] = set()

    async def broadcast(self, message: dict[str, Any]) -> None:
        for ws in list(self.sockets):
            try:
                await ws.send_json(message)
            except (ConnectionError, RuntimeError):
                self.sockets.discard(ws)


HUB = web.AppKey("hub", Hub)
SNAPSHOT: web.AppKey[Callable[[], list[dict[str, Any]]]] = web.AppKey("snapshot")
BROKER: web.AppKey[Callable[[], dict[str, Any]]] = web.AppKey("broker")
MAX_SOCKETS = 200  # open pages at once; more get 503


def _no_broker() -> dict[str, Any]:
    return {}


def make_app(
    snapshot: Callable[[], list[dict[str, Any]]],
    title: str = "tavli-pi director",
    broker: Callable[[], dict[str, Any]] = _no_broker,
    max_sockets: int = MAX_SOCKETS,
) -> web.Application:
    """The dashboard app; push changes with ``app[HUB].broadcast({"type": "table", "table": ...})``."""
    app = web.Application(client_max_size=1024)  # the page posts nothing
    app[HUB] = Hub()
    app[SNAPSHOT] = snapshot
    app[BROKER] = broker
    index = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{title}}", title)

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=index, content_type="text/html")

    async def tables(request: web.Request) -> web.Response:
        return web.json_response({"tables": request.app[SNAPSHOT](), "broker": request.app[BROKER]()})

    async def websocket(request: web.Request) -> web.StreamResponse:
        hub = request.app[HUB]
        if len(hub.sockets) >= max_sockets:
            return web.Response(status=503, text=f"over {max_sockets} open pages: close one and reload")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024)
        await ws.prepare(request)
        await ws.send_json({"type": "snapshot", "tables": request.app[SNAPSHOT](), "broker": request.app[BROKER]()})
        hub.sockets.add(ws)
        try:
            async for msg in ws:  # the page sends nothing; this waits for the close
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            hub.sockets.discard(ws)
        return ws

    async def close_sockets(app: web.Application) -> None:
        for ws in list(app[HUB].sockets):
            await ws.close()

    app.router.add_get("/", page)
    app.router.add_get("/api/tables", tables)
    app.router.add_get("/ws", websocket)
    app.router.add_static("/static/", STATIC)
    app.on_shutdown.append(close_sockets)
    return app


def check_port(port: int, flag: str = "--port") -> int:
    """0 (a free port, for tests) or 1-65535, else a DirectorError saying what to use."""
    if not 0 <= port <= 65535:
        raise DirectorError(f"{flag} {port} is not a TCP port: use 1-65535, e.g. {flag} 8090")
    return port


def bind_error(host: str, port: int, exc: OSError) -> str:
    """One line on why the page cannot listen on host:port, and what to do."""
    where = f"{host}:{port}"
    if isinstance(exc, socket.gaierror):
        return (f"--host {host!r} is not an address of this machine ({exc.strerror}): use 127.0.0.1,"
                " or 0.0.0.0 for every interface")
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is in use (another director?): stop it or pick another --port"
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"--host {host} is not an address of this machine: use 127.0.0.1 (this machine only), 0.0.0.0 "
                "(every interface) or one of the addresses `ip addr` lists")
    if exc.errno == errno.EACCES:
        return f"not allowed to listen on {where} (ports below 1024 need root): pick --port 8090"
    return f"cannot listen on {where} ({exc.strerror or exc}): check --host and --port"


class WebServer:
    """An aiohttp app on its own event-loop thread (``port=0``: pick a free port).

    It listens on ``host`` exactly; :attr:`url` names that same address.
    """

    def __init__(self, app: web.Application, host: str = "127.0.0.1", port: int = 0) -> None:
        if not host:
            raise DirectorError("--host is empty: use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)")
        self.app, self.host, self.port = app, host, check_port(port)
        self.loop = asyncio.new_event_loop()
        self._runner = web.AppRunner(app, shutdown_timeout=SHUTDOWN_S)
        self._thread = threading.Thread(target=self.loop.run_forever, name="web", daemon=True)

    @property
    def url(self) -> str:
        try:
            bracket = ipaddress.ip_address(self.host).version == 6
        except ValueError:
            bracket = False
        return f"http://{f'[{self.host}]' if bracket else self.host}:{self.port}/"

    @property
    def every_interface(self) -> bool:
        return self.host in ("0.0.0.0", "::")

    def start(self) -> WebServer:
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(30)
        except OSError as exc:
            self.stop()
            raise DirectorError(bind_error(self.host, self.port, exc)) from None
        return self

    async def _start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the real port when asked for port 0

    def call(self, coro_fn: Callable[..., Any], *args: Any) -> None:
        """Run ``coro_fn(*args)`` on the server's loop, from any thread; does not wait."""
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(coro_fn(*args)))

    def every(self, seconds: float, fn: Callable[[], None]) -> None:
        """Call ``fn()`` on the server's loop every ``seconds`` until the server stops."""

        async def repeat() -> None:
            while True:
                await asyncio.sleep(seconds)
                try:
                    fn()
                except Exception:  # noqa: BLE001  a periodic job never stops the page
                    LOG.exception("periodic director job failed")

        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(repeat()))

    async def _cleanup(self) -> None:
        await self._runner.cleanup()
        tasks = [t for t in asyncio.all_tasks(self.loop) if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def stop(self) -> None:
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._cleanup(), self.loop).result(SHUTDOWN_S + 5)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)
        self.loop.close()


class Director:
    """Listener -> Dashboard -> websocket pushes. ``start()`` returns at once.

    ``listener_options`` go to :class:`FeedListener` (``max_tables``, ``max_jump``,
    ``resend_after``, ``clock``, ...).
    """

    def __init__(self, settings: FeedSettings, host: str = "127.0.0.1", port: int = 8090,
                 **listener_options: Any) -> None:
        self.dashboard = Dashboard()
        slug = "all events" if settings.event_slug == "+" else settings.event_slug
        self.listener = FeedListener(settings, self._on_message, on_status=self._on_status, **listener_options)
        self.app = make_app(self.dashboard.tables, title=f"tavli-pi director: {slug}", broker=self.broker)
        self.server = WebServer(self.app, host, port)
        self.pushed = 0

    def broker(self) -> dict[str, Any]:
        """The link to the broker as the page shows it, with the feed messages taken and refused."""
        return {**self.listener.status.as_dict(), **self.listener.counts()}

    def _on_status(self, status: BrokerStatus) -> None:  # paho's thread
        if self.server.loop.is_running():
            self.server.call(self.app[HUB].broadcast, {"type": "broker", "broker": status.as_dict()})

    def _on_message(self, msg: FeedMessage) -> None:  # paho's thread
        summary = self.dashboard.apply(msg)
        self.server.call(self.app[HUB].broadcast, {"type": "table", "table": summary, "pushed_at": time.time()})
        self.pushed += 1

    def start(self) -> Director:
        self.server.start()  # first: a bad --host or --port stops here, before any broker traffic
        self.listener.start()
        self.server.every(1.0, self.listener.tick)
        return self

    def close(self) -> None:
        self.listener.close()
        self.server.stop()

    def __enter__(self) -> Director:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
