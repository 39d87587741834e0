"""What the camera saw of a roll it could not read: the rolls a play made with it may be judged under.

A roll is "unread" (:class:`~tavli_pi.referee.dice.DiceWatch` ``unread``) when its dice lay still but
were not both read surely: one die read and the other never found ("the camera finds one die only"),
two dice found with a value read under the sure threshold, or dice too small to read. Nobody entering
the roll (a recording, or players who do not answer), the play that follows is taken as legal for the
rolls it fits (:mod:`tavli_pi.referee.unseen`). What *was* seen of the roll still counts, as it would
for a tournament director who saw one die land: a die read surely (at ``illegal_confidence``, the
confidence a call needs) is one of the two dice, so only the rolls holding it are rolls the play may
have been made with (stop 20, ``bench_video`` game 10: a 3 read at 0.97 on every frame, the 6 never
found, and the planted 20/10 -- legal only for 6-4 -- was accepted as a 6-4).

A die read under that confidence narrows nothing (a 5 read as a 4 at 0.3 is no evidence of a 4), and
neither does the number of dice too small to read: a double is rolled with two dice like any roll.

The dice must lie in the half of the side whose play is judged (its right hand, E2): dice in the other
half are the other player's next roll (the play before them was made unseen), not this play's. At a
backgammon opening the two dice lie one in each half and both are the winner's roll; a Plakoto or Fevga
opening's single dice are not played (V3) and say nothing of the first play's roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tavli_pi.referee.dice import own_half

if TYPE_CHECKING:
    from tavli_pi.rules.position import Side
    from tavli_pi.vision.observation import DieReading

__all__ = ["sure_values", "rolls_holding", "seen_of_roll", "seen_text"]


def sure_values(dice: Sequence[DieReading], confidence: float) -> tuple[int, ...]:
    """The values (1-6) of ``dice`` read at ``confidence`` or more, highest first (at most two)."""
    return tuple(sorted((d.value for d in dice if 1 <= d.value <= 6 and d.value_confidence >= confidence),
                        reverse=True)[:2])


def rolls_holding(values: Sequence[int], rolls: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The rolls of ``rolls`` whose two dice include every one of ``values`` (as many times as given)."""
    out = []
    for roll in rolls:
        left = list(roll)
        for v in values:
            if v not in left:
                break
            left.remove(v)
        else:
            out.append(roll)
    return tuple(out)


def seen_of_roll(unread: Sequence[DieReading] | None, side: Side, *, opening: bool, light_is_white: bool,
                 confidence: float) -> tuple[int, ...]:
    """The die values surely read of the unread throw ``unread`` that are ``side``'s roll: () when none
    is, or when a die read lies outside ``side``'s half (not opening: dice there are not its roll)."""
    if not unread:
        return ()
    values = sure_values(unread, confidence)
    if not values:
        return ()
    if not opening:
        half = own_half(side, light_is_white)
        if any(d.half != half for d in unread):
            return ()
    return values


def seen_text(values: Sequence[int]) -> str:
    """``a 3 on one die`` / ``5 and 2``."""
    if len(values) == 1:
        return f"a {values[0]} on one die"
    return " and ".join(map(str, values))
