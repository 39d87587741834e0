"""firmware/selftest.py (codec vectors, unit life cycle, debouncing) under
CPython and under real MicroPython (the WebAssembly port, via node)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.firmware.fwload import FIRMWARE


def test_selftest_under_cpython() -> None:
    r = subprocess.run([sys.executable, "selftest.py"], cwd=FIRMWARE, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"selftest: (\d+) checks passed on cpython", r.stdout)
    assert m and int(m.group(1)) > 100


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: cannot run the MicroPython "
                    "WebAssembly port (apt install nodejs npm; scripts/setup.sh test does)")
def test_selftest_under_real_micropython() -> None:
    package = FIRMWARE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
    if not package.is_dir():
        npm = shutil.which("npm")
        assert npm, "npm missing: run scripts/setup.sh test"
        subprocess.run([npm, "install", "--no-audit", "--no-fund", "--silent"], cwd=FIRMWARE, check=True,
                       timeout=300)
    r = subprocess.run(["node", "mpy_run.mjs", "selftest.py"], cwd=FIRMWARE, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"selftest: (\d+) checks passed on micropython", r.stdout)
    assert m and int(m.group(1)) > 100, r.stdout
    assert "compiled" in r.stdout  # main.py and tm1637.py compile under MicroPython too


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_micropython_runner_reports_failures() -> None:
    bad = FIRMWARE / "_failing_check.py"
    bad.write_text("import proto\nassert proto.crc16(b'123456789') == 0, 'deliberate'\n")
    try:
        r = subprocess.run(["node", "mpy_run.mjs", bad.name], cwd=FIRMWARE, capture_output=True, text=True,
                           timeout=120)
    finally:
        bad.unlink()
    assert r.returncode == 1
    assert "deliberate" in r.stderr
