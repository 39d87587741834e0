"""The referee follows the game when vision cannot settle a turn (issue 9): a play the next
roll lets stand (E8). Never an illegal call from it; a board no roll explains is never taken."""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.events import Event, PlayAccepted
from tavli_pi.referee.inputs import PlayerInput
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import CountEvidence, Observation

from .synth import Table, die, kinds, nth
from .synth import opened as opened_on

START = Position.start()


class OneSpotOff(Table):
    """Reads one spot (light numbering) as holding one checker fewer, at middling confidence, in
    every frame: a board vision keeps misreading by a little (no blind spot learnt for it)."""

    def __init__(self, referee: Referee, spot: int) -> None:
        super().__init__(referee)
        self.spot = spot

    def feed(self, item: Observation | PlayerInput) -> list[Event]:
        if isinstance(item, Observation) and self.spot is not None:
            pts = list(item.points)
            s = pts[self.spot]
            n = s.dark.best
            if n > 0:
                probs = [0.0] * len(s.dark.probs)
                probs[n - 1], probs[n] = 0.8, 0.2
                pts[self.spot] = dataclasses.replace(s, dark=CountEvidence(tuple(probs)))
                item = dataclasses.replace(item, points=tuple(pts))
        return super().feed(item)


def opened() -> Table:
    t = Table(Referee())
    opened_on(t)
    return t


def test_a_play_the_evidence_cannot_settle_stands_once_the_next_roll_is_thrown_E8() -> None:
    t = opened()
    ref = t.referee
    dice = (die(6, "left"), die(5, "left"))
    t.throw(ref.position, dice)
    after = apply_play(ref.before, parse_play(ref.before, "24/13"))
    # the checkers on White's 12-point (light spot 11) read as one fewer, every frame
    spot = 11
    off = OneSpotOff(ref, spot)
    off.t, off.index, off.events = t.t, t.index, t.events
    ev = off.move_and_pick_up(ref.before, after, dice, extra=4)
    assert "play_accepted" not in kinds(ev) and "illegal_play" not in kinds(ev)
    assert ref.phase == "judging"
    ev = off.throw(after.with_turn(Side.WHITE), (die(4, "right"), die(2, "right")))
    played = nth(ev, 0, PlayAccepted)
    assert played.extra.get("stands_by_roll") and "(E8)" in played.message
    assert ref.position.layout_key() == after.layout_key()
    assert "roll_accepted" in kinds(ev)  # and the next roll is taken


def test_a_change_no_roll_explains_is_never_taken_nor_called_illegal() -> None:
    t = opened()
    ref = t.referee
    before = ref.position
    # Black moves five checkers: no single roll does that
    after = apply_play(before, parse_play(before, "24/18 24/18 13/7 13/7"))
    after = apply_play(after.with_turn(Side.BLACK), parse_play(after.with_turn(Side.BLACK), "6/5"))
    t.show(before, hand=True)
    ev = t.show(after, 4)
    assert "play_accepted" not in kinds(ev) and "illegal_play" not in kinds(ev)
