"""Where a recording's rolls are lost: ``TableApp`` over a ``bench_video.py`` recording, frame by frame.

Each game is made as ``bench/bench_video.py`` makes it (the same tables, seeds, plants and MP4), then run
through the app of the tree on the path as ``tavli-pi run`` runs it (the same config: field found,
unattended, no log), and each frame prints one line: the script's moment (its caption and the events it
expects), the true dice (value, side in px; ``~`` tumbling), the dice the reader gave the referee (value,
confidence, ``~`` tumbling, the note of a die with no value), the frame's hand and motion flags, the
referee's phase after it, and the events it gave. ``--fates`` adds the bench's fate of every roll.

    .venv/bin/python bench/probe_video_rolls.py --size 1280 --only 10 [--turns 6] [--seed 0] [--fates] [--corners]
        [--from-play N --hold N --rolled --think N]   # a clip joined mid-game, as bench_video.py makes it

``--corners`` gives the field's true corners in the config, as ``bench_video.py --corners`` does.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_reallike import game_list  # noqa: E402
from bench.bench_video import FPS, corners_arg, midgame, roll_fates, thinking, write_video  # noqa: E402
from tavli_pi.sim.datasets import reallike_game_tables  # noqa: E402
from tavli_pi.sim.render import Truth  # noqa: E402
from tavli_pi.sim.script import Moment, random_game  # noqa: E402


def die_text(d: Any, read: bool) -> str:
    """One die: ``5@15`` (true: value at size px) or ``5:.92`` (read: value at confidence)."""
    tumble = "~" if d.moving else ""
    if not read:
        return f"{tumble}{d.value}@{d.size_px:.0f}"
    if d.value:
        return f"{tumble}{d.value}:{d.value_confidence:.2f}{'' if d.flat else 'c'}{'k' if d.on_checker else ''}"
    why = d.note.split("(")[0].strip()[:18]
    return f"{tumble}?({why},{d.size_px:.0f})"


def game_of(g: int, size: int, seed: int, turns: int, games: int) -> tuple[dict[str, Any], list[Moment]]:
    """Game ``g`` of ``bench_video.py --size SIZE --seed SEED --turns TURNS --games GAMES``: its table and script."""
    tables = reallike_game_tables(8 * games if size else games, seed)
    if size:
        keep = [i for i, kw in enumerate(tables) if kw["width"] == size][:games]
        if g not in keep:
            raise SystemExit(f"game {g} is not one of the {size} px games ({keep})")
    kw = tables[g]
    plant = (2 + g % max(turns - 2, 1)) if g % 2 == 0 else 0
    return kw, random_game(1000 * seed + g, turns=turns, plant_illegal=plant)


def probe(g: int, kw: dict[str, Any], moments: list[Moment], seed: int, fates: bool, corners: bool = False,
          room: dict[str, float] | None = None) -> None:
    from tavli_pi.app import TableApp
    from tavli_pi.config import load_config
    from tavli_pi.referee.events import Event
    from tavli_pi.vision.camera import Frame

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        video = tmp / "game.mp4"
        truths: list[Truth] = []
        write_video(video, moments, kw, 1000 * seed + g, 1, truths, **(room or {}))
        cfg = tmp / "table.toml"
        given = f"corners = '{corners_arg(moments, kw)}'\n" if corners else ""
        cfg.write_text(f"[camera]\nsource = 'replay:{video}'\nfps = {FPS}\n{given}"
                       f"[table]\nhome = '{kw['home']}'\nmatch_length = 5\n[record]\nlog = '{tmp / 'log.sqlite'}'\n")
        config = load_config(str(cfg))
        events: list[Event] = []
        print(f"game {g}: {getattr(kw.get('look'), 'board', '?')}, {kw.get('width')} px")

        with TableApp(config, record=False) as app:
            last: list[Any] = [None]
            step = app.referee.step

            def spy(item: Any, now: float) -> list[Event]:
                if hasattr(item, "dice"):
                    last[0] = item
                return step(item, now)

            app.referee.step = spy  # type: ignore[method-assign]

            def on_frame(frame: Frame, got: list[Event]) -> None:
                i = frame.index
                m = moments[i] if i < len(moments) else None
                t = truths[i] if i < len(truths) else None
                obs, last[0] = last[0], None
                true = " ".join(die_text(x, False) for x in (t.dice if t else ())) + (" H" if t and t.hand else "")
                seen = "-" if obs is None else \
                    (" ".join(die_text(x, True) for x in obs.dice) + (" HAND" if obs.hand else "")
                     + (" MOTION" if obs.motion else ""))
                what = ",".join(m.expect) if m is not None else ""
                note = (m.note[:24] if m is not None else "")
                wrong = "" if obs is None or t is None or obs.hand or obs.motion else " ".join(
                    f"{p + 1}:{lt}/{dt}>{s.light.best}/{s.dark.best}" for p, (s, lt, dt) in enumerate(zip(obs.points, t.light, t.dark))
                    if (s.light.best, s.dark.best) != (lt, dt))
                names = " ".join(e.kind + ("(unseen)" if e.extra.get("roll_unseen") else "") for e in got)
                print(f"  {i:3d} {note:24s} {what:28s} true[{true:12s}] read[{seen:34s}] "
                      f"{app.referee.phase.name:12s} {names}" + (f"  misread {wrong}" if wrong else ""))
                events.extend(got)

            app.run(on_frame=on_frame)
            print("  app:", "; ".join(app.wired))
            cal = app._calibration
            if cal is not None and truths:
                import numpy as np

                off = np.hypot(*(np.asarray(cal.corners, float) - np.asarray(truths[0].corners, float)).T)
                print("  field found: corners off the true ones by " + ", ".join(f"{v:.1f}" for v in off) + " px")
            for e in events:
                if e.kind == "setup_checked":
                    print(f"  setup_checked at {e.at:.1f} s:", getattr(e, "ok", None), getattr(e, "problems", "")[:3])
        if fates:
            print("  fates:", dict(roll_fates(moments, events)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--size", type=int, default=1280, choices=(0, 640, 1280))
    ap.add_argument("--only", required=True, help="games by index or range, as bench_video.py numbers them")
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--fates", action="store_true", help="also the bench's fate of each roll")
    ap.add_argument("--corners", action="store_true", help="give the field's true corners (an installed table)")
    for name in ("exposure", "flicker", "white", "shadow", "lamp"):
        ap.add_argument(f"--{name}", type=float, default=0.0, help=f"as bench_video.py --{name}")
    ap.add_argument("--bump", type=int, default=0, help="as bench_video.py --bump")
    ap.add_argument("--from-play", type=int, default=0, help="as bench_video.py --from-play (a clip starting mid-game)")
    ap.add_argument("--hold", type=int, default=0, help="as bench_video.py --hold")
    ap.add_argument("--rolled", action="store_true", help="as bench_video.py --rolled")
    ap.add_argument("--think", type=int, default=0, help="as bench_video.py --think")
    args = ap.parse_args()
    room = {k: getattr(args, k) for k in ("exposure", "flicker", "white", "shadow", "lamp", "bump")}
    for g in game_list(args.only):
        kw, moments = game_of(g, args.size, args.seed, args.turns, args.games)
        moments = thinking(midgame(moments, args.from_play, args.hold, args.rolled), args.think)
        probe(g, kw, moments, args.seed, args.fates, args.corners, room)


if __name__ == "__main__":
    main()
