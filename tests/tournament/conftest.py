"""A real Mosquitto broker for the feed and director tests.

``Broker`` writes a config (127.0.0.1, a free port, persistence on, optional
password file and TLS), starts /usr/sbin/mosquitto, and waits for its
"running" log line (an Event, not a sleep). ``restart()`` keeps port and
persistence, as a broker reboot would.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
USER, PASSWORD = "table7", "s3cret-dice"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    def __init__(self, folder: Path, *, password_file: Path | None = None, tls: dict[str, Path] | None = None,
                 max_queued: int = 100000):
        self.folder = folder
        self.port = free_port()
        self.host = "127.0.0.1"
        self.tls = tls
        self.proc: subprocess.Popen[str] | None = None
        self.log: list[str] = []  # this broker's log lines, every start
        lines = [
            f"listener {self.port} 127.0.0.1",
            "persistence true",
            f"max_queued_messages {max_queued}",  # the default 1000 drops a director's backlog after an outage
            f"persistence_location {folder}/",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "user root",
        ]
        if password_file is not None:
            lines += ["allow_anonymous false", f"password_file {password_file}"]
        else:
            lines += ["allow_anonymous true"]
        if tls is not None:
            lines += [f"cafile {tls['ca']}", f"certfile {tls['cert']}", f"keyfile {tls['key']}"]
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 10.0) -> None:
        if not os.access(MOSQUITTO, os.X_OK):
            pytest.fail(f"{MOSQUITTO} is missing: apt-get install mosquitto (the feed tests need a real broker)")
        proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        ready = threading.Event()
        log = self.log
        first = len(log)
        self._reader = threading.Thread(target=self._read, args=(proc, ready), daemon=True)
        self._reader.start()
        if not ready.wait(timeout):
            proc.kill()
            raise RuntimeError("mosquitto did not start:\n" + "".join(log[first:]))
        self.proc = proc

    def _read(self, proc: subprocess.Popen[str], ready: threading.Event) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.log.append(line)
            if " running" in line:
                ready.set()

    def stop(self) -> None:
        """Graceful stop (SIGTERM): Mosquitto saves its persistence file.

        Mosquitto 2.0 sets its run flag just after logging "running", so a
        SIGTERM right at start-up can be lost: repeat it until it exits.
        """
        if self.proc is None:
            return
        first = len(self.log)
        for _ in range(20):
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(0.5)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None
        self._reader.join(5)  # the log to its last line
        said = "".join(self.log[first:])
        if "Saving in-memory database" not in said or "Error saving" in said:
            # A restart test checks the product only if the broker kept its sessions (a director's
            # persistent session lost here would make it miss events and ask for them again).
            raise RuntimeError("mosquitto did not save its persistence file on stop:\n" + said)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path)
    b.start()
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
def auth_broker(tmp_path: Path) -> Iterator[Broker]:
    pw = tmp_path / "passwd"
    pw.touch(mode=0o600)
    subprocess.run(["mosquitto_passwd", "-b", str(pw), USER, PASSWORD], check=True, capture_output=True)
    b = Broker(tmp_path, password_file=pw)
    b.start()
    try:
        yield b
    finally:
        b.stop()


def make_certs(folder: Path) -> dict[str, Path]:
    """A throw-away CA and a server certificate for 127.0.0.1 (openssl, EC keys: fast)."""

    def ossl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    ossl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=tavli test CA")
    ossl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    ossl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
         "-out", "server.crt", "-days", "2", "-extfile", "san.ext")
    os.chmod(folder / "server.key", 0o644)
    return {"ca": folder / "ca.crt", "cert": folder / "server.crt", "key": folder / "server.key"}


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[Broker]:
    if shutil.which("openssl") is None:
        if os.environ.get("CI") == "true":  # CI must run every oracle: a missing tool fails
            pytest.fail("openssl is not installed: apt-get install openssl")
        pytest.skip("openssl is not installed; TLS settings are only checked on the client")
    b = Broker(tmp_path, tls=make_certs(tmp_path))
    b.start()
    try:
        yield b
    finally:
        b.stop()
