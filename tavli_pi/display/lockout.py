"""Wrong-PIN lockout per client, with exponential backoff; the table itself is never locked.

A client is its remote address (an IPv6 client by its /64 network, since one
host may hold a whole /64). After ``max_attempts`` wrong PINs in a row a client
is locked out for ``base_seconds``; each further lockout of the same client
doubles, up to ``max_seconds``. A right PIN forgets the client. Other clients
are never affected, so a spectator guessing PINs cannot lock the players out.

Pure: the clock is injected; no I/O.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["PinGuard", "LockoutPolicy", "client_key"]


@dataclass(frozen=True, slots=True)
class LockoutPolicy:
    """How many wrong PINs lock a client, and for how long."""

    max_attempts: int = 5  # wrong PINs in a row that lock the client
    base_seconds: float = 60.0  # the first lockout
    max_seconds: float = 3600.0  # lockouts double up to this
    max_clients: int = 4096  # clients remembered (oldest unlocked forgotten first)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("lockout max_attempts must be at least 1")
        if not 0 < self.base_seconds <= self.max_seconds:
            raise ValueError("lockout seconds must satisfy 0 < base_seconds <= max_seconds")
        if self.max_clients < 1:
            raise ValueError("lockout max_clients must be at least 1")


def client_key(remote: str | None) -> str:
    """The lockout key of a remote address: IPv4 as is, IPv6 by its /64 (IPv4-mapped as IPv4)."""
    if not remote:
        return "unknown"
    try:
        ip = ipaddress.ip_address(remote.split("%", 1)[0])
    except ValueError:
        return remote
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(slots=True)
class _Client:
    failures: int = 0  # wrong PINs since the last lockout or right PIN
    lockouts: int = 0  # lockouts so far (the backoff exponent)
    locked_until: float = 0.0


class PinGuard:
    """Counts wrong PINs per client and says who is locked out."""

    def __init__(self, policy: LockoutPolicy, clock: Callable[[], float]) -> None:
        self.policy = policy
        self._clock = clock
        self._clients: OrderedDict[str, _Client] = OrderedDict()

    def locked_for(self, client: str) -> float:
        """Seconds ``client`` must still wait (0: it may try a PIN now)."""
        c = self._clients.get(client)
        if c is None:
            return 0.0
        return max(0.0, c.locked_until - self._clock())

    def failed(self, client: str) -> float:
        """Count a wrong PIN; the lockout it starts in seconds (0: none yet)."""
        c = self._clients.pop(client, None) or _Client()
        self._clients[client] = c  # most recently seen last
        c.failures += 1
        wait = 0.0
        if c.failures >= self.policy.max_attempts:
            c.failures = 0
            wait = min(self.policy.base_seconds * 2.0**c.lockouts, self.policy.max_seconds)
            c.lockouts += 1
            c.locked_until = self._clock() + wait
        self._forget_oldest()
        return wait

    def succeeded(self, client: str) -> None:
        """A right PIN: the client starts afresh."""
        self._clients.pop(client, None)

    def remembered(self) -> int:
        return len(self._clients)

    def _forget_oldest(self) -> None:
        """Keep memory bounded: drop the oldest clients that are not locked out now."""
        excess = len(self._clients) - self.policy.max_clients
        if excess <= 0:
            return
        now = self._clock()
        for key in [k for k, c in self._clients.items() if c.locked_until <= now][:excess]:
            del self._clients[key]
        while len(self._clients) > self.policy.max_clients:  # all locked: drop the oldest anyway
            self._clients.popitem(last=False)
