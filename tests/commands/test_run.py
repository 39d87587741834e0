"""``tavli-pi run`` on bad config input: one line naming the file or key and what to do, exit 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.cli import main

#: the simulated board's field corners (as in config/table.example.toml)
CORNERS = "324.8,64.8 955.2,64.8 955.2,655.2 324.8,655.2"


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], config: Path, *extra: str) -> tuple[int, str]:
    code = main(["run", "--config", str(config), *extra])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(f"[camera]\nsource = 'sim:start:2'\ncorners = '{CORNERS}'\n"
                 f"[record]\nlog = '{tmp_path / 'table.sqlite'}'\n" + text)
    return p


def test_random_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "table.toml"
    p.write_bytes(bytes(range(256)) * 8)
    code, err = _run(tmp_path, capsys, p)
    assert code == 2 and err.count("\n") == 1 and f"config file {p} is not a text" in err


def test_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, capsys, tmp_path)
    assert code == 2 and err.count("\n") == 1 and "is a folder" in err


def test_fps_nan_is_a_config_error_not_a_disk_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "table.toml"
    p.write_text("[camera]\nsource = 'sim:start:2'\nfps = nan\n")
    code, err = _run(tmp_path, capsys, p)
    assert code == 2 and err.count("\n") == 1
    assert "camera.fps must be a finite number" in err and "disk" not in err


def test_signals_without_gpio_pins_say_use_mock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # this machine is not a Pi: gpiozero finds no pins for pin_factory = "" (the real pins)
    p = _write(tmp_path, "[signals]\nenabled = true\npin_factory = ''\n")
    code, err = _run(tmp_path, capsys, p, "--max-frames", "1")
    assert code == 2 and err.count("\n") == 1
    assert f"{p}: signals.enabled = true but this machine has no GPIO pins" in err
    assert 'pin_factory = "mock"' in err


def test_a_link_port_naming_no_device_is_a_clear_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = _write(tmp_path, "[link]\nport = '/dev/ttyACM-none-here'\n")
    code, err = _run(tmp_path, capsys, p, "--max-frames", "2")
    assert code == 0
    assert err.startswith("tavli-pi run: warning: ")
    assert "link.port /dev/ttyACM-none-here names no device: is the table unit plugged in?" in err


REPO = Path(__file__).resolve().parents[2]


def test_the_example_config_runs_as_the_readme_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Copied and run as it is, the example plays the scripted match and logs it to the state folder."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    cfg = tmp_path / "my-table.toml"
    cfg.write_text((REPO / "config" / "table.example.toml").read_text())
    code, err = _run(tmp_path, capsys, cfg, "--max-frames", "60")
    assert code == 0, err
    log = tmp_path / "state" / "tavli-pi" / "table-1.sqlite"
    from tavli_pi.record.store import MatchLog

    with MatchLog.open(log, readonly=True) as ml:
        kinds = [e.event.kind for e in ml.events()]
    assert kinds[:3] == ["setup_checked", "game_started", "opening_roll"], kinds
    assert not list((REPO / "config").glob("*.sqlite*"))  # nothing written into the source tree
    # the same file run again resumes the logged match instead of starting it anew
    code, err = _run(tmp_path, capsys, cfg, "--max-frames", "5")
    assert code == 0, err
    with MatchLog.open(log, readonly=True) as ml:
        assert [e.event.kind for e in ml.events()].count("game_started") == 1


def test_the_installed_table_config_is_a_real_tournament_table() -> None:
    """systemd/table.toml, as install.sh writes it (a random PIN in place), runs a real table."""
    from tavli_pi.config import parse_config

    text = (REPO / "systemd" / "table.toml").read_text()
    assert "PIN-SET-BY-INSTALL" in text
    cfg = parse_config(text.replace("PIN-SET-BY-INSTALL", "493017"), "/etc/tavli-pi/table.toml")
    assert cfg.camera.source == "picamera2" and cfg.signals.enabled and cfg.signals.pin_factory is None
    assert cfg.display.enabled and cfg.display.pin == "493017"
    assert cfg.table.match_length > 0 and cfg.referee.rules.crawford and cfg.referee.clock is not None
    assert cfg.link.port == "/dev/ttyACM0" and cfg.record.log == "/var/lib/tavli-pi/table.sqlite"
    with pytest.raises(Exception, match="display.pin must be at least 4 digits"):
        parse_config(text, "/etc/tavli-pi/table.toml")  # never runs with the placeholder


def test_sigterm_stops_the_table_cleanly(tmp_path: Path) -> None:
    """A service manager's stop (SIGTERM) ends ``run`` between frames with exit 0 and the outputs
    closed -- not killed mid-frame (exit -15) -- and the log holds what was read."""
    import os
    import signal
    import subprocess
    import sys
    import threading

    cfg = tmp_path / "table.toml"
    cfg.write_text(f"[camera]\nsource = 'sim:start'\ncorners = '{CORNERS}'\n"  # endless: only a signal ends it
                   f"[record]\nlog = '{tmp_path / 'table.sqlite'}'\n")
    proc = subprocess.Popen([sys.executable, "-m", "tavli_pi.cli", "run", "--config", str(cfg)], cwd=REPO,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    started = threading.Event()
    out: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.append(line)
            if line.startswith("tavli-pi run: table"):
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(60.0), "".join(out)
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(60.0)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(10.0)
    assert code == 0, "".join(out)
    assert "stopped (SIGTERM) after" in "".join(out) and "Traceback" not in "".join(out)
    from tavli_pi.record.store import MatchLog

    with MatchLog.open(tmp_path / "table.sqlite", readonly=True) as ml:  # whole: it opens read-only
        kinds = [e.event.kind for e in ml.events()]
    assert kinds == ["setup_checked", "game_started"][:len(kinds)], kinds  # the start board, read or not yet
