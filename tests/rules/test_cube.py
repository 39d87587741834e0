"""C1-C5 and E1 automatic doubles: the doubling cube."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavli_pi.errors import IllegalActionError, InvalidPositionError
from tavli_pi.rules.cube import CubeState, automatic_double
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.position import Side
from tavli_pi.rules.settings import Settings

W, B = Side.WHITE, Side.BLACK


def test_C1_cube_starts_centred_at_one_showing_64() -> None:
    c = CubeState()
    assert (c.value, c.owner, c.centred, c.face, c.turned) == (1, None, True, 64, False)
    assert CubeState(2, W).face == 2


def test_C2_either_side_may_double_a_centred_cube() -> None:
    assert CubeState().can_double(W) and CubeState().can_double(B)


def test_C2_only_the_owner_may_redouble() -> None:
    c = CubeState(2, B)
    assert c.can_double(B)
    assert not c.can_double(W)
    with pytest.raises(IllegalActionError, match="C2"):
        c.check_double(W)
    with pytest.raises(IllegalActionError, match="C2"):
        c.doubled(B)  # the owner cannot be doubled by the opponent


def test_C3_take_gives_the_opponent_the_cube_at_twice_the_value() -> None:
    c = CubeState().doubled(B)
    assert c == CubeState(2, B)
    assert c.doubled(W) == CubeState(4, W)


def test_C4_cube_never_exceeds_64() -> None:
    c = CubeState(64, W)
    assert not c.can_double(W)
    with pytest.raises(IllegalActionError, match="C4"):
        c.check_double(W)
    with pytest.raises(IllegalActionError, match="C4"):
        c.doubled(B)
    assert CubeState(32, W).can_double(W)


def test_C1_cube_values_are_powers_of_two() -> None:
    for bad in (0, 3, 6, -2):
        with pytest.raises(InvalidPositionError, match="power of two"):
            CubeState(bad)


def test_S3_no_cube_in_the_crawford_game() -> None:
    crawford = MatchState(5, (4, 2), crawford_game=True)
    assert not CubeState().can_double(W, match=crawford)
    with pytest.raises(IllegalActionError, match="Crawford game"):
        CubeState().check_double(B, match=crawford)


def test_S3_a_one_point_match_has_no_cube() -> None:
    assert not CubeState().can_double(W, match=MatchState(1))
    with pytest.raises(IllegalActionError, match="1-point match"):
        CubeState().check_double(W, match=MatchState(1))


def test_S3_post_crawford_games_use_the_cube_again() -> None:
    post = MatchState(5, (4, 2), post_crawford=True)
    assert CubeState().can_double(B, match=post)
    CubeState().check_double(W, match=post)  # does not raise


def test_C5_beavers_are_off_by_default() -> None:
    assert not CubeState().can_beaver(B, settings=Settings())
    with pytest.raises(IllegalActionError, match="C5"):
        CubeState().beavered(B, settings=Settings())


def test_C5_beaver_keeps_the_cube_at_four_times_the_value() -> None:
    s = Settings(beavers=True)
    assert CubeState().beavered(B, settings=s) == CubeState(4, B)
    assert CubeState(2, W).beavered(B, settings=s) == CubeState(8, B)


def test_C5_no_beaver_in_a_match_or_beyond_64() -> None:
    s = Settings(beavers=True)
    assert not CubeState().can_beaver(B, settings=s, match=MatchState(7))
    assert CubeState().can_beaver(B, settings=s, match=MatchState(0))
    assert not CubeState(32, W).can_beaver(B, settings=s)


def test_E1_automatic_doubles_are_off_by_default() -> None:
    assert automatic_double(CubeState(), 0, Settings()) == CubeState()


def test_E1_automatic_double_at_most_once_per_game_by_default() -> None:
    s = Settings(automatic_doubles=True)
    c1 = automatic_double(CubeState(), 0, s)
    assert c1 == CubeState(2, None)  # stays centred
    assert automatic_double(c1, 1, s) == c1


def test_E1_automatic_double_limit_is_a_setting_and_capped_at_64() -> None:
    s = Settings(automatic_doubles=True, max_automatic=10)
    c = CubeState()
    for n in range(10):
        c = automatic_double(c, n, s)
    assert c == CubeState(64, None)


def test_E1_no_automatic_doubles_in_a_match() -> None:
    s = Settings(automatic_doubles=True)
    assert automatic_double(CubeState(), 0, s, match=MatchState(7)) == CubeState()


@given(st.lists(st.sampled_from([W, B]), max_size=12))
def test_C2_C4_any_sequence_of_doubles_keeps_the_cube_legal(doublers: list[Side]) -> None:
    c = CubeState()
    for side in doublers:
        if c.can_double(side):
            c = c.doubled(side.other)
            assert c.owner is side.other
        else:
            assert c.owner is side.other or c.value == 64
    assert 1 <= c.value <= 64 and c.value & (c.value - 1) == 0
