"""The next roll lands, one die of it found, while the opening play is still judged (E5, E8).

Real-like game 145 (rosewood, 640 px; ``bench_reallike.py --frames 0 --games 200 --only 145 --trace``,
seed 0): the opening dice are too small to read (White 4, Black 5, entered by the players; the camera
finds White's die on one frame only). Black plays, picks the dice up (two frames without dice, both with
motion: no verdict), and White's 4-1 lands at once; the camera finds the 1 alone, read at 0.91, a hand's
width from where White's opening die lay. One die in White's half is what the opening roll leaves there
too, and a die read surely counted as the roller's wherever it lay: the opening dice were "still seen",
the play never judged, and the referee stayed on the opening turn all game (0 of 8 plays accepted). Now
a die that is no die of the roll (read surely, lying where none of the roll lay, and showing a value
none of them shows, or seen after the roll's dice were gone for as long as a pick-up takes) is the next
throw: the play is judged on its still frames, and the throw is asked for as the play stands.
"""

from __future__ import annotations

from tavli_pi.referee.events import Event
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import legal_results
from tavli_pi.rules.games import GamePosition
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import DieReading

from .synth import Table, kinds


def _die(value: int, xy: tuple[float, float], half: str, size: float) -> DieReading:
    note = "" if value else f"too small to read ({size:.0f} px, need 12)"
    return DieReading(xy, value, 0.91 if value else 0.0, True, False, half, False, note, size)  # type: ignore[arg-type]


BLACKS = _die(0, (389.0, 161.0), "left", 11.0)  # Black's opening 5, too small to read
WHITES = _die(0, (279.0, 191.0), "right", 10.0)  # White's opening 4, found on one frame


def _opening_played(empty: int = 2) -> tuple[Table, GamePosition]:
    """Black's opening 5-4 entered, played, and ``empty`` frames without dice, with motion (Black picks
    the dice up, White throws; two such frames are a pick-up of dice too small to read)."""
    t = Table(Referee())
    ref = t.referee
    t.setup()
    t.show(Position.start(), motion=True)  # the opening throw
    out = t.show(Position.start(), 2, dice=(BLACKS,))
    assert "roll_needed" in kinds(out)
    t.press(Action.ROLL, level=45)  # White's die, then Black's
    t.show(Position.start(), dice=(WHITES, BLACKS))
    assert ref.phase == "rolled" and ref.position.turn is Side.BLACK and ref.dice == (5, 4)
    after = next(r.position for r in legal_results(ref.before, (5, 4)))
    t.show(after, dice=(WHITES, BLACKS), hand=True, motion=True)
    t.show(after, dice=(BLACKS,))
    t.show(after, empty, motion=True)
    return t, after


def _white_lands(t: Table, after: GamePosition, die: DieReading) -> list[Event]:
    out = t.show(after, dice=(die,), motion=True)
    for _ in range(3):
        out += t.show(after, dice=(die,))
    return out


def test_one_die_of_the_next_throw_showing_another_value_settles_the_opening_play() -> None:
    t, after = _opening_played()
    out = _white_lands(t, after, _die(1, (248.0, 178.0), "right", 9.2))  # White's 1; the 4 never found
    # on 17d9b2d: no event, the referee still waits for the opening dice to go (phase "rolled")
    assert kinds(out)[:2] == ["play_accepted", "roll_needed"]
    assert t.referee.position.turn is Side.WHITE and t.referee.position.layout_key() == after.layout_key()
    assert t.referee.phase == "awaiting_roll"
    t.press(Action.ROLL, level=41)
    assert t.referee.phase == "rolled" and t.referee.dice == (4, 1)


def test_one_die_showing_a_value_of_the_opening_roll_after_the_dice_were_gone_settles_it_too() -> None:
    t, after = _opening_played()
    out = _white_lands(t, after, _die(4, (248.0, 178.0), "right", 9.2))  # White's 4 found, the 1 not
    assert kinds(out)[:2] == ["play_accepted", "roll_needed"]
    assert t.referee.phase == "awaiting_roll" and t.referee.position.turn is Side.WHITE


def test_a_die_of_the_roll_missed_for_a_frame_and_read_again_keeps_the_play_open() -> None:
    t, after = _opening_played(empty=1)
    # White's opening die lost for one frame, then read (its value): the opening dice still lie
    out = _white_lands(t, after, _die(4, (281.0, 190.0), "right", 10.0))
    assert "play_accepted" not in kinds(out) and t.referee.phase == "rolled"
