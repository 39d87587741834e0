"""What the camera saw of a roll it could not read (referee/roll_seen.py): a die read surely narrows
the rolls a play made with that roll is judged under; a play taken without its roll is recorded as not
checked; a play legal only for rolls the die read excludes is never taken (it is called: test_one_die_call.py)."""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.events import PlayAccepted, RollNeeded
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.roll_seen import rolls_holding, seen_of_roll, seen_text, sure_values
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.referee.unseen import ROLLS
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import DieReading

from .synth import Table, die, kinds, nth, only, opened

UNATTENDED = RefereeSettings(attended=False)


def _play(pos: Position, text: str) -> Position:
    return apply_play(pos, parse_play(pos, text))


def tiny(half: str) -> DieReading:
    return dataclasses.replace(die(0, half, confidence=0.0), note="too small to read (8 px, need 12)", size_px=8.0)


def test_a_die_read_surely_keeps_the_rolls_holding_it() -> None:
    dice = (die(3, "left", confidence=0.97), die(5, "left", confidence=0.4), tiny("left"))
    assert sure_values(dice, 0.9) == (3,)  # a 5 read at 0.4 is no evidence of a 5; a tiny die none
    assert rolls_holding((3,), ROLLS) == ((6, 3), (5, 3), (4, 3), (3, 3), (3, 2), (3, 1))
    assert rolls_holding((3, 3), ROLLS) == ((3, 3),) and rolls_holding((), ROLLS) == ROLLS
    assert rolls_holding((6, 4), ((6, 4), (6, 6), (4, 4))) == ((6, 4),)
    # only dice lying in the roller's half are its roll (Black rolls into "left", White into "right")
    black = (die(3, "left", confidence=0.97),)
    assert seen_of_roll(black, Side.BLACK, opening=False, light_is_white=True, confidence=0.9) == (3,)
    assert seen_of_roll(black, Side.WHITE, opening=False, light_is_white=True, confidence=0.9) == ()
    assert seen_of_roll(black, Side.WHITE, opening=True, light_is_white=True, confidence=0.9) == (3,)
    assert seen_of_roll(None, Side.BLACK, opening=False, light_is_white=True, confidence=0.9) == ()
    assert seen_of_roll((tiny("left"), tiny("left")), Side.BLACK, opening=False, light_is_white=True,
                        confidence=0.9) == ()  # two dice too small to read: a double is thrown with two dice too
    assert seen_text((3,)) == "a 3 on one die" and seen_text((5, 2)) == "5 and 2"


def _one_die_seen(value: int, confidence: float = 0.97) -> tuple[Table, Position, tuple[DieReading, ...]]:
    """Unattended: after the opening, Black's roll lies with one die read (``value``) and the other
    never found; the referee asks for the roll, nobody answers."""
    t = Table(Referee(UNATTENDED))
    ref = opened(t)
    one = (die(value, "left", confidence=confidence),)
    ev = t.throw(ref.position, one, settled=3)
    assert kinds(ev) == ["roll_needed"] and "one die" in nth(ev, 0, RollNeeded).reason
    return t, ref.position, one



def test_the_die_read_picks_the_roll_recorded_and_the_play_is_marked_not_checked() -> None:
    # Black's 13/6, one checker 7 pips: 6-1, 5-2 or 4-3; the 3 read says 4-3 (the record took 6-1)
    t, pos, one = _one_die_seen(3)
    after = _play(pos, "13/6")
    ev = t.played_dice_down(after, one)
    p = only(ev, PlayAccepted)
    assert p.dice == (4, 3) and p.extra["roll_unseen"] == ["43"] and p.extra["roll_seen"] == [3]
    assert p.extra["unchecked"] == "roll not seen" and p.message.count("Not checked: the roll was not seen")
    assert t.referee.last_verdict == "play taken, not checked: roll not seen"


def test_a_die_read_unsurely_narrows_nothing() -> None:
    # the same 3 read at 0.7 (a throw taken as unread, under the 0.9 a call needs): 24/14 is taken
    # for 6-4 as before, not checked
    t, pos, one = _one_die_seen(3, confidence=0.7)
    bad = _play(pos, "24/14")
    p = only(t.played_dice_down(bad, one), PlayAccepted)
    assert p.dice == (6, 4) and p.extra["unchecked"] and "roll_seen" not in p.extra
