"""A roll taken only once the play was made keeps the clear frames of the board since the last hand.

Traced real-like games 0 and 48 (``bench_reallike.py --only 0,48 --trace``, seed 0): the dice
could not be read, the players were asked for the roll (``roll_needed``) and entered it only after
the play, or the roll was read only then. Taking the roll threw away the clear frames already seen
of the board after the play, so the verdict waited for new ones: game 0's play was accepted a frame
later, and in game 48 the planted illegal play had one clear frame left in its window (it needs
``stable_frames``). The frames since the last hand show the board as it stands; a roll taken in
time is followed by the play's hand, which clears them; frames of the board as it was are dropped
at the roll as before (a play whose hand the reader missed would otherwise be judged on them too:
seed 1's game 9 was accepted a frame later when they were kept).
"""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Side

from .synth import Table, die, kinds, opened, roll_dice

SMALL = tuple(dataclasses.replace(die(0, "left", confidence=0.0), note="too small to read (8 px, need 12)")
              for _ in range(2))


def _asked_then_played(text: str) -> tuple[Table, list]:  # type: ignore[type-arg]
    """Black's dice too small to read (the roll asked for); Black plays ``text`` and leaves the
    board clear for a frame with the dice still down; then the players enter 4-2."""
    t = Table(Referee())
    ref = opened(t)
    before = ref.position
    asked = t.throw(before, SMALL)
    assert "roll_needed" in kinds(asked)
    after = apply_play(before, parse_play(before, text))
    t.show(before, dice=SMALL, hand=True)
    t.show(after, dice=SMALL, hand=True)
    t.show(after, dice=SMALL)  # the board as played, clear, the dice still down
    out = t.press(Action.ROLL, level=42)
    assert "roll_accepted" in kinds(out) and ref.dice == (4, 2) and ref.before.turn is Side.BLACK
    out += t.show(after, motion=True)  # the dice picked up
    return t, out


def test_an_illegal_play_before_the_roll_was_entered_is_called_on_the_first_clear_frame_after() -> None:
    t, out = _asked_then_played("13/9 13/10")  # a 4 and a 3 for 4-2 (M1)
    first = t.show(apply_play(t.referee.before, parse_play(t.referee.before, "13/9 13/10")))
    assert "illegal_play" in kinds(first)
    assert "play_accepted" not in kinds(out + first)


def test_a_legal_play_before_the_roll_was_entered_is_accepted_on_the_first_clear_frame_after() -> None:
    t, out = _asked_then_played("13/9 13/11")
    after = apply_play(t.referee.before, parse_play(t.referee.before, "13/9 13/11"))
    assert any(r.position.layout_key() == after.layout_key() for r in legal_results(t.referee.before, (4, 2)))
    first = t.show(after)
    assert "play_accepted" in kinds(out + first) and "illegal_play" not in kinds(out + first)


def _read_after_played(text: str) -> tuple[Table, list]:  # type: ignore[type-arg]
    """Black's 4-2 thrown and read on one still frame before Black's hand comes (a smear flagged
    tumbling under the hand: the watch neither counts nor resets there); Black plays ``text``; the
    dice are read again with the board as played, clear: the roll settles on that frame."""
    t = Table(Referee())
    ref = opened(t)
    before = ref.position
    dice = roll_dice(Side.BLACK, (4, 2))
    smear = die(0, "left", moving=True, confidence=0.0)
    t.show(before, dice=dice)  # read once, still
    t.show(before, dice=(*dice, smear), hand=True)
    after = apply_play(before, parse_play(before, text))
    t.show(after, dice=(*dice, smear), hand=True)
    out = t.show(after, dice=dice)  # the board as played, clear, both dice still down and read
    assert "roll_accepted" in kinds(out) and ref.dice == (4, 2) and ref.before.turn is Side.BLACK
    return t, out


def test_a_roll_read_only_after_its_play_is_judged_on_the_frame_it_settles_on_too() -> None:
    t, out = _read_after_played("13/9 13/11")
    after = apply_play(t.referee.before, parse_play(t.referee.before, "13/9 13/11"))
    first = t.show(after)  # the dice picked up: the first clear frame without them
    assert "play_accepted" in kinds(out + first) and "illegal_play" not in kinds(out + first)


def test_an_illegal_play_made_before_its_roll_was_read_is_called_on_the_first_frame_without_the_dice() -> None:
    t, out = _read_after_played("13/9 13/10")  # a 4 and a 3 for 4-2 (M1)
    first = t.show(apply_play(t.referee.before, parse_play(t.referee.before, "13/9 13/10")))
    assert "illegal_play" in kinds(out + first) and "play_accepted" not in kinds(out + first)
