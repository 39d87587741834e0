"""keep_heap: a frame's large buffers reuse the last frame's pages (issue 12).

Each case runs in a fresh interpreter (malloc's settings are per process) that
allocates and fills a 4 MiB array ten times over, as a frame loop does, and
counts the page faults of the last five rounds. ``MALLOC_TOP_PAD_`` is set so
that glibc keeps its mmap threshold at the 128 KiB default (any ``MALLOC_*``
variable turns off its adjusting): every round then maps fresh pages, unless
keep_heap raised the threshold. ``NUMPY_MADVISE_HUGEPAGE=0``: numpy otherwise asks the
kernel for transparent huge pages on arrays of 4 MiB and more, and where the kernel has
them free a fresh 4 MiB array faults twice instead of 1024 times, so the default's count
would hang on the machine's free memory (it read 15 under a loaded test run).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tavli_pi.memory import keep_heap

_ROUNDS = """
import resource, sys
import numpy as np
from tavli_pi.memory import keep_heap
took = keep_heap() if sys.argv[1] == "keep" else None
for i in range(10):
    if i == 5:
        start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    a = np.empty(4 << 20, np.uint8)
    a.fill(i)
    del a
print(took, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start)
"""


def _faults(mode: str) -> tuple[str, int]:
    env = {**os.environ, "MALLOC_TOP_PAD_": "131072", "NUMPY_MADVISE_HUGEPAGE": "0"}
    out = subprocess.run([sys.executable, "-c", _ROUNDS, mode], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return out[0], int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_kept_heap_reuses_a_freed_frame_buffer() -> None:
    took, kept = _faults("keep")
    if took != "True":
        pytest.skip("this C library has no mallopt")
    _, fresh = _faults("default")
    # 5 rounds of 1024 pages of 4 KiB: mapped afresh every round by default, reused once kept
    assert fresh >= 1000
    assert kept < 100


def test_keep_heap_says_whether_it_took() -> None:
    assert isinstance(keep_heap(), bool)
