"""The referee follows the game when vision cannot settle a turn (issue 9): a play the next
roll lets stand (E8). Never an illegal call from it; a board no roll explains is never taken."""

from __future__ import annotations

import dataclasses
from typing import Any

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
    """Reads one spot (light numbering) as holding one checker fewer, in every frame (``sure``: the
    probability given to the count one fewer, the rest to the true count): a board vision keeps
    misreading by a little (no blind spot learnt for it). ``to``: a spot that then reads that checker
    (with the same probabilities), so the reading still adds up to 15 and 15."""

    def __init__(self, referee: Referee, spot: int, *, sure: float = 0.8, to: int | None = None) -> None:
        super().__init__(referee)
        self.spot, self.sure, self.to = spot, sure, to

    def _shift(self, pts: list[Any], spot: int, by: int) -> None:
        s = pts[spot]
        n = s.dark.best
        if n + by < 0:
            return
        probs = [0.0] * len(s.dark.probs)
        probs[n + by], probs[n] = self.sure, 1.0 - self.sure
        pts[spot] = dataclasses.replace(s, dark=CountEvidence(tuple(probs)))

    def feed(self, item: Observation | PlayerInput) -> list[Event]:
        if isinstance(item, Observation) and item.points[self.spot].dark.best > 0:
            pts = list(item.points)
            self._shift(pts, self.spot, -1)
            if self.to is not None:
                self._shift(pts, self.to, +1)
            item = dataclasses.replace(item, points=tuple(pts))
        return super().feed(item)


def opened() -> Table:
    t = Table(Referee())
    opened_on(t)
    return t


def _misread_turn(**kw: Any) -> tuple[Table, Position]:
    """Black plays 6-5 (24/13) while the checkers on White's 12-point (light spot 11) read as one
    fewer every frame (:class:`OneSpotOff` with ``kw``); returns the table and the board."""
    t = opened()
    ref = t.referee
    dice = (die(6, "left"), die(5, "left"))
    t.throw(ref.position, dice)
    after = apply_play(ref.before, parse_play(ref.before, "24/13"))
    off = OneSpotOff(ref, 11, **kw)
    off.t, off.index, off.events = t.t, t.index, t.events
    off.played = off.move_and_pick_up(ref.before, after, dice, extra=4)  # type: ignore[attr-defined]
    return off, after


def test_a_checker_vision_misses_is_somewhere_the_play_is_accepted_B1() -> None:
    # the reading holds 14 dark checkers: conservation puts the missed one back, and of every
    # legal play the one that fits is accepted at once (no gap summed over the frames)
    t, after = _misread_turn(sure=0.8)
    ev = t.played  # type: ignore[attr-defined]
    assert kinds(ev) == ["play_accepted"] and t.referee.position.layout_key() == after.with_turn(Side.WHITE).layout_key()


def test_a_play_the_evidence_cannot_settle_stands_once_the_next_roll_is_thrown_E8() -> None:
    # one checker read a point away, not surely: the reading adds up, the play is neither accepted
    # nor called
    t, after = _misread_turn(sure=0.7, to=10)
    ref = t.referee
    ev = t.played  # type: ignore[attr-defined]
    assert "play_accepted" not in kinds(ev) and "illegal_play" not in kinds(ev)
    assert ref.phase == "judging"
    ev = t.throw(after.with_turn(Side.WHITE), (die(4, "right"), die(2, "right")))
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
