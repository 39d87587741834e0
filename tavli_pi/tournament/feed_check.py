"""Checks of every message the director takes from the feed (pure; no network).

Anyone who can reach the broker can publish on a table's topics, so the
director trusts nothing: each message is checked for its topic shape, size,
encoding, JSON depth and the type and range of every field the director reads,
before it touches any state. A message that fails raises :class:`BadMessage`
with a fixed ``reason`` (a short key, counted and logged by the listener) and a
one-line ``detail``.

Limits (bytes, items, depth) are module constants; the listener takes its own
per-table limits (tables tracked, seq jump) as constructor parameters.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tavli_pi.referee.events import EVENT_TYPES

__all__ = [
    "BadMessage",
    "Topic",
    "MAX_PAYLOAD",
    "MAX_DEPTH",
    "MAX_SEQ",
    "ID_RE",
    "parse_topic",
    "parse_payload",
    "check_event",
    "check_state_message",
    "check_status",
    "check_resend",
]

MAX_PAYLOAD = 16 * 1024  # bytes; a real event is under 1 KiB
MAX_DEPTH = 10  # nesting of dicts and lists; a real event has 4
MAX_SEQ = 10**12  # a table publishes a few hundred events a match
MAX_TEXT = 1000  # characters of any free-text field
MAX_NAME = 80  # characters of a player name
LEAVES = ("events", "state", "status")
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # event slugs, table ids and stream ids
SIDES = ("white", "black")


class BadMessage(ValueError):
    """A feed message the director refuses; ``reason`` is a fixed key for counting."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Topic:
    event_slug: str
    table: str
    leaf: str


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n] + f"... ({len(text)} chars)"


def parse_topic(name: str) -> Topic:
    """``tavli/<event>/table/<table>/<leaf>`` with ids of ``[A-Za-z0-9_-]{1,64}``."""
    parts = name.split("/")
    if len(parts) != 5 or parts[0] != "tavli" or parts[2] != "table" or parts[4] not in LEAVES:
        raise BadMessage("topic", f"topic {_short(name)!r} is not tavli/<event>/table/<table>/events|state|status")
    if not ID_RE.fullmatch(parts[1]) or not ID_RE.fullmatch(parts[3]):
        raise BadMessage("topic", f"topic {_short(name)!r}: event and table ids are 1-64 of A-Z a-z 0-9 _ -")
    return Topic(parts[1], parts[3], parts[4])


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _depth(value: dict[str, Any]) -> int:
    """Nesting depth of dicts and lists, without recursion (only containers are visited)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        for x in v.values() if type(v) is dict else v:
            t = type(x)
            if t is dict or t is list:
                stack.append((x, d + 1))
    return deepest


def parse_payload(payload: bytes, max_bytes: int = MAX_PAYLOAD) -> dict[str, Any]:
    """UTF-8 JSON object of at most ``max_bytes`` and :data:`MAX_DEPTH` levels; no NaN/Infinity."""
    if len(payload) > max_bytes:
        raise BadMessage("size", f"payload of {len(payload)} bytes is over the {max_bytes}-byte cap")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadMessage("encoding", f"payload is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # the C decoder stops at Python's recursion limit
        raise BadMessage("depth", "JSON nested too deeply to parse") from None
    except ValueError as exc:  # JSONDecodeError, NaN, and ints over Python's digit limit
        raise BadMessage("json", f"payload is not JSON ({_short(str(exc))})") from None
    if not isinstance(data, dict):
        raise BadMessage("json", f"payload is a JSON {type(data).__name__}, not an object")
    if _depth(data) > MAX_DEPTH:
        raise BadMessage("depth", f"JSON nested over {MAX_DEPTH} levels")
    return data


# -- field checks -------------------------------------------------------------------

Check = Callable[[str, Any], None]


def _fail(name: str, value: Any, want: str) -> BadMessage:
    shown = _short(repr(value)) if not isinstance(value, (dict, list)) else type(value).__name__
    return BadMessage("field", f"{name} = {shown} is not {want}")


def integer(lo: int, hi: int) -> Check:
    def check(name: str, v: Any) -> None:
        if type(v) is not int or not lo <= v <= hi:  # bool is not an int here
            raise _fail(name, v, f"an integer {lo}..{hi}")

    return check


def number(lo: float, hi: float) -> Check:
    def check(name: str, v: Any) -> None:
        if type(v) not in (int, float) or not math.isfinite(v) or not lo <= v <= hi:
            raise _fail(name, v, f"a number {lo:g}..{hi:g}")

    return check


def text(max_len: int = MAX_TEXT) -> Check:
    def check(name: str, v: Any) -> None:
        if not isinstance(v, str) or len(v) > max_len:
            raise _fail(name, v, f"a string of at most {max_len} characters")

    return check


def boolean(name: str, v: Any) -> None:
    if not isinstance(v, bool):
        raise _fail(name, v, "true or false")


def side(name: str, v: Any) -> None:
    if v is not None and v not in SIDES:
        raise _fail(name, v, "white, black or null")


def ident(name: str, v: Any) -> None:
    if not isinstance(v, str) or not ID_RE.fullmatch(v):
        raise _fail(name, v, "1-64 of A-Z a-z 0-9 _ -")


def dict_(name: str, v: Any) -> None:
    if not isinstance(v, dict):
        raise _fail(name, v, "an object")


def list_of(item: Check, min_len: int, max_len: int, nullable: bool = False) -> Check:
    def check(name: str, v: Any) -> None:
        if v is None and nullable:
            return
        if not isinstance(v, list) or not min_len <= len(v) <= max_len:
            raise _fail(name, v, f"a list of {min_len}..{max_len} items")
        for i, x in enumerate(v):
            item(f"{name}[{i}]", x)

    return check


def nullable(inner: Check) -> Check:
    def check(name: str, v: Any) -> None:
        if v is not None:
            inner(name, v)

    return check


def _kind(name: str, v: Any) -> None:
    if not isinstance(v, str) or v not in EVENT_TYPES:
        raise BadMessage("kind", f"{name} = {_short(repr(v))} is not an event kind of the referee")


def position(name: str, v: Any) -> None:
    """``{"points": 24 ints, "bar": 2, "off": 2, "turn"}`` (counts up to 30: lenient for every variant)."""
    if not isinstance(v, dict):
        raise _fail(name, v, "a position object")
    _fields(v, POSITION_FIELDS, ("points", "bar", "off", "turn"), name + ".")


SECONDS = number(-1e7, 1e7)
POINT = integer(0, 25)
DIE = integer(1, 6)
COUNT = integer(0, 10**6)

POSITION_FIELDS: dict[str, Check] = {
    "points": list_of(integer(-30, 30), 24, 24),
    "bar": list_of(integer(0, 30), 2, 2),
    "off": list_of(integer(0, 30), 2, 2),
    "turn": side,
}

STATE_FIELDS: dict[str, Check] = {
    "phase": text(40),
    "position": position,
    "dice": list_of(DIE, 0, 4),
    "cube_value": integer(1, 1 << 16),
    "cube_owner": side,
    "score": list_of(COUNT, 2, 2),
    "match_length": integer(0, 10**4),
    "crawford": boolean,
    "game_number": COUNT,
    "players": list_of(text(MAX_NAME), 2, 2),
    "last_verdict": text(),
    "wrong_points": list_of(POINT, 0, 26),
    "clocks": list_of(nullable(SECONDS), 2, 2, nullable=True),
}

EVENT_FIELDS: dict[str, Check] = {
    "seq": integer(1, MAX_SEQ),
    "stream": ident,
    "table": ident,
    "kind": _kind,
    "at": number(-1e12, 1e12),
    "state": dict_,
    "rule": text(40),
    "message": text(),
    "extra": dict_,
    "side": side,
    "winner": side,
    "dice": list_of(DIE, 0, 4),
    "play": text(200),
    "reason": text(200),
    "result": text(40),
    "points": integer(0, 1 << 16),
    "value": integer(0, 1 << 16),
    "level": integer(0, 3),
    "score": list_of(COUNT, 2, 2),
    "game_number": COUNT,
    "crawford": boolean,
    "accepted": boolean,
    "ok": boolean,
    "white_die": DIE,
    "black_die": DIE,
    "wrong_points": list_of(POINT, 0, 26),
    "nearest": list_of(text(200), 0, 50),
    "problems": list_of(text(200), 0, 50),
    "remaining": list_of(nullable(SECONDS), 2, 2, nullable=True),
    "before": position,
    "after": position,
    "observed": nullable(position),
}


def _fields(data: dict[str, Any], spec: dict[str, Check], required: tuple[str, ...], where: str) -> None:
    for key in required:
        if key not in data:
            raise BadMessage("field", f"{where}{key} is missing")
    for key, check in spec.items():
        if key in data:
            check(where + key, data[key])


def check_state(state: dict[str, Any], where: str = "state.") -> None:
    _fields(state, STATE_FIELDS, ("phase", "position", "score", "players"), where)


def check_event(data: dict[str, Any], table: str) -> None:
    """An event message: seq, stream, kind and every field the director reads."""
    _fields(data, EVENT_FIELDS, ("seq", "stream", "kind", "state"), "")
    if "table" in data and data["table"] != table:
        raise BadMessage("field", f"table {data['table']!r} does not match the topic's table {table!r}")
    check_state(data["state"])


def check_state_message(data: dict[str, Any], table: str) -> None:
    """A retained state message: ``{"seq", "stream", "table", "state"}``."""
    _fields(data, {k: EVENT_FIELDS[k] for k in ("seq", "stream", "table", "state")}, ("seq", "stream", "state"), "")
    if "table" in data and data["table"] != table:
        raise BadMessage("field", f"table {data['table']!r} does not match the topic's table {table!r}")
    check_state(data["state"])


def check_status(payload: bytes) -> str:
    """A status message is exactly ``online`` or ``offline``."""
    if payload in (b"online", b"offline"):
        return payload.decode()
    raise BadMessage("status", f"status {_short(repr(payload[:80]))} is not online/offline")


def check_resend(data: dict[str, Any], max_count: int) -> tuple[str, int, int]:
    """A resend request ``{"stream", "from", "to"}`` -> (stream, from, to), at most ``max_count`` seqs."""
    _fields(data, {"stream": ident, "from": integer(1, MAX_SEQ), "to": integer(1, MAX_SEQ)},
            ("stream", "from", "to"), "")
    lo, hi = data["from"], data["to"]
    if hi < lo:
        raise BadMessage("field", f"resend from {lo} to {hi}: 'to' is before 'from'")
    return data["stream"], lo, min(hi, lo + max_count - 1)
