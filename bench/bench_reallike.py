"""Real-like benchmark (issue 9): today's reader and referee on tables as varied as real ones.

Part 1, frames: the real-like set (``tavli_pi.sim.datasets.reallike_set``) read by the
current reader, calibrated two ways:
- ``read``: as ``tavli-pi read --corners`` does (``calibrate_image`` on the frame itself,
  with the field corners and home side the simulator knows);
- ``set-up``: as the app does at installation (the same table at set-up, rendered by
  ``reallike_setup``, then ``refine(Calibration(corners, home), image)``), reading the
  frame against that.
It prints the per-spot error (a spot is a point, the bar or the trays, both colours;
with and without the trays), split into wrong values and spots reported unknown
(``sim.spot_score``), confidently wrong spots (a colour's count wrong at
confidence >= 0.9) per 10,000 spots, dice (legible: right / wrong / missed; small,
under SMALL_DIE_PX px: given a value (right / wrong), no value (too small), missed;
phantom: a die read where none is; confidently wrong dice) and hands flagged.

Part 2, games: ``--games`` random real-like games (``random_game`` on the tables of
``reallike_game_tables``) through the whole app (sim camera -> vision -> referee ->
outputs, ``sim.drive``), half of them with a planted illegal play. The app gets what an
installation gives it (``[camera] corners`` and the home side) and learns the board at
set-up itself; the scripted players answer the referee as players do: they confirm a set-up
it reads otherwise once the board is really set up (B3), and enter a roll whose dice the
camera cannot read (E2). It prints illegal calls on legal play and planted illegal plays
caught, plus plays accepted, set-ups done (and confirmed by the players), rolls entered and
the frames with no hand over the board that the reader flagged a hand on.

    .venv/bin/python bench/bench_reallike.py [--frames 120] [--games 6] [--seed 0] [--plain]
    .venv/bin/python bench/bench_reallike.py --frames 400 --games 200   # the issue's figures
    .venv/bin/python bench/bench_reallike.py --known 120   # learnt from a mid-game position vs the start
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import pickle
import platform
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.errors import TavliError, TavliWarning  # noqa: E402
from tavli_pi.sim.datasets import (  # noqa: E402
    SMALL_DIE_PX,
    reallike_game_tables,
    reallike_scenes,
    reallike_setup,
)
from tavli_pi.sim.render import Rendered, Truth, render  # noqa: E402
from tavli_pi.sim.spot_score import CONFIDENT, score_spots  # noqa: E402
from tavli_pi.vision.calibrate import calibrate_image  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.refine import refine  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tavli_pi.config import TableConfig
    from tavli_pi.sim.camera import SimCamera
    from tavli_pi.sim.script import Moment

def corners_arg(truth: Truth) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in truth.corners)


def calibrate_read(r: Rendered) -> Calibration:
    """As ``tavli-pi read --corners "..." --home ...`` calibrates a single photo."""
    return calibrate_image(r.image, corners_arg(r.truth), r.truth.home)


def calibrate_setup(setup: Rendered, known: Any = None, learn: bool = True) -> Calibration:
    """As the app calibrates: the set-up board's corners, then this board learnt from the set-up
    frame (``vision.setup.learn_board``: checker looks, pitch, background); ``known``: the
    position that frame shows (``vision.known.KnownBoard``; the start when None); ``learn``
    False: the corners only (what ``run`` read a game joined in progress with)."""
    from tavli_pi.vision.setup import learn_board

    base = refine(Calibration(setup.truth.corners, home=setup.truth.home), setup.image)  # type: ignore[arg-type]
    return learn_board(setup.image, base, known) if learn else base


def known_frames(n: int, seed: int) -> None:
    """The real-like set read with the board learnt from a random position of a game in progress
    (the same table, clear: ``reallike_setup(scene, known)``) against learnt from the start
    position, and against not learnt (that mid-game frame's corners calibration), same frames."""
    from tavli_pi.sim.datasets import random_layout
    from tavli_pi.vision.known import KnownBoard

    scores = {"unlearnt (mid-game frame)": FrameScore(), "learnt from the start": FrameScore(),
              "learnt from mid-game": FrameScore()}
    unseen: Counter[str] = Counter()
    for i, scene in enumerate(reallike_scenes(n, seed)):
        rng = np.random.default_rng([seed, 11, i])
        light, dark, bar, off = random_layout(rng, cap=5, max_bar=1, max_off=2)
        known = KnownBoard.of_counts(list(light) + [bar[0], off[0]], list(dark) + [bar[1], off[1]])
        r = render(scene, seed * 100003 + i)
        start = render(reallike_setup(scene), seed * 100003 + i)
        mid = render(reallike_setup(scene, (light, dark, bar, off)), seed * 100003 + i)
        for mode, sc in scores.items():
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    if mode.startswith("unlearnt"):
                        cal = calibrate_setup(mid, learn=False)
                    elif mode.endswith("start"):
                        cal = calibrate_setup(start)
                    else:
                        cal = calibrate_setup(mid, known)
                        unseen.update(u.split(":")[0] for u in cal.unseen)
                t0 = time.process_time()
                obs = BoardReader(cal).read(r.image)
                sc.add(obs, r.truth, time.process_time() - t0)
            except TavliError:
                sc.fail(r.truth)
    print(f"real-like set: {n} frames, seed {seed}; each table also rendered clear at set-up and at a random "
          f"mid-game position (random_layout cap 5, bar <= 1, off <= 2)")
    for mode, sc in scores.items():
        sc.report(f"reader, {mode}")
    print(f"  what the mid-game positions left unseen: {dict(unseen)}")


#: a spot is truly under a hand when a slot of its true stack has at least this share of its box
#: changed by the hand (the frame against the same scene rendered without it): the truth is not in
#: the picture (``bench/diag_spots.py``'s "under a hand")
HIDDEN_SHARE = 0.5


def truth_hidden_shares(cal: Calibration, image: np.ndarray, bare: np.ndarray, truth: Truth) -> np.ndarray:
    """Per spot (24 points, light numbering; 24 the bar's light half, 25 its dark half), the largest
    share of a slot's box the hand hides, over the true stack's first slots (five at most; one for an
    empty spot): ``image`` against ``bare``, the same scene rendered without the hand, both warped by ``cal``."""
    from tavli_pi.vision.spot_slots import spot_geometry

    a, b = cal.warp(image).astype(np.int16), cal.warp(bare).astype(np.int16)
    moved = np.abs(a - b).max(axis=2) > 40
    x, base, sign, rad = spot_geometry(cal.layout, cal)
    counts = [truth.light[p] + truth.dark[p] for p in range(24)] + [truth.bar[0], truth.bar[1]]
    out = np.zeros(26)
    for p in range(26):
        n = max(1, min(counts[p], 5))
        ys = base[p] + sign[p] * rad[p] * (1 + 2 * np.arange(n))
        share = []
        for y in ys:
            y0, y1 = int(max(y - 0.7 * rad[p], 0)), int(y + 0.7 * rad[p]) + 1
            x0, x1 = int(max(x[p] - 0.7 * rad[p], 0)), int(x[p] + 0.7 * rad[p]) + 1
            patch = moved[y0:y1, x0:x1]
            share.append(float(patch.mean()) if patch.size else 0.0)
        out[p] = max(share)
    return out


def truly_hidden(shares: np.ndarray | None, trays: bool = True) -> list[bool]:
    """Per scored spot (24 points, the bar, the trays: ``score_spots``' order), whether the truth
    is under the hand (``truth_hidden_shares``; the bar when either half is); all False with no
    hand (``shares`` None). The trays are counted in view on a board that has them; on a board
    without (``trays`` False) the checkers off are only what the points and the bar leave of 15,
    so they are hidden whenever one of those is."""
    if shares is None:
        return [False] * 26
    spots = [bool(shares[p] >= HIDDEN_SHARE) for p in range(24)] + [bool(max(shares[24], shares[25]) >= HIDDEN_SHARE)]
    return spots + [not trays and any(spots)]


class FrameScore:
    def __init__(self) -> None:
        self.frames = self.failed = 0
        self.spots = self.wrong = self.wrong_no_trays = self.confident_wrong = 0
        # the wrong spots split (``sim.spot_score``): a wrong value given, or every wrong colour
        # reported unknown; wrong values on frames the reader flagged a hand on
        self.wrong_values = self.unknown = self.wrong_values_hand = 0
        self.perfect = 0
        self.dice: Counter[str] = Counter()
        self.hands = self.hands_flagged = self.no_hand = self.false_hand = 0
        self.seconds: list[float] = []
        self.kinds: Counter[str] = Counter()  # where the wrong spots are
        # tray counts (one a colour): right, wrong (a count given), unknown (reported as unknown,
        # scored wrong above unless the tray is empty), each by where the count came from
        self.trays: Counter[str] = Counter()
        # the spots split by the truth (``truly_hidden``): under a hand (the truth is not in the
        # picture) or in view; wrong (the combined figure) and reported unknown under a hand, wrong
        # (combined) and wrong values in view
        self.hidden = self.hidden_wrong = self.hidden_unknown = 0
        self.in_view = self.in_view_wrong = self.in_view_values = 0

    def fail(self, truth: Truth) -> None:
        """A frame the reader could not calibrate on: every spot counts as wrong."""
        self.frames += 1
        self.failed += 1
        self.spots += 26
        self.wrong += 26
        self.wrong_no_trays += 25
        self.wrong_values += 26
        self.in_view += 26
        self.in_view_wrong += 26
        self.in_view_values += 26
        self._hands(truth, False)

    def _hands(self, truth: Truth, flagged: bool) -> None:
        if truth.hand:
            self.hands += 1
            self.hands_flagged += flagged
        else:
            self.no_hand += 1
            self.false_hand += flagged

    def add(self, obs: Observation, truth: Truth, seconds: float, hidden: Sequence[bool] = ()) -> None:
        """``hidden``: per spot, whether the truth is under a hand (``truly_hidden``; none when empty)."""
        self.frames += 1
        self.seconds.append(seconds)
        bad = 0
        for s in score_spots(obs, truth.light, truth.dark, truth.bar, truth.off):
            self.spots += 1
            if hidden and hidden[s.index]:
                self.hidden += 1
                self.hidden_wrong += s.wrong
                self.hidden_unknown += s.verdict == "unknown"
            else:
                self.in_view += 1
                self.in_view_wrong += s.wrong
                self.in_view_values += s.verdict == "wrong"
            if s.wrong:
                bad += 1
                self.wrong += 1
                self.wrong_no_trays += s.where != "trays"
                self.kinds[s.where] += 1
                self.confident_wrong += s.confident
                if s.verdict == "unknown":
                    self.unknown += 1
                else:
                    self.wrong_values += 1
                    self.wrong_values_hand += obs.hand
        self.perfect += bad == 0
        for colour, n, src in (("light", truth.off[0], obs.off_source[0]), ("dark", truth.off[1], obs.off_source[1])):
            e = getattr(obs.off, colour)
            if src == "unknown":
                self.trays["unknown"] += 1
                self.trays["unknown, hand"] += obs.hand
            else:
                ok = e.best == min(n, 15)
                self.trays[f"{'right' if ok else 'wrong'} {src}"] += 1
                self.trays["confidently wrong"] += not ok and e.confidence >= CONFIDENT
        self._hands(truth, obs.hand)
        self._dice(obs, truth)

    def _dice(self, obs: Observation, truth: Truth) -> None:
        used: set[int] = set()
        for t in truth.dice:
            radius = max(0.9 * t.size_px, 8.0)
            near = [(float(np.hypot(d.xy[0] - t.xy[0], d.xy[1] - t.xy[1])), j)
                    for j, d in enumerate(obs.dice) if j not in used]
            near = [x for x in near if x[0] < radius]
            got = obs.dice[min(near)[1]] if near else None
            if got is not None:
                used.add(min(near)[1])
            if t.moving:
                self.dice["tumbling seen" if got is not None else "tumbling unseen"] += 1
                continue
            small = t.size_px < SMALL_DIE_PX
            tag = "small" if small else "legible"
            if got is None:
                self.dice[f"{tag} missed"] += 1
            elif _no_value(got):
                self.dice[f"{tag} no value"] += 1
            elif got.value == t.value:
                self.dice[f"{tag} right"] += 1
            else:
                self.dice[f"{tag} wrong"] += 1
                self.dice["confidently wrong"] += got.value_confidence >= CONFIDENT
        for j, d in enumerate(obs.dice):
            if j not in used:
                self.dice["phantom"] += 1
                self.dice["confident phantom"] += (d.value_confidence >= CONFIDENT and not _no_value(d))

    def report(self, name: str) -> None:
        spots = max(self.spots, 1)
        no_trays = max(self.spots - self.frames, 1)
        print(f"{name}: {self.frames} frames ({self.failed} not calibrated), "
              f"per-spot error {100 * self.wrong / spots:.2f}% ({self.wrong}/{self.spots}), "
              f"without the trays {100 * self.wrong_no_trays / no_trays:.2f}%, "
              f"perfect frames {self.perfect}/{self.frames}")
        print(f"  of them wrong values {self.wrong_values} ({100 * self.wrong_values / spots:.2f}%; "
              f"{self.wrong_values_hand} on frames read with a hand), reported unknown {self.unknown} "
              f"({100 * self.unknown / spots:.2f}%)")
        view = max(self.in_view, 1)
        print(f"  spots under a hand (the truth hidden, >= {HIDDEN_SHARE:g} of a slot): {self.hidden}, wrong "
              f"{self.hidden_wrong} (reported unknown {self.hidden_unknown}, a value given "
              f"{self.hidden_wrong - self.hidden_unknown}); spots in view {self.in_view}: per-spot error "
              f"{100 * self.in_view_wrong / view:.2f}% ({self.in_view_wrong}), wrong values "
              f"{100 * self.in_view_values / view:.2f}% ({self.in_view_values})")
        print(f"  confidently wrong (>= {CONFIDENT}) spots: {self.confident_wrong} "
              f"= {10000 * self.confident_wrong / spots:.1f} per 10,000 spots; wrong spots by kind {dict(self.kinds)}")
        d = self.dice
        legible = sum(d[f"legible {k}"] for k in ("right", "wrong", "missed", "no value"))
        small = sum(d[f"small {k}"] for k in ("right", "wrong", "missed", "no value"))
        print(f"  dice: legible {legible}: right {d['legible right']}, wrong {d['legible wrong']}, "
              f"missed {d['legible missed']}, found with no value {d['legible no value']}; "
              f"small (< {SMALL_DIE_PX:g} px) {small}: given a value {d['small right'] + d['small wrong']} "
              f"(right {d['small right']}, wrong {d['small wrong']}), too small / no value {d['small no value']}, "
              f"missed {d['small missed']}; phantom {d['phantom']} ({d['confident phantom']} at >= {CONFIDENT}); "
              f"confidently wrong values {d['confidently wrong']}; tumbling seen "
              f"{d['tumbling seen']}/{d['tumbling seen'] + d['tumbling unseen']}")
        t = self.trays
        print(f"  tray counts {2 * (self.frames - self.failed)}: right {t['right tray'] + t['right implied']} "
              f"(tray {t['right tray']}, implied {t['right implied']}), wrong {t['wrong tray'] + t['wrong implied']} "
              f"(tray {t['wrong tray']}, implied {t['wrong implied']}; {t['confidently wrong']} at >= {CONFIDENT}), "
              f"unknown {t['unknown']} ({t['unknown, hand']} with a hand over the board)")
        print(f"  hands flagged {self.hands_flagged}/{self.hands}; false hands {self.false_hand}/{self.no_hand}")
        if self.seconds:
            print(f"  read time per frame: median {1000 * float(np.median(self.seconds)):.0f} ms")


def _no_value(d: Any) -> bool:
    """Whether a die reading gives no value: value 0, or marked too small to read
    (a ``too_small`` attribute, which the reader to come may add)."""
    return bool(getattr(d, "too_small", False)) or d.value == 0


def frames(n: int, seed: int) -> None:
    scores = {"read": FrameScore(), "set-up": FrameScore()}
    mix: Counter[str] = Counter()
    render_s: list[float] = []
    # per-spot error by feature, set-up calibration: feature -> [wrong spots, spots]
    by: dict[str, list[int]] = {}
    for i, scene in enumerate(reallike_scenes(n, seed)):
        t0 = time.process_time()
        r = render(scene, seed * 100003 + i)
        render_s.append(time.process_time() - t0)
        t = r.truth
        mix[f"{scene.width}x{scene.height}"] += 1
        mix[f"trays {scene.trays}"] += 1
        mix["wide bar (>= 70)" if scene.build.bar >= 70 else "bar < 70"] += 1
        mix[scene.look.board] += 1
        setup = render(reallike_setup(scene), seed * 100003 + i)
        # the same scene without its hand: what the hand hides (truth_hidden_shares)
        bare = render(dataclasses.replace(scene, hand=None), seed * 100003 + i) if scene.hand is not None else None
        for mode, sc in scores.items():
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    cal = calibrate_read(r) if mode == "read" else calibrate_setup(setup)
                t0 = time.process_time()
                obs = BoardReader(cal).read(r.image)
                spent = time.process_time() - t0
                wrong0 = sc.wrong
                hidden = truly_hidden(truth_hidden_shares(cal, r.image, bare.image, t) if bare is not None else None,
                                      scene.trays != "none")
                sc.add(obs, t, spent, hidden)
            except TavliError:
                wrong0 = sc.wrong
                sc.fail(t)
            if mode == "set-up":
                for f in _features(scene):
                    acc = by.setdefault(f, [0, 0])
                    acc[0] += sc.wrong - wrong0
                    acc[1] += 26
    print(f"real-like set: {n} frames, seed {seed}; {dict(sorted(mix.items()))}; "
          f"render CPU per frame: median {1000 * float(np.median(render_s)):.0f} ms")
    for mode, sc in scores.items():
        sc.report(f"reader, {mode} calibration")
    print("  per-spot error by feature (set-up calibration): " + ", ".join(
        f"{f} {100 * w / max(k, 1):.1f}%" for f, (w, k) in sorted(by.items())))


def _features(scene: Any) -> list[str]:
    """The features of a real-like scene the per-feature figures are split by."""
    out = [scene.look.board, f"trays {scene.trays}", "bar >= 70" if scene.build.bar >= 70 else "bar < 70",
           f"{scene.width}x{scene.height}"]
    if scene.build.insert is not None:
        out.append("tray lining")
    if scene.build.prints:
        out.append("prints")
    out += [f"overlay {o.kind}" for o in scene.overlays]
    if any(p.kind == "cup" and 0 <= p.u <= 1 and 0 <= p.v <= 1 for p in scene.props):
        out.append("cup on field")
    if scene.hand is not None:
        out.append(f"{scene.hand.kind} over board")
    if abs(scene.pose.rotation_deg) > 90:
        out.append("light at top")
    return out


def game_plans(n: int, seed: int, turns: int, plain: bool = False) -> list[tuple[dict[str, Any], int]]:
    """The first ``n`` real-like games' tables (``scene_of`` keywords: ``reallike_game_tables``) and
    the turn each plants its illegal play at (0: none; every other game plants one). Game ``g`` is
    the same whatever ``n`` > ``g``. ``plain``: the harness's own check, the easy table of
    tests/test_app_e2e.py for every game."""
    tables = reallike_game_tables(n, seed)
    if plain:
        from tavli_pi.sim.scene import Look

        tables = [{"look": Look(noise=2.0, light_gradient=0.25), "home": "bottom-right"} for _ in range(n)]
    rng = np.random.default_rng([seed, 9])
    return [(kw, int(rng.integers(2, turns)) if g % 2 == 0 else 0) for g, kw in enumerate(tables)]


def game_script(g: int, seed: int, turns: int, plant: int) -> list[Moment]:
    """Game ``g``'s scripted moments (``random_game``; ``plant``: from :func:`game_plans`)."""
    from tavli_pi.sim.script import random_game

    return random_game(1000 * seed + g, turns=turns, plant_illegal=plant)


def game_config(moments: Sequence[Moment], kw: dict[str, Any], log: Path) -> TableConfig:
    """The app's config for a game on table ``kw``: what an installation gives the app, the field's
    corners (``[camera] corners``, set once when the camera is mounted) and the home side -- it
    learns the board at set-up itself -- logging to ``log``, signals on a mock pin factory."""
    from tavli_pi.config import parse_config
    from tavli_pi.sim.table import scene_of

    corners = corners_arg(render(scene_of(moments[1], **kw)).truth)
    return parse_config(
        f"[camera]\ncorners = '{corners}'\n"
        f"[table]\nhome = '{kw['home']}'\nmatch_length = 5\n[record]\nlog = '{log}'\n"
        "[signals]\nenabled = true\npin_factory = 'mock'\n"
    )


def game_camera(moments: Sequence[Moment], kw: dict[str, Any], g: int, seed: int, fps: float = 10) -> SimCamera:
    """The camera of game ``g``: its moments rendered on table ``kw``, sensor noise (and JPEG
    blocks, where the table's camera compresses) fresh on every frame."""
    from tavli_pi.sim.camera import SimCamera
    from tavli_pi.sim.table import scenes_of

    return SimCamera(scenes_of(moments, **kw), fps=fps, seed=1000 * seed + g)


def games(n: int, seed: int, turns: int, plain: bool = False, verbose: bool = False,
          only: frozenset[int] | None = None, trace: bool = False, why: bool = False,
          dump: Path | None = None) -> None:
    """``only``: play just these games of the ``n`` (each game is the same as in the whole run:
    its table, script and planted play do not depend on the others). ``trace``: one line a
    frame (the truth, what vision read that differs, the referee's phase and events). ``why``: what
    the referee did on every scripted play it did not accept (:func:`_classify`), with the counts.
    ``dump``: write each game's script and what the app gave its referee to ``dump/game{N}.pkl``, for
    ``bench/replay_referee.py`` to replay through another referee without reading a frame again."""
    from gpiozero.pins.mock import MockFactory

    from tavli_pi.app import TableApp
    from tavli_pi.sim.drive import drive

    if only:
        n = max(n, max(only) + 1)
    false_calls = planted = caught = accepted = plays = setups = confirmed = 0
    false_hands = clear_frames = unread_rolls = doubted = 0
    wrong_accepts = 0  # plays accepted as a board other than the one on the table
    whys: Counter[str] = Counter()
    t0 = time.monotonic()
    played = 0
    for g, (kw, plant) in enumerate(game_plans(n, seed, turns, plain)):
        if only is not None and g not in only:
            continue
        played += 1
        moments = game_script(g, seed, turns, plant)
        # windows where the planted illegal position stands on the board
        windows: list[range] = []
        for i, m in enumerate(moments):
            if m.note == "an illegal play":
                end = next(j for j in range(i, len(moments)) if moments[j].note == "corrected")
                windows.append(range(i, end))
        planted += len(windows)
        plays += sum(1 for m in moments if "play_accepted" in m.expect)
        with tempfile.TemporaryDirectory() as tmp:
            cfg = game_config(moments, kw, Path(tmp) / "table.sqlite")
            camera = game_camera(moments, kw, g, seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", TavliWarning)  # "calibration waits ...": the events say it
                with _watch_flags(camera) as flags, _watch_verdicts() as verdicts, _record_referee() as fed, \
                        TableApp(cfg, camera=camera, pin_factory=MockFactory()) as app:
                    # the players confirm the set-up board when the referee reads it otherwise (B3),
                    # and enter the roll when the camera cannot read the dice (E2); asked for the roll of
                    # a play already made, they answer before the next play (the board held: sim.drive)
                    steps = []
                    phases: list[str] = []
                    hands: list[bool] = []  # the reader flagged a hand on the frame
                    truths: list[Truth | None] = []
                    for step in drive(app, camera, moments, confirm_setup=True, enter_rolls=True):
                        steps.append(step)
                        phases.append(app.referee.phase.value)
                        hands.append(flags.last is not None and flags.last.hand)
                        truths.append(camera.last_truth)
                        verdicts.frame = fed.moment = step.index + 1
                        if trace:
                            print(_trace_line(g, step, camera.last_truth, flags.last, app.referee))
        if dump is not None:
            dump.mkdir(parents=True, exist_ok=True)
            with open(dump / f"game{g}.pkl", "wb") as f:
                pickle.dump({"moments": moments, "referee": fed.first, "calls": fed.calls}, f)
        calls = [s.index for s in steps if "illegal_play" in s.kinds]
        caught += sum(1 for w in windows if any(c in w for c in calls))
        false_calls += sum(1 for c in calls if not any(c in w for w in windows))
        accepted += sum(s.kinds.count("play_accepted") for s in steps)
        wrong = [s.index for s in steps for e in s.events if e.kind == "play_accepted"
                 and e.after.layout_key() != s.moment.position.layout_key()]  # type: ignore[attr-defined]
        wrong_accepts += len(wrong)
        false_hands += flags["false hand"]
        clear_frames += flags["clear"]
        asks = [e for s in steps for e in s.events if e.kind == "roll_needed"]
        unread_rolls += sum(1 for e in asks if "doubted" not in e.extra)
        doubted += sum(1 for e in asks if "doubted" in e.extra)
        set_up = any(e.kind == "setup_checked" and getattr(e, "ok", False) for s in steps for e in s.events)
        asked = any(e.kind == "setup_checked" and not getattr(e, "ok", True) for s in steps for e in s.events)
        setups += set_up
        confirmed += asked and set_up
        if why:
            got = _classify(moments, steps, phases, hands, verdicts.seen)
            whys.update(got)
            print(f"  game {g} plays not accepted: " + ("; ".join(c for c in got if c != "accepted") or "none"))
            for w in windows:
                if not any(c in w for c in calls):
                    print(f"    planted at {w.start} missed: " + _planted_miss(w, phases, hands, truths, verdicts.seen))
        if verbose:
            look, build = kw.get("look"), kw.get("build")
            print(f"  game {g}: {getattr(look, 'board', '?')}, trays {kw.get('trays', 'home')}, "
                  f"bar {getattr(build, 'bar', 44)}, {kw.get('width', 1280)} px, hand {getattr(kw.get('hand'), 'kind', 'hand')}: "
                  f"set-up {('confirmed by the players' if asked else 'read') if set_up else 'never done'}, "
                  f"accepted {sum(s.kinds.count('play_accepted') for s in steps)}, illegal calls at {calls}, "
                  f"planted at {[w.start for w in windows]}; accepted as another board at {wrong}; rolls entered by the players "
                  f"{sum(1 for e in asks if 'doubted' not in e.extra)}, asked for after a misfit of unsure dice "
                  f"{sum(1 for e in asks if 'doubted' in e.extra)}; hand flagged on "
                  f"{flags['false hand']}/{flags['clear']} frames with none")
    print(f"referee over {played} {'plain (harness check)' if plain else 'real-like'} games ({turns} turns, a planted illegal play in every other game), "
          f"{time.monotonic() - t0:.0f} s:")
    print(f"  illegal calls on legal play: {false_calls}; planted illegal plays caught: {caught}/{planted}; "
          f"plays accepted {accepted}/{plays} ({wrong_accepts} as a board other than the one on the table); games that left set-up {setups}/{played} "
          f"({confirmed} confirmed by the players); rolls the players entered (dice too small to read) "
          f"{unread_rolls}; rolls asked for because a play did not fit unsure dice {doubted}; "
          f"hand flagged on {false_hands}/{clear_frames} frames with no hand")
    if why:
        print("  what the referee did on the scripted plays: " + ", ".join(f"{k} {v}" for k, v in whys.most_common()))


def _classify(moments: Any, steps: Any, phases: list[str], hands: list[bool],
              seen: list[tuple[int, str, str, Any]]) -> list[str]:
    """What became of each scripted play: "accepted", a planted play "called" or not, else why not:
    the referee's phase just before the play (set-up not done, the roll not taken yet, the last play
    still being judged, out of sync, ...) or, with the roll taken, its last verdict of the turn."""
    plays = [i for i, m in enumerate(moments) if m.note in ("the play", "an illegal play")]
    out: list[str] = []
    for k, p in enumerate(plays):
        end = min(plays[k + 1] if k + 1 < len(plays) else len(moments), len(steps))
        kinds = [kd for s in steps[p:end] for kd in s.kinds]
        if k + 1 == len(plays) and "play_accepted" not in kinds and moments[p].note == "the play" \
                and phases[end - 1] in ("rolled", "judging") and (not out or out[-1] in ("accepted", "planted: called")) \
                and not any(kd in ("board_out_of_sync", "illegal_play") for kd in kinds):
            # the script ends on the frame the dice leave the board: a verdict takes two clear frames
            out.append(f"the script ended {end - p - 1} frames after the last play (phase {phases[end - 1]})")
            continue
        phase = phases[p - 1] if p >= 1 else "setup"
        if moments[p].note == "an illegal play":
            if "illegal_play" in kinds:
                out.append("planted: called")
                continue
            head = "planted, not called: "
        else:
            if "play_accepted" in kinds:
                out.append("accepted")
                continue
            head = ""
        if phase in ("setup", "opening", "awaiting_roll"):
            why = "set-up not done" if phase == "setup" else "the roll not taken before the play"
            if phase != "setup" and all(hands[max(p - 4, 0):p]):
                why += " (a hand flagged on every frame)"
        elif phase == "judging":
            why = "the last play still being judged"
        elif phase != "rolled":
            why = f"phase {phase}"
        else:
            # a planted play's own verdicts: those before its correction (after it, the corrected board's)
            upto = next((j for j in range(p + 1, end) if moments[j].note == "corrected"), end) \
                if moments[p].note == "an illegal play" else end
            mine = [(r, kind) for f, kind, r, _ in seen if p <= f < upto]
            last = next((x for x in reversed(mine) if x[0] != "a hand or motion over the board"), None)
            if not mine:
                why = ("never judged: a hand flagged on every frame" if all(hands[p:end])
                       else "never judged: the roller's dice still seen")
            else:
                why = "judged: " + ((last or mine[-1])[0] or (last or mine[-1])[1])
            if "roll_needed" in kinds:
                why += " (roll asked for)"
        out.append(head + why)
    return out


def _planted_miss(window: range, phases: list[str], hands: list[bool], truths: list[Truth | None],
                  seen: list[tuple[int, str, str, Any]]) -> str:
    """Why a planted illegal play was not called in its window: the referee's phase on each frame
    (the flow), and each verdict reached there with the spots its free reading differs from the best
    legal end at: read count, confidence and the truth (a spot read otherwise than the truth is a
    reading error; one read right at under ``illegal_confidence`` is evidence judged too weak)."""
    flow = " ".join(f"{phases[f][:7]}{'(H)' if hands[f] else ''}" for f in window if f < len(phases))
    out = [f"phases [{flow}]"]
    for f, kind, reason, r in seen:
        if f not in window or r is None:
            continue
        t = truths[f] if f < len(truths) else None
        spots = []
        for i in r.differing:
            tl = tr = -1
            if t is not None:
                tl, tr = ((t.light[i], t.dark[i]) if i < 24 else (t.bar[0], t.bar[1]) if i == 24
                          else (t.off[0], t.off[1]))
            mark = "" if (r.free_light[i], r.free_dark[i]) == (tl, tr) else "!"
            spots.append(f"{'bar' if i == 24 else 'off' if i == 25 else f'p{i + 1}'} "
                         f"{r.free_light[i]}/{r.free_dark[i]}{mark}(t {tl}/{tr})")
        out.append(f"f{f} {kind} ({reason or '-'}) gap {r.gap:.1f} conf {r.min_confidence:.2f} "
                   f"stable {r.stable_frames} free {'pos' if r.free is not None else 'none'}: {' '.join(spots)}")
    return "; ".join(out)


class _Verdicts:
    """The verdicts the referee reached during a game: (frame, kind, reason, reading)."""

    def __init__(self) -> None:
        self.frame = 0
        self.seen: list[tuple[int, str, str, Any]] = []


@contextlib.contextmanager
def _watch_verdicts() -> Any:
    """Keep every verdict of the referee: ``judge_evidence`` (a play seen without its roll) and
    ``judge_play`` (a play judged after its roll; it calls ``judge_evidence`` inside verdict.py, which
    the first wrap does not see: until stop 27 a planted play judged unclear on every frame was
    said to be "never judged"). Both are wrapped in the referee module."""
    from tavli_pi.referee import referee as referee_module

    got = _Verdicts()
    judge, play = referee_module.judge_evidence, referee_module.judge_play

    def kept(*args: Any, **kw: Any) -> Any:
        v = judge(*args, **kw)
        got.seen.append((got.frame, v.kind, v.reason, v.reading))
        return v

    def kept_play(*args: Any, **kw: Any) -> Any:
        v = play(*args, **kw)
        got.seen.append((got.frame, v.kind, v.reason, v.reading))
        return v

    referee_module.judge_evidence = kept
    referee_module.judge_play = kept_play
    try:
        yield got
    finally:
        referee_module.judge_evidence = judge
        referee_module.judge_play = play


class _Fed:
    """What the app gave its referee during a game: the referee before its first step (pickled), and
    each call from outside it, as (moment index, "step" or "ask", the observation, input or problems,
    the time)."""

    def __init__(self) -> None:
        self.moment = 0
        self.first: bytes | None = None
        self.calls: list[tuple[int, str, Any, float]] = []
        self.depth = 0


@contextlib.contextmanager
def _record_referee() -> Any:
    """Keep what the app gives its referee (``Referee.step`` and ``ask_setup_confirmation`` called
    from outside the referee) for ``--dump``."""
    from tavli_pi.referee.referee import Referee

    fed = _Fed()
    step, ask = Referee.step, Referee.ask_setup_confirmation

    def stepped(self: Any, item: Any, now: float) -> Any:
        if fed.first is None:
            fed.first = pickle.dumps(self)
        if fed.depth == 0:
            fed.calls.append((fed.moment, "step", item, now))
        fed.depth += 1
        try:
            return step(self, item, now)
        finally:
            fed.depth -= 1

    def asked(self: Any, problems: Any) -> Any:
        if fed.depth == 0:
            if fed.first is None:
                fed.first = pickle.dumps(self)
            fed.calls.append((fed.moment, "ask", tuple(problems), self._now))
        fed.depth += 1
        try:
            return ask(self, problems)
        finally:
            fed.depth -= 1

    Referee.step = stepped  # type: ignore[method-assign]
    Referee.ask_setup_confirmation = asked  # type: ignore[method-assign]
    try:
        yield fed
    finally:
        Referee.step, Referee.ask_setup_confirmation = step, ask  # type: ignore[method-assign]


class _Flags(Counter[str]):
    """The frames counted by :func:`_watch_flags`, and the last observation read."""

    last: Observation | None = None


def _trace_line(g: int, step: Any, truth: Truth | None, obs: Observation | None, referee: Any) -> str:
    """One frame of a traced game: the script's note, the truth's dice and hand, the spots vision
    reads otherwise than the truth (light/dark read, confidence; truth), the dice read, the
    referee's phase and the events."""
    m = step.moment
    out = [f"    g{g} f{step.index:3d} {m.note[:28]:28s}"]
    if truth is not None:
        td = ",".join(f"{d.value}{'~' if d.moving else ''}" for d in truth.dice)
        out.append(f"truth dice [{td}]{' HAND' if truth.hand else ''}")
    if obs is not None and truth is not None and obs.frame_index == step.frame.index:
        spots = [(f"p{i + 1}", obs.points[i], truth.light[i], truth.dark[i]) for i in range(24)]
        spots += [("bar", obs.bar, truth.bar[0], truth.bar[1]), ("off", obs.off, truth.off[0], truth.off[1])]
        bad = [f"{name} {ev.light.best}/{ev.dark.best}@{min(ev.light.confidence, ev.dark.confidence):.2f}"
               f"(t {nl}/{nd})" for name, ev, nl, nd in spots if (ev.light.best, ev.dark.best) != (nl, nd)]
        dice = ",".join(f"{d.value}@{d.value_confidence:.2f}{'~' if d.moving else ''}{d.half[0]}"
                        for d in obs.dice)
        out.append(f"| read dice [{dice}]{' hand' if obs.hand else ''}{' motion' if obs.motion else ''}"
                   f" wrong {' '.join(bad) or '-'}")
    elif obs is not None:
        out.append("| (not read)")
    out.append(f"| {referee.phase.value} {' '.join(step.kinds)}")
    out += [f"[{e.kind}: {e.message[:90]}]" for e in step.events
            if e.kind in ("roll_void", "roll_needed", "clear_view_needed", "board_out_of_sync", "illegal_play")]
    return " ".join(out)


@contextlib.contextmanager
def _watch_flags(camera: Any) -> Any:
    """Count, while the game runs, the frames with no hand over the board (the simulator's
    truth) and those of them the reader flagged a hand on (no verdict comes from such a frame).
    Wraps ``BoardReader.read`` for the game (the app's readers are its own)."""
    from tavli_pi.vision import reader as reader_module

    flags = _Flags()
    cls = reader_module.BoardReader
    read = cls.read

    def counted(self: Any, image: Any, *args: Any, **kw: Any) -> Any:
        obs = read(self, image, *args, **kw)
        flags.last = obs
        truth = camera.last_truth
        if truth is not None and not truth.hand:
            flags["clear"] += 1
            flags["false hand"] += obs.hand
        return obs

    cls.read = counted  # type: ignore[method-assign]
    try:
        yield flags
    finally:
        cls.read = read  # type: ignore[method-assign]


def game_list(text: str) -> frozenset[int]:
    """The games an ``--only`` names: indices and ranges, comma separated (``"3,100-102"`` is
    3, 100, 101 and 102). Anything else is refused with what to write instead."""
    picked: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        first, dash, last = part.partition("-")
        if not (first.isdigit() and (not dash or last.isdigit())) or (dash and int(last) < int(first)):
            raise SystemExit(f"--only: {part!r} is not a game index or a range like 100-119")
        picked.update(range(int(first), int(last if dash else first) + 1))
    return frozenset(picked)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=120, help="real-like frames to read (default 120; 400 for over 10,000 spots)")
    ap.add_argument("--games", type=int, default=6, help="real-like games through the app (default 6; the issue: 200)")
    ap.add_argument("--turns", type=int, default=8, help="turns a game (default 8)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--known", type=int, default=0, help="only: this many real-like frames read with the board "
                    "learnt from a random mid-game position, from the start, and not learnt")
    ap.add_argument("--verbose", action="store_true", help="one line a game: its table and what the referee did")
    ap.add_argument("--only", default="", help="play only these games (by index, e.g. 44,54 or 100-119,130), "
                    "each as in the whole run")
    ap.add_argument("--why", action="store_true", help="what the referee did on each scripted play it did not accept")
    ap.add_argument("--trace", action="store_true", help="one line a frame of every game played (use with --only)")
    ap.add_argument("--dump", type=Path, default=None, help="write each game's script and what the app gave "
                    "its referee to DUMP/gameN.pkl (bench/replay_referee.py replays them)")
    ap.add_argument("--plain", action="store_true", help="play the games on the plain e2e-test table instead "
                    "(checks the harness: today's reader follows those games)")
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}; "
          f"command: {' '.join(sys.argv)}")
    if args.known:
        known_frames(args.known, args.seed)
        return
    if args.frames:
        frames(args.frames, args.seed)
    if args.games:
        only = game_list(args.only) if args.only else None
        games(args.games, args.seed, args.turns, args.plain, args.verbose, only, args.trace, args.why, args.dump)


if __name__ == "__main__":
    main()
