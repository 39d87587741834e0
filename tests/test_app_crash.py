"""Kill the whole app (``tavli-pi run``) with SIGKILL at every event boundary of a scripted match,
and at random frames, resume it each time, and compare the log and the exports with an
uninterrupted run: identical events, .mat and .sgf, no game or set-up logged twice.

The table is ``tavli-pi run`` on the demo's scripted match (``[camera] source = "sim:demo"``).
Each run is a process of its own, ended by a real SIGKILL: after the log commits a chosen event
(the kill lands between the commit and anything else), or after a chosen frame. To keep 100+
restarts within CI's budget the processes are forked from this test process, which has imported
the package once (the child is the whole app: camera, vision, referee, GPIO, log); a few more runs
are started from scratch as ``python -m tavli_pi.cli run`` and killed from outside at random times.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tavli_pi.record.export import export_all
from tavli_pi.record.store import MatchLog
from tavli_pi.referee import snapshot
from tavli_pi.referee.events import Phase, to_dict

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
CONFIG = """
[table]
id = "crash"
players = ["White", "Black"]
match_length = 3
[camera]
source = "sim:demo"
fps = 10
corners = "324.8,64.8 955.2,64.8 955.2,655.2 324.8,655.2"
[signals]
enabled = true
pin_factory = "mock"
[record]
log = "table.sqlite"
"""


def _table(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    cfg = folder / "table.toml"
    cfg.write_text(CONFIG)
    return cfg


def _forked_run(cfg: Path, arm: Callable[[], None] | None) -> int:
    """``tavli-pi run --config cfg`` in a forked child; ``arm`` installs the child's kill point.
    Returns the child's exit status (negative: the signal that ended it)."""
    pid = os.fork()
    if pid == 0:  # the child: the whole app, until it exits or is killed
        code = 70
        try:
            import warnings

            warnings.simplefilter("ignore")
            if arm is not None:
                arm()
            from tavli_pi.cli import main

            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                os.dup2(null.fileno(), 2)
            code = main(["run", "--config", str(cfg)])
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _kill_after_first_commit() -> None:
    """Arm the child: SIGKILL right after its first commit to the log (before any output shows it)."""
    original = MatchLog.append_many

    def append_many(self: MatchLog, *a: object, **kw: object) -> list[int]:
        out = original(self, *a, **kw)  # type: ignore[arg-type]
        if out:
            os.kill(os.getpid(), signal.SIGKILL)
        return out

    MatchLog.append_many = append_many  # type: ignore[method-assign]


def _kill_after_frame(index: int) -> Callable[[], None]:
    def arm() -> None:
        from tavli_pi.app import TableApp

        original = TableApp.process

        def process(self: TableApp, frame: object) -> object:
            out = original(self, frame)  # type: ignore[arg-type]
            if frame.index >= index:  # type: ignore[attr-defined]
                os.kill(os.getpid(), signal.SIGKILL)
            return out

        TableApp.process = process  # type: ignore[method-assign,assignment]
    return arm


def _digest(folder: Path) -> dict[str, object]:
    log = folder / "table.sqlite"
    with MatchLog.open(log, readonly=True) as ml:
        events = [json.dumps(to_dict(e.event), sort_keys=True) for e in ml.events()]
        frames = [e.seq for e in ml.events() if e.has_frame]
    files = export_all(log, folder)
    return {"events": events, "frames": frames,
            **{kind: Path(p).read_text() for kind, p in sorted(files.items())}}


def _phase_at_end(folder: Path) -> set[str]:
    """The phase the log's end resumes in, and the kinds of the last batch's events."""
    with MatchLog.open(folder / "table.sqlite", readonly=True) as ml:
        snap = ml.last_snapshot()
        if snap is None:
            return set()
        batch = [e.event.kind for e in ml.events() if e.seq > snap.seq - 8]
        return {str(snapshot.loads(snap.referee).phase), *batch}


def _commits(folder: Path) -> int:
    """How many batches the log was committed in (one snapshot each: the event boundaries)."""
    import sqlite3

    conn = sqlite3.connect(folder / "table.sqlite")
    try:
        return int(conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0])
    finally:
        conn.close()


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], int]:
    folder = tmp_path_factory.mktemp("whole")
    assert _forked_run(_table(folder), None) == 0
    return _digest(folder), _commits(folder)


def test_kill_at_every_event_boundary_and_resume(tmp_path: Path,
                                                  uninterrupted: tuple[dict[str, object], int]) -> None:
    """Each run commits one batch of events (a frame's, all or nothing) and is killed at once;
    the next run resumes from the log. Every boundary between committed events is a kill."""
    whole, commits = uninterrupted
    cfg = _table(tmp_path)
    phases: set[str] = set()
    kills = 0
    while (status := _forked_run(cfg, _kill_after_first_commit)) == -signal.SIGKILL:
        kills += 1
        phases |= _phase_at_end(tmp_path)
        assert kills <= commits, "more kills than the match has commits: a batch was logged twice"
    assert status == 0
    assert kills == commits, f"{kills} kills for {commits} commits"
    got = _digest(tmp_path)
    assert got["events"] == whole["events"]
    assert got == whole
    # a restart was tested in every phase of the match
    for phase in (Phase.SETUP, Phase.OPENING, Phase.ROLLED, Phase.AWAITING_ROLL, Phase.ILLEGAL,
                  Phase.CORRECTING, Phase.CUBE, Phase.RESIGN, Phase.MATCH_OVER, "game_over"):
        assert str(phase) in phases, f"no restart in {phase}; phases and events seen: {sorted(phases)}"


def test_kill_at_random_frames_and_resume(tmp_path: Path,
                                          uninterrupted: tuple[dict[str, object], int]) -> None:
    whole, _ = uninterrupted
    cfg = _table(tmp_path)
    rng = random.Random(2026)
    frames = sorted(rng.sample(range(0, 209), 60))
    kills = 0
    for index in frames:
        status = _forked_run(cfg, _kill_after_frame(index))
        if status == 0:
            break
        assert status == -signal.SIGKILL
        kills += 1
    assert _forked_run(cfg, None) == 0
    assert kills >= 55
    assert _digest(tmp_path) == whole


def test_kill_from_outside_at_random_times(tmp_path: Path,
                                           uninterrupted: tuple[dict[str, object], int]) -> None:
    """The real command, started from scratch and SIGKILLed from outside mid-run (anywhere: in
    a commit, in vision, in start-up), five times, then left to finish."""
    whole, _ = uninterrupted
    cfg = _table(tmp_path)
    rng = random.Random(7)
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    for _ in range(5):
        proc = subprocess.Popen([sys.executable, "-m", "tavli_pi.cli", "run", "--config", str(cfg)],
                                cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
        assert proc.stdout is not None
        proc.stdout.readline()  # the app is wired (log open) and reading frames
        try:  # let it run a random while, then kill it wherever it is
            proc.wait(timeout=rng.uniform(0.2, 2.0))
        except subprocess.TimeoutExpired:
            proc.kill()
        assert proc.wait(60) == -signal.SIGKILL
    done = subprocess.run([sys.executable, "-m", "tavli_pi.cli", "run", "--config", str(cfg)], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert _digest(tmp_path) == whole


def _unseen_roll_match() -> list[object]:
    """A short game whose second play's roll the camera never sees: the referee asks the players
    for it (``roll_needed``) and takes the play once they enter it, some frames later."""
    from tavli_pi.sim.script import ScriptWriter

    w = ScriptWriter()
    w.setup()
    w.play(w.opening(6, 5))
    w.play_unseen((3, 1))
    w.play(w.roll((4, 2)))
    return list(w.moments)


def _on_unseen_roll_match(kill: Callable[[], None] | None) -> Callable[[], None]:
    """Arm the child: ``sim:demo`` plays :func:`_unseen_roll_match`, and ``kill`` (if any) is armed."""
    def arm() -> None:
        from tavli_pi.sim import script

        script.demo_match = _unseen_roll_match  # type: ignore[assignment]
        if kill is not None:
            kill()
    return arm


def test_kill_while_the_players_are_asked_for_a_roll_and_resume(tmp_path: Path) -> None:
    """Killed at every event boundary of a game in which the referee asks the players for a roll
    the camera missed: a run killed while the question is open resumes with it (the snapshot holds
    it), so the players' answer is taken and nothing is asked twice -- the same log and exports as
    an uninterrupted run."""
    whole_dir = tmp_path / "whole"
    assert _forked_run(_table(whole_dir), _on_unseen_roll_match(None)) == 0
    whole, commits = _digest(whole_dir), _commits(whole_dir)
    assert sum('"kind": "roll_needed"' in e for e in whole["events"]) == 1  # type: ignore[attr-defined]
    folder = tmp_path / "killed"
    cfg = _table(folder)
    kills = pending = 0
    while (status := _forked_run(cfg, _on_unseen_roll_match(_kill_after_first_commit))) == -signal.SIGKILL:
        kills += 1
        with MatchLog.open(folder / "table.sqlite", readonly=True) as ml:
            snap = ml.last_snapshot()
            pending += snap is not None and snapshot.loads(snap.referee).question.asked is not None
        assert kills <= commits, "more kills than the game has commits: a batch was logged twice"
    assert status == 0
    assert kills == commits
    assert pending >= 1, "no run was killed while the players were asked for the roll"
    assert _digest(folder) == whole
