"""Money sessions: running totals with the money settings (C5, E1, S1, S4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavli_pi.errors import ConfigError
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import GameValue, Termination, outcome_passed
from tavli_pi.rules.settings import Settings
from tavli_pi.tournament.session import MoneySession

W, B = Side.WHITE, Side.BLACK
GAMMON_FOR_WHITE = Position.from_counts({}, {1: 10, 18: 5})


def test_C5_money_session_defaults_count_gammons() -> None:
    s = MoneySession(("ann", "bob"))
    out = s.borne_off(GAMMON_FOR_WHITE, CubeState())
    s = s.after(out)
    assert (s.balance("ann"), s.balance("bob"), s.games) == (2, -2, 1)


def test_C5_jacoby_session_counts_an_uncubed_gammon_single() -> None:
    s = MoneySession(("ann", "bob"), Settings(jacoby=True))
    assert s.borne_off(GAMMON_FOR_WHITE, CubeState()).points == 1
    assert s.borne_off(GAMMON_FOR_WHITE, CubeState(2, B)).points == 4


def test_E1_session_automatic_doubles_on_opening_ties() -> None:
    assert MoneySession(("a", "b")).opening_cube(2) == CubeState()
    s = MoneySession(("a", "b"), Settings(automatic_doubles=True))
    assert s.opening_cube(1) == CubeState(2) and s.opening_cube(3) == CubeState(2)
    s3 = MoneySession(("a", "b"), Settings(automatic_doubles=True, max_automatic=3))
    assert s3.opening_cube(3) == CubeState(8)


def test_C5_session_beavers_setting() -> None:
    assert not MoneySession(("a", "b")).can_beaver(B, CubeState())
    assert MoneySession(("a", "b"), Settings(beavers=True)).can_beaver(B, CubeState())


def test_S4_resignation_settles_in_the_session() -> None:
    s = MoneySession(("ann", "bob"))
    out = s.resigned(W, GameValue.GAMMON, CubeState(4, W))
    assert out.termination is Termination.RESIGNED
    s = s.after(out)
    assert s.balance("bob") == 8 and s.balance("ann") == -8


def test_B4_players_may_change_sides_between_games() -> None:
    s = MoneySession(("ann", "bob")).after(outcome_passed(W, CubeState(2, B)))
    s = s.after(outcome_passed(W, CubeState()), seats=("bob", "ann"))
    assert s.balance("ann") == 1 and s.balance("bob") == -1
    assert s.player(W) == "bob"


def test_session_rejects_one_player_twice_and_unknown_players() -> None:
    with pytest.raises(ConfigError):
        MoneySession(("ann", "ann"))
    with pytest.raises(ConfigError, match="has not played"):
        MoneySession(("ann", "bob")).balance("cy")


@given(st.lists(st.tuples(st.sampled_from([W, B]), st.integers(0, 6)), max_size=30))
def test_session_balances_sum_to_zero(games: list[tuple[Side, int]]) -> None:
    s = MoneySession(("ann", "bob"))
    net = 0
    for winner, log_cube in games:
        out = outcome_passed(winner, CubeState(2**log_cube, winner if log_cube else None))
        s = s.after(out)
        net += out.points if winner is W else -out.points
    assert s.balance("ann") == net and s.balance("bob") == -net
