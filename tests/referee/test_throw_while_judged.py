"""The next roll thrown while the opening play is still judged, and an illegal play pointed out (E8).

Real-like game 138 (``bench_reallike.py --frames 0 --games 200 --only 138 --trace``, seed 0): Black
plays the opening; White throws 6-3 while the referee still waits for the opening dice to go, and
one die of it reads 3 while the camera cannot read the other, beside a "die" the camera finds on a
checker all game (no die: twice a die's size, never read). The opening play stood only once White's
dice lay there; the watch had not counted them (it starts again once a play stands), so White's
roll was asked for two frames later, after White had played, and entered with the false die as its
second die. White's illegal play was then never seen final: the false die, where the entered roll
said a die lay, was taken for White's dice still down (E5), and the opponent's demand for a legal
play was refused ("nothing to correct now"), as the play was not judged yet. Now the watch counts
the next player's throw while the opening play is judged, so the roll is asked for as the play
stands, before the next play; and a demand made before the play is judged stands (E8): the play is
judged on the first clear frame without the roller's dice, and the demand is said once it is called.
A legal play is accepted as ever, demand or not.
"""

from __future__ import annotations

from tavli_pi.referee.events import Event
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import DieReading

from .synth import Table, kinds


def _die(value: int, xy: tuple[float, float], half: str = "right", *, size: float = 16.0,
         moving: bool = False) -> DieReading:
    conf = 0.0 if value == 0 else 0.3 if moving else 0.96
    return DieReading(xy, value, conf, True, False, half, moving, "", size)  # type: ignore[arg-type]


OPENING = (_die(2, (800.0, 400.0)), _die(4, (545.0, 370.0), "left"))  # White 2, Black 4: Black starts
THREE = _die(3, (799.0, 397.0))  # White's 3, read; the 6 is never found
FALSE = _die(0, (853.0, 171.0), size=26.0)  # a "die" found on a checker: never read, never thrown


class _Players:
    """The players as ``sim.drive`` has them: asked for a roll (``roll_needed``), they enter the one
    lying (6-3) before the next frame."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.entered = False

    def show(self, pos: object, **kw: object) -> list[Event]:
        out = self.t.show(pos, **kw)  # type: ignore[arg-type]
        if "roll_needed" in kinds(out) and not self.entered:
            self.entered = True
            out += self.t.press(Action.ROLL, level=63)
        return out


def _opening_then_white_throws() -> tuple[Table, _Players, list[Event]]:
    """Black's opening 4-2 played; White's 6-3 lands before the opening dice are seen gone."""
    t = Table(Referee())
    ref = t.referee
    t.setup()
    t.throw(Position.start(), OPENING)
    assert ref.phase == "rolled" and ref.position.turn is Side.BLACK and ref.dice == (4, 2)
    after = next(r.position for r in legal_results(ref.before, (4, 2)))
    players = _Players(t)
    t.show(ref.before, dice=OPENING, hand=True)
    t.show(after, dice=OPENING, hand=True)
    t.show(after, dice=OPENING)
    t.show(after, motion=True)  # Black picks the opening dice up
    out = t.show(after, dice=(_die(6, (700.0, 300.0), moving=True), _die(3, (760.0, 350.0), moving=True)),
                 motion=True)  # White throws
    out += players.show(after, dice=(THREE, FALSE), motion=True)  # the dice land
    out += players.show(after, dice=(THREE, FALSE))
    return t, players, out


def test_a_roll_thrown_while_the_opening_play_is_judged_is_asked_for_as_the_play_stands() -> None:
    t, players, out = _opening_then_white_throws()
    # the opening play stands on the frame White's dice lie still on, and their roll is asked for
    # with it (on 409ea90: two frames later, once the watch had counted them again)
    assert kinds(out)[-3:] == ["play_accepted", "roll_needed", "roll_accepted"]
    assert t.referee.phase == "rolled" and t.referee.position.turn is Side.WHITE and t.referee.dice == (6, 3)


def _white_plays(t: Table, players: _Players, text: str, *, demand: bool) -> list[Event]:
    """White plays ``text`` (hand), the board stands with the dice down, White picks the dice up (the
    false die seen on that frame); the opponent demands a legal play (``demand``); the board stands."""
    ref = t.referee
    before = ref.before
    played = apply_play(before, parse_play(before, text))
    out = players.show(played, dice=(THREE, FALSE), hand=True, motion=True)
    out += players.show(played, dice=(THREE, FALSE))
    out += players.show(played, dice=(FALSE,), motion=True)  # the dice picked up
    if demand:
        out += t.press(Action.CORRECT, Side.BLACK)
    out += players.show(played)
    return out


def test_an_illegal_play_pointed_out_before_it_is_judged_is_called_and_the_demand_stands() -> None:
    t, players, _ = _opening_then_white_throws()
    before = t.referee.before
    out = _white_plays(t, players, "24/18 8/6", demand=True)  # a 6 and a 2 for 6-3 (M1)
    assert "action_refused" not in kinds(out)
    assert kinds(out)[-2:] == ["illegal_play", "correction_demanded"]
    assert t.referee.phase == "correcting"
    good = next(r.position for r in legal_results(before, (6, 3)))
    players.show(good, hand=True)
    got = players.show(good, n=2)
    assert "illegal_play_resolved" in kinds(got) and t.referee.phase == "awaiting_roll"


def test_a_legal_play_is_accepted_though_the_opponent_demanded_a_legal_play() -> None:
    t, players, _ = _opening_then_white_throws()
    before = t.referee.before
    out = _white_plays(t, players, "24/18 8/5", demand=True)
    assert any(r.position.layout_key() == t.referee.position.layout_key() for r in legal_results(before, (6, 3)))
    assert "play_accepted" in kinds(out) and "illegal_play" not in kinds(out)


def test_without_a_demand_a_legal_play_is_accepted_and_an_illegal_one_waits_for_the_dice_to_be_surely_gone() -> None:
    t, players, _ = _opening_then_white_throws()
    out = _white_plays(t, players, "24/18 8/5", demand=False)
    assert "play_accepted" in kinds(out) and "illegal_play" not in kinds(out)
    t, players, _ = _opening_then_white_throws()
    out = _white_plays(t, players, "24/18 8/6", demand=False)
    # entered dice are too small to be found on every frame: one frame without them is no pick-up
    # (DICE_GONE_FRAMES), and the false die kept them "down" on the frame before
    assert "illegal_play" not in kinds(out) and t.referee.phase == "rolled"
    played = apply_play(t.referee.before, parse_play(t.referee.before, "24/18 8/6"))
    assert "illegal_play" in kinds(players.show(played))  # the second frame without them
