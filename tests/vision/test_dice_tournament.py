"""Tournament dice at 1280 px (issue 9): dice of 9-12 px, a quarter to a third of a point's pitch, that
a person reads at a glance. The real-like referee games at 1280 px had the players enter half the
rolls (bench/RESULTS.md, stop 18): a die found by its body and read regular in the frame was held
"too small to read" because the canonical view, about one frame pixel a pixel there, showed none of
its pips as spots (no second view agreeing)."""

from __future__ import annotations

import contextlib
import io
from functools import lru_cache

import numpy as np

from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scenes_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import _confirms, _spots_agree
from tavli_pi.vision.dice_face import Die
from tavli_pi.vision.dice_vet import SMALL_CONFIDENCE
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import learn_board


def test_spots_agree_only_as_many_as_the_face_of_one_shade() -> None:
    die = Die(2, 0.92, False, (50.0, 50.0), regular=True)
    two = [(47.0, 47.0, True), (53.0, 53.0, True)]
    assert _spots_agree(die, 11.0, two)
    assert not _spots_agree(die, 11.0, two[:1])  # one pip shown: not resolved
    assert not _spots_agree(die, 11.0, [*two, (50.0, 50.0, True)])  # a third spot inside: no two
    assert not _spots_agree(die, 11.0, [(47.0, 47.0, True), (53.0, 53.0, False)])  # two shades
    assert _spots_agree(die, 11.0, [*two, (70.0, 70.0, True)])  # a spot beyond the die is not its
    assert not _spots_agree(die._replace(regular=False), 11.0, two)
    assert not _spots_agree(die._replace(cocked=True), 11.0, two)


def _reading(value: int, conf: float, xy: tuple[float, float] = (100.0, 100.0), size: float = 11.0,
             flat: bool = True) -> DieReading:
    return DieReading(xy=xy, value=value, value_confidence=conf, flat=flat, on_checker=False, half="right",
                      size_px=size)


def test_the_fine_view_lifts_only_the_same_small_face_held_for_want_of_pips() -> None:
    held = _reading(2, SMALL_CONFIDENCE)
    assert _confirms(_reading(2, 0.92, (101.0, 100.0)), held)
    assert not _confirms(_reading(3, 0.92), held)  # another face
    assert not _confirms(_reading(2, SMALL_CONFIDENCE), held)  # the fine view no surer
    assert not _confirms(_reading(2, 0.92, (115.0, 100.0)), held)  # another place
    # doubted for its face, the same face the fine view reads with its pips resolved: lifted, as the fine
    # view's face alone would replace a body read with none (``_merge``; real-like game 2 at 640 px, frame
    # 18: a five read 5 at 0.75 and 5 at 0.89, "too small to read" before); not a face read at no
    # confidence (``NO_DIE``: evidence of nothing, replaced outright)
    assert _confirms(_reading(2, 0.92), _reading(2, 0.5))
    assert not _confirms(_reading(2, 0.92), _reading(2, 0.05))
    assert not _confirms(_reading(2, 0.92, size=24.0), _reading(2, SMALL_CONFIDENCE, size=24.0))
    assert not _confirms(_reading(2, 0.92), _reading(2, SMALL_CONFIDENCE, flat=False))


@lru_cache(maxsize=1)
def _game87() -> list[tuple[object, np.ndarray]]:
    """Frames 2 (set-up) and 12 (White's 5-1, dice of 10.7 and 10.9 px) of real-like referee game 87
    (seed 0; 1280 px, club board: ``bench_reallike.py --frames 0 --games 200 --only 87``), with their
    truths."""
    kw = reallike_game_tables(88, 0)[87]
    assert kw["width"] == 1280
    rng = np.random.default_rng([0, 9])
    plants = [int(rng.integers(2, 8)) if g % 2 == 0 else 0 for g in range(88)]
    moments = random_game(87, turns=8, plant_illegal=plants[87])
    out = []
    with SimCamera(list(scenes_of(moments, **kw))[:13], fps=10.0, seed=87) as cam:
        for i, f in enumerate(cam):
            if i in (2, 12):
                out.append((cam.last_truth, f.image))
    return out


def test_a_small_die_at_1280_found_by_its_body_keeps_its_value() -> None:
    (setup_truth, setup_image), (truth, image) = _game87()
    with contextlib.redirect_stdout(io.StringIO()):
        cal = learn_board(setup_image, Calibration(setup_truth.corners, home=setup_truth.home))  # type: ignore[attr-defined]
    read = BoardReader(cal).read(image).dice
    one = next(t for t in truth.dice if t.value == 1)  # type: ignore[attr-defined]
    for t in truth.dice:  # type: ignore[attr-defined]
        for d in read:
            if np.hypot(d.xy[0] - t.xy[0], d.xy[1] - t.xy[1]) < t.size_px:
                assert d.value in (0, t.value), (t, d)  # never a wrong value
    near = [d for d in read if np.hypot(d.xy[0] - one.xy[0], d.xy[1] - one.xy[1]) < one.size_px]
    # the one's body is a hat blob read regular, its pip a spot of the canonical view: the two agree
    # (base: "too small to read (11 px, need 12)", no value)
    assert [(d.value, d.value_confidence > SMALL_CONFIDENCE) for d in near] == [(1, True)], near
