"""Nothing committed is lost: SIGKILL a real writer process at many random points.

A replay driver (replay_driver.py) appends a fixed match, one durable commit
per event, resuming after the log's last event. It is killed 25 times at
random commit counts (the kill lands while it keeps writing, so anywhere in a
transaction) and restarted; the final log and the exported .mat/.sgf must be
identical to those of an uninterrupted run.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tavli_pi.record.export import export_all, load_record
from tavli_pi.record.store import MatchLog
from tavli_pi.referee.events import to_dict

DRIVER = Path(__file__).with_name("replay_driver.py")
SEED = 21


def _run(db: Path, jpeg: Path, kill_after: int | None) -> tuple[int, int]:
    """Run the driver; SIGKILL it once it has reported ``kill_after`` commits. -> (status, commits seen)."""
    proc = subprocess.Popen([sys.executable, str(DRIVER), str(db), str(SEED), str(jpeg)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    seen = 0
    if kill_after is not None:
        for _line in proc.stdout:
            seen += 1
            if seen >= kill_after:
                os.kill(proc.pid, signal.SIGKILL)
                break
    out, err = proc.communicate(timeout=60)
    seen += len(out.split())
    if kill_after is None:
        assert proc.returncode == 0, err
    return proc.returncode, seen


def _log_dicts(db: Path) -> list[dict[str, object]]:
    with MatchLog.open(db, readonly=True) as log:
        return [dict(to_dict(e.event), seq=e.seq, frame=log.frame(e.seq)) for e in log.events()]


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing(tmp_path: Path, jpeg: bytes) -> None:
    frame = tmp_path / "frame.jpg"
    frame.write_bytes(jpeg)
    clean = tmp_path / "clean"
    crashed = tmp_path / "crashed"
    clean.mkdir()
    crashed.mkdir()
    _run(clean / "table.sqlite", frame, None)
    expected = _log_dicts(clean / "table.sqlite")
    total = len(expected)
    assert total > 100

    rng = random.Random(5)
    db = crashed / "table.sqlite"
    kills = 0
    committed_before = 0
    for _ in range(25):
        status, seen = _run(db, frame, rng.randint(1, 12))
        if status == 0:
            break
        assert status == -signal.SIGKILL
        kills += 1
        got = _log_dicts(db)
        # every commit the driver reported is in the log, and the log is a prefix of the match
        assert len(got) >= committed_before + seen
        assert got == expected[: len(got)]
        load_record(db)  # an interrupted log always exports
        committed_before = len(got)
    assert kills >= 20
    _run(db, frame, None)
    assert _log_dicts(db) == expected
    a = export_all(clean / "table.sqlite", clean)
    b = export_all(db, crashed)
    for fmt in ("mat", "sgf"):
        assert a[fmt].read_text() == b[fmt].read_text()
