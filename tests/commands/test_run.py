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
