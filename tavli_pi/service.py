"""systemd integration: readiness, status and the watchdog (sd_notify).

The app calls, from its main loop::

    notifier = Notifier.from_environment()   # a no-op when not run by systemd
    ...                                      # open camera, link, web server
    notifier.ready("watching table 1")
    while running:
        ...
        notifier.tick(time.monotonic())      # sends WATCHDOG=1 when due
    notifier.stopping()

Protocol facts (sd_notify(3), systemd.service(5)): the service manager puts
the path of a unix datagram socket in ``NOTIFY_SOCKET`` (a leading ``@``
means the abstract namespace); each datagram is newline-separated
``KEY=VALUE`` lines such as ``READY=1``, ``STATUS=...``, ``STOPPING=1``,
``WATCHDOG=1``. With ``WatchdogSec=`` set, ``WATCHDOG_USEC`` holds the
interval in microseconds and ``WATCHDOG_PID`` the pid meant to feed it; the
documentation recommends feeding at half the interval.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

__all__ = ["Notifier"]


class Notifier:
    """Talks to systemd's notify socket. Disabled (every call a no-op returning
    False) when there is no socket, e.g. when run by hand or in tests."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self.watchdog_interval: float | None = watchdog_usec / 1e6 if watchdog_usec else None
        self._last_feed: float | None = None
        self._sock: socket.socket | None = None
        self.sent: int = 0

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None, *, pid: int | None = None) -> Notifier:
        """Read NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (default: ``os.environ``)."""
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        usec: int | None = None
        raw = env.get("WATCHDOG_USEC", "")
        if raw.isdigit() and int(raw) > 0:
            usec = int(raw)
            wpid = env.get("WATCHDOG_PID", "")
            if wpid.isdigit() and int(wpid) != (os.getpid() if pid is None else pid):
                usec = None  # the watchdog is meant for another process
        return cls(address, usec)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def feed_interval(self) -> float | None:
        """Seconds between watchdog feeds: half of WatchdogSec."""
        return None if self.watchdog_interval is None else self.watchdog_interval / 2

    def notify(self, *lines: str) -> bool:
        """Send ``KEY=VALUE`` lines in one datagram. False when disabled or the socket is gone."""
        if self.address is None or not lines:
            return False
        addr = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(lines).encode(), addr)
        except OSError:
            return False  # systemd went away (shutdown) or never was: nothing to tell
        self.sent += 1
        return True

    def ready(self, status: str | None = None) -> bool:
        lines = ["READY=1"] + ([f"STATUS={status}"] if status else [])
        return self.notify(*lines)

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def stopping(self, status: str | None = None) -> bool:
        lines = ["STOPPING=1"] + ([f"STATUS={status}"] if status else [])
        return self.notify(*lines)

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def tick(self, now: float) -> bool:
        """Feed the watchdog if half its interval has passed since the last feed.

        Call it from the main loop with a monotonic ``now`` in seconds; a hung
        loop stops the feeding and systemd restarts the service. Returns True
        when a WATCHDOG=1 went out."""
        interval = self.feed_interval
        if interval is None or self.address is None:
            return False
        if self._last_feed is not None and now - self._last_feed < interval:
            return False
        sent = self.watchdog()
        if sent:
            self._last_feed = now
        return sent

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
