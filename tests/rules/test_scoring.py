"""S1 game end and value, S4 resignations, C3 passes, C5 Jacoby."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavli_pi.errors import IllegalActionError, RulesError
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import (
    GameValue,
    Resignation,
    Termination,
    game_kind,
    game_value,
    game_winner,
    outcome_borne_off,
    outcome_passed,
    points_won,
)
from tavli_pi.rules.settings import Settings

W, B = Side.WHITE, Side.BLACK


def test_S1_no_winner_at_the_start() -> None:
    assert game_winner(Position.start()) is None


def test_S1_winner_is_the_first_to_bear_off_all_15() -> None:
    pos = Position.from_counts({}, {1: 3}, turn=B)
    assert game_winner(pos) is W
    assert game_winner(Position.from_counts({2: 1}, {})) is B


def test_S1_single_when_the_loser_has_borne_off() -> None:
    pos = Position.from_counts({}, {1: 14})
    assert game_kind(pos, W) is GameValue.SINGLE
    assert game_value(pos, W) == 1


def test_S1_gammon_when_the_loser_has_borne_off_none() -> None:
    pos = Position.from_counts({}, {1: 10, 18: 5})
    assert game_kind(pos, W) is GameValue.GAMMON
    assert game_value(pos, W) == 2


@pytest.mark.parametrize(
    "black, bar",
    [({1: 14, 19: 1}, (0, 0)), ({1: 14, 24: 1}, (0, 0)), ({1: 14}, (0, 1))],
    ids=["winner-home-19", "winner-home-24", "bar"],
)
def test_S1_backgammon_when_a_gammoned_loser_is_on_the_bar_or_in_the_winners_home(
    black: dict[int, int], bar: tuple[int, int]
) -> None:
    pos = Position.from_counts({}, black, bar=bar)
    assert game_kind(pos, W) is GameValue.BACKGAMMON
    assert game_value(pos, W) == 3
    assert game_value(pos, W, backgammon_counts=2) == 2  # the 2x setting


def test_S1_checker_on_loser_own_18_is_only_a_gammon() -> None:
    # Black's own 18 is White's 7: outside White's home board.
    assert game_kind(Position.from_counts({}, {18: 15}), W) is GameValue.GAMMON


def test_S1_backgammon_for_black_uses_whites_points_19_to_24() -> None:
    pos = Position.from_counts({20: 2, 3: 13}, {})
    assert game_kind(pos, B) is GameValue.BACKGAMMON


def test_S1_game_not_over_raises_rules_error() -> None:
    with pytest.raises(RulesError, match="S1"):
        game_kind(Position.start(), W)
    with pytest.raises(IllegalActionError, match="S1"):
        outcome_borne_off(Position.start(), CubeState())


def test_S1_points_are_value_times_cube() -> None:
    pos = Position.from_counts({}, {1: 14, 24: 1})
    out = outcome_borne_off(pos, CubeState(4, B))
    assert (out.winner, out.value, out.cube, out.points) == (W, GameValue.BACKGAMMON, 4, 12)
    assert out.termination is Termination.BORNE_OFF
    two_x = outcome_borne_off(pos, CubeState(4, B), settings=Settings(backgammon_value=2))
    assert two_x.points == 8


def test_C3_pass_loses_a_single_game_at_the_value_before_the_double() -> None:
    out = outcome_passed(B, CubeState(8, B))
    assert (out.winner, out.points, out.value) == (B, 8, GameValue.SINGLE)
    assert out.termination is Termination.PASSED


@pytest.mark.parametrize("level, cube, expected", [
    (GameValue.SINGLE, 1, 1), (GameValue.GAMMON, 1, 2), (GameValue.BACKGAMMON, 1, 3),
    (GameValue.SINGLE, 4, 4), (GameValue.GAMMON, 4, 8), (GameValue.BACKGAMMON, 4, 12),
])
def test_S4_resignation_gives_up_level_times_cube(level: GameValue, cube: int, expected: int) -> None:
    r = Resignation(B, level)
    owner = None if cube == 1 else W
    assert r.winner is W
    assert r.points(CubeState(cube, owner)) == expected
    out = r.accepted(CubeState(cube, owner), match=MatchState(7))
    assert (out.winner, out.points, out.termination) == (W, expected, Termination.RESIGNED)


def test_S4_resigning_a_backgammon_under_the_2x_setting_gives_up_two() -> None:
    r = Resignation(W, GameValue.BACKGAMMON)
    assert r.points(CubeState(), settings=Settings(backgammon_value=2)) == 2


def test_C5_jacoby_counts_gammons_single_while_the_cube_was_never_turned() -> None:
    jac = Settings(jacoby=True)
    assert points_won(GameValue.GAMMON, CubeState(), settings=jac) == 1
    assert points_won(GameValue.BACKGAMMON, CubeState(), settings=jac) == 1
    # an automatic double (E1) leaves the cube centred: still not turned
    assert points_won(GameValue.GAMMON, CubeState(2, None), settings=jac) == 2
    # once a double was taken, gammons count
    assert points_won(GameValue.GAMMON, CubeState(2, B), settings=jac) == 4
    # Jacoby is off by default (C5)
    assert points_won(GameValue.GAMMON, CubeState()) == 2


def test_S2_gammons_always_count_in_a_match_even_with_jacoby() -> None:
    jac = Settings(jacoby=True)
    assert points_won(GameValue.GAMMON, CubeState(), settings=jac, match=MatchState(5)) == 2
    assert points_won(GameValue.GAMMON, CubeState(), settings=jac, match=MatchState(0)) == 1


@given(
    st.sampled_from(list(GameValue)),
    st.integers(0, 6),
    st.booleans(),
    st.sampled_from([2, 3]),
)
def test_S1_points_are_multiplier_times_cube_property(
    value: GameValue, log_cube: int, owned: bool, bg: int
) -> None:
    cube = CubeState(2**log_cube, W if owned else None)
    pts = points_won(value, cube, settings=Settings(backgammon_value=bg))
    mult = bg if value is GameValue.BACKGAMMON else int(value)
    assert pts == mult * cube.value
    assert pts % cube.value == 0


@given(st.lists(st.integers(0, 5), min_size=24, max_size=24), st.integers(0, 2))
def test_S1_kind_is_monotone_in_what_the_loser_left_behind(cols: list[int], bar: int) -> None:
    # Black (loser) checkers spread over its own points by `cols`, White all off.
    black: dict[int, int] = {}
    left = 15 - bar
    for own, n in enumerate(cols, start=1):
        take = min(n, left)
        if take:
            black[own] = take
            left -= take
    pos = Position.from_counts({}, black, bar=(0, bar))
    kind = game_kind(pos, W)
    if pos.off[B] > 0:
        assert kind is GameValue.SINGLE
    elif bar or any(black.get(p) for p in range(19, 25)):
        assert kind is GameValue.BACKGAMMON
    else:
        assert kind is GameValue.GAMMON
