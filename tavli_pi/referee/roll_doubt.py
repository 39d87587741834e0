"""Dice read without certainty: before an illegal call, could the roll be another one?

An illegal call judges the board against the roll the camera read. A die vision reads at a
confidence under ``illegal_confidence`` is not evidence enough for a call: a 6 read as a 4
(the middle pips lost on a small die) turns a legal 6-2 into an "illegal" 4-2 (the two false
calls of the real-like games, bench/RESULTS.md). So the referee calls a play illegal only when
no roll the dice could plausibly be allows it: a die read surely (``illegal_confidence`` or
more, or entered by the players) is the value read, any other die may be any value. When
another plausible roll allows the board, the players are asked for the roll (E2) and the play
is judged against it; nothing is asked on a turn whose play fits the roll read, so the players
are not asked every turn. A play no plausible roll allows is called; the board the player then puts
right is judged against the plausible rolls too (:func:`put_right`): a legal play of one of them is
the correction, made with the roll really thrown.

Pure functions; the referee's part is in :mod:`tavli_pi.referee.referee`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.referee.unseen import plays_for_any_roll
from tavli_pi.referee.verdict import Verdict, judge_evidence
from tavli_pi.vision.observation import Observation

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.rules.games import GamePosition

__all__ = ["plausible_rolls", "rolls_allowing", "other_roll_ends", "put_right", "describe"]

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


def other_roll_ends(game: GameRules, before: GamePosition, dice: tuple[int, int], confidence: Sequence[float],
                    sure: float) -> list[tuple[tuple[int, int], GamePosition]]:
    """The legal ends of ``before``'s play for the rolls other than ``dice`` that the dice could be
    (:func:`plausible_rolls`), each with its roll (the likeliest first), leaving out the ends of ``dice``
    itself and any end already given: the boards a play put right after a call on a misread die may show."""
    seen = {e.position.layout_key() for e in game.ends(before, dice)}
    out: list[tuple[tuple[int, int], GamePosition]] = []
    for roll in plausible_rolls(dice, confidence, sure)[1:]:
        for end in game.ends(before, roll):
            key = end.position.layout_key()
            if key not in seen:
                seen.add(key)
                out.append((roll, end.position))
    return out


def put_right(frames: Sequence[Observation], candidates: Sequence[GamePosition], before: GamePosition,
              dice: tuple[int, int], confidence: Sequence[float], settings: RefereeSettings, game: GameRules,
              blind: Sequence[int] = ()) -> tuple[tuple[int, int] | None, Verdict]:
    """After a call on dice read without certainty, the board the player put right may be a legal play
    of another roll the dice could be -- the one really thrown (stop 18, real-like game 132: a 5 read as a
    4, the 5-1 correction no 4-1 play). Judged against ``candidates`` (the ends of the roll read) and the
    ends of those rolls (:func:`other_roll_ends`): (that roll, the verdict) when an end of one of them
    stands clearly, else (None, the verdict). With dice read surely there is no other roll to try."""
    ends = other_roll_ends(game, before, dice, confidence, settings.illegal_confidence)
    if not ends:
        return None, Verdict("unclear", None, None, "the dice were read surely")
    v = judge_evidence(frames, [*candidates, *(p for _, p in ends)], settings, before.turn, game=game,
                       known=before, blind=blind)
    if v.kind == "legal" and v.reading is not None and v.reading.best >= len(candidates):
        return ends[v.reading.best - len(candidates)][0], v
    return None, v


def describe(rolls: Sequence[tuple[int, int]], most: int = 3) -> str:
    """``rolls`` for a message: "6-2, 5-3 ..." (at most ``most`` named)."""
    text = ", ".join(f"{a}-{b}" for a, b in rolls[:most])
    return text + (" ..." if len(rolls) > most else "")
