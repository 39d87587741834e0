"""Video benchmark (issue 9): `tavli-pi run` over a recorded video of a real-like game, unattended.

Each game is a random real-like game (``random_game`` on a table of ``reallike_game_tables``, half of
them with a planted illegal play), rendered by the simulator and written to an MP4 file (OpenCV's
``mp4v`` encoder: the frames are compressed as a real recording is). Then, as a director replaying a
recorded match would, it runs the real command line, ``tavli-pi run --config`` with
``[camera] source = "replay:game.mp4"``, in its own process, and reads the match log it leaves.
Nobody presses a button or enters a roll: a video has no players to ask. With ``--corners`` the
config gives the field's corners (an installed table), without it the field is found in the picture.

It prints, over the games: whether set-up was done, what became of each roll (``roll_fates``: read,
asked for, or lost before set-up, out of sync, while a turn waits to be judged, or not seen), plays
accepted (of the script's plays), apart: checked against a roll, and not checked (taken with a roll
the referee never saw, ``roll_unseen``: legal for some roll, which is no proof of legal for theirs),
illegal calls on legal play (the worst failure), planted illegal plays caught, passed as played (an
illegal play accepted: the failure to remove) and held (not taken: no roll holding the die read of it
allows it), boards out of sync, and the CPU the run took per second of video.

    .venv/bin/python bench/bench_video.py [--games 6] [--turns 8] [--seed 0] [--repeat 1] [--corners] [--no-infer] [--size 640] [--dice]
    .venv/bin/python bench/bench_video.py --only 5 --repeat 3 --corners --keep out/video   # one game, its files kept
    .venv/bin/python bench/bench_video.py --size 640 --dice   # 640x360 tables only; each still die read, by size
    .venv/bin/python bench/bench_video.py --from-play 3   # each recording starts mid-game: after the 3rd play

``--from-play N`` cuts each recording to start mid-game, on the clear board after the N-th play (a
clip of a tournament stream, a referee switched on late): there is no set-up to learn from, so the
run must find the field, take the board as a game in progress (``board_adopted``) and follow the
plays after it. ``--hold K`` shows that first board K more frames before the next roll (a clip that
opens on a still board; 0: the roll follows at once, as in the script). ``--think K`` leaves each
roll lying still K more frames before its play (players think for seconds; the script's 0.3 s is short).
"""

from __future__ import annotations

import argparse
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_reallike import game_list  # noqa: E402
from tavli_pi.record.store import MatchLog  # noqa: E402
from tavli_pi.sim._photo import shadow as cast_shadow  # noqa: E402
from tavli_pi.sim.camera import SimCamera  # noqa: E402
from tavli_pi.sim.datasets import reallike_game_tables  # noqa: E402
from tavli_pi.sim.render import Truth, render  # noqa: E402
from tavli_pi.sim.script import Moment, random_game  # noqa: E402
from tavli_pi.sim.table import scene_of, scenes_of  # noqa: E402

FPS = 10.0


def midgame(moments: list[Moment], plays: int, hold: int = 0, rolled: bool = False) -> list[Moment]:
    """``moments`` from the clear board after the ``plays``-th play on (its events left out: the clip
    starts there), that board shown ``hold`` more frames. The whole script when the game has fewer plays.
    ``rolled``: from the next roll lying still instead (a clip of a real game mostly starts so: the
    player to move thinks with the dice down for seconds, the board is clear of dice only between a
    pick-up and the next throw)."""
    ends = [i for i, m in enumerate(moments) if {"play_accepted", "illegal_play_resolved"} & set(m.expect)]
    if plays <= 0 or plays > len(ends) - 1:
        return moments
    i = ends[plays - 1]
    if rolled:
        i = next((j for j in range(i + 1, ends[plays]) if "roll_accepted" in moments[j].expect), i)
    first = replace(moments[i], expect=(), inputs=())
    return [first] * (1 + hold) + moments[i + 1:]


def thinking(moments: list[Moment], frames: int) -> list[Moment]:
    """``moments`` with each roll's dice lying still ``frames`` more frames once it is read (the player
    thinks before playing, as real players do for seconds)."""
    out: list[Moment] = []
    for m in moments:
        out.append(m)
        if {"opening_roll", "roll_accepted"} & set(m.expect):
            out += [replace(m, expect=(), inputs=(), note="")] * frames
    return out


def joined_right(event: Any, moment: Moment) -> str:
    """Whether a ``board_adopted`` event took the board the recording showed at its moment: "right", or
    the spots (White's points, "bar", "off") it differs at, White's and Black's checkers taken and true,
    with "turn" when it expects the other side to roll."""
    from tavli_pi.referee.evidence import spot_counts

    truth, after = moment.position, event.after
    if after.layout_key() == truth.layout_key():
        return "right" if after.turn == truth.turn else "right but turn"
    (aw, ab), (tw, tb) = spot_counts(after), spot_counts(truth)
    names = [str(i + 1) for i in range(24)] + ["bar", "off"]
    wrong = [f"{names[i]} W{aw[i]}B{ab[i]} not W{tw[i]}B{tb[i]}" for i in range(26) if (aw[i], ab[i]) != (tw[i], tb[i])]
    return "wrong at " + "/".join(wrong) + (" and turn" if after.turn != truth.turn else "")


#: ``--quarter``: the picture turned so
QUARTER = cv2.ROTATE_90_CLOCKWISE


def write_video(path: Path, moments: list[Moment], kw: dict[str, Any], seed: int, repeat: int,
                truths: list[Truth] | None = None, exposure: float = 0.0, flicker: float = 0.0,
                bump: int = 0, white: float = 0.0, shadow: float = 0.0, lamp: float = 0.0,
                turn: float = 0.0, zoom: float = 1.0, drift: float = 0.0, quarter: bool = False) -> int:
    """Render ``moments`` (each ``repeat`` frames, each with its own sensor noise) into an MP4; frames
    written. ``truths``: each frame's ground truth is appended to it. ``exposure``: the picture's gain
    drifts by up to this share and back every 4 s (a camera's automatic exposure hunting as hands come
    and go); ``flicker``: it alternates by this share from frame to frame (mains-lit rooms); ``bump``: from
    two fifths of the way in, the picture is shifted this many px right and down (a player knocked the
    table or the camera's stand: the board stays where it now is in the picture); ``turn`` (degrees) and
    ``zoom``: from there on, the picture is also turned and scaled about its centre (the camera turned on its
    stand, the lens zoomed); ``drift``: the picture creeps this many px down (and half as far right) from the
    first frame to the last, a little every frame (a camera's stand sagging or warming: each frame's move is
    far under a pixel); ``quarter``: every frame turned a quarter clockwise (``QUARTER``: the camera at an end of
    the table, the players at the picture's left and right)."""
    scenes = [s for s in scenes_of(moments, **kw) for _ in range(repeat)]
    camera = SimCamera(scenes, fps=FPS * repeat, seed=seed)
    bump_at = int(0.4 * len(scenes))
    writer: Any = None
    n = 0
    while (frame := camera.read()) is not None:
        img = frame.image
        if exposure or flicker:
            gain = 1.0 + exposure * float(np.sin(2 * np.pi * n / (4 * FPS * repeat))) + flicker * (1 if n % 2 else -1)
            img = np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        if white:
            drift = white * float(np.sin(2 * np.pi * n / (8 * FPS * repeat)))
            img = np.clip(img.astype(np.float32) * np.float32([1 - drift, 1.0, 1 + drift]), 0, 255).astype(np.uint8)
        if shadow:
            img = shadowed(img, n / max(len(scenes), 1), shadow)
        if lamp and n >= int(0.5 * len(scenes)):
            ramp = 1.0 + lamp * np.linspace(0.0, 1.0, img.shape[1], dtype=np.float32)
            img = np.clip(img.astype(np.float32) * ramp[None, :, None], 0, 255).astype(np.uint8)
        if (bump or turn or zoom != 1.0) and n >= bump_at:
            move = cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2), turn, zoom)
            move[:, 2] += bump
            img = cv2.warpAffine(img, move, (img.shape[1], img.shape[0]),
                                 borderMode=cv2.BORDER_REPLICATE)
        if drift:
            crept = drift * n / max(len(scenes) - 1, 1)
            img = cv2.warpAffine(img, np.float32([[1, 0, crept / 2], [0, 1, crept]]), (img.shape[1], img.shape[0]),
                                 borderMode=cv2.BORDER_REPLICATE)
        if quarter:
            img = cv2.rotate(img, QUARTER)
        if truths is not None:
            t = camera.last_truth
            assert t is not None
            truths.append(t)
        if writer is None:
            h, w = img.shape[:2]
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), FPS * repeat, (w, h))
            if not writer.isOpened():
                raise SystemExit("OpenCV cannot write MP4 here (no mp4v encoder)")
        writer.write(img)
        n += 1
    if writer is not None:
        writer.release()
    return n


def shadowed(img: np.ndarray, at: float, depth: float) -> np.ndarray:
    """``img`` at ``at`` (the share of the recording played) under ``write_video``'s passing shadow: none before
    0.3 or after 0.6; between, a soft ellipse half the picture wide comes in from the left edge (its centre
    from -0.25 to 0.35 of the width by 0.4), stays to 0.5, and leaves the way it came."""
    if not 0.3 <= at <= 0.6:
        return img
    reach = min((at - 0.3) / 0.1, 1.0, (0.6 - at) / 0.1)
    cx = -0.25 + 0.6 * reach
    return cast_shadow(img, (cx - 0.25, 0.1, cx + 0.25, 0.9), depth, 0.0)


def decoded(video: Path) -> list[Any]:
    """Every frame of a recording, decoded (BGR)."""
    cap = cv2.VideoCapture(str(video))
    frames = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        frames.append(img)
    cap.release()
    return frames


def recorded(video: Path, truths: list[Truth], setup_frame: int) -> tuple[list[Any], Any]:
    """(the recording's frames decoded, the board calibrated on its set-up frame: true corners,
    learnt as the app learns it)."""
    import contextlib
    import io

    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.refine import refine
    from tavli_pi.vision.setup import learn_board

    frames = decoded(video)
    k = setup_frame
    with contextlib.redirect_stdout(io.StringIO()):
        cal = learn_board(frames[k], refine(Calibration(truths[k].corners, home=truths[k].home), frames[k]))  # type: ignore[arg-type]
    return frames, cal


def read_dice(video: Path, truths: list[Truth], setup_frame: int, tally: Counter[str], verbose: bool = False) -> None:
    """Each still die of the recording, as the reader sees it: the video's frames decoded, the
    board calibrated on its set-up frame (true corners, learnt as the app learns it), each frame
    with still dice read alone. Every true die is tallied by its size (image px, whole) as
    right, wrong, "no value" (found, not read: too small, or no face) or missed; dice read
    where none is are phantoms."""

    from tavli_pi.vision.reader import BoardReader

    frames, cal = recorded(video, truths, setup_frame)

    for img, t in zip(frames, truths):
        still = [d for d in t.dice if not d.moving]
        if not still:
            continue
        obs = BoardReader(cal).read(img)
        used: set[int] = set()
        for d in still:
            near = sorted((float(np.hypot(r.xy[0] - d.xy[0], r.xy[1] - d.xy[1])), j) for j, r in enumerate(obs.dice)
                          if j not in used)
            near = [x for x in near if x[0] < max(0.9 * d.size_px, 8.0)]
            got = obs.dice[near[0][1]] if near else None
            if got is not None:
                used.add(near[0][1])
            px = int(d.size_px)
            what = ("missed" if got is None else "no value" if not got.value else
                    "right" if got.value == d.value else "wrong")
            tally[f"{px} {what}"] += 1
            if what == "wrong" and got is not None:
                tally["confidently wrong"] += got.value_confidence >= 0.9
            if verbose and what != "right":
                print(f"    die {d.value} at {d.xy[0]:.0f},{d.xy[1]:.0f}, {d.size_px:.1f} px: {what}"
                      + (f" ({got.value} at {got.value_confidence:.2f}) {got.note}" if got is not None else ""))
        for j, r in enumerate(obs.dice):
            if j not in used and not r.moving:
                tally["phantom"] += 1
                tally["phantom with a value"] += bool(r.value)


def dice_table(tally: Counter[str]) -> str:
    """``read_dice``'s tally by die size: right/wrong/no value/missed."""
    sizes = sorted({int(k.split()[0]) for k in tally if k[0].isdigit()})
    rows = [f"    {px:>3} px: " + ", ".join(f"{w} {tally[f'{px} {w}']}" for w in ("right", "wrong", "no value", "missed"))
            for px in sizes]
    return "\n".join(rows + [f"    phantoms {tally['phantom']} ({tally['phantom with a value']} with a value); "
                              f"confidently wrong {tally['confidently wrong']}"])


#: what became of a scripted roll, in the order ``roll_fates`` judges them
FATES = ("read", "read wrong", "asked", "before set-up", "out of sync", "judging", "not seen")


def _values(e: Any) -> tuple[int, ...]:
    """The values a roll event took (an opening roll's two dice, or a roll's), highest first."""
    pair = (e.white_die, e.black_die) if e.kind == "opening_roll" else tuple(e.dice)
    return tuple(sorted(pair, reverse=True))


def roll_fates(moments: list[Moment], events: list[Any]) -> Counter[str]:
    """What became of each roll of the script, from the events the run logged: ``read`` (taken with
    values the camera read, the values thrown), ``read wrong`` (taken with values the camera read, none of
    them the values thrown: a die misread and believed), ``asked`` (the dice were seen unread and the roll asked for: nobody
    answers a recording), or lost with the referee not taking rolls -- ``before set-up`` (the game
    not started), ``out of sync`` (the board lost, not found again), ``judging`` (the turn before
    still waits for a clear view) -- or ``not seen`` (the referee was waiting for it: dice missed,
    read flickering, or reported tumbling). A roll's window runs from the moment after the play
    before it to its own play (events are placed by their time, ``FPS`` moments a second)."""
    at = [(int(round(e.at * FPS)), e) for e in events]
    ends = [i for i, m in enumerate(moments) if {"play_accepted", "illegal_play"} & set(m.expect)]
    out: Counter[str] = Counter()
    for r, m in enumerate(moments):
        if not {"opening_roll", "roll_accepted"} & set(m.expect):
            continue
        start = max((i + 1 for i in ends if i < r), default=0)
        end = min((i for i in ends if i > r), default=len(moments))
        inside = [e for i, e in at if start <= i <= end]
        before = [e for i, e in at if i <= end]
        taken = [e for e in inside if e.kind in ("opening_roll", "roll_accepted") and not e.extra.get("roll_unseen")]
        if taken:
            # read wrong: no roll taken in the window shows the values thrown (a die misread and not doubted)
            thrown = tuple(sorted((d.value for d in m.dice), reverse=True))
            fate = "read" if any(_values(e) == thrown for e in taken) else "read wrong"
        elif any(e.kind == "roll_needed" for e in inside):
            fate = "asked"
        elif not any(e.kind == "game_started" for e in before):
            fate = "before set-up"
        elif [e.kind for e in before if e.kind in ("board_out_of_sync", "board_resynced", "board_adopted")][-1:] == ["board_out_of_sync"]:
            fate = "out of sync"
        elif [e.kind for e in before if e.kind in ("clear_view_needed", "play_accepted", "illegal_play",
                                                    "game_started")][-1:] == ["clear_view_needed"]:
            fate = "judging"
        else:
            fate = "not seen"
        out[fate] += 1
    return out


def fates_text(fates: Counter[str]) -> str:
    return ", ".join(f"{f} {fates[f]}" for f in FATES)


def corners_arg(moments: list[Moment], kw: dict[str, Any], quarter: bool = False) -> str:
    """The field's true corners as ``--corners`` gives them (TL TR BR BL seen from the light player's seat),
    in the picture turned a quarter (``write_video``'s ``quarter``) where it is."""
    shown = render(scene_of(moments[1], **kw))
    corners = np.asarray(shown.truth.corners, np.float64)
    if quarter:  # (x, y) -> (h - 1 - y, x)
        corners = np.stack([shown.image.shape[0] - 1 - corners[:, 1], corners[:, 0]], axis=1)
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def run_table(tmp: Path, video: Path, kw: dict[str, Any], corners: str | None, repeat: int,
              infer: bool = True) -> tuple[list[Any], float, str]:
    """``tavli-pi run`` over the video; the logged events, the CPU seconds it took, and its stderr tail."""
    cfg = tmp / "table.toml"
    lines = [f"[camera]\nsource = 'replay:{video}'\nfps = {FPS * repeat}"]
    if corners:
        lines.append(f"corners = '{corners}'")
    lines.append(f"[table]\nhome = '{kw['home']}'\nmatch_length = 5\n[record]\nlog = '{tmp / 'table.sqlite'}'")
    if not infer:
        lines.append("[referee]\ninfer_unseen_rolls = false")
    cfg.write_text("\n".join(lines) + "\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", "from tavli_pi.cli import main; main()", "run", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=3600, cwd=Path(__file__).resolve().parent.parent)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if not (tmp / "table.sqlite").exists():
        return [], cpu, proc.stderr[-600:]
    with MatchLog.open(tmp / "table.sqlite", readonly=True) as log:
        events = [le.event for le in log.events()]
    return events, cpu, proc.stderr[-600:] if proc.returncode else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1, help="video frames per scripted moment (2-3: a 20-30 fps video)")
    ap.add_argument("--corners", action="store_true", help="give the field's corners, as an installed table does")
    ap.add_argument("--no-infer", action="store_true", help="[referee] infer_unseen_rolls = false (the peer run)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--only", default="", help="run only these games (by index or range, e.g. 2,4-5), each as in the whole run")
    ap.add_argument("--size", type=int, default=0, choices=(0, 640, 1280),
                    help="only the tables of this frame width (640: 640x360, dice of 8-12 px); 0: all")
    ap.add_argument("--dice", action="store_true",
                    help="also read each recording's still dice frame by frame (true corners, set-up learnt), "
                         "tallied by die size")
    ap.add_argument("--dice-only", action="store_true", help="--dice without running the app (no referee figures)")
    ap.add_argument("--need", type=float, default=None,
                    help="with --dice: read as if dice_vet.NEED_PX were this (what the reader would give smaller dice)")
    ap.add_argument("--from-play", type=int, default=0,
                    help="start each recording mid-game, on the board after this many plays (no set-up seen)")
    ap.add_argument("--exposure", type=float, default=0.0,
                    help="the picture's gain drifts by this share and back every 4 s (automatic exposure)")
    ap.add_argument("--flicker", type=float, default=0.0,
                    help="the picture's gain alternates by this share frame to frame (mains-lit room)")
    ap.add_argument("--bump", type=int, default=0,
                    help="two fifths of the way in, the picture shifts this many px right and down for good "
                         "(the table or the camera's stand knocked)")
    ap.add_argument("--turn", type=float, default=0.0,
                    help="two fifths of the way in, the picture turns this many degrees about its centre for good "
                         "(the camera turned on its stand)")
    ap.add_argument("--quarter", action="store_true",
                    help="every frame turned a quarter clockwise (the camera at an end of the table: the players at "
                         "the picture's left and right, the points running up and down)")
    ap.add_argument("--zoom", type=float, default=1.0,
                    help="two fifths of the way in, the picture is scaled by this about its centre for good (zoomed)")
    ap.add_argument("--drift", type=float, default=0.0,
                    help="the picture creeps this many px down (half as far right) over the recording, a little every "
                         "frame (the camera's stand sagging)")
    ap.add_argument("--white", type=float, default=0.0,
                    help="the camera's white balance drifts: red's gain up by this share as blue's goes down, "
                         "and back, every 8 s")
    ap.add_argument("--shadow", type=float, default=0.0,
                    help="from 30 %% to 60 %% of the recording a soft shadow of this depth passes over part of "
                         "the board (no hand)")
    ap.add_argument("--lamp", type=float, default=0.0,
                    help="half way in a lamp comes on: the picture brightens by this share on its right edge, "
                         "by nothing on its left")
    ap.add_argument("--rolled", action="store_true",
                    help="with --from-play: start on the next roll lying still, not on the clear board")
    ap.add_argument("--hold", type=int, default=0, help="with --from-play: that first board this many more frames")
    ap.add_argument("--think", type=int, default=0,
                    help="each roll's dice lie still this many more frames before the play (the player thinks)")
    ap.add_argument("--keep", type=Path, default=None, help="keep each game's video, config and log in this folder")
    args = ap.parse_args()
    if args.quarter and args.dice:
        raise SystemExit("--dice reads with the true corners of the picture as rendered: not with --quarter")
    only = set(game_list(args.only))
    args.dice = args.dice or args.dice_only
    if args.need is not None:
        import tavli_pi.vision.dice_vet as vet

        vet.NEED_PX = args.need  # type: ignore[assignment]
    print(f"machine: {platform.machine()} {platform.processor() or ''} Python {platform.python_version()}; "
          f"seed {args.seed}, {args.games} games of {args.turns} turns, {FPS * args.repeat:.0f} fps video, "
          f"corners {'given' if args.corners else 'found in the picture'}; "
          + (f"from the {'roll lying' if args.rolled else 'board'} after play {args.from_play} (held {args.hold} more "
             "frames); " if args.from_play else "")
          + (f"each roll lying {args.think} more frames; " if args.think else "")
          + "unseen rolls "
          f"{'not inferred' if args.no_infer else 'inferred'}")
    tables = reallike_game_tables(args.games, args.seed)
    if args.size:  # the first --games tables of that width (each keeps its index, seed and plant)
        more = reallike_game_tables(8 * args.games, args.seed)
        keep = [g for g, kw in enumerate(more) if kw["width"] == args.size][:args.games]
        tables = [more[g] if g in keep else {} for g in range(max(keep) + 1)] if keep else []
    tot: Counter[str] = Counter()
    dice_tally: Counter[str] = Counter()
    cpu_total = video_s = 0.0
    t0 = time.monotonic()
    for g, kw in enumerate(tables):
        if (only and g not in only) or not kw:
            continue
        plant = (2 + g % max(args.turns - 2, 1)) if g % 2 == 0 else 0
        moments = thinking(midgame(random_game(1000 * args.seed + g, turns=args.turns, plant_illegal=plant),
                                   args.from_play, args.hold, args.rolled), args.think)
        windows = []
        for i, m in enumerate(moments):
            if m.note == "an illegal play":
                end = next(j for j in range(i, len(moments)) if moments[j].note == "corrected")
                windows.append(range(i, end + 1))
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            if args.keep is not None:
                tmp = args.keep.resolve() / f"game{g}"
                tmp.mkdir(parents=True, exist_ok=True)
                (tmp / "table.sqlite").unlink(missing_ok=True)
            video = tmp / "game.mp4"
            truths: list[Truth] = []
            frames = write_video(video, moments, kw, 1000 * args.seed + g, args.repeat, truths, args.exposure,
                                 args.flicker, args.bump, args.white, args.shadow, args.lamp, args.turn, args.zoom,
                                 args.drift, args.quarter)
            corners = corners_arg(moments, kw, args.quarter) if args.corners else None
            events, cpu, err = ([], 0.0, "") if args.dice_only else run_table(
                tmp, video, kw, corners, args.repeat, infer=not args.no_infer)
            if args.dice:
                read_dice(video, truths, args.repeat, dice_tally, args.verbose)
        video_s += frames / (FPS * args.repeat)
        cpu_total += cpu
        kinds = Counter(e.kind for e in events)
        moment_of = [int(round(e.at * FPS)) for e in events]
        calls = [mi for e, mi in zip(events, moment_of) if e.kind == "illegal_play"]
        caught = sum(1 for w in windows if any(c in w for c in calls))
        false_calls = sum(1 for c in calls if not any(c in w for w in windows))
        setup = any((e.kind == "setup_checked" and getattr(e, "ok", False)) or e.kind == "board_adopted"
                    for e in events)
        unseen = sum(1 for e in events if e.kind == "play_accepted" and "roll_unseen" in e.extra)
        # a planted illegal play taken as played (checked or not): the failure to remove; one held (not
        # taken: no roll holding the die read allows it) is announced out of sync with ``extra["held"]``
        bad = [(w, moments[w.start].position.layout_key()) for w in windows]
        passed = sum(1 for w, key in bad if any(
            e.kind == "play_accepted" and mi in w and e.after.layout_key() == key for e, mi in zip(events, moment_of)))
        held = sum(1 for w, _ in bad if any(
            e.kind == "board_out_of_sync" and "held" in e.extra and mi in w for e, mi in zip(events, moment_of)))
        joins = [joined_right(e, moments[min(mi, len(moments) - 1)]) for e, mi in zip(events, moment_of)
                 if e.kind == "board_adopted"]
        plays = sum(1 for m in moments if "play_accepted" in m.expect)
        rolls = sum(1 for m in moments if {"opening_roll", "roll_accepted"} & set(m.expect))
        seen = kinds["opening_roll"] + kinds["roll_accepted"]
        sizes = [d.size_px for t in truths for d in t.dice if not d.moving]
        fates = roll_fates(moments, events)
        tot.update({f"fate {f}": n for f, n in fates.items()})
        tot.update(games=1, setup=int(setup), plays=plays, rolls=rolls, seen=seen, accepted=kinds["play_accepted"], unseen=unseen,
                   false_calls=false_calls, planted=len(windows), caught=caught, passed=passed, held=held,
                   out_of_sync=kinds["board_out_of_sync"], roll_needed=kinds["roll_needed"],
                   joins=len(joins), joins_right=sum(1 for j in joins if j == "right"),
                   failed=int(bool(err)))
        if args.verbose or err:
            print(f"  game {g}: {getattr(kw.get('look'), 'board', '?')}, {kw.get('width', 1280)} px, "
                  f"{frames} frames, dice {min(sizes, default=0):.0f}-{max(sizes, default=0):.0f} px: "
                  f"set-up {'done' if setup else 'never done'}, rolls read {seen}/{rolls}, accepted {kinds['play_accepted']}/{plays} "
                  f"({unseen} not checked: roll unseen), illegal calls at {calls}, planted at {[w.start for w in windows]} "
                  f"(passed as played {passed}, held {held}), "
                  f"out of sync {kinds['board_out_of_sync']}, rolls asked {kinds['roll_needed']}; "
                  f"{cpu:.1f} CPU-s; rolls: {fates_text(fates)}"
                  + (f"; boards adopted: {', '.join(joins)}" if joins else "")
                  + (f"; learnt in play {kinds['board_learnt']}" if kinds["board_learnt"] else "")+ (f"\n    run failed: {err}" if err else ""), flush=True)
    print(f"tavli-pi run over {tot['games']} real-like videos, unattended ({time.monotonic() - t0:.0f} s):")
    print(f"  set-up done {tot['setup']}/{tot['games']}; rolls read {tot['seen']}/{tot['rolls']}; plays accepted {tot['accepted']}/{tot['plays']}: "
          f"{tot['accepted'] - tot['unseen']} checked, {tot['unseen']} not checked (a roll the camera never read); "
          f"illegal calls on legal play {tot['false_calls']}; planted illegal plays caught {tot['caught']}/{tot['planted']}, "
          f"passed as played {tot['passed']}, held {tot['held']}; out of sync {tot['out_of_sync']}; "
          f"rolls asked for {tot['roll_needed']}; runs that failed {tot['failed']}")
    if tot["joins"]:
        print(f"  boards adopted {tot['joins']}, the true board {tot['joins_right']}")
    print("  where the rolls went: " + fates_text(Counter({f: tot[f"fate {f}"] for f in FATES})))
    print(f"  CPU {cpu_total:.1f} s for {video_s:.0f} s of video: {cpu_total / max(video_s, 1e-9):.2f} CPU-s per second "
          "(whole process: start-up, decoding, vision, referee, log)")
    if args.dice:
        print("  still dice read frame by frame (true corners, set-up learnt), by size:\n" + dice_table(dice_tally))


if __name__ == "__main__":
    main()
