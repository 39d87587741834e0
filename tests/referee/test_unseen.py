"""A play seen without its roll (referee/unseen.py): dice the camera missed, or could not read and
nobody entered. Once the dice are picked up (E5), a board that is clearly one legal play of the side
on roll is that play, for the rolls it is legal for; never an illegal call, and a board no legal play
explains is still out of sync."""

from __future__ import annotations

import dataclasses

from tavli_pi.record.game_record import Turn, build_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.mat import format_mat, parse_mat
from tavli_pi.referee.events import IllegalPlay, OpeningRoll, PlayAccepted, RollNeeded
from tavli_pi.referee.game import rules_for
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.unseen import OPENING_ROLLS, ROLLS, UNSEEN_ROLL_WAIT, plays_for_any_roll, rolls_text
from tavli_pi.rules.moves import apply_play, end_turn, legal_results, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_settings import Variant
from tavli_pi.vision.observation import DieReading

from .synth import Table, die, kinds, nth, only, opened, roll_dice

START = Position.start()


def _play(pos: Position, text: str) -> Position:
    return apply_play(pos, parse_play(pos, text))


def _unseen(t: Table, before: Position, after: Position, dice: tuple[DieReading, ...] = ()) -> list:  # type: ignore[type-arg]
    """A turn whose roll the referee never reads: ``dice`` (none, or unreadable) lie while the hand
    plays, then are picked up and the board stands."""
    out = t.show(before, motion=True, dice=dice)
    out += t.show(after, hand=True, dice=dice)
    out += t.show(after, 2, dice=dice)
    out += t.show(after, hand=True)  # the dice are picked up
    out += t.show(after, 3)
    return out


def tiny(half: str) -> DieReading:
    return dataclasses.replace(die(0, half, confidence=0.0), note="too small to read (8 px, need 12)", size_px=8.0)


def test_every_roll_and_the_plays_it_allows() -> None:
    assert len(ROLLS) == 21 and len(OPENING_ROLLS) == 15 and ROLLS[0] == (6, 6) and ROLLS[-1] == (1, 1)
    plays = plays_for_any_roll(rules_for(Variant.PORTES), START)
    by_key = {p.position.layout_key(): p for p in plays}
    run = _play(START, "24/13")  # only 6-5 runs a back checker to the midpoint
    assert by_key[run.layout_key()].rolls == ((6, 5),)
    seven = _play(START, "13/6")  # a single checker 7 pips: three rolls
    assert set(by_key[seven.layout_key()].rolls) >= {(6, 1), (5, 2), (4, 3)}
    assert START.layout_key() not in by_key  # an unmoved board is no play to infer
    # every legal end of every roll is there, once
    expected = {r.position.layout_key() for roll in ROLLS for r in legal_results(START, roll)}
    assert set(by_key) == expected and len(plays) == len(expected)
    assert rolls_text([(6, 1)]) == "6-1" and rolls_text([(6, 1), (5, 2), (4, 3)]) == "6-1, 5-2 or 4-3"


#: nobody at the table enters a roll the camera missed (a recording): the play is taken by itself
UNATTENDED = RefereeSettings(attended=False)


def test_a_missed_opening_roll_is_known_by_the_play_E1() -> None:
    t = Table(Referee(UNATTENDED))
    t.setup()
    after = _play(START, "24/18 13/8")  # only 6-5 plays this
    ev = _unseen(t, START, after)
    assert kinds(ev) == ["opening_roll", "play_accepted"]
    o = nth(ev, 0, OpeningRoll)
    assert o.winner is Side.WHITE and (o.white_die, o.black_die) == (6, 5) and o.extra["roll_unseen"]
    p = nth(ev, 1, PlayAccepted)
    assert p.side is Side.WHITE and p.dice == (6, 5) and p.extra["roll_unseen"] == ["65"]
    assert "not seen" in p.message and p.after.layout_key() == after.layout_key()
    ref = t.referee
    assert ref.phase == "awaiting_roll" and ref.position.turn is Side.BLACK
    # the game goes on as usual: Black's roll is read and judged
    pos = ref.position
    dice = roll_dice(Side.BLACK, (3, 1))
    assert kinds(t.throw(pos, dice)) == ["roll_accepted"]
    nxt = legal_results(pos, (3, 1))[0].position
    assert kinds(t.move_and_pick_up(pos, nxt, dice)) == ["play_accepted"]


def test_black_can_win_a_missed_opening_roll_too() -> None:
    t = Table(Referee(UNATTENDED))
    t.setup()
    black = START.with_turn(Side.BLACK)
    after = _play(black, "8/5 6/5")  # Black's 3-1 (Black's own numbering)
    ev = _unseen(t, START, after)
    assert kinds(ev) == ["opening_roll", "play_accepted"]
    assert nth(ev, 0, OpeningRoll).winner is Side.BLACK
    assert nth(ev, 1, PlayAccepted).dice == (3, 1) and t.referee.position.turn is Side.WHITE


def test_a_missed_roll_mid_game_is_known_by_the_play_and_recorded() -> None:
    t = Table(Referee(UNATTENDED))
    ref = opened(t)  # Black to roll
    pos = ref.position
    after = _play(pos, "13/7 8/7")  # Black makes the bar point: 6-1 only
    ev = _unseen(t, pos, after)
    assert kinds(ev) == ["play_accepted"]
    p = nth(ev, 0, PlayAccepted)
    assert p.side is Side.BLACK and p.dice == (6, 1) and p.extra["roll_unseen"] == ["61"]
    assert ref.phase == "awaiting_roll" and ref.position.layout_key() == end_turn(after).layout_key()
    # the .mat has both turns, the inferred one with its roll
    rec = build_record(MatchHeader(match_length=5), t.events)
    turns = [a for a in rec.games[0].actions if isinstance(a, Turn)]
    assert [tn.dice for tn in turns] == [(3, 1), (6, 1)]
    assert "61:" in format_mat(rec) and len(parse_mat(format_mat(rec)).games) == 1


def test_dice_too_small_to_read_and_not_entered_are_known_by_the_play_once_picked_up_E5() -> None:
    t = Table(Referee(UNATTENDED))
    ref = opened(t)
    pos = ref.position
    small = (tiny("right"), tiny("left"))
    small = tuple(dataclasses.replace(d, half="left") for d in small)  # Black's right half is "left"
    after = _play(pos, "24/18 13/9")  # 6-4
    ev = t.show(pos, motion=True, dice=small) + t.show(pos, 3, dice=small)
    assert kinds(ev) == ["roll_needed"] and only(ev, RollNeeded).side is Side.BLACK
    ev = t.show(after, hand=True, dice=small) + t.show(after, 3, dice=small)
    assert "play_accepted" not in kinds(ev)  # the dice still lie: the play is not final (E5)
    ev = t.show(after, hand=True) + t.show(after, 3)
    assert kinds(ev) == ["play_accepted"] and only(ev, PlayAccepted).dice == (6, 4)


def test_a_board_no_legal_play_explains_is_still_out_of_sync_never_illegal() -> None:
    t = Table(Referee())
    ref = opened(t)
    pos = ref.position
    # Black moved two checkers eleven pips each: no single roll does that
    after = _play(pos, "24/13 24/13")
    ev = _unseen(t, pos, after)
    assert "illegal_play" not in kinds(ev) and "play_accepted" not in kinds(ev)
    # one play of Black's though (6-5 played twice?): at an attended table its roll is asked for
    assert kinds(ev) == ["board_out_of_sync", "roll_needed"] and ref.phase == "out_of_sync"
    ev = t.show(after, 20)  # nobody answers: never a call without the roll
    assert "illegal_play" not in kinds(ev) and ref.phase == "out_of_sync"


def test_with_inference_off_a_missed_roll_is_out_of_sync() -> None:
    t = Table(Referee(RefereeSettings(infer_unseen_rolls=False)))
    ref = opened(t)
    pos = ref.position
    ev = _unseen(t, pos, _play(pos, "13/7 8/7"))
    assert kinds(ev) == ["board_out_of_sync"]


# -- an attended table: the players are asked for the roll the camera missed ---------------------

def test_a_missed_roll_is_asked_for_and_a_play_illegal_for_it_is_called_E2_E8() -> None:
    """bench_reallike game 128: Black's 2-1 went unseen and Black moved one checker a pip too far, a
    play legal for another roll (here 13/10 6/5: 3-1) but not for 2-1. The referee no longer takes it as legal for some
    roll: it asks for the roll, the players enter 2-1, and the play is called (E8)."""
    t = Table(Referee())
    ref = opened(t)
    pos = ref.position
    bad = _play(pos, "13/10 6/5")  # Black's 3-1; the roll was 2-1
    assert (3, 1) in set(next(p.rolls for p in plays_for_any_roll(ref.game, pos)
                                        if p.position.layout_key() == bad.layout_key()))
    ev = _unseen(t, pos, bad)
    assert kinds(ev) == ["roll_needed"] and "play_accepted" not in kinds(ev)
    ask = only(ev, RollNeeded)
    assert ask.side is Side.BLACK and "unseen" in ask.extra and ref.phase == "awaiting_roll"
    ev = t.press(Action.ROLL, None, 21) + t.show(bad, 2)
    assert kinds(ev)[:2] == ["roll_accepted", "illegal_play"]
    call = only(ev, IllegalPlay)
    assert call.side is Side.BLACK and call.dice == (2, 1) and call.observed is not None
    assert call.observed.layout_key() == bad.layout_key()


def test_a_missed_roll_entered_for_a_legal_play_stands_as_entered() -> None:
    t = Table(Referee())
    ref = opened(t)
    pos = ref.position
    after = _play(pos, "13/7 8/7")  # 6-1
    ev = _unseen(t, pos, after)
    assert kinds(ev) == ["roll_needed"]
    ev = t.press(Action.ROLL, None, 16)
    assert kinds(ev) == ["roll_accepted", "play_accepted"]
    p = only(ev, PlayAccepted)
    assert p.dice == (6, 1) and "roll_unseen" not in p.extra and ref.position.turn is Side.WHITE


def test_a_missed_opening_roll_is_asked_for_and_entered_E1() -> None:
    t = Table(Referee())
    t.setup()
    after = _play(START, "24/18 13/8")  # only 6-5
    ev = _unseen(t, START, after)
    assert kinds(ev) == ["roll_needed"] and only(ev, RollNeeded).side is Side.WHITE
    ev = t.press(Action.ROLL, None, 56)
    assert kinds(ev) == ["opening_roll", "roll_accepted", "play_accepted"]
    o = nth(ev, 0, OpeningRoll)
    assert o.winner is Side.WHITE and (o.white_die, o.black_die) == (6, 5)


def test_a_missed_roll_nobody_enters_is_taken_by_the_play_after_the_wait() -> None:
    """Nobody answers: after ``UNSEEN_ROLL_WAIT`` seconds of the referee's clock the play is taken as
    legal for the rolls it fits, as before (the players were asked; the game is not held up)."""
    t = Table(Referee(), fps=1.0)  # one frame a second
    ref = opened(t)
    pos = ref.position
    after = _play(pos, "13/7 8/7")
    ev = _unseen(t, pos, after)
    assert kinds(ev) == ["roll_needed"]
    asked = only(ev, RollNeeded).at
    ev = []
    while not ev and t.t < asked + 2 * UNSEEN_ROLL_WAIT:
        ev = t.show(after)
    assert kinds(ev) == ["play_accepted"] and only(ev, PlayAccepted).extra["roll_unseen"] == ["61"]
    assert asked + UNSEEN_ROLL_WAIT <= ev[0].at < asked + UNSEEN_ROLL_WAIT + 1.5


def test_the_next_roll_lying_takes_a_play_asked_about_at_once_E8() -> None:
    t = Table(Referee())
    ref = opened(t)
    pos = ref.position
    after = _play(pos, "13/7 8/7")
    assert kinds(_unseen(t, pos, after)) == ["roll_needed"]
    ev = t.throw(end_turn(after), roll_dice(Side.WHITE, (4, 2)))
    assert kinds(ev) == ["play_accepted", "roll_accepted"]
    assert only(ev, PlayAccepted).extra["roll_unseen"] == ["61"] and ref.dice == (4, 2)


def _play_until_taken(t: Table, after: Position, dice: tuple[DieReading, ...] = ()) -> list:  # type: ignore[type-arg]
    """Clear frames of the board as played (``dice`` lying) until the play is taken (at most 6)."""
    out: list = []  # type: ignore[type-arg]
    for _ in range(6):
        out += t.show(after, dice=dice)
        if "play_accepted" in kinds(out):
            break
    return out


def test_the_next_throw_landing_right_after_an_unseen_play_is_taken_E2() -> None:
    """The opening played with its roll never seen, the dice gone for as long as a pick-up takes; the
    play is taken on a frame without dice, and Black's throw is seen first lying still on the very
    next frame (a recording at 640 px: its landing missed by the reader). Those dice are the next
    roll, not dice lying unseen from before: the watch counts them (it waited for a frame without
    dice that never came, and a 2-1 read on four frames was lost)."""
    t = Table(Referee(UNATTENDED))
    t.setup()
    after = _play(START, "24/18 13/8")  # only 6-5 plays this
    t.show(START, motion=True)  # the throw, its dice not found
    t.show(after, hand=True)  # played, the dice picked up
    assert kinds(_play_until_taken(t, after)) == ["opening_roll", "play_accepted"]
    ev = t.show(after, 2, dice=roll_dice(Side.BLACK, (2, 1)))
    assert kinds(ev) == ["roll_accepted"] and t.referee.dice == (2, 1)


def test_dice_missed_on_one_frame_when_an_unseen_play_is_taken_are_still_no_roll() -> None:
    """The unseen roll's dice, too small to read, missed on the one frame the play is taken on: they
    were not gone for as long as a pick-up takes, so when they are seen again they are not a throw
    (no roll asked of Black for White's dice)."""
    t = Table(Referee(UNATTENDED))
    t.setup()
    after = _play(START, "24/18 13/8")
    lying = (tiny("right"), tiny("left"))
    t.show(START, motion=True, dice=thrown_tiny(lying))
    t.show(after, hand=True, dice=lying)
    t.show(after, 2, dice=lying)
    ev = _play_until_taken(t, after)
    assert kinds(ev)[-1] == "play_accepted"
    ev = t.show(after, 3, dice=lying)
    assert "roll_needed" not in kinds(ev) and "roll_accepted" not in kinds(ev)


def thrown_tiny(dice: tuple[DieReading, ...]) -> tuple[DieReading, ...]:
    return tuple(dataclasses.replace(d, moving=True) for d in dice)
