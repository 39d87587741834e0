"""A pass the camera did not see (referee/unseen_dance.py): White on the bar dances unseen, Black's
roll in Black's half is voided as White's, and Black plays with it. The board then differs by Black's
play alone, and White had rolls with no legal move: the pass is recorded and Black's play is judged
against the dice (bench_reallike game 40: the play was lost as a board out of step)."""

from __future__ import annotations

from tavli_pi.record.game_record import Turn, build_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.referee.events import IllegalPlay, NoLegalMove, PlayAccepted
from tavli_pi.referee.game import rules_for
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.unseen_dance import dance_rolls, played_after_dance
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_settings import Variant

from .synth import Table, kinds, only, roll_dice

PORTES = rules_for(Variant.PORTES)


def _closed_out() -> Position:
    """White to roll with a checker on the bar; Black holds White's points 19-22 (White enters only
    with a 1 or a 2, so ten rolls are a dance)."""
    pts = [0] * 24
    pts[2], pts[5], pts[7], pts[12] = 2, 5, 3, 4  # White: 14 on the board, one on the bar
    pts[11], pts[16] = -5, -2  # Black's mid-point and a point on the way home
    for p in (18, 19, 20, 21):
        pts[p] = -2
    return Position(tuple(pts), (1, 0), (0, 0), Side.WHITE)


def _black_plays(before: Position, text: str) -> Position:
    black = before.with_turn(Side.BLACK)
    return apply_play(black, parse_play(black, text)).with_turn(Side.WHITE)


def _one_pip_further(board: Position, src: int, dst: int) -> Position:
    """``board`` with one Black checker moved from White's point ``src`` to ``dst`` (index 1-24)."""
    pts = list(board.points)
    pts[src - 1] += 1
    pts[dst - 1] -= 1
    return Position(tuple(pts), board.bar, board.off, board.turn)


def _table(start: Position) -> tuple[Table, Referee]:
    t = Table(Referee(start=start))
    t.setup(start)
    assert t.referee.phase == "awaiting_roll" and t.referee.position.turn is Side.WHITE
    return t, t.referee


def test_the_rolls_a_side_on_the_bar_cannot_enter_with() -> None:
    pos = _closed_out()
    dances = dance_rolls(PORTES, pos)
    assert len(dances) == 10 and dances[0] == (6, 6) and (2, 1) not in dances and (6, 1) not in dances
    assert dance_rolls(PORTES, Position.start()) == ()  # from the start every roll moves
    legal = _black_plays(pos, "13/7(2)")
    assert played_after_dance(PORTES, pos, legal, (3, 3))
    assert not played_after_dance(PORTES, pos, pos, (3, 3))  # nothing moved: no play to judge
    white_moved = Position(legal.points[:2] + (legal.points[2] - 1, legal.points[3] + 1) + legal.points[4:],
                           legal.bar, legal.off, legal.turn)
    assert not played_after_dance(PORTES, pos, white_moved, (3, 3))  # White's checkers moved too


def test_black_s_illegal_play_after_white_s_unseen_dance_is_called_E7_E8() -> None:
    pos = _closed_out()
    t, ref = _table(pos)
    dice = roll_dice(Side.BLACK, (3, 3))
    ev = t.throw(pos, dice)
    assert kinds(ev) == ["roll_void"]  # taken as White's roll in the wrong half (E3), as before
    legal = _black_plays(pos, "13/7(2)")  # White's points 12 -> 18
    bad = _one_pip_further(legal, 18, 19)  # one checker a pip too far
    ev = t.move_and_pick_up(pos, bad, dice)
    assert "board_out_of_sync" not in kinds(ev)
    assert kinds(ev)[:3] == ["no_legal_move", "roll_accepted", "illegal_play"]
    assert only(ev, NoLegalMove).side is Side.WHITE and only(ev, NoLegalMove).extra["roll_unseen"][0] == "66"
    ill = only(ev, IllegalPlay)
    assert ill.side is Side.BLACK and ill.dice == (3, 3)


def test_black_s_legal_play_after_white_s_unseen_dance_stands_and_the_pass_is_recorded() -> None:
    pos = _closed_out()
    t, ref = _table(pos)
    dice = roll_dice(Side.BLACK, (3, 3))
    t.throw(pos, dice)
    legal = _black_plays(pos, "13/7(2)")
    ev = t.move_and_pick_up(pos, legal, dice)
    assert kinds(ev) == ["no_legal_move", "roll_accepted", "play_accepted"]
    p = only(ev, PlayAccepted)
    assert p.side is Side.BLACK and p.dice == (3, 3) and p.after.layout_key() == legal.layout_key()
    assert ref.phase == "awaiting_roll" and ref.position.turn is Side.WHITE
    turns = [a for a in build_record(MatchHeader(match_length=5), t.events).games[0].actions if isinstance(a, Turn)]
    assert [(tn.side, tn.dice, tn.play) for tn in turns] == [(Side.WHITE, (6, 6), ()), (Side.BLACK, (3, 3), turns[1].play)]


def test_with_no_roll_to_dance_with_black_s_play_is_still_a_board_out_of_step() -> None:
    """From the start White moves with every roll: the dice in Black's half were White's wrong-half
    throw, and Black playing with them is no turn of the game (as before: out of step, never a call)."""
    pos = Position.start()
    t, ref = _table(pos)
    dice = roll_dice(Side.BLACK, (3, 1))
    assert kinds(t.throw(pos, dice)) == ["roll_void"]
    ev = t.move_and_pick_up(pos, _black_plays(pos, "8/5 6/5"), dice)
    assert "board_out_of_sync" in kinds(ev)
    assert not {"no_legal_move", "illegal_play", "play_accepted"} & set(kinds(ev))
    assert ref._void_roll is None  # out of step: the voided dice explain nothing any more


def test_a_wrong_half_throw_thrown_again_is_white_s_roll_as_before_E3() -> None:
    pos = _closed_out()
    t, ref = _table(pos)
    assert kinds(t.throw(pos, roll_dice(Side.BLACK, (3, 3)))) == ["roll_void"]
    t.show(pos, 2)  # picked up
    white = roll_dice(Side.WHITE, (2, 1))
    ev = t.throw(pos, white)
    assert kinds(ev) == ["roll_accepted"] and ref.position.turn is Side.WHITE
    entered = apply_play(pos, parse_play(pos, "bar/23 6/5"))
    ev = t.move_and_pick_up(pos, entered, white)
    assert kinds(ev) == ["play_accepted"] and only(ev, PlayAccepted).side is Side.WHITE


def test_unattended_an_unseen_dance_then_an_unread_roll_played_is_the_pass_and_that_play() -> None:
    # stop 21, real-like game 78 replayed unattended: White danced with an unseen roll, Black's roll lay
    # unread (one die read, the other too small) and was played; White's next roll was judged against
    # the board from before both and called illegal. Now the pass and Black's play (not checked) are taken
    import dataclasses

    from tavli_pi.referee.settings import RefereeSettings

    from .synth import die

    pos = _closed_out()
    t = Table(Referee(RefereeSettings(attended=False), start=pos))
    t.setup(pos)
    ref = t.referee
    tiny = dataclasses.replace(die(0, "left", confidence=0.0), note="too small to read (8 px, need 12)", size_px=8.0)
    dice = (die(4, "left", confidence=0.95), tiny)  # Black's 6-4, in Black's half, the 6 unread
    ev = t.throw(pos, dice, settled=3)
    assert "roll_accepted" not in kinds(ev) and "roll_void" not in kinds(ev)
    played = _black_plays(pos, "13/7 13/9")  # Black's 6-4 (White's points 12 -> 18 and 14)
    ev = t.move_and_pick_up(pos, played, dice)
    assert kinds(ev) == ["no_legal_move", "play_accepted"]
    assert only(ev, NoLegalMove).side is Side.WHITE
    p = only(ev, PlayAccepted)
    assert p.side is Side.BLACK and p.after.layout_key() == played.layout_key() and p.extra["unchecked"]
    assert (4 in p.dice) and p.extra["roll_seen"] == [4]
    assert ref.phase == "awaiting_roll" and ref.position.turn is Side.WHITE
    # White's next roll is judged from the board as it stands: a legal entry stands
    white = roll_dice(Side.WHITE, (2, 1))
    assert kinds(t.throw(ref.position, white)) == ["roll_accepted"]
    after = apply_play(ref.position, parse_play(ref.position, "bar/23 6/5"))
    assert kinds(t.move_and_pick_up(ref.position, after, white)) == ["play_accepted"]
