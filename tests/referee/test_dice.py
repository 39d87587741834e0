"""The dice watch (referee/dice.py): a die read cocked where it was read lying flat on an earlier
frame of the same throw lies flat; a roll is voided for a cocked die (E3) only on a lie never seen
flat."""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.dice import DiceWatch
from tavli_pi.referee.events import RollVoid
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import DieReading

from .synth import Table, kinds, nth

START = Position.start()


def lying(value: int, x: float, *, flat: bool = True, confidence: float = 0.95, half: str = "left") -> DieReading:
    """A die of 15 px lying still at (x, 300) image px, in ``half``."""
    return DieReading((x, 300.0), value, confidence, flat, False, half, size_px=15.0)  # type: ignore[arg-type]


def thrown(dice: tuple[DieReading, ...]) -> tuple[DieReading, ...]:
    return tuple(dataclasses.replace(d, moving=True, value=0, value_confidence=0.0) for d in dice)


def test_a_die_read_cocked_where_it_was_read_flat_lies_flat() -> None:
    """A 3 read flat on the frame it settled, then cocked on the next two (its outline skewed: a
    recording's field found a few pixels off): the roll settles as read flat, not void."""
    w = DiceWatch(2, 0.6)
    flat = (lying(3, 400.0), lying(1, 460.0))
    cocked = (lying(3, 401.0, flat=False, confidence=0.85), lying(1, 460.0))
    assert w.feed(thrown(flat)) is None
    assert w.feed(flat) is None
    got = w.feed(cocked)
    assert got is not None and [(d.value, d.flat) for d in got] == [(3, True), (1, True)]


def test_a_die_cocked_from_the_first_frame_stays_cocked() -> None:
    w = DiceWatch(2, 0.6)
    cocked = (lying(3, 400.0, flat=False), lying(1, 460.0))
    w.feed(thrown(cocked))
    assert w.feed(cocked) is None
    got = w.feed(cocked)
    assert got is not None and [d.flat for d in got] == [False, True]


def test_a_flat_die_of_the_last_throw_or_beside_it_does_not_make_a_cocked_die_flat() -> None:
    """Only the same die, where it lay, on this throw: a die of that value read flat on the throw
    before (the watch armed again since), or another die of this frame lying there, does not."""
    w = DiceWatch(2, 0.6)
    w.feed((lying(3, 400.0), lying(5, 460.0)))  # the last throw: read, settled
    w.feed((lying(3, 400.0), lying(5, 460.0)))
    cocked = (lying(3, 400.0, flat=False), lying(2, 460.0))
    w.feed(thrown(cocked))  # picked up and thrown again: a new throw
    w.feed(cocked)
    got = w.feed(cocked)
    assert got is not None and got[0].flat is False
    # a flat 3 and a cocked 3 found at one place (a double read twice over) tell nothing of its lie
    w = DiceWatch(2, 0.6)
    two = (lying(3, 400.0), lying(3, 402.0, flat=False))
    w.feed(thrown(two))
    w.feed((lying(3, 400.0),))
    w.feed(two)
    got = w.feed(two)
    assert got is not None and sorted(d.flat for d in got) == [False, True]


def test_a_die_read_flat_then_cocked_is_no_void_roll_E3() -> None:
    """The referee: Black's 3-1 read flat as it settles, then its 3 read cocked on two frames (the
    recording at 1280 px, game 10): the roll is taken, not voided."""
    t = Table(Referee())
    t.setup()
    t.throw(START, (lying(3, 800.0, half="right"), lying(1, 300.0, half="left")))
    after = apply_play(START, parse_play(START, "8/5 6/5"))
    t.show(START, dice=(lying(3, 800.0, half="right"), lying(1, 300.0, half="left")), hand=True)
    t.show(after, dice=(), hand=True)
    t.show(after, 6)
    assert t.referee.phase == "awaiting_roll"
    black = (lying(3, 300.0), lying(1, 360.0))
    t.show(after, dice=thrown(black), motion=True)
    ev = t.show(after, dice=black)
    ev += t.show(after, 2, dice=(lying(3, 301.0, flat=False, confidence=0.85), lying(1, 360.0)))
    assert "roll_void" not in kinds(ev) and kinds(ev)[0] == "roll_accepted"
    assert t.referee.dice == (3, 1)
    # a die cocked from the first frame it lies still voids the roll as before
    t2 = Table(Referee())
    t2.setup()
    t2.throw(START, (lying(3, 800.0, half="right"), lying(1, 300.0, half="left")))
    t2.show(after, dice=(), hand=True)
    t2.show(after, 6)
    ev = t2.throw(after, (lying(3, 300.0, flat=False), lying(1, 360.0)))
    assert kinds(ev) == ["roll_void"] and nth(ev, 0, RollVoid).reason == "cocked"
