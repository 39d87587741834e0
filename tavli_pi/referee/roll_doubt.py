"""Dice read without certainty: before an illegal call, could the roll be another one?

An illegal call judges the board against the roll the camera read. A die vision reads at a
confidence under ``illegal_confidence`` is not evidence enough for a call: a 6 read as a 4
(the middle pips lost on a small die) turns a legal 6-2 into an "illegal" 4-2 (the two false
calls of the real-like games, bench/RESULTS.md). So the referee calls a play illegal only when
no roll the dice could plausibly be allows it: a die read surely (``illegal_confidence`` or
more, or entered by the players) is the value read, any other die may be any value. When
another plausible roll allows the board, the players are asked for the roll (E2) and the play
is judged against it; nothing is asked on a turn whose play fits the roll read, so the players
are not asked every turn.

Pure functions; the referee's part is in :mod:`tavli_pi.referee.referee`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tavli_pi.referee.unseen import plays_for_any_roll

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.rules.games import GamePosition

__all__ = ["plausible_rolls", "rolls_allowing", "describe"]

FACES = (1, 2, 3, 4, 5, 6)


def plausible_rolls(dice: tuple[int, int], confidence: Sequence[float], sure: float) -> list[tuple[int, int]]:
    """Every roll (high die first, no repeats) the dice read as ``dice`` could be: a die read
    with ``confidence`` ``sure`` or more is its value, any other die any face. The read roll
    comes first; the others by how few dice differ from it, then from high to low."""
    faces = [(v,) if c >= sure else FACES for v, c in zip(dice, confidence)]
    read = (max(dice), min(dice))
    out = {(max(a, b), min(a, b)) for a in faces[0] for b in faces[1]}
    out.discard(read)

    def changed(r: tuple[int, int]) -> int:
        left = list(read)
        same = 0
        for v in r:
            if v in left:
                left.remove(v)
                same += 1
        return 2 - same

    return [read] + sorted(out, key=lambda r: (changed(r), -r[0], -r[1]))


def rolls_allowing(game: GameRules, before: GamePosition, observed: GamePosition,
                   rolls: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``rolls`` for which ``observed`` is a legal end of the play from ``before`` (in their order)."""
    key = observed.layout_key()
    return next((list(p.rolls) for p in plays_for_any_roll(game, before, tuple(rolls))
                 if p.position.layout_key() == key), [])


def describe(rolls: Sequence[tuple[int, int]], most: int = 3) -> str:
    """``rolls`` for a message: "6-2, 5-3 ..." (at most ``most`` named)."""
    text = ", ".join(f"{a}-{b}" for a, b in rolls[:most])
    return text + (" ..." if len(rolls) > most else "")
