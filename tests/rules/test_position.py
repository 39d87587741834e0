"""The immutable Position (RULES.md B1-B3): validation, start, queries, keys."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavli_pi.errors import InvalidPositionError, RulesError
from tavli_pi.rules.position import CHECKERS, START_LAYOUT, Position, Side, physical_point

W, B = Side.WHITE, Side.BLACK


# -- B3: the start -------------------------------------------------------------
@pytest.mark.parametrize("turn", [W, B])
def test_B3_start_position(turn: Side) -> None:
    pos = Position.start(turn)
    assert pos.turn is turn
    assert pos.bar == (0, 0) and pos.off == (0, 0)
    for side in Side:
        assert pos.pip_count(side) == 167
        assert {p: pos.count(side, p) for p in range(1, 25) if pos.count(side, p)} == START_LAYOUT
    # White's numbering, + = White: White's 24 is Black's 1
    assert pos.points[23] == 2 and pos.points[0] == -2
    assert pos.points[5] == 5 and pos.points[18] == -5
    assert sum(v for v in pos.points if v > 0) == CHECKERS == -sum(v for v in pos.points if v < 0)


def test_B2_own_numbering() -> None:
    assert physical_point(W, 6) == 6
    assert physical_point(B, 6) == 19
    assert [physical_point(B, p) for p in (1, 24)] == [24, 1]
    assert W.other is B and B.other is W and W.sign == 1 and B.sign == -1


# -- B1: validation, with messages that say what is wrong ----------------------
def _pts(**at: int) -> tuple[int, ...]:
    """24 points from keyword args p1..p24 (White's numbering)."""
    pts = [0] * 24
    for k, v in at.items():
        pts[int(k[1:]) - 1] = v
    return tuple(pts)


@pytest.mark.parametrize(
    "points,bar,off,match",
    [
        ((0,) * 23, (0, 0), (15, 15), "needs 24 points, got 23"),
        ((0,) * 25, (0, 0), (15, 15), "needs 24 points, got 25"),
        (_pts(p1=15), (0, 0), (0, 14), "black has 14 checkers, needs 15"),
        (_pts(p1=15, p24=-16), (0, 0), (0, 0), "black has 16 checkers, needs 15"),
        (_pts(p1=14), (0, 0), (0, 15), "white has 14 checkers, needs 15"),
        (_pts(p1=15), (-1, 0), (1, 15), "white has a negative bar or tray count"),
        (_pts(p1=15), (0, 0), (0, -1), "black has a negative bar or tray count"),
        (_pts(p1=15), (0, 0, 0), (0, 15), "pairs"),
    ],
)
def test_B1_invalid_positions_are_rejected(
    points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int], match: str
) -> None:
    with pytest.raises(InvalidPositionError, match=match) as info:
        Position(points, bar, off, W)
    assert "(B1)" in str(info.value)
    assert isinstance(info.value, RulesError)


def test_B1_turn_must_be_a_side() -> None:
    with pytest.raises(InvalidPositionError, match="Side.WHITE or Side.BLACK"):
        Position(_pts(p1=15), (0, 0), (0, 15), 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="Side.WHITE or Side.BLACK"):
        Position.start().with_turn("black")  # type: ignore[arg-type]


def test_B1_checkers_count_on_bar_and_tray() -> None:
    pos = Position(_pts(p1=10, p24=-12), (2, 3), (3, 0), B)
    assert pos.bar == (2, 3) and pos.off == (3, 0)
    assert pos.pip_count(W) == 10 * 1 + 2 * 25
    assert pos.pip_count(B) == 12 * 1 + 3 * 25


def test_positions_are_immutable_values() -> None:
    a, b = Position.start(), Position.start()
    assert a == b and hash(a) == hash(b)
    assert a != Position.start(B)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.turn = B  # type: ignore[misc]


# -- from_counts -----------------------------------------------------------------
def test_from_counts_own_numbering_and_tray() -> None:
    pos = Position.from_counts({6: 3, 1: 2}, {6: 4}, bar=(1, 2), turn=B)
    assert pos.points[5] == 3 and pos.points[0] == 2  # White's 6 and 1
    assert pos.points[18] == -4  # Black's 6 is White's 19
    assert pos.bar == (1, 2)
    assert pos.off == (15 - 5 - 1, 15 - 4 - 2)  # the missing checkers are borne off
    assert pos.turn is B
    assert pos.count(B, 6) == 4 and pos.count(W, 6) == 3
    assert pos.count(W, 19) == 0  # Black's checkers are not White's
    assert Position.from_counts(START_LAYOUT, START_LAYOUT) == Position.start()


@pytest.mark.parametrize(
    "white,black,bar,match",
    [
        ({25: 1}, {}, (0, 0), "point 25 is not 1-24"),
        ({0: 1}, {}, (0, 0), "point 0 is not 1-24"),
        ({6: 1}, {19: 1}, (0, 0), "point 6 holds checkers of both sides"),
        ({6: 16}, {}, (0, 0), "white has 16 checkers on the points and the bar, at most 15"),
        ({6: 14}, {}, (2, 0), "white has 16 checkers"),
        ({}, {3: -1}, (0, 0), "black has -1 checkers on its point 3"),
    ],
)
def test_from_counts_errors(
    white: dict[int, int], black: dict[int, int], bar: tuple[int, int], match: str
) -> None:
    with pytest.raises(InvalidPositionError, match=match):
        Position.from_counts(white, black, bar=bar)


# -- queries and keys --------------------------------------------------------------
def test_pip_count_bar_and_home() -> None:
    pos = Position.from_counts({1: 1, 2: 1}, {20: 1}, bar=(1, 0))
    assert pos.pip_count(W) == 1 + 2 + 25
    assert pos.pip_count(B) == 20
    assert Position.from_counts({}, {}).pip_count(W) == 0  # all borne off


def test_with_turn_and_keys() -> None:
    a = Position.start(W)
    b = a.with_turn(B)
    assert b.turn is B and b.points == a.points and b.bar == a.bar and b.off == a.off
    assert a.key() != b.key()
    assert a.layout_key() == b.layout_key()
    assert a.key() == (a.points, (0, 0), (0, 0), 0)
    assert b.with_turn(W) == a


# -- properties over random valid positions ----------------------------------------
@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any valid position: each side's 15 checkers spread over points, bar and tray."""
    slots = list(range(1, 27))  # 1-24 own points, 25 bar, 26 tray
    white = draw(st.lists(st.sampled_from(slots), min_size=CHECKERS, max_size=CHECKERS))
    taken = {physical_point(W, p) for p in white if p <= 24}
    free = [p for p in range(1, 25) if physical_point(B, p) not in taken] + [25, 26]
    black = draw(st.lists(st.sampled_from(free), min_size=CHECKERS, max_size=CHECKERS))
    layouts = []
    for chosen in (white, black):
        counts: dict[int, int] = {}
        for p in chosen:
            if p <= 24:
                counts[p] = counts.get(p, 0) + 1
        layouts.append(counts)
    bar = (white.count(25), black.count(25))
    return Position.from_counts(layouts[0], layouts[1], bar=bar, turn=draw(st.sampled_from([W, B])))


def _mirror(pos: Position) -> Position:
    """Swap the colours: White's checkers become Black's on the same own points."""
    return Position(
        tuple(-v for v in reversed(pos.points)), (pos.bar[1], pos.bar[0]),
        (pos.off[1], pos.off[0]), pos.turn.other,
    )


@settings(max_examples=300, deadline=None)
@given(positions())
def test_counts_pips_and_keys_agree(pos: Position) -> None:
    for side in Side:
        total = sum(pos.count(side, p) for p in range(1, 25)) + pos.bar[side] + pos.off[side]
        assert total == CHECKERS
        assert pos.pip_count(side) == 25 * pos.bar[side] + sum(
            p * pos.count(side, p) for p in range(1, 25)
        )
        # from_counts rebuilds the same position from each side's own view
    again = Position.from_counts(
        {p: pos.count(W, p) for p in range(1, 25)}, {p: pos.count(B, p) for p in range(1, 25)},
        bar=pos.bar, turn=pos.turn,
    )
    assert again == pos and again.key() == pos.key() and hash(again) == hash(pos)
    # re-validating the fields accepts them
    assert Position(pos.points, pos.bar, pos.off, pos.turn) == pos
    assert pos.with_turn(pos.turn.other).layout_key() == pos.layout_key()


@settings(max_examples=200, deadline=None)
@given(positions())
def test_mirror_swaps_the_sides(pos: Position) -> None:
    m = _mirror(pos)
    assert _mirror(m) == pos
    for side in Side:
        assert m.pip_count(side.other) == pos.pip_count(side)
        for p in range(1, 25):
            assert m.count(side.other, p) == pos.count(side, p)


def test_a_side_is_named_as_players_read_it() -> None:
    assert [s.title for s in Side] == ["White", "Black"]
    assert Side.BLACK.other.title == "White"
