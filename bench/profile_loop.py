"""Where a changed frame's CPU goes in ``TableApp.process`` (issue 12).

Run: .venv/bin/python bench/profile_loop.py [--game N | --reallike G] [--frames K] [--prof OUT.pstats]

The frames are rendered first as bench/bench_loop.py does (demo's first 80, or
random game N), then fed to a TableApp with the incremental reader on at 10 fps;
``--reallike G``: real-like game G as ``bench_loop.py --reallike G`` plays it (frames rendered
as the players answer the referee, the renderer's cost outside the timed calls).
For every frame the reader reads as ``changed`` it prints the medians and means of
the CPU (``thread_time``) of process() as a whole, the reader's ``read``, and of
every function in a fixed list (inclusive, summed per frame), from wrappers put
round them for the run; ``--prof`` also writes a cProfile of the changed frames.
"""

from __future__ import annotations

import cProfile
import functools
import importlib
import inspect
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

from gpiozero.pins.mock import MockFactory  # noqa: E402

from bench.bench_loop import _at, _frames, drive_reallike  # noqa: E402
from tavli_pi.app import TableApp  # noqa: E402
from tavli_pi.config import parse_config  # noqa: E402
from tavli_pi.sim.script import demo_match, random_game  # noqa: E402

#: (module, attribute path) of the functions timed; a name bound by ``from x import f`` in another
#: module is wrapped there too (every module of tavli_pi that holds the same object)
TIMED = [
    ("tavli_pi.vision.reader", "BoardReader.read"),
    ("tavli_pi.vision.incremental", "GateView.__call__"),
    ("tavli_pi.vision.reader", "BoardReader.warp"),
    ("tavli_pi.vision.motion", "MotionGate.__call__"),
    ("tavli_pi.vision.hands", "shrink"),
    ("tavli_pi.vision.checkers", "gradients"),
    ("tavli_pi.vision.stacks", "cv2_integral"),
    ("tavli_pi.vision.background", "Halved.__init__"),
    ("tavli_pi.vision.setup_slots", "setup_view"),
    ("tavli_pi.vision.reader", "_Spots.stale"),
    ("tavli_pi.vision.reader", "BoardReader._forget_moved"),
    ("tavli_pi.vision.stacks", "read_spots_pinned"),
    ("tavli_pi.vision.checkers", "trace_chains"),
    ("tavli_pi.vision.stacks", "squeezed_loglik"),
    ("tavli_pi.vision.hands", "changed_from_clear"),
    ("tavli_pi.vision.hands", "skin_view"),
    ("tavli_pi.vision.hands_explained", "explained_mask"),
    ("tavli_pi.vision.hands", "hand_cover"),
    ("tavli_pi.vision.hands", "new_skin"),
    ("tavli_pi.vision.hands_photo", "photo_hand"),
    ("tavli_pi.vision.background", "Difference.__init__"),
    ("tavli_pi.vision.trays", "tray_evidences"),
    ("tavli_pi.vision.conserve", "balance"),
    ("tavli_pi.vision.conserve", "conserved_board"),
    ("tavli_pi.vision.doubt", "seating"),
    ("tavli_pi.vision.doubt", "doubts"),
    ("tavli_pi.vision.reader", "_lone_oversized_tempered"),
    ("tavli_pi.vision.dice", "find_dice"),
    ("tavli_pi.vision.dice_spots", "view_spots"),
    ("tavli_pi.vision.dice_spots", "_peak_flags"),
    ("tavli_pi.vision.dice_spots", "_ringed_in_row"),
    ("tavli_pi.vision.dice_blobs", "view_hat_blobs"),
    ("tavli_pi.vision.dice_scale", "changed_bodies"),
    ("tavli_pi.vision.fine_view", "fine_view"),
    ("tavli_pi.vision.dice_face", "examined"),
    ("tavli_pi.vision.dice_blobs", "blob_died"),
    ("tavli_pi.vision.dice_body", "bodied"),
    ("tavli_pi.vision.dice", "_find"),
    ("tavli_pi.vision.dice_vet", "vet_dice"),
    ("tavli_pi.vision.cube", "find_cube"),
    ("tavli_pi.vision.reader", "BoardReader._moving"),
    ("tavli_pi.referee.referee", "Referee.step"),
    ("tavli_pi.app", "TableApp._take_inputs"),
    ("tavli_pi.app", "TableApp._learn_adopted"),
    ("tavli_pi.app", "TableApp._dispatch"),
]

totals: dict[str, float] = {}
depth: dict[str, int] = {}


def _wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def timed(*a: Any, **k: Any) -> Any:
        if depth.get(name):  # recursion or the same function reached twice: count the outer call
            return fn(*a, **k)
        depth[name] = 1
        c = time.thread_time()
        try:
            return fn(*a, **k)
        finally:
            totals[name] = totals.get(name, 0.0) + time.thread_time() - c
            depth[name] = 0
    return timed


def _install() -> None:
    for mod_name, path in TIMED:
        mod = importlib.import_module(mod_name)
        owner: Any = mod
        parts = path.split(".")
        for p in parts[:-1]:
            owner = getattr(owner, p)
        fn = getattr(owner, parts[-1], None)
        if fn is None:  # renamed or gone since the list was written: say so, time the rest
            print(f"not timed (no such function): {mod_name}.{path}")
            continue
        w = _wrap(path, fn)
        static = isinstance(inspect.getattr_static(owner, parts[-1]), staticmethod)
        setattr(owner, parts[-1], staticmethod(w) if static else w)
        if len(parts) == 1:  # rebind ``from x import f`` copies
            for m in list(sys.modules.values()):
                if m is not None and getattr(m, "__name__", "").startswith("tavli_pi") and m.__dict__.get(parts[-1]) is fn:
                    setattr(m, parts[-1], w)


def main() -> None:
    args = sys.argv[1:]
    game = int(args[args.index("--game") + 1]) if "--game" in args else None
    nframes = int(args[args.index("--frames") + 1]) if "--frames" in args else 80
    prof_out = args[args.index("--prof") + 1] if "--prof" in args else None
    reallike = int(args[args.index("--reallike") + 1]) if "--reallike" in args else None
    if reallike is not None:
        print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; real-like game {reallike}")
        _install()
        rows, stats = _reallike_rows(reallike, prof_out is not None)
        _print(rows, args, stats, prof_out)
        return
    if game is None:
        moments, seed, name = demo_match()[:nframes], 7, f"demo[:{nframes}]"
    else:
        moments, seed, name = random_game(game, turns=8), game, f"random game {game}"
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; {name}")
    frames, cal = _frames(moments, seed)
    stream = _at(frames, 10)
    _install()
    stats: pstats.Stats | None = None
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config(f"[table]\nmatch_length = 5\n[record]\nlog = '{Path(tmp) / 'table.sqlite'}'\n")
        with TableApp(cfg, calibration=cal, pin_factory=MockFactory(), incremental=True) as app:
            seen = -1
            for m, frame in stream:
                if m != seen:
                    for inp in moments[m].inputs:
                        app.submit(inp)
                    seen = m
                totals.clear()
                reader = app._reader  # noqa: SLF001
                prof = cProfile.Profile(time.thread_time) if prof_out else None
                if prof is not None:
                    prof.enable()
                c = time.thread_time()
                app.process(frame)
                c = time.thread_time() - c
                if prof is not None:
                    prof.disable()
                reader = app._reader  # noqa: SLF001
                if reader is not None and reader.last_kind == "changed":
                    row = dict(totals)
                    row["process"] = c
                    row["reread"] = reader.last_reread / 1000
                    rows.append(row)
                    if prof is not None:
                        if stats is None:
                            stats = pstats.Stats(prof)
                        else:
                            stats.add(prof)
    _print(rows, args, stats, prof_out)


class _Profiled:
    """A table for ``sim.drive``: the app's ``process`` with the changed frames' rows kept."""

    def __init__(self, app: TableApp, prof: bool) -> None:
        self.app, self.prof = app, prof
        self.rows: list[dict[str, float]] = []
        self.stats: pstats.Stats | None = None

    def submit(self, inp: Any) -> None:
        self.app.submit(inp)

    def process(self, frame: Any) -> Any:
        totals.clear()
        prof = cProfile.Profile(time.thread_time) if self.prof else None
        if prof is not None:
            prof.enable()
        c = time.thread_time()
        out = self.app.process(frame)
        c = time.thread_time() - c
        if prof is not None:
            prof.disable()
        reader = self.app._reader  # noqa: SLF001
        if reader is not None and reader.last_kind == "changed":
            row = dict(totals)
            row["process"] = c
            row["reread"] = reader.last_reread / 1000
            self.rows.append(row)
            if prof is not None:
                if self.stats is None:
                    self.stats = pstats.Stats(prof)
                else:
                    self.stats.add(prof)
        return out


def _reallike_rows(g: int, prof: bool) -> tuple[list[dict[str, float]], pstats.Stats | None]:
    """Real-like game ``g`` at 10 fps through the app, incremental (``bench_loop.reallike_loop``'s run)."""
    table = drive_reallike(g, 10, True, lambda app, n: _Profiled(app, prof))
    return table.rows, table.stats


def _print(rows: list[dict[str, float]], args: list[str], stats: pstats.Stats | None, prof_out: str | None) -> None:
    keys = ["process"] + [p for _, p in TIMED]
    print(f"{len(rows)} changed frames; CPU thread_time ms, inclusive (a call inside another is in both)")
    print(f"{'':34s} {'median':>7s} {'mean':>7s} {'calls>0':>7s}")
    for k in keys:
        v = np.asarray([r.get(k, 0.0) for r in rows]) * 1000
        if v.any():
            print(f"{k:34s} {np.median(v):7.2f} {v.mean():7.2f} {int((v > 0).sum()):7d}")
    rr = np.asarray([r["reread"] for r in rows]) * 1000
    if "--rows" in args:
        cols = ["read_spots_pinned", "trace_chains", "squeezed_loglik", "find_dice", "BoardReader.read"]
        print("reread " + " ".join(cols))
        for n, r in zip(rr, rows):
            print(f"{n:3.0f} " + " ".join(f"{1000 * r.get(k, 0.0):6.2f}" for k in cols))
    print(f"points re-read: median {np.median(rr):.0f}, mean {rr.mean():.1f}, all 24 on {int((rr == 24).sum())}")
    if stats is not None and prof_out:
        stats.dump_stats(prof_out)
    print(f"load average at end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
