"""Writing files so that a reader never sees half a file (exports, marker sheets, calibrations)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tavli_pi.errors import OutputFileError

__all__ = ["write_atomic"]


def _umask() -> int:
    """The process umask, read without changing it (``os.umask`` is racy with threads)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8 with ``\\n`` newlines, or bytes) to ``path`` via a synced temp
    file and rename: a full disk or a kill leaves the old file or none, never half a file.

    The file gets the usual permissions (0666 less the umask), not the temp
    file's 0600. A path that cannot be written raises :class:`OutputFileError`.
    """
    p = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputFileError(f"cannot write {p} ({exc.strerror}): check that the folder "
                          f"{p.parent} exists and is writable") from exc
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o666 & ~_umask())
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise OutputFileError(f"cannot write {p} ({exc.strerror}): give a writable file path") from exc
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p
