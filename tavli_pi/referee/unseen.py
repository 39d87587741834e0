"""A play seen without its roll: the dice were missed, or were too small to read and nobody
entered the roll.

A real camera misses dice: small dice on a busy board, dice in the shadow of a hand, a
broadcast overlay. Without the roll the referee cannot check the etiquette of the throw
(E2, E3), but the play itself still shows: once the dice are picked up (E5) the board holds
the position after one play of the side on roll. If that position is a legal end for some
roll, and the evidence picks it out clearly (the same margins as any accepted play), the
play is accepted as played, with the rolls it is legal for; the referee says the roll was
not seen. It is never called illegal this way: a board that no legal play for any roll
explains is, as before, a board the referee lost track of (``board_out_of_sync``).

The next roll can show it too: while the referee waits for X's roll, two dice lying in the other
player's half (or, at the opening, both in one half) are that player's roll, so X's turn was played
unseen; the board is judged for X's play then, before the dice are read or voided (a roll in the
wrong half, a same-half opening roll), and the dice are taken as the next roll.

Most plays name their roll (6-5 from 24 to 13 is only 6-5); a single checker moved 7 pips is
6-1, 5-2 or 4-3, and the record takes the first.

The function here is pure: the rules give every legal end of ``before`` for every roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from tavli_pi.rules.position import Side

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.vision.observation import DieReading

__all__ = ["ROLLS", "OPENING_ROLLS", "UNSEEN_ROLL_WAIT", "UnseenPlay", "AskedRoll", "plays_for_any_roll",
           "rolls_text", "roller_of"]

#: the 21 rolls, higher die first (6-6, 6-5, ..., 1-1)
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))
#: seconds an attended table's players have to enter the roll of a play the camera saw without it
#: (``roll_needed``); unanswered, the play is taken as legal for the rolls it fits. (A constant, not a
#: setting: a new :class:`RefereeSettings` field would misalign the snapshots older versions wrote.)
UNSEEN_ROLL_WAIT = 10.0
#: an opening roll of backgammon is never a double (E1: a tie is rolled again)
OPENING_ROLLS: tuple[tuple[int, int], ...] = tuple(r for r in ROLLS if r[0] != r[1])


@dataclass(frozen=True, slots=True)
class UnseenPlay:
    """A position one legal play of the side on roll reaches, and the rolls it is legal for."""

    position: GamePosition  # after the play; the turn is unchanged
    rolls: tuple[tuple[int, int], ...]  # in ROLLS order
    moves: str  # the play for the first of them, as the rules write it


@dataclass(frozen=True, slots=True)
class AskedRoll:
    """A play seen without its roll, whose roll the players were asked to enter (plain values: a
    snapshot stores them)."""

    key: object  # the layout key of the board the play reached
    side: Side  # whose play it is
    opening: bool  # the opening turn's play
    at: float  # when the players were asked (the referee's clock, seconds)


@lru_cache(maxsize=8)
def plays_for_any_roll(game: GameRules, before: GamePosition,
                       rolls: tuple[tuple[int, int], ...] = ROLLS) -> tuple[UnseenPlay, ...]:
    """Every distinct position a legal play of ``before.turn`` reaches for one of ``rolls``.

    A roll with no legal move leaves the board as it is: that is no play to infer, so the
    position before is never among them. Kept for the last few positions: the referee asks on
    every clear frame while it waits for a roll.
    """
    seen: dict[object, tuple[GamePosition, list[tuple[int, int]], str]] = {}
    start = before.layout_key()
    for roll in rolls:
        for end in game.ends(before, roll):
            key = end.position.layout_key()
            if key == start:
                continue
            found = seen.get(key)
            if found is None:
                seen[key] = (end.position, [roll], end.moves)
            elif found[1][-1] != roll:
                found[1].append(roll)
    return tuple(UnseenPlay(pos, tuple(rs), moves) for pos, rs, moves in seen.values())


def rolls_text(rolls: Sequence[tuple[int, int]]) -> str:
    """``6-1, 5-2 or 4-3``."""
    words = [f"{a}-{b}" for a, b in rolls]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def roller_of(dice: Sequence[DieReading], light_is_white: bool = True) -> Side | None:
    """The side whose half (its right hand, from the light player's seat) holds every one of
    ``dice``; None without dice, or with dice in both halves, on the bar or off the board."""
    halves = {d.half for d in dice}
    if len(halves) != 1:
        return None
    light = Side.WHITE if light_is_white else Side.BLACK
    half = next(iter(halves))
    return light if half == "right" else light.other if half == "left" else None
