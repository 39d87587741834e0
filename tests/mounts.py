"""Run a Python snippet with a folder mounted the way a real failure needs it: read-only, or a
tiny tmpfs that fills up. Root ignores file permissions, so only a real mount proves these cases;
it is made in a private mount namespace (``unshare -m``) and vanishes with the process."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNSHARE = shutil.which("unshare")


def run_with_mount(mount: Path, script: str, *, read_only_of: Path | None = None,
                   tmpfs_bytes: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``script`` with ``mount`` either a read-only view of ``read_only_of`` or a tmpfs of
    ``tmpfs_bytes``; the test fails if the mount does not behave as asked."""
    if UNSHARE is None:
        pytest.skip("unshare (util-linux) is needed for a private mount")
    mount.mkdir(exist_ok=True)
    if read_only_of is not None:
        setup = (f"mount --bind -o ro '{read_only_of}' '{mount}' || exit 96; "
                 f"touch '{mount}/probe' 2>/dev/null && exit 97; ")
    elif tmpfs_bytes is not None:
        setup = f"mount -t tmpfs -o size={tmpfs_bytes} tmpfs '{mount}' || exit 96; "
    else:
        raise ValueError("give read_only_of or tmpfs_bytes")
    shell = setup + f"exec '{sys.executable}' -c \"$0\""
    proc = subprocess.run([UNSHARE, "-m", "sh", "-c", shell, script], capture_output=True, text=True,
                          timeout=120)
    if proc.returncode == 97:
        pytest.fail("the bind mount was writable: the test would prove nothing")
    if proc.returncode == 96 or (proc.returncode != 0 and "unshare:" in proc.stderr):
        pytest.skip(f"cannot make a private mount here ({proc.stderr.strip()})")
    return proc
