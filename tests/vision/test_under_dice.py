"""A die lying on a point's next slot makes its count unsure (vision/under_dice.py)."""

from __future__ import annotations

import dataclasses

import numpy as np

from tavli_pi.rules.position import Position
from tavli_pi.sim.datasets import hard_scenes
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.doubt import DOUBTED_MAX
from tavli_pi.vision.observation import CountEvidence, SpotEvidence
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import learn_board
from tavli_pi.vision.under_dice import FIRST, SPACING, die_hidden_tempered, hidden_points, next_slots

# two points: 0 grows down from y = 0 at x = 50, 1 grows up from y = 400 at x = 150; r = 10
GEOMETRY = (np.float32([50, 150]), np.float32([0, 400]), np.float32([1, -1]), np.float32([10, 10]))


def _sure(n: int, p: float = 0.98) -> CountEvidence:
    probs = [(1 - p) / 15] * 16
    probs[n] = p
    return CountEvidence(tuple(probs))


def test_the_next_slot_is_past_the_last_disc_or_the_first_slot() -> None:
    got = next_slots(GEOMETRY, [[(51.0, 11.0, 10.0), (50.0, 32.0, 10.0)], []], [2, 0])
    assert np.allclose(got[0], (50.0, 32.0 + SPACING * 10))
    assert np.allclose(got[1], (150.0, 400.0 - FIRST * 10))
    # a stack whose discs were not all traced (squeezed) is placed by its count
    got = next_slots(GEOMETRY, [[(51.0, 11.0, 10.0)], []], [3, 0])
    assert np.allclose(got[0], (50.0, (FIRST + 3 * SPACING) * 10))


def test_a_die_on_the_next_slot_hides_a_point_and_one_elsewhere_does_not() -> None:
    sites: list[list[tuple[float, float, float]]] = [[(50.0, 11.0, 10.0)], []]
    # point 0 holds one checker: its next slot is at y = 11 + 20.75; point 1 is empty: its first slot at y = 389
    assert hidden_points(GEOMETRY, sites, [1, 0], np.float32([[52, 30]])) == [0]
    assert hidden_points(GEOMETRY, sites, [1, 0], np.float32([[148, 392]])) == [1]
    # on the stack's own checker (seen), two slots on, or beside the point: nothing hidden
    for die in ([50, 11], [50, 60], [80, 30], [150, 360]):
        assert hidden_points(GEOMETRY, sites, [1, 0], np.float32([die])) == [], die
    assert hidden_points(GEOMETRY, sites, [1, 0], np.zeros((0, 2), np.float32)) == []


def test_the_hidden_count_keeps_its_value_and_is_not_sure() -> None:
    points = [SpotEvidence(_sure(1), _sure(0)), SpotEvidence(_sure(0), _sure(0))]
    sites: list[list[tuple[float, float, float]]] = [[(50.0, 11.0, 10.0)], []]
    got = die_hidden_tempered(points, GEOMETRY, sites, np.float32([[50, 32], [150, 389]]))
    # a stack: its colour's count unsure, the other colour (cannot stand on top of it) as read
    assert got[0].light.best == 1 and got[0].light.confidence <= DOUBTED_MAX
    assert got[0].dark == points[0].dark
    # an empty point: either colour could be under the die
    assert got[1].light.best == 0 and got[1].light.confidence <= DOUBTED_MAX
    assert got[1].dark.best == 0 and got[1].dark.confidence <= DOUBTED_MAX
    # no die there: as read
    assert die_hidden_tempered(points, GEOMETRY, sites, np.float32([[300, 200]])) == points


def test_a_light_checker_under_a_die_is_not_read_empty_for_sure() -> None:
    """bench_vision's simulated hard boards (no hand) read with a set-up calibration, table 15: a
    die lies on point 6's one light checker (a cream point), read as none at 0.94 on the old code."""
    sc = [s for s in hard_scenes(40, 11) if s.hand is None][15]
    start = dataclasses.replace(scene_from_position(Position.start(), home=sc.home), look=sc.look, pose=sc.pose)
    s0 = render(start, 15)
    cal = learn_board(s0.image, Calibration(s0.truth.corners, home=s0.truth.home))  # type: ignore[arg-type]
    r = render(sc, 15)
    assert r.truth.light[5] == 1
    obs = BoardReader(cal).read(r.image)
    assert obs.dice, "the die on the checker is found"
    pt6 = obs.points[5].light
    assert pt6.best == 1 or pt6.confidence < 0.9
