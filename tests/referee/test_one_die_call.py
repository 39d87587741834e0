"""A play with one die of its roll read surely and the other never read (referee/one_die_call.py).

Unattended (a recording: nobody enters a roll), ``bench_video`` 1280 px game 10: a 3 read at 0.97, the
6 never found, and Black's planted play, legal only for 6-4, was held out of step. No value 1-6 of the
missing die makes it legal, so it is illegal whatever that die shows: it is called (E8), naming the die
read and saying the other was not; the opponent may accept it or demand a legal play. A play that some
value of the missing die makes legal is taken as before (not checked).
"""

from __future__ import annotations

from tavli_pi.referee.events import IllegalPlay, IllegalPlayResolved, PlayAccepted, RollNeeded
from tavli_pi.referee.one_die_call import UNREAD, ends_with, fitting_roll, judge_one_die, rolls_with
from tavli_pi.referee.game import PortesRules
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import DieReading

from .synth import Table, die, kinds, nth, observe, only, opened

UNATTENDED = RefereeSettings(attended=False)


def _play(pos: Position, text: str) -> Position:
    return apply_play(pos, parse_play(pos, text))


def _one_die_seen(t: Table, value: int = 3) -> tuple[Position, tuple[DieReading, ...]]:
    """After the opening, Black's roll lies with one die read (``value``, at 0.97) and the other never
    found; the referee asks for the roll."""
    ref = opened(t)
    one = (die(value, "left", confidence=0.97),)
    ev = t.throw(ref.position, one, settled=3)
    assert kinds(ev) == ["roll_needed"] and "one die" in nth(ev, 0, RollNeeded).reason
    return ref.position, one



def test_a_play_no_value_of_the_unread_die_allows_is_called() -> None:
    t = Table(Referee(UNATTENDED))
    pos, one = _one_die_seen(t)
    bad = _play(pos, "24/14")  # legal only for 6-4
    ev = t.played_dice_down(bad, one)
    call = only(ev, IllegalPlay)
    assert "play_accepted" not in kinds(ev) and "board_out_of_sync" not in kinds(ev)
    assert call.dice == (3, UNREAD) and call.observed is not None and call.observed.layout_key() == bad.layout_key()
    assert "read a 3 on one die and not the other" in call.message and "no roll with a 3" in call.message
    assert "may accept it or demand a legal play (E8)" in call.message and call.extra["die_unread"]
    assert t.referee.phase == "illegal"
    # the play put right with the roll really thrown (6-3, holding the 3): the turn is that roll's
    good = _play(pos, "24/18 13/10")
    ev = t.show(good, hand=True) + t.show(good, 4)
    done = only(ev, IllegalPlayResolved)
    assert not done.accepted and done.after.layout_key() == good.layout_key() and done.extra["dice"] == [6, 3]
    assert t.referee.phase == "awaiting_roll" and t.referee.position.turn.name == "WHITE"


def test_a_play_some_value_of_the_unread_die_allows_is_taken_not_called() -> None:
    t = Table(Referee(UNATTENDED))
    pos, one = _one_die_seen(t)
    after = _play(pos, "24/18 13/10")  # legal for 6-3
    ev = t.played_dice_down(after, one)
    assert "illegal_play" not in kinds(ev)
    p = only(ev, PlayAccepted)
    assert p.dice == (6, 3) and p.extra["unchecked"]


def test_an_attended_table_is_asked_for_the_roll_not_called() -> None:
    # players who can enter the roll are asked for it: the play is judged on the whole roll then
    t = Table(Referee(RefereeSettings()))
    pos, one = _one_die_seen(t)
    ev = t.played_dice_down(_play(pos, "24/14"), one)
    assert "illegal_play" not in kinds(ev)


def test_the_ends_of_every_roll_holding_the_die_read() -> None:
    game = PortesRules()
    pos = Position.start().with_turn(Position.start().turn.other)
    assert rolls_with(3) == ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3))
    ends = ends_with(game, pos, 3)
    keys = {e.position.layout_key() for e in ends}
    assert len(keys) == len(ends)  # each board once
    assert keys == {e.position.layout_key() for r in rolls_with(3) for e in game.ends(pos, r)}
    assert fitting_roll(game, pos, 3, _play(pos, "24/18 13/10")) == (6, 3)
    assert fitting_roll(game, pos, 3, _play(pos, "24/14")) is None
    # judged on a call's evidence: clear frames of 24/14 are illegal for every roll with a 3
    frames = [observe(_play(pos, "24/14"))] * 2
    v = judge_one_die(frames, game, pos, 3, RefereeSettings())
    assert v is not None and v.kind == "illegal"
    assert judge_one_die([observe(_play(pos, "24/18 13/10"))] * 2, game, pos, 3, RefereeSettings()) is None


def test_a_play_let_stand_with_one_die_unread_is_recorded_with_two_dice() -> None:
    # the opponent rolls (E8: rolling accepts the illegal play); the turn fits no roll with the 3, and a
    # game record needs two dice: it is given the roll with a 3 whose legal plays come nearest the play,
    # said in the message and flagged, never a die 0 (a .mat line "30:" is no roll gnubg reads)
    from tavli_pi.record.game_record import build_record
    from tavli_pi.record.header import MatchHeader
    from tavli_pi.record.mat import format_mat, parse_mat
    from .synth import roll_dice
    from tavli_pi.rules.position import Side

    t = Table(Referee(UNATTENDED))
    pos, one = _one_die_seen(t)
    bad = _play(pos, "24/14")
    only(t.played_dice_down(bad, one), IllegalPlay)
    ev = t.throw(bad, roll_dice(Side.WHITE, (5, 2)))
    done = only(ev, IllegalPlayResolved)
    assert done.accepted and done.extra["die_guessed"]
    roll = tuple(done.extra["dice"])
    assert 3 in roll and all(1 <= d <= 6 for d in roll)
    assert f"the record gives the turn {roll[0]}-{roll[1]}" in done.message
    mat = format_mat(build_record(MatchHeader(match_length=5), t.events))
    assert f"{roll[0]}{roll[1]}:" in mat and "30:" not in mat and " 03:" not in mat
    assert len(parse_mat(mat).games) == 1
