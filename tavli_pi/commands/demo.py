"""``tavli-pi demo``: a simulated table plays a scripted 3-point match through the whole pipeline.

Rendered frames -> vision -> referee -> mock GPIO, the match log (and its
.mat/.sgf exports) and, unless ``--no-serve``, the web display on localhost
at a watchable pace. The referee sees only what vision reads from the frames.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tavli_pi.errors import ConfigError

HELP = "play a scripted, simulated 3-point match through the whole pipeline"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-serve", action="store_true", help="run headless, as fast as possible")
    parser.add_argument("--out", default=None, help="folder for table.sqlite, match.mat, match.sgf")
    parser.add_argument("--port", type=int, default=8080, help="display port when serving (default 8080)")
    parser.add_argument("--pace", type=float, default=3.0,
                        help="seconds of wall time per second of table time when serving (default 3: "
                        "the match takes about a minute)")
    parser.add_argument("--linger", type=float, default=30.0,
                        help="seconds the display stays up after the match when serving (default 30)")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    parser.add_argument("--force", action="store_true",
                        help="replace the match log an earlier demo left in --out (it is never replaced silently)")

    parser.add_argument("--tavli", action="store_true",
                        help="play a scripted tavli match to 3 instead: Portes, Plakoto, Fevga (RULES-TAVLI.md), "
                        "with a pin and its release, a pinned mother, an F3 violation corrected and a mars; "
                        "the exports add the tavli text record and JSON")


def prepare_out(out: Path, *, force: bool) -> Path:
    """The demo's log path in ``out``, after checking the folder can take it: a file, an unwritable
    folder or an earlier log (without ``force``) is a one-line error, and nothing is deleted."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file: give a folder for the demo's log and exports")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise ConfigError(f"--out {out} cannot be written ({exc.strerror}): give a writable folder") from exc
    log = out / "table.sqlite"
    if log.exists():
        if not force:
            raise ConfigError(f"{log} holds an earlier match: give another --out, or add --force to replace it")
        for stale in (log, log.with_name(log.name + "-wal"), log.with_name(log.name + "-shm")):
            stale.unlink(missing_ok=True)
    return log


def run(args: argparse.Namespace) -> int:
    from gpiozero.pins.mock import MockFactory

    from tavli_pi.app import TableApp
    from tavli_pi.config import (
        CameraConfig,
        DisplayConfig,
        GameConfig,
        RecordConfig,
        SignalsConfig,
        TableConfig,
        TableSection,
    )
    from tavli_pi.record.export import export_all
    from tavli_pi.sim.camera import SimCamera
    from tavli_pi.sim.drive import drive
    from tavli_pi.sim.render import render
    from tavli_pi.sim.script import demo_match
    from tavli_pi.sim.table import scene_of, scenes_of
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.refine import refine

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="tavli-demo-"))
    log = prepare_out(out, force=args.force)
    serve = not args.no_serve
    cfg = TableConfig(
        table=TableSection(id="demo", players=("White", "Black"), match_length=3),
        camera=CameraConfig(source="sim", fps=10.0),
        signals=SignalsConfig(enabled=True, pin_factory="mock"),
        display=DisplayConfig(enabled=serve, port=args.port, pin="0000"),
        record=RecordConfig(log=str(log)),
    )
    moments = demo_match()
    want = (2, 3)
    if args.tavli:
        from dataclasses import replace

        from tavli_pi.sim.tavli_script import DEMO_MATCH, demo_tavli_match

        cfg = replace(cfg, table=replace(cfg.table, match_length=0), game=GameConfig("tavli", DEMO_MATCH))
        moments = demo_tavli_match()
        want = (4, 2)
    # Installation step: calibrate the camera once on the clear, set-up board
    # (a real table uses the printed markers or --corners; the sim draws none).
    clear = render(scene_of(moments[2 if args.tavli else 1]))
    calibration = refine(Calibration(clear.truth.corners), clear.image)
    camera = SimCamera(scenes_of(moments), fps=cfg.camera.fps, seed=7)
    t0 = time.perf_counter()
    mismatches: list[str] = []
    with TableApp(cfg, camera=camera, calibration=calibration, pin_factory=MockFactory()) as app:
        if app.display is not None:
            print(f"The table display: {app.display.url}", flush=True)
        for step in drive(app, camera, moments):
            if step.moment.note and not args.quiet:
                print(f"[{step.frame.t:6.1f}s] {step.moment.note}", flush=True)
            for e in step.events:
                if not args.quiet:
                    print(f"          {e.kind}: {e.message}", flush=True)
            if step.missing:
                mismatches.append(f"frame {step.index}: expected {', '.join(step.missing)}, "
                                  f"got {', '.join(step.kinds) or 'nothing'}")
            if serve and args.pace > 0:
                time.sleep(args.pace / cfg.camera.fps)  # a watchable pace (only when serving)
        ref = app.referee
        phase, score = ref.phase, ref.match.score
        if app.display is not None and args.linger > 0:
            print(f"The match is over; the display stays up for {args.linger:.0f} s (Ctrl-C to stop).", flush=True)
            try:
                time.sleep(args.linger)
            except KeyboardInterrupt:
                pass
    files = export_all(log, out)
    wall = time.perf_counter() - t0
    print(f"{len(moments)} frames in {wall:.1f} s; final phase {phase}, score White {score[0]} - Black {score[1]}")
    print(f"wrote {log}, " + ", ".join(str(p) for p in files.values()))
    if mismatches:
        print(f"{len(mismatches)} scripted expectation(s) not met (what vision read differed):")
        for line in mismatches[:20]:
            print("  " + line)
    return 0 if phase == "match_over" and score == want and not mismatches else 1
