"""Automatic doubles (C5, E1) and the cube around an accepted illegal play (E8), as the referee applies them."""

from __future__ import annotations

from tavli_pi.referee.events import OpeningRoll, Phase
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.settings import Settings

from .synth import Table, die, kinds, only, roll_dice

START = Position.start()


def _tie(t: Table, value: int) -> OpeningRoll:
    ev = t.throw(START, (die(value, "right"), die(value, "left")))
    return only(ev, OpeningRoll)


def _clear_dice(t: Table) -> None:
    t.show(START, 2)  # the tied dice are picked up


def auto(max_automatic: int = 1, **kw: object) -> RefereeSettings:
    return RefereeSettings(rules=Settings(automatic_doubles=True, max_automatic=max_automatic, **kw))  # type: ignore[arg-type]


def test_C5_a_tied_opening_roll_turns_the_centred_cube_in_money_play() -> None:
    t = Table(Referee(auto()))
    t.setup()
    e = _tie(t, 4)
    assert e.rule == "C5" and e.winner is None and e.extra == {"automatic_double": 2}
    assert e.state.cube_value == 2 and e.state.cube_owner is None
    assert t.referee.phase is Phase.OPENING  # the tie is still rerolled (E1)
    _clear_dice(t)
    ev = t.throw(START, (die(5, "right"), die(2, "left")))
    first = only(ev, OpeningRoll)
    assert first.winner is Side.WHITE and first.state.cube_value == 2


def test_C5_at_most_max_automatic_doubles_a_game() -> None:
    t = Table(Referee(auto(max_automatic=1)))
    t.setup()
    assert _tie(t, 4).state.cube_value == 2
    _clear_dice(t)
    second = _tie(t, 3)
    assert second.rule == "E1" and second.state.cube_value == 2 and "automatic" not in second.message

    t2 = Table(Referee(auto(max_automatic=2)))
    t2.setup()
    _tie(t2, 4)
    _clear_dice(t2)
    assert _tie(t2, 3).state.cube_value == 4


def test_C5_off_by_default_a_tie_is_only_rerolled() -> None:
    t = Table(Referee())
    t.setup()
    e = _tie(t, 6)
    assert e.rule == "E1" and e.state.cube_value == 1


def test_C5_automatic_doubles_are_money_play_only() -> None:
    t = Table(Referee(auto(), match=MatchState(5)))
    t.setup()
    e = _tie(t, 2)
    assert e.rule == "E1" and e.state.cube_value == 1


def test_C4_automatic_doubles_never_pass_the_cube_limit() -> None:
    t = Table(Referee(auto(max_automatic=5, max_cube=2)))
    t.setup()
    assert _tie(t, 4).state.cube_value == 2
    _clear_dice(t)
    assert _tie(t, 5).state.cube_value == 2


def test_C5_the_count_restarts_each_game_and_survives_a_resume() -> None:
    t = Table(Referee(auto()))
    t.setup()
    state = _tie(t, 4).state
    again = Referee.from_state(state, auto())
    assert again.cube.value == 2
    t2 = Table(again)
    t2.setup()
    _clear_dice(t2)
    assert _tie(t2, 3).state.cube_value == 2  # the one automatic double of this game was used


def test_E8_doubling_after_an_illegal_play_that_ends_the_game_offers_nothing() -> None:
    # White's last checker on the 5-point, 2-1: bearing it off is illegal (M6/M1) and ends the game
    pos = Position.from_counts({5: 1}, {6: 15}, turn=Side.WHITE)
    t = Table(Referee(start=pos))
    t.setup(pos)
    dice = roll_dice(Side.WHITE, (2, 1))
    t.throw(pos, dice)
    off = Position.from_counts({}, {6: 15}, turn=Side.WHITE)
    ev = t.move_and_pick_up(pos, off, dice)
    assert kinds(ev) == ["illegal_play"]
    ev = t.press(Action.DOUBLE, Side.BLACK)
    assert kinds(ev) == ["illegal_play_resolved", "game_over"]  # no refusal, no cube offered
    assert t.referee.phase is not Phase.CUBE
