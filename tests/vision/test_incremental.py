"""The incremental reader gives, frame by frame, the Observation a full read gives (issue 12).

``BoardReader(incremental=True)`` reuses the last reading when the picture has
not changed and re-reads only the points whose footprint changed
(vision/incremental.py). Here both readers see the same frames in order and
every Observation is compared whole (every field, floats exactly, the dice
too): over every
frame of the demo match, over random games of random legal plays, and over
seeded random sequences of boards (checkers moved, dice thrown, a hand) with
sensor noise. Each run must also have taken the short cuts (a frame reused,
a point kept, a die candidate's reading kept: vision/dice_memo.py, a point read
again with its ring samples kept: vision/ring_memo.py), so the
comparison cannot pass by reading everything in full.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Iterable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import Item, SimCamera
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec, HandSpec, Look, Scene, scene_from_position
from tavli_pi.sim.script import demo_match, random_game
from tavli_pi.sim.table import scenes_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice_memo import WHOLE_SHARE, Box, DiceMemo, Rect
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.checkers import _RHO
from tavli_pi.vision.incremental import BEHIND, RING_REACH, SLOT0_NEAREST, Footprints, changed_pixels
from tavli_pi.vision.oversize import OUTSIDE
from tavli_pi.vision.observation import Observation
from tavli_pi.vision import reader as reader_module
from tavli_pi.vision.reader import BoardReader
from tests.vision._readers import full_and_incremental


def _differences(a: Observation, b: Observation) -> list[str]:
    return [f"{f.name}: full {getattr(a, f.name)!r:.200} / incremental {getattr(b, f.name)!r:.200}"
            for f in dataclasses.fields(Observation) if getattr(a, f.name) != getattr(b, f.name)]


def _compare(scenes: Iterable[Item], seed: int, *, vary: bool = True) -> dict[str, list[int]]:
    """Read every frame with a full and an incremental reader; fail on the first difference.
    Returns, per kind of incremental read, how many points each read (and under "dice kept",
    how many dice candidates' readings the incremental reader kept)."""
    full = inc = None
    kinds: dict[str, list[int]] = {}
    cam = SimCamera(scenes, fps=10.0, seed=seed, vary=vary)
    with cam:
        for frame in cam:
            if full is None or inc is None:
                full, inc = full_and_incremental(cam, frame.image)
            a = full.read(frame.image, frame.index)
            b = inc.read(frame.image, frame.index)
            assert a == b, f"frame {frame.index} ({inc.last_kind} read): " + "; ".join(_differences(a, b))
            kinds.setdefault(inc.last_kind, []).append(inc.last_reread)
    if inc is not None and inc.dice_memo is not None:
        kinds["dice kept"] = [inc.dice_memo.hits]
    if inc is not None and inc.ring_memo is not None:
        kinds["rings kept"] = [inc.ring_memo.hits]
    return kinds


def _took_short_cuts(kinds: dict[str, list[int]]) -> None:
    assert kinds.get("unchanged"), "no frame reused the last reading"
    assert any(n < 24 for n in kinds.get("changed", [])), "no changed frame kept a point's reading"
    assert sum(kinds.get("dice kept", [])) > 0, "no dice candidate's reading was kept"
    assert sum(kinds.get("rings kept", [])) > 0, "no point read again kept its ring samples"


def test_every_frame_of_the_demo_reads_as_a_full_read() -> None:
    kinds = _compare(scenes_of(demo_match()), seed=7)
    _took_short_cuts(kinds)
    assert sum(len(v) for k, v in kinds.items() if not k.endswith(" kept")) == len(demo_match())


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_read_as_full_reads(seed: int) -> None:
    kinds = _compare(scenes_of(random_game(seed, turns=3)), seed=seed)
    _took_short_cuts(kinds)


# sensor noise, JPEG and uneven light: the still frames repeat their pixels (vary=False), as
# the demo's noiseless frames do; a changed frame is new all over
LOOK = Look(noise=4.0, jpeg_quality=80, light_gradient=0.2)


def _board(rng: random.Random) -> Scene:
    """The start with up to six random checkers moved 1-3 points on (never onto the other colour)."""
    scene = scene_from_position(Position.start())
    light, dark = list(scene.light), list(scene.dark)
    for _ in range(rng.randint(0, 6)):
        mine, theirs = (light, dark) if rng.random() < 0.5 else (dark, light)
        i = rng.choice([i for i in range(24) if mine[i] > 0])
        j = i - rng.randint(1, 3) if mine is light else i + rng.randint(1, 3)
        if 0 <= j < 24 and theirs[j] == 0 and mine[j] < 5:
            mine[i] -= 1
            mine[j] += 1
    return dataclasses.replace(scene, light=tuple(light), dark=tuple(dark), look=LOOK)


def _sequence(seed: int) -> list[tuple[Scene, int]]:
    rng = random.Random(seed)
    out: list[tuple[Scene, int]] = []
    for _ in range(4):
        scene = _board(rng)
        kind = rng.random()
        if kind < 0.35:
            scene = dataclasses.replace(scene, dice=(DieSpec(value=rng.randint(1, 6), u=0.25, v=0.5),
                                                     DieSpec(value=rng.randint(1, 6), u=0.33, v=0.55)))
        elif kind < 0.5:
            scene = dataclasses.replace(scene, hand=HandSpec(u=rng.uniform(0.2, 0.8), v=0.9, size=0.2,
                                                             from_side="bottom"))
        out.append((scene, rng.randint(1, 2)))
    return out


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10_000))
def test_random_board_sequences_read_as_full_reads(seed: int) -> None:
    kinds = _compare(_sequence(seed), seed=seed, vary=False)
    assert sum(len(v) for k, v in kinds.items() if not k.endswith(" kept")) >= 4


def test_a_change_marks_the_points_it_can_reach_and_no_others() -> None:
    """A checker-sized change at point 6 marks point 6 (and at most its neighbours), not the far side."""
    r = render(scene_from_position(Position.start()), 0)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    feet = Footprints.of(cal.layout, cal)
    w, h = cal.layout.size
    small = np.zeros((h // SCALE, w // SCALE, 3), np.uint8)
    col = cal.layout.columns[5]  # point 6 (light numbering)
    y = cal.layout.top_y if col.top else cal.layout.bottom_y
    moved = small.copy()
    cx, cy = int(col.x) // SCALE, int(y + (1 if col.top else -1) * col.width) // SCALE
    moved[cy - 2 : cy + 3, cx - 2 : cx + 3] = 200
    got = feet.spots_changed(changed_pixels(moved, small))
    assert 5 in got
    assert all(abs(cal.layout.columns[i].x - col.x) < 2.5 * col.width for i in got if i < 24)
    assert all(cal.layout.columns[i].top == col.top for i in got if i < 24)
    assert feet.spots_changed(changed_pixels(small, small)) == set()


def test_a_point_is_read_again_when_the_oversize_rings_behind_its_base_change() -> None:
    """vision/oversize.py looks round a point's lone checker out to 1.6 x 1.10 checker radii, and a
    slot 0 lies as near as 0.75 r to the field's edge: a change 1.0 r behind the edge is in the
    point's footprint (else an incremental read keeps a point a full read tempers)."""
    assert abs(RING_REACH - float(_RHO.max())) < 1e-6 and max(OUTSIDE) * RING_REACH - SLOT0_NEAREST <= BEHIND
    r = render(scene_from_position(Position.start()), 0)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    feet = Footprints.of(cal.layout, cal)
    w, h = cal.layout.size
    small = np.zeros((h // SCALE, w // SCALE, 3), np.uint8)
    for i in (5, 18):  # a bottom and a top point (light numbering 6 and 19)
        col = cal.layout.columns[i]
        base, sign = (cal.layout.top_y, 1.0) if col.top else (cal.layout.bottom_y, -1.0)
        rad = col.width * cal.checker_r
        moved = small.copy()
        cx, cy = int(col.x) // SCALE, int(base - sign * 1.0 * rad) // SCALE
        moved[cy, cx] = 200
        assert i in feet.spots_changed(changed_pixels(moved, small)), i


def test_arrays_made_whole_where_their_windows_cover_them_read_as_full_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a frame changed all over (here the board's whole look; on a 640 px JPEG camera, scattered
    cells everywhere) the windows of the dice search's kept arrays add up to an array or more: it is
    made whole once and the windows copied from it (vision/dice_memo.py, ``WHOLE_SHARE``) -- still
    the full read's reading."""
    made_whole: list[object] = []
    patched = DiceMemo.patched

    def counted(self: DiceMemo, key: Hashable, place: Callable[[Box], Box], reach: int,
                whole: Callable[[], np.ndarray], part: Callable[[Rect], np.ndarray],
                source: np.ndarray | None = None, whole_share: float = WHOLE_SHARE) -> np.ndarray:
        kept = key in self._patched  # noqa: SLF001 (made before: a whole one now is the short cut)

        def told() -> np.ndarray:
            if kept:
                made_whole.append(key)
            return whole()

        return patched(self, key, place, reach, told, part, source, whole_share)

    monkeypatch.setattr(DiceMemo, "patched", counted)
    # (a board whose whole look changes is, cell by cell, now and then as a light over it would make it:
    # relight.py would undo that light and forget the kept arrays -- this test is about making them whole)
    monkeypatch.setattr(reader_module, "LightMeter", lambda clear: lambda small: None)
    scenes = [(dataclasses.replace(scene, look=Look(board=board)), 1)
              for scene, _ in _sequence(3)[:2] for board in ("tournament", "club")]
    kinds = _compare(scenes, seed=3, vary=False)
    assert made_whole, "no kept array was made whole"
    assert kinds.get("changed"), "no changed frame"


def test_a_game_under_a_passing_shadow_reads_as_full_reads() -> None:
    """A shadow comes over part of the board, lies there while a play is made, and leaves: the light is
    undone before the board is read (vision/relight.py) -- a point kept from a frame under another light
    would not be the full read's, so the light is one of the values every point's reading shares."""
    from tavli_pi.sim._photo import shadow
    from tavli_pi.vision.relight import LightMeter

    moments = random_game(4, turns=3)[:24]
    cam = SimCamera(scenes_of(moments), fps=10.0, seed=4)
    full = inc = None
    lit = 0
    with cam:
        for frame in cam:
            i = frame.index
            reach = min(max(i - 4, 0) / 4, 1.0, max(18 - i, 0) / 4)  # in from frame 4, still 8-14, out by 18
            image = frame.image if reach <= 0 else shadow(frame.image, (-0.4 + 0.6 * reach, 0.0, 0.1 + 0.6 * reach, 1.0),
                                                          0.5, 0.0)
            if full is None or inc is None:
                full, inc = full_and_incremental(cam, image)
                meter = LightMeter(inc._clear)  # noqa: SLF001
            a, b = full.read(image, i), inc.read(image, i)
            assert a == b, f"frame {i} ({inc.last_kind} read): " + "; ".join(_differences(a, b))
            lit += meter(shrink_canon(inc, image)) is not None
    assert lit >= 6, "the shadow was never measured"


def shrink_canon(reader: BoardReader, image: np.ndarray) -> np.ndarray:
    """The quarter-scale canonical view the reader measures the light on."""
    from tavli_pi.vision.hands import shrink

    return shrink(reader.warp(image))
