"""A play judged with one die of its roll read surely and the other never read.

Nobody at the table enters a roll the camera could not read (a recording, ``attended = false``): the
play that follows is taken as legal for the rolls it fits, or, when a die of the roll was read surely
and no roll holding it allows the play, held out of step (:mod:`tavli_pi.referee.roll_seen`). A
tournament director who saw one die land and not the other still knows something: when no value 1-6
of the missing die makes the play legal, the play is illegal whatever that die shows, and it is called
as any illegal play is (E8: before the next roll; the opponent may accept it or demand a legal play)
-- ``bench_video`` 1280 px game 10: a 3 read at 0.97, the 6 never found, and the planted 20/10 (legal
only for 6-4) held out of step instead of called.

The evidence is a call's as ever (:func:`~tavli_pi.referee.verdict.judge_evidence` against the legal
ends of every roll holding the die read: ``illegal_gap`` over each, ``illegal_confidence`` on the
spots it rests on, alike in ``stable_frames`` frames), and the board must be one play of the mover
for some such roll. When some value of the missing die makes the board legal, nothing is called
(the play is taken as before, not checked). The roll the call names is the die read and ``0`` for
the die not read (:data:`UNREAD`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tavli_pi.referee.verdict import Verdict, judge_evidence
from tavli_pi.rules.games import End

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.vision.observation import Observation

__all__ = ["UNREAD", "rolls_with", "ends_with", "judge_one_die", "fitting_roll", "nearest_with"]

#: the value a call gives the die of the roll the camera never read
UNREAD = 0


def rolls_with(value: int) -> tuple[tuple[int, int], ...]:
    """The six rolls holding a die of ``value`` (high die first)."""
    return tuple((max(value, x), min(value, x)) for x in range(1, 7))


def ends_with(game: GameRules, before: GamePosition, value: int) -> tuple[End, ...]:
    """The legal ends of ``before``'s play over every roll holding a die of ``value``, each board once."""
    seen: set[object] = set()
    out: list[End] = []
    for roll in rolls_with(value):
        for end in game.ends(before, roll):
            key = end.position.layout_key()
            if key not in seen:
                seen.add(key)
                out.append(end)
    return tuple(out)


def fitting_roll(game: GameRules, before: GamePosition, value: int, after: GamePosition) -> tuple[int, int] | None:
    """The first roll holding ``value`` of which ``after`` is a legal end (None: none is)."""
    key = after.layout_key()
    for roll in rolls_with(value):
        ends = game.ends(before, roll)
        if any(e.position.layout_key() == key for e in ends) or (not ends and key == before.layout_key()):
            return roll
    return None


def nearest_with(game: GameRules, before: GamePosition, value: int, observed: GamePosition
                 ) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, int]]:
    """The nearest legal plays to ``observed`` and the points where it is wrong
    (:meth:`~tavli_pi.referee.game.GameRules.nearest`) for the roll holding ``value`` that leaves the
    fewest points wrong, with that roll."""
    best: tuple[tuple[str, ...], tuple[int, ...], tuple[int, int]] | None = None
    for roll in rolls_with(value):
        nearest, wrong = game.nearest(before, roll, observed)
        if best is None or len(wrong) < len(best[1]):
            best = (nearest, wrong, roll)
    assert best is not None
    return best


def judge_one_die(frames: Sequence[Observation], game: GameRules, before: GamePosition, value: int,
                  settings: RefereeSettings, *, blind: Sequence[int] = ()) -> Verdict | None:
    """The illegal verdict on the board of ``frames``, a play from ``before`` with a die of ``value`` read
    and the other not: illegal against the legal ends of every roll holding ``value`` (a roll with no legal
    move: the board as it was) on a call's usual evidence, and one play of the mover for some such roll.
    None when it is not so (some roll holding ``value`` allows the board, or the evidence is short)."""
    ends = ends_with(game, before, value)
    passes = [roll for roll in rolls_with(value) if not game.ends(before, roll)]
    candidates = [e.position for e in ends] + ([before] if passes else [])
    if not candidates or not frames:
        return None
    v = judge_evidence(frames, candidates, settings, before.turn, game=game, known=before, blind=blind)
    if v.kind != "illegal" or v.result is None or v.reason:
        return None
    if all(game.one_play_reason(before, v.result, roll) for roll in rolls_with(value)):
        return None
    return v
