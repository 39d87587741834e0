"""A die's face read the same at a few percent of warp scale (issue 9): of one spot more round a face
than it has pips, a mark at the die's edge beyond its pips (``dice.face_spots``, measured against the
face's own pips, not in px) does not doubt the face read (``dice.edge_mark``), where the rest fit the
face and all of them no face of one pip more; a face misread is never lifted so.

Measured by bench/bench_dice_scale.py (bench/RESULTS.md, stop 59)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavli_pi.vision.dice import EDGE_MARK, edge_mark, face_spots
from tavli_pi.vision.dice_spots import Spot


def _face(value: int, side: float, at: tuple[float, float] = (100.0, 50.0), a: float = 0.275) -> list[Spot]:
    grid = {2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
            5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
    return [(at[0] + u * a * side, at[1] + v * a * side, False) for u, v in grid]


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("side", [12.0, 19.6, 21.0, 30.0])
@pytest.mark.parametrize("a", [0.25, 0.275, 0.3])
def test_a_mark_at_the_face_edge_is_none_of_its_pips_at_any_scale(value: int, side: float, a: float) -> None:
    c = (100.0, 50.0)
    pips = _face(value, side, c, a)
    for mark in ((c[0] + 0.5 * side, c[1]), (c[0], c[1] - 0.5 * side), (c[0] + 0.5 * side, c[1] + 0.5 * side)):
        got = face_spots(pips + [(mark[0], mark[1], False)], c, value)
        assert len(got) == value and (mark[0], mark[1], False) not in got


@pytest.mark.parametrize("a", [0.25, 0.3])
def test_the_face_own_pips_and_marks_among_them_are_kept(a: float) -> None:
    c, side = (100.0, 50.0), 20.0
    four = _face(4, side, c, a)
    # a mark among the pips (a fleck on the face) is counted: the face then shows another count
    assert len(face_spots(four + [(c[0] + 1.0, c[1] + 1.0, False)], c, 4)) == 5
    # a six read as a four: its middle pips are nearer than its corners, and all six are kept
    assert len(face_spots(_face(6, side, c, a), c, 4)) == 6
    # a five read as a four: its centre pip is kept
    assert len(face_spots(_face(5, side, c, a), c, 4)) == 5
    # a one's lone pip gives no reach: every spot counts
    assert len(face_spots([(c[0], c[1], True), (c[0] + 9.0, c[1], True)], c, 1)) == 2


def test_edge_mark_reach_lies_between_a_face_and_its_edge() -> None:
    # a face's corner pips a sqrt(2) x 0.25-0.3 of a side out, its edge 0.5 of a side out
    assert 1.0 < EDGE_MARK < 0.5 / (0.3 * np.sqrt(2))


def test_real_photo_die_with_one_mark_at_its_edge_is_not_doubted(real_data: Path) -> None:
    """bcv-template3's 4 (at 274,368): the search's spots round it include one or two beyond its edge.
    With one (the board's own corners), its face was taken at 0.69 (x 0.7 for a fifth spot); now 0.85,
    as read. With two (warp scale 0.94, 0.97, 1.065) it keeps its doubt: two spots are never left out
    (stop 59: a 4 read a 2 off its middle, its far two pips left out, agreed with the 2)."""
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.reader import BoardReader
    from bench.bench_dice_scale import scaled_corners
    from bench.bench_dice_shift import _corner_text
    from tests.vision._eval import real_frames

    f = next(f for f in real_frames(real_data) if f.name == "bcv-template3.jpg")
    confs = []
    for s in (1.0, 0.94):
        cal = calibrate_image(f.image, _corner_text(scaled_corners(f.corners, s)), f.label["home"])
        obs = BoardReader(cal, still_photo=True).read(f.image)
        near = [d for d in obs.dice if np.hypot(d.xy[0] - 274, d.xy[1] - 368) < 20]
        assert near and near[0].value == 4
        confs.append(near[0].value_confidence)
    assert confs[0] >= 0.8  # (0.69 where the mark counted)
    assert confs[1] < 0.75  # two marks: doubted (0.69)


@pytest.mark.parametrize("value", [3, 4, 5])
@pytest.mark.parametrize("a", [0.25, 0.275, 0.3])
def test_one_mark_at_the_edge_of_a_face_costs_nothing(value: int, a: float) -> None:
    c, side = (100.0, 50.0), 20.0
    marks = [(0.5, 0.5), (-0.55, 0.55)] if value == 5 else [(0.5, 0.0), (0.0, -0.5), (0.5, 0.5), (0.5, 0.2), (-0.5, 0.1)]
    for u, v in marks:  # (a 5 with a mark at its edge's middle fits a 6: doubted, ``EDGE_WHOLE``)
        assert edge_mark(_face(value, side, c, a) + [(c[0] + u * side, c[1] + v * side, False)], c, value, side)


def test_a_mark_is_at_the_die_edge_or_none() -> None:
    c, side = (100.0, 50.0), 20.0
    four = _face(4, side, c, 0.25)
    # just beyond the pips, yet within the die's pip area: no mark at its edge
    assert not edge_mark(four + [(c[0] + 0.42 * side, c[1], False)], c, 4, side)
    # a one: no pips to measure a mark against; a two: any two points fit it (a 3 read a 2 off its
    # middle is a 2 and a mark, but for the 3's row, found a little off)
    assert not edge_mark([(c[0], c[1], False), (c[0] + 0.5 * side, c[1], False)], c, 1, side)
    assert not edge_mark(_face(2, side, c, 0.275) + [(c[0] + 0.5 * side, c[1], False)], c, 2, side)


def _misreads() -> list[tuple[list[Spot], tuple[float, float], int, float]]:
    """A face's pips read as one pip fewer, the centre found up to a quarter of a side off in every
    direction, the side found 0.8-1.1 of the true one, the pips found up to 0.04 of a side off each way."""
    rng = np.random.default_rng(5)
    side, c = 20.0, (100.0, 50.0)
    out = []
    for true in (3, 4, 5, 6):
        for a in (0.25, 0.3):
            for r in np.linspace(0.0, 0.25, 6):
                for th in np.linspace(0.0, 2 * np.pi, 16, endpoint=False):
                    at = (c[0] + r * side * np.cos(th), c[1] + r * side * np.sin(th))
                    pips = [(x + rng.uniform(-0.04, 0.04) * side, y + rng.uniform(-0.04, 0.04) * side, b)
                            for x, y, b in _face(true, side, c, a)]
                    for seen in (0.8, 1.0, 1.1):
                        out.append((pips, at, true - 1, seen * side))
    return out


def test_a_face_misread_is_never_lifted() -> None:
    """Its spots are the true face's pips: with the centre found off, one of them lies beyond the rest
    (``face_spots`` leaves it out: stop 59's rule took the rest as the face read, real-like game 45
    frame 30), but the rest never fit the face read, or all of them fit their own face."""
    cases = _misreads()
    left_out = [m for m in cases if len(face_spots(m[0], m[1], m[2])) == m[2]]
    assert len(left_out) > len(cases) // 4  # the cases stop 59's rule lifted
    assert not any(edge_mark(*m) for m in cases)


def test_two_spots_are_never_left_out() -> None:
    c, side = (100.0, 50.0), 20.0
    # a 4 read a 2 or a 5 read a 3, the centre found off towards two corners: the far two lie beyond
    off = (c[0] + 0.2 * side, c[1])
    for true, read in ((4, 2), (5, 3)):
        pips = _face(true, side, c, 0.3)
        assert len(face_spots(pips, off, read)) == read
        assert not edge_mark(pips, off, read, side)
    # a 3 with two marks at its edge
    three = _face(3, side, c, 0.275) + [(c[0] + 0.5 * side, c[1], False), (c[0] - 0.5 * side, c[1], False)]
    assert not edge_mark(three, c, 3, side)
