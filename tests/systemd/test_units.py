"""The unit files (systemd-analyze verify), install.sh (bash -n, shellcheck, --dry-run)."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"
ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"


def _unit(name: str) -> configparser.ConfigParser:
    cp = configparser.ConfigParser(strict=False, interpolation=None)
    cp.optionxform = str  # type: ignore[assignment,method-assign]
    cp.read(SYSTEMD / name)
    return cp


def _verify(tmp_path: Path, name: str, replace: dict[str, str]) -> subprocess.CompletedProcess[str]:
    text = (SYSTEMD / name).read_text()
    for old, new in replace.items():
        assert old in text, f"{name} no longer mentions {old}"
        text = text.replace(old, new)
    unit = tmp_path / name
    unit.write_text(text)
    return subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not Path(ANALYZE).exists(), reason="systemd-analyze is not installed")
def test_service_unit_verifies(tmp_path: Path) -> None:
    # ExecStart must point at a real executable for verify: swap in /bin/true.
    r = _verify(tmp_path, "tavli-pi.service", {"/opt/tavli-pi/.venv/bin/tavli-pi": "/bin/true"})
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == "", r.stderr  # unknown keys and bad values are only warnings


@pytest.mark.skipif(not Path(ANALYZE).exists(), reason="systemd-analyze is not installed")
def test_kiosk_unit_verifies(tmp_path: Path) -> None:
    r = _verify(tmp_path, "tavli-pi-kiosk.service", {"/usr/bin/cage": "/bin/true"})
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == "", r.stderr


@pytest.mark.skipif(not Path(ANALYZE).exists(), reason="systemd-analyze is not installed")
def test_verify_would_catch_a_typo(tmp_path: Path) -> None:
    r = _verify(tmp_path, "tavli-pi.service", {"/opt/tavli-pi/.venv/bin/tavli-pi": "/bin/true",
                                               "WatchdogSec=": "WatchdogSecs="})
    assert "Unknown key" in r.stderr


def test_service_is_notify_with_watchdog_restart_and_unprivileged_user() -> None:
    s = _unit("tavli-pi.service")["Service"]
    assert s["Type"] == "notify"
    assert int(s["WatchdogSec"]) > 0
    assert s["Restart"] == "on-failure"
    assert s["User"] == "tavli" and s["User"] != "root"
    assert set(s["SupplementaryGroups"].split()) >= {"gpio", "video", "dialout"}
    assert "/etc/tavli-pi/table.toml" in s["ExecStart"]
    assert _unit("tavli-pi.service")["Install"]["WantedBy"] == "multi-user.target"


def test_documentation_names_a_page_install_copies() -> None:
    """install.sh copies the clone to /opt/tavli-pi: ``systemctl help tavli-pi`` must open a page that is there."""
    doc = _unit("tavli-pi.service")["Unit"]["Documentation"]
    prefix = "file:///opt/tavli-pi/"
    assert doc.startswith(prefix), doc
    assert (REPO / doc.removeprefix(prefix)).is_file(), f"{doc} names no file of the repository"


def test_kiosk_shows_the_local_display() -> None:
    s = _unit("tavli-pi-kiosk.service")["Service"]
    assert "chromium --kiosk" in s["ExecStart"]
    assert s["ExecStart"].rstrip().endswith("http://localhost:8080/")
    assert s["User"] == "tavli"


def test_install_script_parses() -> None:
    r = subprocess.run(["bash", "-n", str(SYSTEMD / "install.sh")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed (apt install shellcheck)")
def test_install_script_shellcheck_clean() -> None:
    r = subprocess.run(["shellcheck", str(SYSTEMD / "install.sh")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_install_dry_run_does_every_step_in_order() -> None:
    r = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    cmds = [line[2:] for line in r.stdout.splitlines() if line.startswith("+ ")]
    joined = "\n".join(cmds)
    order = ["apt-get install", "useradd", "usermod -a -G gpio\\,video\\,dialout",
             "venv --system-site-packages /opt/tavli-pi/.venv", "pip install -q -e /opt/tavli-pi",
             "/etc/tavli-pi/table.toml", "/etc/systemd/system/tavli-pi.service",
             "systemctl enable tavli-pi.service tavli-pi-kiosk.service"]
    positions = [joined.find(step) for step in order]
    assert all(p >= 0 for p in positions), dict(zip(order, positions))
    assert positions == sorted(positions)
    no_kiosk = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run", "--no-kiosk"],
                              capture_output=True, text=True, timeout=60)
    assert "kiosk" not in no_kiosk.stdout.replace("--no-kiosk", "")
