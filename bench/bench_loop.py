"""The app's frame loop: ``TableApp.process`` over the demo, a random game and real-like cameras (issue 12).

Run: .venv/bin/python bench/bench_loop.py  (``--quick``: the demo's first 80 frames only, no real-like game)
     .venv/bin/python bench/bench_loop.py --no-demo --reallike 100,103,104  (those real-like games only)
     .venv/bin/python bench/bench_loop.py --quick --peer ../base --rounds 3  (this tree against another, alternated)

The frames are rendered first (the simulator's cost is not the table's), then fed
to a TableApp (calibrated once, logging to a temporary SQLite file, the players'
scripted presses submitted before their frame, as ``TableApp.run`` does) with
the incremental reader on and off, in the same run. Each frame's CPU time
(``time.process_time``) and wall time (``perf_counter``) is classed by the
reader's ``last_kind``: ``full`` (every frame with incremental reading off, and
the first with it on), ``changed`` or ``unchanged``; the unchanged frames are
also shown apart by whether they carried an event (such a frame commits it to
the log, with the proving frame's JPEG: the app's own cost is the rest).

CPU per second of video: the sequence at 10 fps is one frame per moment of the
script; at 15 fps every other moment shows for two frames (the extra frame the
same picture), so both cover the same seconds of play. The scripted games are
dense: something changes on most frames, where a real game's players think for
seconds between plays, so these figures are the worst case for the loop.
CPU per second of video is the sum of the ``process()`` calls' CPU (the loop around them,
rendering and submitting the players' presses, is not the table's).

But the demo's frames are noise-free: a still board gives the same pixels twice, so the gate
finds many frames unchanged. A real camera's sensor noise, and a JPEG camera's blocks, differ
frame to frame. ``--reallike G,...`` (default: game 103, a 640 px JPEG camera; none with
``--quick``) times the same loop over real-like referee games as ``bench_reallike.py --games``
plays them (its ``game_*`` helpers: the same table, script, config and camera; the app
calibrates itself from ``[camera] corners`` and the scripted players answer the referee,
``sim.drive``), every frame rendered with fresh noise (at 15 fps the extra frame too). The
frames before calibration (``set-up``) and the call that calibrates (``calibration``) are
shown apart, and the CPU per second of video also without them; the incremental run says how
many frames the gate found unchanged.

``--peer DIR`` compares this tree's ``tavli_pi`` with another's (``DIR``: a worktree of the base of a
change) in one run: the same bench (this file, with the other options given) runs ``--rounds`` times
in each tree, alternated (this tree first), each run a process of its own (``--tree``: its
``tavli_pi`` taken from that tree, the bench's code from this one), and the figures of every run
and their medians per tree are printed side by side: on a machine shared with other work, runs
minutes apart differ by 10-20 %, so only alternated runs compare like with like.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _tree_from_argv(argv: list[str]) -> None:
    """``--tree DIR``: import ``tavli_pi`` from DIR and the bench's own modules from this tree -- a
    folder holding only a link to DIR's ``tavli_pi`` goes first on the path (``bench`` has no
    ``__init__``, so DIR itself first would lend it DIR's bench modules too)."""
    if "--tree" not in argv:
        return
    tree = Path(argv[argv.index("--tree") + 1]).resolve()
    if not (tree / "tavli_pi" / "__init__.py").is_file():
        raise SystemExit(f"--tree {tree}: no tavli_pi package there")
    link = Path(tempfile.mkdtemp(prefix="bench_loop_tree_"))
    (link / "tavli_pi").symlink_to(tree / "tavli_pi")
    sys.path.insert(0, str(link))


_tree_from_argv(sys.argv)

from tavli_pi.memory import keep_heap  # noqa: E402
from tavli_pi.threads import pin_threads  # noqa: E402

# as TableApp does when it starts: the full read x25 (``single``) is timed before any TableApp
# is made, and without the kept heap each of its large buffers is fresh pages (issue 12)
pin_threads()
keep_heap()

from gpiozero.pins.mock import MockFactory  # noqa: E402

from bench.bench_reallike import game_camera, game_config, game_plans, game_script  # noqa: E402
from tavli_pi.app import TableApp  # noqa: E402
from tavli_pi.config import TableConfig, parse_config  # noqa: E402
from tavli_pi.referee.events import Event  # noqa: E402
from tavli_pi.referee.inputs import PlayerInput  # noqa: E402
from tavli_pi.sim.camera import SimCamera  # noqa: E402
from tavli_pi.sim.drive import Table  # noqa: E402
from tavli_pi.sim.script import Moment, demo_match, random_game  # noqa: E402
from tavli_pi.sim.table import scenes_of  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.camera import Frame  # noqa: E402
from tavli_pi.vision.setup import learn_board  # noqa: E402

#: the table ``drive_reallike`` feeds: the app, or a watcher round it
T = TypeVar("T", bound=Table)

#: the real-like game the default run times (640 px, a JPEG camera: bench/RESULTS.md, stop 21)
DEFAULT_REALLIKE = "103"
#: this run's figures by name (``--json``; what ``--peer`` compares): CPU-s per s of video, ms
FIGURES: dict[str, float] = {}
#: the stream being timed (its figures' names begin with it)
_STREAM = [""]


def _frames(moments: Sequence[Moment], seed: int) -> tuple[list[Frame], Calibration]:
    frames: list[Frame] = []
    cam = SimCamera(scenes_of(moments), fps=10.0, seed=seed)
    with cam:
        for f in cam:
            if not frames:
                truth = cam.last_truth
                assert truth is not None
                cal = learn_board(f.image, Calibration(truth.corners, home=truth.home))  # type: ignore[arg-type]
            frames.append(f)
    return frames, cal


def _at(frames: list[Frame], fps: int) -> list[tuple[int, Frame]]:
    """(moment, frame) at ``fps``: at 15 every other moment is shown twice."""
    out: list[tuple[int, Frame]] = []
    for m, f in enumerate(frames):
        for _ in range(2 if fps == 15 and m % 2 else 1):
            out.append((m, Frame(f.image, len(out), len(out) / fps)))
    return out


class Timed:
    """The app's frame loop timed call by call: a ``sim.drive.Table`` around a TableApp.

    Each ``process()`` call's CPU (``time.process_time``) and wall time (``perf_counter``) is
    classed by the read it took: the reader's ``last_kind`` (``full``, ``changed``,
    ``unchanged``); ``set-up`` while the app waits for a clear set-up board to calibrate on (no
    reader yet); ``calibration`` for the call that calibrated (the set-up read, learning the
    board, its full read) or learnt the board again from an adopted position. ``keep``: the index
    of the call whose frame is kept (``kept``), to read again in :func:`single`."""

    def __init__(self, app: TableApp, keep: int = -1) -> None:
        self.app = app
        self.keep = keep
        self.kept: Frame | None = None
        #: per kind, (cpu, wall) seconds of each process() call
        self.kinds: dict[str, list[tuple[float, float]]] = {}
        #: per kind of read, the reader's own wall time (``BoardReader.timings``); per stage on changed frames
        self.vision: dict[str, list[float]] = {}
        self.stages: dict[str, list[float]] = {}
        #: unchanged frames by whether they carried no event: (process() CPU, the reader's wall) seconds
        self.quiet: dict[bool, list[tuple[float, float]]] = {}
        self.events: list[str] = []
        self.calls = 0

    def submit(self, inp: PlayerInput) -> None:
        self.app.submit(inp)

    def process(self, frame: Frame) -> list[Event]:
        wired = len(self.app.wired)
        c, w = time.process_time(), time.perf_counter()
        out = self.app.process(frame)
        c, w = time.process_time() - c, time.perf_counter() - w
        if self.calls == self.keep:
            self.kept = frame
        self.calls += 1
        got = [e.kind for e in out]
        self.events += got
        reader = self.app._reader  # noqa: SLF001 - which kind of read the frame took
        kind = "set-up" if reader is None else "calibration" if len(self.app.wired) > wired else reader.last_kind
        self.kinds.setdefault(kind, []).append((c, w))
        if reader is not None and kind != "calibration":
            total = reader.timings["total"]
            self.vision.setdefault(kind, []).append(total)
            if kind == "unchanged":
                # the app's own cost apart from the log: unchanged frames that carried no event
                self.quiet.setdefault(not got, []).append((c, total))
            if kind == "changed":
                for k, v in reader.timings.items():
                    self.stages.setdefault(k, []).append(v)
        return out

    def cpu(self, *, after_setup: bool = False) -> float:
        """CPU seconds of every process() call (``after_setup``: from calibration on, the calibrating call left out)."""
        return sum(c for k, got in self.kinds.items() if not (after_setup and k in ("set-up", "calibration"))
                   for c, _ in got)

    def wall(self) -> float:
        return sum(w for got in self.kinds.values() for _, w in got)


def _config(tmp: str) -> TableConfig:
    return parse_config(f"[table]\nmatch_length = 5\n[record]\nlog = '{Path(tmp) / 'table.sqlite'}'\n")


def _loop(moments: Sequence[Moment], stream: list[tuple[int, Frame]], cal: Calibration, incremental: bool) -> Timed:
    """The demo's frames (rendered beforehand) through a TableApp given its calibration."""
    with tempfile.TemporaryDirectory() as tmp:
        with TableApp(_config(tmp), calibration=cal, pin_factory=MockFactory(), incremental=incremental) as app:
            timed = Timed(app)
            seen = -1
            for m, frame in stream:
                if m != seen:
                    for inp in moments[m].inputs:
                        timed.submit(inp)
                    seen = m
                timed.process(frame)
    return timed


def at_fps(moments: Sequence[Moment], fps: int) -> list[Moment]:
    """A script's moments at ``fps``: at 15 every other moment is shown for a second frame (its
    inputs made once, its expectations met once), so both rates cover the same seconds of play."""
    out: list[Moment] = []
    for m, moment in enumerate(moments):
        out.append(moment)
        if fps == 15 and m % 2:
            out.append(replace(moment, inputs=(), expect=()))
    return out


def drive_reallike(g: int, fps: int, incremental: bool, wrap: Callable[[TableApp, int], T], *, seed: int = 0,
                   turns: int = 8, moments: int | None = None) -> T:
    """Real-like referee game ``g`` through the app as ``bench_reallike.py --games`` plays it (the
    same table, script, config and camera: its ``game_*`` helpers; the app calibrates itself from
    ``[camera] corners`` and the players answer the referee, ``sim.drive``), at ``fps``: every frame
    rendered afresh, sensor noise (and the table's JPEG blocks) new on each, as a camera gives them.
    ``wrap(app, frames)`` makes the table ``drive`` feeds (the app itself, or a watcher round it) and is
    returned. ``moments``: the script's first this many only."""
    import warnings

    from tavli_pi.errors import TavliWarning
    from tavli_pi.sim.drive import drive

    kw, plant = game_plans(g + 1, seed, turns)[g]
    script = at_fps(game_script(g, seed, turns, plant)[:moments], fps)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = game_config(script, kw, Path(tmp) / "table.sqlite")
        camera = game_camera(script, kw, g, seed, fps)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TavliWarning)  # "calibration waits ...": the events say it
            with TableApp(cfg, camera=camera, pin_factory=MockFactory(), incremental=incremental) as app:
                table = wrap(app, len(script))
                for _ in drive(table, camera, script, confirm_setup=True, enter_rolls=True):
                    pass
    return table


def reallike_loop(g: int, fps: int, incremental: bool, *, seed: int = 0, turns: int = 8,
                  moments: int | None = None) -> Timed:
    """Real-like referee game ``g`` through the app (``drive_reallike``), at ``fps``. Only ``process()`` is
    timed (the renderer's cost is not the table's)."""
    return drive_reallike(g, fps, incremental, lambda app, n: Timed(app, keep=n // 2), seed=seed, turns=turns,
                          moments=moments)


def _less(a: list[str], b: list[str]) -> str:
    """The event kinds ``a`` has more of than ``b``, with how many more."""
    more = Counter(a) - Counter(b)
    return ", ".join(f"{k} {v}" for k, v in sorted(more.items())) or "none"


def _ms(xs: Sequence[float]) -> str:
    a = np.asarray(xs) * 1000
    return f"median {np.median(a):6.1f} p90 {np.percentile(a, 90):6.1f} ms"


def single(img: np.ndarray, cal: Calibration) -> tuple[list[float], list[float]]:
    """One frame read again and again (CPU time): a full read x25, and an unchanged incremental one x300."""
    from tavli_pi.vision.reader import BoardReader

    full = BoardReader(cal)
    cpu = []
    for _ in range(25):
        c = time.process_time()
        full.read(img)
        cpu.append(time.process_time() - c)
    inc = BoardReader(cal, incremental=True)
    inc.read(img)
    same = []
    for _ in range(300):
        c = time.process_time()
        inc.read(img)
        same.append(time.process_time() - c)
    print(f"  one frame read 25 times, full read: cpu {_ms(cpu)} (min {1000 * min(cpu):.1f}); "
          f"incremental, unchanged: cpu {_ms(same)}")
    FIGURES[f"{_STREAM[0]}: full read x25, median ms"] = 1000 * float(np.median(cpu))
    FIGURES[f"{_STREAM[0]}: unchanged read x300, median ms"] = 1000 * float(np.median(same))
    return cpu, same


def report(timed: Timed, fps: int, incremental: bool, video: float) -> None:
    """The figures of one run of the loop: CPU per second of video, and per kind of frame."""
    cpu, after = timed.cpu(), timed.cpu(after_setup=True)
    label = "incremental on " if incremental else "incremental off"
    name = f"{_STREAM[0]}: {fps} fps, incremental {'on' if incremental else 'off'}"
    FIGURES[f"{name}, CPU-s per s"] = cpu / video
    if "set-up" in timed.kinds or "calibration" in timed.kinds:
        FIGURES[f"{name}, CPU-s per s from calibration on"] = after / video
    for kind in ("full", "changed", "unchanged"):
        if timed.kinds.get(kind):
            FIGURES[f"{name}, {kind} frame median ms"] = 1000 * float(np.median([c for c, _ in timed.kinds[kind]]))
    n = sum(len(v) for v in timed.kinds.values())
    line = (f"  {fps} fps, {label}: {n} frames, CPU {cpu:.2f} s = {cpu / video:.3f} CPU-s per "
            f"s of video (wall {timed.wall():.2f} s), {len(timed.events)} events")
    if "set-up" in timed.kinds or "calibration" in timed.kinds:
        line += f"; from calibration on (that call left out): {after / video:.3f} CPU-s per s"
    print(line)
    if incremental:
        read = sum(len(timed.kinds.get(k, [])) for k in ("full", "changed", "unchanged"))
        print(f"    the gate found {len(timed.kinds.get('unchanged', []))} of {read} frames read unchanged")
    for kind in ("set-up", "calibration", "full", "changed", "unchanged"):
        got = timed.kinds.get(kind, [])
        if got:
            alone = f"; the reader alone (wall) {_ms(timed.vision[kind])}" if kind in timed.vision else ""
            print(f"    {kind:11s} x{len(got):3d}: process() cpu {_ms([c for c, _ in got])}; "
                  f"wall {_ms([w for _, w in got])}{alone}")
    for none, what in ((True, "no event"), (False, "events")):
        got = timed.quiet.get(none, [])
        if got:
            print(f"    unchanged, {what:8s} x{len(got):3d}: process() cpu {_ms([c for c, _ in got])}; "
                  f"the reader alone (wall) {_ms([v for _, v in got])}")
    if timed.stages:
        print("    changed frames, reader stages (median wall ms): "
              + ", ".join(f"{k} {1000 * np.median(v):.1f}" for k, v in timed.stages.items()))


def demo_runs(quick: bool) -> None:
    demo = demo_match()
    games = [("demo", demo[:80] if quick else demo, 7)]
    if not quick:
        games.append(("random game 5 (8 turns)", random_game(5, turns=8), 5))
    for name, moments, seed in games:
        frames, cal = _frames(moments, seed)
        video = len(frames) / 10.0
        _STREAM[0] = name
        print(f"\n{name}: {len(frames)} frames = {video:.1f} s of video at 10 fps")
        single(frames[len(frames) // 2].image, cal)
        for fps in (10, 15):
            stream = _at(frames, fps)
            per: dict[bool, Timed] = {}
            for incremental in (False, True):
                per[incremental] = timed = _loop(moments, stream, cal, incremental)
                report(timed, fps, incremental, video)
            off, on = per[False], per[True]
            print(f"  {fps} fps: incremental on/off CPU {on.cpu() / off.cpu():.2f}x; the same events: {on.events == off.events}")


def reallike_runs(games: Sequence[int], seed: int, moments: int | None) -> None:
    for g in games:
        kw, _ = game_plans(g + 1, seed, 8)[g]
        look, build = kw.get("look"), kw.get("build")
        jpeg = getattr(look, "jpeg_quality", None)
        print(f"\nreal-like game {g} (seed {seed}, as bench_reallike.py --games 200 --only {g} plays it): "
              f"{getattr(look, 'board', '?')}, {kw.get('width', 1280)} px, bar {getattr(build, 'bar', 44)}, "
              f"noise {getattr(look, 'noise', 0):.1f}, {f'JPEG {jpeg}' if jpeg else 'no JPEG'}")
        _STREAM[0] = f"real-like game {g}"
        for fps in (10, 15):
            per: dict[bool, Timed] = {}
            for incremental in (False, True):
                per[incremental] = timed = reallike_loop(g, fps, incremental, seed=seed, moments=moments)
                video = timed.calls / fps
                if not incremental:
                    print(f"  {fps} fps: {timed.calls} frames = {video:.1f} s of video (the frames held while "
                          "the players answer the referee included)")
                report(timed, fps, incremental, video)
            off, on = per[False], per[True]
            print(f"  {fps} fps: incremental on/off CPU {on.cpu() / off.cpu():.2f}x; the same events: {on.events == off.events}"
                  + ("" if on.events == off.events else f" (on less off: {_less(on.events, off.events)}; "
                     f"off less on: {_less(off.events, on.events)})"))
            if fps == 10 and on.kept is not None and on.app._reader is not None:  # noqa: SLF001
                single(on.kept.image, on.app._reader.calibration)  # noqa: SLF001 - the board the app learnt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="the demo's first 80 frames only (and no real-like game)")
    ap.add_argument("--reallike", default=None, metavar="G,...",
                    help=f"real-like referee games to time (bench_reallike.py's, by index; default {DEFAULT_REALLIKE}; "
                    "'' for none)")
    ap.add_argument("--no-demo", action="store_true", help="the real-like games only")
    ap.add_argument("--seed", type=int, default=0, help="the real-like games' seed (bench_reallike.py --seed)")
    ap.add_argument("--moments", type=int, default=None, help="each real-like game's first this many moments only")
    ap.add_argument("--peer", default=None, metavar="DIR",
                    help="compare with another tree's tavli_pi (e.g. a worktree of the base), runs alternated")
    ap.add_argument("--rounds", type=int, default=2, help="with --peer: runs in each tree (default 2)")
    ap.add_argument("--tree", default=None, metavar="DIR", help="time DIR's tavli_pi (what --peer runs)")
    ap.add_argument("--json", default=None, metavar="FILE", help="also write this run's figures to FILE")
    args = ap.parse_args()
    if args.peer:
        peer_runs(args.peer, args.rounds, _passed_on(sys.argv[1:]))
        return
    spec = args.reallike if args.reallike is not None else ("" if args.quick else DEFAULT_REALLIKE)
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; cores {os.cpu_count()}")
    import tavli_pi

    print(f"tavli_pi from {Path(tavli_pi.__file__).resolve().parent}")
    if not args.no_demo:
        demo_runs(args.quick)
    reallike_runs([int(x) for x in spec.split(",") if x.strip()], args.seed, args.moments)
    print(f"\nload average at end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(FIGURES, indent=1))


def _passed_on(argv: list[str]) -> list[str]:
    """The options a peer run passes on to each of its runs: all but ``--peer``, ``--rounds``,
    ``--tree`` and ``--json`` (with their values)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        name = a.split("=", 1)[0]
        if name in ("--peer", "--rounds", "--tree", "--json"):
            skip = "=" not in a
            continue
        out.append(a)
    return out


def peer_runs(peer: str, rounds: int, passed: list[str]) -> None:
    """This tree's tavli_pi against ``peer``'s: the bench with ``passed`` run ``rounds`` times in each,
    alternated (this tree first), each in a process of its own; each run's output is kept in a
    temporary folder (named), and the figures are printed per run and as medians."""
    import subprocess

    here = Path(__file__).resolve().parent.parent
    trees = {"this": here, "peer": Path(peer).resolve()}
    out_dir = Path(tempfile.mkdtemp(prefix="bench_loop_peer_"))
    print(f"this tree {here} against peer {trees['peer']}: {rounds} rounds alternated, options {' '.join(passed)}; "
          f"each run's output in {out_dir}", flush=True)
    got: dict[str, list[dict[str, float]]] = {"this": [], "peer": []}
    loads: dict[str, list[float]] = {"this": [], "peer": []}
    for r in range(rounds):
        for who, tree in trees.items():
            figs, log = out_dir / f"{who}{r + 1}.json", out_dir / f"{who}{r + 1}.txt"
            load = os.getloadavg()[0]
            with log.open("w") as f:
                subprocess.run([sys.executable, str(Path(__file__).resolve()), *passed, "--tree", str(tree),
                                "--json", str(figs)], stdout=f, stderr=subprocess.STDOUT, check=True)
            got[who].append(json.loads(figs.read_text()))
            loads[who].append(load)
            print(f"  round {r + 1}, {who} tree: done (load at start {load:.1f})", flush=True)
    print(peer_table(got, loads))


def peer_table(got: dict[str, list[dict[str, float]]], loads: dict[str, list[float]]) -> str:
    """The figures of every run, this tree's and the peer's side by side, their medians and the
    ratio of this tree's median to the peer's (a Markdown table)."""
    names = [n for n in got["this"][0] if all(n in g for runs in got.values() for g in runs)]
    lines = ["| figure | this tree: runs | peer: runs | medians, this / peer | this / peer |", "|---|---|---|---|---|",
             f"| load at start | {', '.join(f'{v:.1f}' for v in loads['this'])} | "
             f"{', '.join(f'{v:.1f}' for v in loads['peer'])} | | |"]
    for n in names:
        a = [g[n] for g in got["this"]]
        b = [g[n] for g in got["peer"]]
        ma, mb = float(np.median(a)), float(np.median(b))
        ratio = f"{ma / mb:.3f}" if mb else "-"
        lines.append(f"| {n} | {', '.join(f'{v:.3f}' for v in a)} | {', '.join(f'{v:.3f}' for v in b)} | "
                     f"{ma:.3f} / {mb:.3f} | {ratio} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
