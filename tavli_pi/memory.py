"""Keep freed frame buffers in the process (issue 12).

Every frame allocates the same large arrays (the warped view, its gradients,
the integral image, masks), each a few MB. glibc's malloc gives a block above
its *mmap threshold* fresh pages from the kernel and unmaps them on free, so
each frame pays a page fault per 4 KiB touched: measured over the demo, 3,250
faults in the gradients alone, 16 ms of CPU a changed frame instead of 5.
The threshold normally rises to the largest block freed, but not reliably
across a frame's many sizes, and not at all once any ``MALLOC_*`` variable is
set. :func:`keep_heap` fixes it above a frame's largest block and keeps freed
memory in the heap (``mallopt``), so the next frame reuses the same pages.

It costs resident memory: up to :data:`TRIM` of freed heap is kept. Where the
C library has no ``mallopt`` (not glibc) nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util

__all__ = ["MMAP_THRESHOLD", "TRIM", "keep_heap"]

#: blocks up to this size come from the heap: above a frame's largest buffer (the integral image,
#: 10.4 MB), below the dice stage's rare larger ones, which are cheaper as fresh zeroed pages (a full
#: read measured 63-64 ms CPU at 12 MiB, 65-73 at 32 MiB; glibc allows at most 16 MiB on 32-bit)
MMAP_THRESHOLD = 12 << 20
#: free memory kept at the heap's top before it is given back
TRIM = 128 << 20
# mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def keep_heap() -> bool:
    """Set malloc's mmap and trim thresholds (see the module doc); True when it took."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    if mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) != 1:
        return False
    return bool(mallopt(_M_TRIM_THRESHOLD, TRIM) == 1)
