"""A "die" that lay still through a throw and a pick-up is no die of the throw (referee/dice.py
``DiceWatch.marks``): a watch disarmed on a roll rearms once that roll's dice are gone from where they
lay, though something still lies on the board (a board's lettering read as a die, a game joined in
progress with no board learnt to vet it against), and leaves what lay there out of the next throws."""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.dice import DiceWatch
from tavli_pi.referee.events import OpeningRoll
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import DieReading

from .synth import Table, kinds, only

#: a game some turns in (White's numbering), as tests/referee/test_in_progress.py's
MIDGAME = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2}, {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2})


def lying(value: int, x: float, *, half: str = "right", flat: bool = True, confidence: float = 0.95) -> DieReading:
    """A die of 12 px lying still at (x, 170) image px."""
    return DieReading((x, 170.0), value, confidence, flat, False, half, size_px=12.0)  # type: ignore[arg-type]


def thrown(dice: tuple[DieReading, ...]) -> tuple[DieReading, ...]:
    return tuple(dataclasses.replace(d, moving=True, value=0, value_confidence=0.0) for d in dice)


#: the board's lettering read as a die, cocked (as the "B" of "CLUB" on a 640 px wooden board)
MARK = lying(1, 448.0, flat=False, confidence=0.85)
#: the roll lying when the watch was disarmed, beside the mark (the mark hidden under it then)
JOINED = (lying(3, 402.0), lying(4, 434.0))
#: the next throw, elsewhere in the same half
NEXT = (lying(5, 520.0), lying(4, 560.0))


def test_a_mark_left_when_the_roll_is_picked_up_is_no_die_of_the_next_throw() -> None:
    """Disarmed on a roll (a join), the roll picked up with a mark lying still: the watch rearms and
    the next throw settles as its two dice, the mark left out (before: never rearmed, every roll lost)."""
    w = DiceWatch(2, 0.6, armed=False)
    assert w.feed(JOINED, clear=True) is None and w.feed(JOINED, clear=True) is None  # lying from before
    assert w.feed((MARK,), clear=True) is None and w.feed((MARK,), clear=True) is None  # picked up
    assert w.armed and w.marks == (MARK,)
    assert w.feed((MARK, *thrown(NEXT)), clear=False) is None
    assert w.feed((MARK, *NEXT), clear=True) is None
    got = w.feed((dataclasses.replace(MARK, value=2, value_confidence=0.6, flat=True), *NEXT), clear=True)
    assert got is not None and sorted(d.value for d in got) == [4, 5]


def test_the_roll_not_picked_up_or_a_frame_not_clear_does_not_rearm() -> None:
    """A die where one of the roll lay (a side), a frame with a hand or motion, or one such frame only:
    the watch stays disarmed (the roll's dice may lie there still); a frame with no dice clears the marks."""
    w = DiceWatch(2, 0.6, armed=False)
    w.feed(JOINED, clear=True)
    w.feed((MARK, lying(4, 440.0)), clear=True)  # the 4 nudged 6 px: still the roll's
    w.feed((MARK, lying(4, 440.0)), clear=True)
    assert not w.armed
    w.feed((MARK,), clear=False)  # a hand over the board (the 4 under it)
    w.feed((MARK,), clear=False)
    assert not w.armed
    w.feed((MARK,), clear=True)
    assert not w.armed  # one clear frame is not yet a pick-up
    w.feed((MARK,), clear=True)
    assert w.armed and w.marks == (MARK,)
    w.feed((), clear=True)  # nothing lies there: the mark is gone
    assert w.marks == ()


def test_a_mark_left_by_a_void_opening_roll_picked_up_does_not_hold_the_referee() -> None:
    """The opening roll is void (a die cocked, E3); its dice are picked up, a mark read as a die lying
    still where one of them lay beside; both players throw again: the opening roll is taken, the mark no
    die of it (before: the watch waited for a frame without dice that never came)."""
    t = Table(Referee())
    start = Position.start()
    t.setup()
    void = (lying(3, 150.0, half="left"), lying(4, 434.0, flat=False))
    t.show(start, dice=thrown(void), motion=True)
    assert "roll_void" in kinds(t.show(start, 3, dice=void))
    t.show(start, 3, dice=(MARK,))  # picked up: the mark lies on
    again = (lying(5, 200.0, half="left"), lying(2, 520.0))
    t.show(start, dice=(MARK, *thrown(again)), motion=True)
    opening = only(t.show(start, 3, dice=(MARK, *again)), OpeningRoll)
    assert (opening.white_die, opening.black_die, opening.winner) == (2, 5, Side.BLACK)
