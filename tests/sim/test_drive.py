"""The scripted players' answers to the referee (``sim.drive``): they confirm a set-up only
when the board is really set up (B3), and enter the roll the camera cannot read (E1, E2)."""

from __future__ import annotations

from tavli_pi.referee.events import ClearViewNeeded, Phase, RollNeeded, SetupChecked, TableState
from tavli_pi.referee.inputs import Action
from tavli_pi.rules.position import Position, Side
from tavli_pi.sim.drive import asks_setup_confirmation, entered_roll, set_up
from tavli_pi.sim.script import Moment, ScriptDie

START = Position.start()


def state(phase: Phase) -> TableState:
    return TableState(phase=phase, position=START)


def test_the_players_are_asked_at_set_up_only() -> None:
    wrong = SetupChecked(at=0.0, state=state(Phase.SETUP), ok=False, problems=("point 13",))
    assert asks_setup_confirmation([wrong])
    assert asks_setup_confirmation([ClearViewNeeded(at=0.0, state=state(Phase.SETUP), reason="x")])
    assert not asks_setup_confirmation([ClearViewNeeded(at=0.0, state=state(Phase.JUDGING), reason="x")])
    assert not asks_setup_confirmation([SetupChecked(at=0.0, state=state(Phase.OPENING), ok=True)])


def test_players_confirm_only_a_board_really_set_up() -> None:
    assert set_up(Moment(START))
    assert not set_up(Moment(START, hand=True))
    assert not set_up(Moment(START, dice=(ScriptDie(3, "right"),)))
    assert not set_up(Moment(Position.from_counts({24: 2, 13: 4, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})))


def test_the_roll_entered_is_the_one_lying_on_the_board() -> None:
    opening = (ScriptDie(2, "left", 1), ScriptDie(5, "right", 0))
    moments = [Moment(START, tuple(ScriptDie(d.value, d.half, d.slot, moving=True) for d in opening)),
               Moment(START, opening), Moment(START, opening, hand=True)]
    ask = RollNeeded(at=0.0, state=state(Phase.OPENING), side=None, reason="too small to read")
    inp = entered_roll([ask], moments, 2)
    assert inp is not None and inp.action is Action.ROLL and inp.level == 52  # White's die first
    assert entered_roll([ask], moments, 2, light_is_white=False).level == 25  # type: ignore[union-attr]
    roll = RollNeeded(at=0.0, state=state(Phase.AWAITING_ROLL), side=Side.BLACK, reason="too small")
    black = (ScriptDie(6, "left", 0), ScriptDie(4, "left", 1))
    assert entered_roll([roll], [Moment(START, black)], 0).level == 64  # type: ignore[union-attr]
    assert entered_roll([], [Moment(START, black)], 0) is None


def test_asked_for_a_roll_the_camera_missed_the_players_say_the_roll_of_that_play() -> None:
    """``roll_needed`` with ``unseen`` (Referee._ask_unseen_roll): the players enter the roll the
    asked side's play was made with -- the dice under the hand that moved its checkers -- not the dice
    lying now (the next player's roll may lie there already, or none)."""
    black = (ScriptDie(2, "left", 0), ScriptDie(1, "left", 1))
    white_next = (ScriptDie(6, "right", 0), ScriptDie(5, "right", 1))
    moments = [Moment(START, black), Moment(START, black, hand=True), Moment(START),
               Moment(START, white_next)]
    ask = RollNeeded(at=0.0, state=state(Phase.AWAITING_ROLL), side=Side.BLACK, reason="not seen",
                     extra={"unseen": ["3-1"]})
    inp = entered_roll([ask], moments, 3)
    assert inp is not None and inp.action is Action.ROLL and inp.level == 21
    plain = RollNeeded(at=0.0, state=state(Phase.AWAITING_ROLL), side=Side.BLACK, reason="too small")
    assert entered_roll([plain], moments, 2) is None  # no dice lie now: nothing entered, as before
    white = RollNeeded(at=0.0, state=state(Phase.AWAITING_ROLL), side=Side.WHITE, reason="not seen",
                       extra={"unseen": []})
    assert entered_roll([white], moments, 3) is None  # White's play has not been made: nothing to say
