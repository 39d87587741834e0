"""One OpenCV and one BLAS thread in the app and the CLI (issue 12).

This machine has 2 cores, so OpenCV and OpenBLAS start with 2 threads unless
pinned: each check below fails without the pinning.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.scene import scene_from_position
from tavli_pi.threads import THREAD_ENV, openblas_threads, pin_env, pin_threads

from tests.test_app import calibration, config

REPO = Path(__file__).resolve().parent.parent


def test_the_app_runs_with_one_opencv_and_one_blas_thread(tmp_path: Path) -> None:
    np.linalg.lstsq(np.eye(3), np.ones(3), rcond=None)  # numpy's OpenBLAS is loaded
    cv2.setNumThreads(2)
    for path in openblas_threads():
        _set_blas(path, 2)
    assert cv2.getNumThreads() == 2
    cfg = parse_config(config(tmp_path), str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(Position.start()), 2)], fps=10.0)
    with TableApp(cfg, camera=cam, calibration=calibration(), pin_factory=MockFactory()) as app:
        assert app.run() == 0
        assert cv2.getNumThreads() == 1
        counts = openblas_threads()
        assert any("numpy" in p for p in counts), counts
        assert set(counts.values()) == {1}, counts


def test_pin_env_keeps_what_the_operator_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in THREAD_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    pin_env()
    assert os.environ["OMP_NUM_THREADS"] == "3"
    assert all(os.environ[n] == "1" for n in THREAD_ENV if n != "OMP_NUM_THREADS")


def test_the_cli_pins_blas_before_numpy_loads() -> None:
    """In a fresh process: ``main`` sets the thread variables before the command imports numpy."""
    script = ("import contextlib, io, json, sys\n"
              "from tavli_pi.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    main(['plays', '4HPwATDgc/ABMA', '3', '1'])\n"
              "import numpy, cv2\n"
              "numpy.linalg.lstsq(numpy.eye(3), numpy.ones(3), rcond=None)\n"
              "from tavli_pi.threads import openblas_threads\n"
              "print(json.dumps(openblas_threads()))\n")
    env = {k: v for k, v in os.environ.items() if k not in THREAD_ENV}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, env=env,
                          timeout=120, check=True)
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts and set(counts.values()) == {1}, counts


def test_pin_threads_pins_a_library_loaded_before() -> None:
    for path in openblas_threads():
        _set_blas(path, 2)
    pin_threads()
    assert set(openblas_threads().values()) == {1}
    assert cv2.getNumThreads() == 1


def _set_blas(path: str, n: int) -> None:
    import ctypes

    from tavli_pi.threads import _entry

    fn = _entry(ctypes.CDLL(path), "set")
    assert fn is not None
    fn(n)
