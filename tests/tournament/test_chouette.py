"""H1-H4: chouette seating, doubling, rotation and settlement."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavli_pi.errors import ConfigError, IllegalActionError
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.position import Side
from tavli_pi.rules.scoring import GameValue
from tavli_pi.rules.settings import Settings
from tavli_pi.tournament.chouette import Chouette, ChouetteSession, seat_order

W, B = Side.WHITE, Side.BLACK


def test_H1_highest_die_is_the_box_next_the_captain_rest_by_roll() -> None:
    c = Chouette.from_rolls({"ann": 2, "bob": 6, "cy": 4, "dee": 1})
    assert (c.box, c.captain, c.team) == ("bob", "cy", ("cy", "ann", "dee"))


def test_H1_ties_are_rerolled_among_the_tied_players() -> None:
    with pytest.raises(IllegalActionError, match="ann, bob tied: they roll again"):
        Chouette.from_rolls({"ann": 5, "bob": 5, "cy": 2})
    c = Chouette.from_rolls({"ann": 5, "bob": 5, "cy": 2}, {"ann": 1, "bob": 3})
    assert c.players == ("bob", "ann", "cy")


def test_H1_two_separate_ties_resolve_in_one_reroll_round() -> None:
    order = seat_order([{"a": 6, "b": 6, "c": 2, "d": 2}, {"a": 1, "b": 4, "c": 5, "d": 3}])
    assert order == ("b", "a", "c", "d")


def test_H1_everyone_must_roll_a_real_die() -> None:
    with pytest.raises(IllegalActionError, match="H1"):
        seat_order([{"a": 6, "b": 7, "c": 1}])
    with pytest.raises(IllegalActionError, match="b must roll"):
        seat_order([{"a": 6, "b": 6}, {"a": 1}])


def test_H1_a_chouette_needs_three_players() -> None:
    with pytest.raises(ConfigError, match="three or more"):
        Chouette("a", ("b",))


def test_H2_team_doubles_only_unanimously() -> None:
    g = Chouette("box", ("c", "m1", "m2")).start_game()
    with pytest.raises(IllegalActionError, match="unanimously.*m2"):
        g.team_doubles({"c": True, "m1": True, "m2": False}, box_takes=True)
    g2 = g.team_doubles({"c": True, "m1": True, "m2": True}, box_takes=True)
    assert all(c == CubeState(2, g.box_side) for c in g2.cubes)  # the box owns them
    assert not g2.team_can_double()


def test_H2_box_may_pass_some_members_doubles_and_pays_them() -> None:
    g = Chouette("box", ("c", "m1")).start_game()
    g = g.team_doubles({"c": True, "m1": True}, box_takes={"c": True, "m1": False})
    assert g.members == ("c",)
    r = g.finish(box_won=True)
    assert dict(r.settlement) == {"box": 2 - 1, "m1": 1, "c": -2}


def test_H2_each_member_takes_or_passes_the_box_double_alone() -> None:
    g = Chouette("box", ("c", "m1", "m2")).start_game(box_side=B)
    g = g.box_doubles({"c": True, "m1": False, "m2": True})
    assert g.members == ("c", "m2") and g.dropped == (("m1", 1),)
    assert g.cube_of("c") == CubeState(2, W)  # the member owns it
    with pytest.raises(IllegalActionError, match="owns their cube"):
        g.box_doubles({})
    r = g.finish(box_won=False, value=GameValue.GAMMON)
    # m1 paid the stake of 1; c and m2 each win a gammon on a 2-cube
    assert dict(r.settlement) == {"box": 1 - 8, "m1": -1, "c": 4, "m2": 4}


def test_H2_a_member_must_answer_the_box_double() -> None:
    g = Chouette("box", ("c", "m1")).start_game()
    with pytest.raises(IllegalActionError, match="m1 must take or pass"):
        g.box_doubles({"c": True})


def test_H2_a_dropped_captain_hands_over_to_the_next_member() -> None:
    ch = Chouette("box", ("c", "m1", "m2"))
    g = ch.start_game().box_doubles({"c": False, "m1": True, "m2": True})
    assert g.captain == "m1"
    r = g.finish(box_won=False)
    assert r.captain == "m1"
    nxt = ch.after_game(False, captain=r.captain)
    assert nxt.box == "m1" and nxt.team == ("c", "m2", "box")


def test_H2_everyone_dropping_means_the_box_won() -> None:
    g = Chouette("box", ("c", "m1")).start_game().box_doubles({"c": False, "m1": False})
    assert g.is_over and g.captain is None
    with pytest.raises(IllegalActionError, match="box has won"):
        g.finish(box_won=False)
    assert dict(g.finish(box_won=True).settlement) == {"box": 2, "c": -1, "m1": -1}


def test_H3_box_wins_stays_captain_to_the_end() -> None:
    c = Chouette("box", ("c", "m1", "m2")).after_game(True)
    assert (c.box, c.team) == ("box", ("m1", "m2", "c"))


def test_H3_team_wins_captain_becomes_box_box_to_the_end() -> None:
    c = Chouette("box", ("c", "m1", "m2")).after_game(False)
    assert (c.box, c.team) == ("c", ("m1", "m2", "box"))


def test_H4_each_member_settles_on_their_own_cube() -> None:
    g = Chouette("box", ("c", "m1")).start_game()
    g = g.box_doubles({"c": True, "m1": True})  # both own a 2-cube
    g = replace(g, cubes=(g.cubes[0], CubeState(4, g.box_side)))  # m1 was redoubled
    r = g.finish(box_won=True, value=GameValue.BACKGAMMON)
    assert r.amount("c") == -6 and r.amount("m1") == -12 and r.amount("box") == 18


def test_H4_jacoby_applies_per_member_cube() -> None:
    g = Chouette("box", ("c", "m1")).start_game().box_doubles({"c": True, "m1": True})
    fresh = Chouette("box", ("c", "m1")).start_game()
    jac = Settings(jacoby=True)
    assert fresh.finish(True, GameValue.GAMMON, settings=jac).amount("box") == 2
    assert g.finish(True, GameValue.GAMMON, settings=jac).amount("box") == 8


@given(
    st.lists(
        st.tuples(st.booleans(), st.sampled_from(list(GameValue)), st.lists(st.booleans(), min_size=3, max_size=3)),
        max_size=15,
    )
)
def test_H3_H4_session_totals_sum_to_zero_and_seats_rotate(
    games: list[tuple[bool, GameValue, list[bool]]]
) -> None:
    s = ChouetteSession(Chouette("a", ("b", "c", "d")))
    for box_won, value, takes in games:
        g = s.chouette.start_game()
        g = g.box_doubles(dict(zip(g.members, takes)))
        r = g.finish(box_won or g.is_over, value)
        assert sum(a for _, a in r.settlement) == 0
        s = s.after(r)
        assert sorted(s.chouette.players) == ["a", "b", "c", "d"]
    assert sum(a for _, a in s.totals) == 0
