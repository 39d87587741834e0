"""How a long-running command (``run``, ``director``) is asked to stop.

Ctrl-C (SIGINT) raises KeyboardInterrupt as Python's own handler does, which the CLI ends with
exit 130; a service manager's SIGTERM (systemd's stop, ``KillSignal=SIGTERM`` by default) sets
an event the command's loop watches, so it ends cleanly with exit 0 -- the page, the feed and the
match log closed, not killed mid-write.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def stop_on_signals(stop: threading.Event) -> Iterator[threading.Event]:
    """Within the block SIGTERM sets ``stop`` and SIGINT is Python's KeyboardInterrupt -- also when
    SIGINT came ignored from the parent (a job started in the background of a non-interactive
    shell inherits SIG_IGN for it). Only on the main thread (Python's rule; elsewhere the block
    runs unchanged). The handlers before are put back on leaving."""
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    before: dict[signal.Signals, Any] = {
        signal.SIGINT: signal.signal(signal.SIGINT, signal.default_int_handler),
        signal.SIGTERM: signal.signal(signal.SIGTERM, lambda _sig, _frame: stop.set()),
    }
    try:
        yield stop
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
