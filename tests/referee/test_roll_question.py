"""The roll of a play seen without it, asked of the players (tavli_pi/referee/roll_question.py).

The question and its answer in step and out of sync are tested in test_unseen.py and test_sync.py;
here: a board changed clearly by one play no roll allows, but read too unsure on some spot to call the
board lost (out of sync needs every differing spot at ``illegal_confidence``), is asked about too; the
call, once the roll is entered, needs its usual evidence (bench_reallike games 88 and 172: the illegal
board read at 0.81-0.87 on a spot the play did not change, never asked about, then corrected)."""

from __future__ import annotations

from dataclasses import replace

from tavli_pi.referee.events import Event, IllegalPlay, RollNeeded
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.referee.unseen import UNSEEN_ROLL_WAIT
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import CountEvidence, SpotEvidence

from .synth import Table, die, kinds, observe, only, roll_dice

START = Position.start()


def _opened(*, attended: bool = True) -> Table:
    """White opened 3-1 (8/5 6/5), Black rolled 6-4 and played 24/18 13/9: White is on roll."""
    t = Table(Referee(RefereeSettings(attended=attended)))
    t.setup()
    t.throw(START, (die(3, "right"), die(1, "left")))
    t.move_and_pick_up(t.referee.before, apply_play(t.referee.before, parse_play(t.referee.before, "8/5 6/5")),
                       (die(3, "right"), die(1, "left")))
    pos = t.referee.position
    t.throw(pos, roll_dice(Side.BLACK, (6, 4)))
    t.move_and_pick_up(pos, apply_play(pos, parse_play(pos, "24/18 13/9")), roll_dice(Side.BLACK, (6, 4)))
    assert t.referee.phase == "awaiting_roll" and t.referee.position.turn is Side.WHITE
    return t


def _unsure_at_13(t: Table, pos: Position, n: int) -> list[Event]:
    """``n`` clear frames of ``pos`` whose White 13 point (3 checkers left of 5) reads unsure: the count
    right at 0.48 a frame, each neighbour at 0.26 (a stack's top half in shadow) -- under 0.9 even over
    the most frames a verdict weighs (``max_evidence_frames``)."""
    out: list[Event] = []
    for _ in range(n):
        t.index += 1
        obs = observe(pos, frame_index=t.index)
        spot = obs.points[12]
        count = pos.count(Side.WHITE, 13)
        probs = [1e-4] * len(spot.light.probs)
        probs[count], probs[count - 1], probs[count + 1] = 0.48, 0.26, 0.26
        total = sum(probs)
        unsure = SpotEvidence(CountEvidence(tuple(p / total for p in probs)), spot.dark)
        points = obs.points[:12] + (unsure,) + obs.points[13:]
        out += t.feed(replace(obs, points=points))
    return out


def test_a_play_no_roll_allows_read_too_unsure_to_be_lost_is_asked_about_and_called_once_entered_E8() -> None:
    t = _opened()
    known = t.referee.position
    bad = apply_play(known, parse_play(known, "13/7 13/6"))  # 6 and 7 pips: no roll allows it
    t.show(known, hand=True)
    t.show(bad, hand=True)
    ev = _unsure_at_13(t, bad, 3)
    # not out of sync (13 is read under illegal_confidence), but asked: a question, not a call
    assert kinds(ev) == ["roll_needed"] and t.referee.phase == "awaiting_roll"
    ask = only(ev, RollNeeded)
    assert ask.side is Side.WHITE and ask.extra["unseen"] == []
    ev = t.press(Action.ROLL, None, 65) + _unsure_at_13(t, bad, 2)
    assert kinds(ev)[:2] == ["roll_accepted", "illegal_play"]
    call = only(ev, IllegalPlay)
    assert call.dice == (6, 5) and call.observed is not None and call.observed.layout_key() == bad.layout_key()


def test_unanswered_or_unattended_such_a_board_is_never_called() -> None:
    for attended in (True, False):
        t = _opened(attended=attended)
        known = t.referee.position
        bad = apply_play(known, parse_play(known, "13/7 13/6"))
        t.show(known, hand=True)
        t.show(bad, hand=True)
        ev = _unsure_at_13(t, bad, int(UNSEEN_ROLL_WAIT * 10) + 20)
        assert "illegal_play" not in kinds(ev)
        assert kinds(ev).count("roll_needed") == (1 if attended else 0)


def test_a_board_that_did_not_change_clearly_is_not_asked_about() -> None:
    """The board as it was, read as unsure at 13: no question (the gap to the known board is nothing)."""
    t = _opened()
    known = t.referee.position
    t.show(known, hand=True)
    ev = _unsure_at_13(t, known, 6)
    assert ev == []

