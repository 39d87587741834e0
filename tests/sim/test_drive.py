"""The scripted players' answers to the referee (``sim.drive``): they confirm a set-up only
when the board is really set up (B3), and enter the roll the camera cannot read (E1, E2)."""

from __future__ import annotations

from tavli_pi.referee.events import ClearViewNeeded, Event, Phase, PlayAccepted, RollNeeded, SetupChecked, TableState
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Position, Side
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.drive import asks_setup_confirmation, drive, entered_roll, set_up
from tavli_pi.sim.script import Moment, ScriptDie
from tavli_pi.sim.table import scenes_of
from tavli_pi.vision.camera import Frame

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
    """``roll_needed`` with ``unseen`` (RollQuestion.ask, roll_question.py): the players enter the roll the
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


class _AsksAbout:
    """A table whose referee asks for the roll of Black's play on frame ``ask_at``, and takes the
    play on the first frame after the answer (a fake: what each frame showed is kept)."""

    def __init__(self, camera: SimCamera, ask_at: int) -> None:
        self.camera, self.ask_at = camera, ask_at
        self.seen: list[tuple[bool, tuple[PlayerInput, ...]]] = []  # (a hand shown?, the inputs before it)
        self._inputs: list[PlayerInput] = []

    def submit(self, inp: PlayerInput) -> None:
        self._inputs.append(inp)

    def process(self, frame: Frame) -> list[Event]:
        truth = self.camera.last_truth
        assert truth is not None
        inputs, self._inputs = tuple(self._inputs), []
        self.seen.append((truth.hand, inputs))
        st = state(Phase.AWAITING_ROLL)
        if frame.index == self.ask_at:
            return [RollNeeded(at=frame.t, state=st, side=Side.BLACK, reason="not seen", extra={"unseen": ["2-1"]})]
        if any(i.action is Action.ROLL for i in inputs):
            return [PlayAccepted(at=frame.t, state=st, side=Side.BLACK, before=START, after=START, dice=(2, 1), play="")]
        return []


def test_asked_for_a_play_s_roll_the_players_answer_before_the_next_play() -> None:
    """Players asked what they rolled answer before playing on: the board of the question's frame
    is shown again (the next player's hand waits) until the referee took the answer, and those
    frames' events are the moment's. Before, the answer reached the referee with the next player's
    hand already moving checkers (bench_reallike games 19 and 136: the play recorded a frame late)."""
    black = (ScriptDie(2, "left", 0), ScriptDie(1, "left", 1))
    moments = [Moment(START, black, hand=True), Moment(START), Moment(START), Moment(START, hand=True)]
    camera = SimCamera(scenes_of(moments), fps=10, seed=3)
    table = _AsksAbout(camera, ask_at=2)
    steps = list(drive(table, camera, moments, enter_rolls=True))
    assert [s.index for s in steps] == [0, 1, 2, 3]
    assert steps[2].kinds == ("roll_needed", "play_accepted") and steps[2].held == 1
    # frame 3 is moment 2's board again, the answer given before it; the next player's hand comes after
    assert [hand for hand, _ in table.seen] == [True, False, False, False, True]
    assert [i.level for i in table.seen[3][1]] == [21]
    # without being asked, nothing is held
    quiet = SimCamera(scenes_of(moments), fps=10, seed=3)
    assert [s.held for s in drive(_AsksAbout(quiet, ask_at=99), quiet, moments, enter_rolls=True)] == [0, 0, 0, 0]
