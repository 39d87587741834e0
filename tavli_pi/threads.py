"""One thread for OpenCV and BLAS (issue 12).

The table reads one small frame at a time on a Raspberry Pi: thread pools only
add overhead (measured: the ``lstsq`` of the hand stage took 28 ms with
OpenCV's and OpenBLAS's threads instead of 1.8 ms on one; pinning both cut the
demo's CPU by 1.5x). Two steps:

* :func:`pin_env` sets the thread variables read by OpenBLAS, OpenMP, MKL,
  BLIS and Accelerate when they load, so call it before numpy or cv2 is
  imported (the CLI does, first thing). A variable already set is kept for
  the libraries that only read the environment; OpenCV and OpenBLAS are
  pinned by :func:`pin_threads` all the same.
* :func:`pin_threads` also pins what is already loaded: ``cv2.setNumThreads(1)``
  and every OpenBLAS library in this process (numpy's and OpenCV's own) through
  its ``*_set_num_threads`` entry point (ctypes; Linux, where loaded libraries
  are listed in ``/proc/self/maps``). The app calls it when it starts.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

__all__ = ["THREAD_ENV", "pin_env", "pin_threads", "openblas_threads"]

#: environment variables of the thread pools numpy and OpenCV may load
THREAD_ENV = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)

# OpenBLAS entry points: numpy >= 2 wheels bundle scipy-openblas (symbols
# prefixed scipy_, 64-bit ints suffixed 64_); plain builds use openblas_*.
_PREFIXES = ("scipy_openblas", "openblas")
_SUFFIXES = ("64_", "_64_", "")


def pin_env() -> None:
    """Set each of :data:`THREAD_ENV` to 1 unless already set."""
    for name in THREAD_ENV:
        os.environ.setdefault(name, "1")


def _openblas_libs() -> list[str]:
    """Paths of the OpenBLAS libraries loaded in this process (Linux; else [])."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            paths = {line.split(None, 5)[-1].strip() for line in f if "openblas" in line.lower()}
    except OSError:
        return []
    return sorted(p for p in paths if p.startswith("/") and ".so" in p)


def _entry(lib: ctypes.CDLL, verb: str) -> Any:
    """``lib``'s ``*_{verb}_num_threads`` function, or None."""
    for prefix in _PREFIXES:
        for suffix in _SUFFIXES:
            try:
                return getattr(lib, f"{prefix}_{verb}_num_threads{suffix}")
            except AttributeError:
                continue
    return None


def openblas_threads() -> dict[str, int]:
    """Loaded OpenBLAS library path -> its current thread count."""
    counts: dict[str, int] = {}
    for path in _openblas_libs():
        try:
            lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0) | os.RTLD_LOCAL)
        except OSError:
            continue
        get = _entry(lib, "get")
        if get is not None:
            get.restype = ctypes.c_int
            counts[path] = int(get())
    return counts


def pin_threads(n: int = 1) -> None:
    """Pin OpenCV and every loaded OpenBLAS to ``n`` threads (and :func:`pin_env` for later loads)."""
    pin_env()
    import cv2  # the app reads frames with it: loaded already

    cv2.setNumThreads(n)
    for path in _openblas_libs():
        try:
            lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0) | os.RTLD_LOCAL)
        except OSError:
            continue
        set_ = _entry(lib, "set")
        if set_ is not None:
            set_.argtypes = [ctypes.c_int]
            set_.restype = None
            set_(n)
