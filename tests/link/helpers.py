"""Test benches for the link: the real firmware logic on the other end.

``MemBench``: an in-memory wire between a TableLink and the firmware's
unit.TableUnit (deterministic, no OS). ``PtyBench``: a real pty pair
(os.openpty) with the firmware's hardware loop (main.Firmware, fake
machine/neopixel/utime) on the master side and the TableLink opening the
slave by its path through pyserial. Both share one fake clock in ms.
"""

from __future__ import annotations

import os
import select
from collections.abc import Callable
from types import ModuleType
from typing import Any

import serial

from tavli_pi.link.table_link import LinkTiming, TableLink
from tavli_pi.rules.position import Side

__all__ = ["Wire", "MemPort", "MemBench", "PtyStream", "PtyBench"]


class Wire:
    """Both directions of a cable; ``cut`` makes the link's port fail."""

    def __init__(self) -> None:
        self.to_link = bytearray()
        self.to_unit = bytearray()
        self.cut = False


class MemPort:
    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.is_closed = False

    def _check(self) -> None:
        if self.wire.cut or self.is_closed:
            raise serial.SerialException("device disconnected")

    @property
    def in_waiting(self) -> int:
        self._check()
        return len(self.wire.to_link)

    def read(self, size: int = 1) -> bytes:
        self._check()
        data = bytes(self.wire.to_link[:size])
        del self.wire.to_link[:size]
        return data

    def write(self, data: bytes) -> int:
        self._check()
        self.wire.to_unit += data
        return len(data)

    def close(self) -> None:
        self.is_closed = True


class MemBench:
    """TableLink <-> in-memory wire <-> firmware unit.TableUnit."""

    def __init__(self, fw: dict[str, ModuleType], timing: LinkTiming = LinkTiming()) -> None:
        self.fw = fw
        self.now_ms = 0
        self.wire = Wire()
        self.unit = fw["unit"].TableUnit(now=0)
        self.paddles: list[Side] = []
        self.opens = 0
        self.fail_opens = 0
        self.link = TableLink(self._open, on_paddle=self.paddles.append, clock=lambda: self.now_ms / 1000,
                              timing=timing)
        # Taps change bytes in flight (drop, corrupt), per direction.
        self.tap_to_unit: Callable[[bytes], bytes] = lambda b: b
        self.tap_to_link: Callable[[bytes], bytes] = lambda b: b

    def _open(self) -> MemPort:
        if self.fail_opens:
            self.fail_opens -= 1
            raise serial.SerialException("[Errno 2] could not open port /dev/ttyACM0")
        self.opens += 1
        self.wire = Wire()
        return MemPort(self.wire)

    def step(self) -> None:
        self.link.poll(self.now_ms / 1000)
        data = self.tap_to_unit(bytes(self.wire.to_unit))
        self.wire.to_unit.clear()
        if data:
            self.unit.receive(data, self.now_ms)
        self.unit.poll(self.now_ms)
        out = self.tap_to_link(self.unit.take_output())
        if not self.wire.cut:
            self.wire.to_link += out
        self.link.poll(self.now_ms / 1000)

    def run(self, ms: int, step: int = 10) -> None:
        end = self.now_ms + ms
        while self.now_ms < end:
            self.now_ms += step
            self.step()


class PtyStream:
    """The firmware's USB stream on a pty master fd (non-blocking)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self.bytes_in = 0
        self.bytes_out = 0

    def read(self) -> bytes:
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # nothing there (EAGAIN) or no peer (EIO)
            return b""
        self.bytes_in += len(data)
        return data

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)
        self.bytes_out += len(data)


class PtyBench:
    """TableLink on a pty slave (by path, through pyserial) <-> firmware main loop on the master."""

    def __init__(self, fw: dict[str, ModuleType], timing: LinkTiming = LinkTiming()) -> None:
        self.fw = fw
        self.utime: Any = __import__("utime")
        self.paddles: list[Side] = []
        self.plug()
        self.link = TableLink(self._open, on_paddle=self.paddles.append, clock=lambda: self.utime.NOW[0] / 1000,
                              timing=timing)

    # -- the cable ------------------------------------------------------------------
    def plug(self) -> None:
        """A fresh pty pair and a freshly booted table unit on it."""
        self.master, self.slave = os.openpty()
        self.plugged = True
        self.path = os.ttyname(self.slave)
        self.stream = PtyStream(self.master)
        self.firmware = self.fw["main"].Firmware(self.stream)

    def pull(self) -> None:
        """The cable comes out: both ends of the pty close and the unit loses power."""
        self.plugged = False
        os.close(self.master)
        os.close(self.slave)

    def _open(self) -> Any:
        return serial.serial_for_url(self.path, baudrate=115200, timeout=0)

    # -- time -------------------------------------------------------------------------
    def _fds(self) -> list[int]:
        if not self.plugged:
            return []
        port = self.link._port
        fds = [self.master]
        if port is not None and getattr(port, "fd", None) is not None:
            fds.append(port.fd)
        return fds

    def _counts(self) -> tuple[int, ...]:
        s = self.link.stats
        return (self.stream.bytes_in, s.frames_in, s.rejected_total)

    def settle(self, link: bool = True) -> None:
        """Exchange bytes until both sides are quiet at the current instant.

        After a round in which either side wrote, wait (select, up to 0.5 s)
        for those bytes to come out of the kernel at the other end: this waits
        on I/O, never on time."""
        for _ in range(100):
            wrote_before = (self.stream.bytes_out, self.link.stats.frames_out)
            seen = self._counts()
            if self.plugged:
                self.firmware.step()
            if link:
                self.link.poll()
            wrote = (self.stream.bytes_out, self.link.stats.frames_out) != wrote_before
            fds = self._fds()
            if not fds:
                return
            if wrote or self._counts() != seen:
                try:
                    select.select(fds, [], [], 0.5 if wrote else 0.0)
                except (OSError, ValueError):
                    return
                continue
            try:
                readable, _, _ = select.select(fds, [], [], 0.0)
            except (OSError, ValueError):
                return
            if not readable:
                return

    def run(self, ms: int, step: int = 10, link: bool = True) -> None:
        end = self.utime.NOW[0] + ms
        while self.utime.NOW[0] < end:
            self.utime.NOW[0] += step
            self.settle(link=link)

    def close(self) -> None:
        self.link.close()
        if not self.plugged:
            return
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
