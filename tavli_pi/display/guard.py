"""Checks on requests that change or watch the table: Host, Origin, JSON body, the PIN's type.

Pure functions over header values and parsed bodies (no aiohttp), so each rule
is tested on its own and by the server over real HTTP.

- **Host**: the page's own origin counts only when the ``Host`` header names
  this machine (an IP literal, ``localhost``, this host's name or
  ``name.local``) or a host of a configured extra origin. A DNS-rebinding page
  (``evil.example`` resolving to the table) thus never passes as the page.
- **Origin**: ``/api/input`` and ``/ws`` need an ``Origin`` equal to the page's
  own origin or one of the configured extra origins; a missing or ``null``
  Origin is refused.
- **Body**: a JSON object ``{"action": "...", "pin": "..."}``; the PIN a JSON
  string (a number would lose leading zeros and is refused).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass

from yarl import URL

__all__ = ["OriginPolicy", "parse_decision", "Decision", "BadInput", "normal_origin"]

MAX_PIN_CHARS = 64


class BadInput(ValueError):
    """A request the table refuses; ``status`` is the HTTP status, the message says what to do."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def normal_origin(text: str) -> str:
    """``scheme://host[:port]`` lower-cased, default ports dropped (as browsers send Origin)."""
    try:
        u = URL(text.strip())
    except ValueError:
        return ""
    if not u.scheme or not u.host or u.scheme not in ("http", "https"):
        return ""
    return str(u.origin()).lower()


def _host_of(host_header: str) -> str:
    try:
        return (URL(f"http://{host_header}").host or "").lower()
    except ValueError:
        return ""


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class OriginPolicy:
    """Which origins may post decisions and open live sockets."""

    extra_origins: tuple[str, ...] = ()  # normalised, e.g. "https://tavli.example:8443"
    local_names: tuple[str, ...] = ()  # host names that are this machine (lower case)

    @classmethod
    def make(cls, extra_origins: Iterable[str] = (), local_names: Iterable[str] | None = None) -> OriginPolicy:
        extras = []
        for o in extra_origins:
            n = normal_origin(o)
            if not n:
                raise ValueError(
                    f"display allowed origin {o!r} is not an origin: write scheme://host[:port], "
                    "e.g. https://tavli.local:8443"
                )
            extras.append(n)
        if local_names is None:
            name = socket.gethostname().lower()
            local_names = ("localhost", name, f"{name}.local")
        return cls(tuple(extras), tuple(n.lower() for n in local_names))

    def host_ok(self, host_header: str) -> bool:
        """Does ``Host`` name this machine (not a DNS-rebinding name)?"""
        host = _host_of(host_header)
        if not host:
            return False
        if _is_ip(host) or host in self.local_names:
            return True
        return any(URL(o).host == host for o in self.extra_origins)

    def origin_ok(self, origin: str | None, scheme: str, host_header: str) -> bool:
        """Is ``origin`` the page's own origin (on a good Host) or a configured extra origin?"""
        if not origin:
            return False
        got = normal_origin(origin)
        if not got:
            return False
        if got in self.extra_origins:
            return True
        return self.host_ok(host_header) and got == normal_origin(f"{scheme}://{host_header}")


_JSON_TYPE: dict[type, str] = {int: "a number", float: "a number", bool: "true/false", list: "a list", dict: "an object"}


@dataclass(frozen=True, slots=True)
class Decision:
    action: str
    pin: str
    #: with action "roll": the roll the players entered, as two digits (53: 5-3; E2)
    roll: int = 0


def parse_roll(value: object) -> int:
    """``"53"`` (or 53) -> 53: two dice 1-6; else BadInput saying what to send."""
    text = value if isinstance(value, str) else str(value) if isinstance(value, int) and not isinstance(value, bool) else ""
    if len(text) != 2 or not all(c in "123456" for c in text):
        raise BadInput(400, 'send the roll as its two dice, 1 to 6 each: "roll": "53" for 5-3')
    return int(text)


def parse_decision(body: object, actions: Iterable[str]) -> Decision:
    """``{"action": "double", "pin": "1234"}`` -> Decision, or BadInput saying what to send."""
    allowed = sorted(actions)
    if not isinstance(body, dict):
        raise BadInput(400, 'send a JSON object: {"action": "double", "pin": "1234"}')
    action = body.get("action")
    if not isinstance(action, str) or action not in allowed:
        raise BadInput(400, f"unknown action {action!r}: use one of {', '.join(allowed)}")
    pin = body.get("pin")
    if pin is None:
        raise BadInput(400, 'no PIN: send the table PIN as a JSON string, e.g. "pin": "1234"')
    if not isinstance(pin, str):
        raise BadInput(
            400,
            f"the PIN must be a JSON string, not {_JSON_TYPE.get(type(pin), 'that')}: "
            'send "pin": "0123" (a number loses leading zeros)',
        )
    if len(pin) > MAX_PIN_CHARS:
        raise BadInput(400, f"the PIN is too long (over {MAX_PIN_CHARS} characters): send the table PIN")
    return Decision(action, pin, parse_roll(body.get("roll")) if action == "roll" else 0)
