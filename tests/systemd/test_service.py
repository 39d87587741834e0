"""tavli_pi.service.Notifier against a real unix datagram socket (as systemd binds)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavli_pi.service import Notifier


@pytest.fixture
def sock(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.setblocking(False)
    try:
        yield s, path
    finally:
        s.close()


def _received(s: socket.socket) -> list[str]:
    out = []
    while True:
        try:
            out.append(s.recv(4096).decode())
        except BlockingIOError:
            return out


def test_ready_status_stopping(sock: tuple[socket.socket, str]) -> None:
    s, path = sock
    n = Notifier.from_environment({"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.ready("watching table 1")
    assert n.status("link: ready")
    assert n.stopping()
    assert _received(s) == ["READY=1\nSTATUS=watching table 1", "STATUS=link: ready", "STOPPING=1"]
    n.close()


def test_watchdog_fed_at_half_the_interval(sock: tuple[socket.socket, str]) -> None:
    s, path = sock
    n = Notifier.from_environment({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000",
                                   "WATCHDOG_PID": str(os.getpid())})
    assert n.watchdog_interval == 10.0 and n.feed_interval == 5.0
    fed = [t for t in (0.0, 1.0, 4.9, 5.0, 7.0, 9.99, 10.0, 30.0) if n.tick(100.0 + t)]
    assert fed == [0.0, 5.0, 10.0, 30.0]
    assert _received(s) == ["WATCHDOG=1"] * 4


def test_watchdog_for_another_pid_is_ignored(sock: tuple[socket.socket, str]) -> None:
    s, path = sock
    n = Notifier.from_environment({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"},
                                  pid=4242)
    assert n.watchdog_interval is None
    assert not n.tick(0.0)
    assert _received(s) == []


def test_no_socket_means_no_op() -> None:
    n = Notifier.from_environment({})
    assert not n.enabled
    assert not n.ready() and not n.tick(0.0) and not n.stopping()


def test_socket_gone_is_not_an_error(tmp_path: Path) -> None:
    n = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "nobody"), "WATCHDOG_USEC": "1000000"})
    assert not n.ready()
    assert not n.tick(0.0)


def test_abstract_namespace_socket() -> None:
    name = f"tavli-test-{os.getpid()}"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind("\0" + name)
    s.setblocking(False)
    try:
        n = Notifier.from_environment({"NOTIFY_SOCKET": "@" + name})
        assert n.ready()
        assert _received(s) == ["READY=1"]
    finally:
        s.close()
