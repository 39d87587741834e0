"""bench/bench_video.py's ``roll_fates``: a roll taken with values the camera misread is counted apart."""

from __future__ import annotations

from bench.bench_video import FATES, roll_fates
from tavli_pi.referee.events import Phase, PlayAccepted, RollAccepted, TableState
from tavli_pi.rules.position import Position, Side
from tavli_pi.sim.script import Moment, ScriptDie


def _game(read: tuple[int, int]) -> tuple[list[Moment], list[RollAccepted | PlayAccepted]]:
    start = Position.start()
    thrown = (ScriptDie(4, "right"), ScriptDie(4, "right", slot=1))
    moments = [Moment(start, dice=thrown, expect=("roll_accepted",)), Moment(start, dice=thrown),
               Moment(start, expect=("play_accepted",))]
    state = TableState(phase=Phase.ROLLED, position=start, dice=read)
    events: list[RollAccepted | PlayAccepted] = [
        RollAccepted(at=0.1, state=state, side=Side.WHITE, dice=read),
        PlayAccepted(at=0.2, state=state, side=Side.WHITE, dice=read, play="", before=start, after=start),
    ]
    return moments, events


def test_a_roll_taken_with_the_values_thrown_is_read_and_one_misread_is_read_wrong() -> None:
    """Held-out clip seed 7, game 12: a 3-4 taken as 3-2 (the 4 read as a 2 at 0.89) was counted as read."""
    assert "read wrong" in FATES
    assert roll_fates(*_game((4, 4))) == {"read": 1}
    assert roll_fates(*_game((4, 1))) == {"read wrong": 1}
