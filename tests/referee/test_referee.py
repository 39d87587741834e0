"""The referee state machine at the Observation level (certain evidence unless noted)."""

from __future__ import annotations

import random

import pytest

from tavli_pi.referee.events import (
    CubeOffered,
    GameOver,
    IllegalPlay,
    IllegalPlayResolved,
    MatchOver,
    OpeningRoll,
    PlayAccepted,
    PrematureRoll,
    RollAccepted,
    RollVoid,
    SetupChecked,
    from_dict,
    to_dict,
)
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position, Side

from .synth import Noise, Table, die, kinds, nth, observe, roll_dice

START = Position.start()


def opened(settings: RefereeSettings | None = None, *, white: int = 3, black: int = 1,
           match: MatchState | None = None) -> Table:
    """A table past the set-up and the opening roll (White 3, Black 1 by default)."""
    t = Table(Referee(settings, match=match), light_is_white=(settings or RefereeSettings()).light_is_white)
    t.setup()
    wh = "right" if t.light_is_white else "left"
    bh = "left" if t.light_is_white else "right"
    t.throw(START, (die(white, wh), die(black, bh)))
    return t


def play(t: Table, text: str) -> Position:
    ref = t.referee
    before = ref.before
    after = apply_play(before, parse_play(before, text))
    dice = roll_dice(before.turn, ref.dice, light_is_white=t.light_is_white)
    if ref._opening_turn:
        dice = (die(ref.dice[0], "right"), die(ref.dice[1], "left"))
    t.move_and_pick_up(before, after, dice)
    return after


def test_setup_then_game_started_then_opening_roll_B3_E1() -> None:
    t = Table(Referee())
    assert kinds(t.setup()) == ["setup_checked", "game_started"]
    assert nth(t.events, 0, SetupChecked).ok
    ev = t.throw(START, (die(5, "right"), die(2, "left")))
    assert kinds(ev) == ["opening_roll"]
    assert nth(ev, 0, OpeningRoll).winner is Side.WHITE and nth(ev, 0, OpeningRoll).white_die == 5
    assert t.referee.phase == "rolled" and t.referee.dice == (5, 2)


def test_wrong_setup_names_the_points_B3() -> None:
    bad = Position.from_counts({24: 2, 13: 4, 8: 4, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    t = Table(Referee())
    ev = t.setup(bad)
    assert kinds(ev) == ["setup_checked"]
    assert not nth(ev, 0, SetupChecked).ok
    text = " ".join(nth(ev, 0, SetupChecked).problems)
    assert "point 13" in text and "point 8" in text
    assert kinds(t.show(bad, 3)) == []  # said once
    assert kinds(t.setup()) == ["setup_checked", "game_started"]


def test_tied_opening_roll_is_rerolled_E1() -> None:
    t = Table(Referee())
    t.setup()
    ev = t.throw(START, (die(4, "right"), die(4, "left")))
    assert kinds(ev) == ["opening_roll"] and nth(ev, 0, OpeningRoll).winner is None
    assert t.referee.phase == "opening"
    # the same dice lying there are not a new roll
    assert t.show(START, 3, dice=(die(4, "right"), die(4, "left"))) == []
    ev = t.throw(START, (die(2, "right"), die(6, "left")))
    assert nth(ev, 0, OpeningRoll).winner is Side.BLACK and t.referee.position.turn is Side.BLACK


def test_opening_both_dice_in_one_half_is_void_E1() -> None:
    t = Table(Referee())
    t.setup()
    ev = t.throw(START, (die(4, "right"), die(2, "right")))
    assert kinds(ev) == ["roll_void"] and nth(ev, 0, RollVoid).reason == "same_half" and ev[0].rule == "E1"


def test_opening_play_accepted_and_turns_alternate_E2_E5() -> None:
    t = opened()
    play(t, "8/5 6/5")
    assert [e.kind for e in t.events][-1] == "play_accepted"
    ref = t.referee
    assert ref.phase == "awaiting_roll" and ref.position.turn is Side.BLACK
    pos = ref.position
    ev = t.throw(pos, roll_dice(Side.BLACK, (6, 4)))
    assert kinds(ev) == ["roll_accepted"] and nth(ev, 0, RollAccepted).side is Side.BLACK


def test_play_not_judged_before_the_dice_leave_E5() -> None:
    t = opened()
    ref = t.referee
    after = apply_play(ref.before, parse_play(ref.before, "8/5 6/5"))
    dice = (die(3, "right"), die(1, "left"))
    assert t.show(after, 5, dice=dice) == []  # checkers moved, dice still down: not final
    assert ref.phase == "rolled"
    assert kinds(t.show(after)) == ["play_accepted"]


@pytest.mark.parametrize(
    ("kw", "half", "reason"),
    [
        ({}, "right", "left_half"),
        ({"flat": False}, "left", "cocked"),
        ({"on_checker": True}, "left", "on_checker"),
        ({}, "bar", "bar"),
        ({}, "outside", "outside"),
    ],
)
def test_void_rolls_E3(kw: dict[str, bool], half: str, reason: str) -> None:
    t = opened()
    play(t, "8/5 6/5")
    pos = t.referee.position
    ev = t.throw(pos, (die(6, "left"), die(2, half, **kw)))  # Black's right half is "left"
    assert kinds(ev) == ["roll_void"]
    assert nth(ev, 0, RollVoid).reason == reason and ev[0].rule == "E3" and nth(ev, 0, RollVoid).side is Side.BLACK
    assert t.referee.phase == "awaiting_roll"
    # the void dice lying there never become a roll; the reroll does
    assert t.show(pos, 3, dice=(die(6, "left"), die(2, half, **kw))) == []
    assert kinds(t.throw(pos, roll_dice(Side.BLACK, (6, 2)))) == ["roll_accepted"]


def test_die_on_checker_stands_with_the_usbgf_setting_E3() -> None:
    t = opened(RefereeSettings(die_on_checker_void=False))
    play(t, "8/5 6/5")
    ev = t.throw(t.referee.position, (die(6, "left"), die(2, "left", on_checker=True)))
    assert kinds(ev) == ["roll_accepted"]


def test_premature_roll_is_void_then_the_play_is_judged_E6() -> None:
    t = opened()
    ref = t.referee
    after = apply_play(ref.before, parse_play(ref.before, "13/10 6/5"))
    mine = (die(3, "right"), die(1, "left"))  # opening dice: one in each half
    t.show(after, 2, dice=mine)
    play(t, "13/10 6/5")  # White's turn ends normally
    pos = ref.position
    bdice = roll_dice(Side.BLACK, (5, 2))
    t.throw(pos, bdice)
    after_b = apply_play(ref.before, parse_play(ref.before, "13/8 13/11"))
    t.show(after_b, 2, dice=bdice)
    # White rolls into White's half while Black's dice still lie (E6)
    early = roll_dice(Side.WHITE, (6, 6))
    ev = t.show(after_b, 2, dice=bdice + early)
    assert kinds(ev) == ["premature_roll", "roll_void"]
    assert nth(ev, 1, RollVoid).reason == "premature" and ev[1].rule == "E6" and nth(ev, 1, RollVoid).side is Side.WHITE
    # Black picks up: judged; White's void dice lying there are not a roll
    ev = t.show(after_b, 2, dice=early)
    assert kinds(ev) == ["play_accepted"]
    assert ref.phase == "awaiting_roll"
    assert kinds(t.throw(after_b, roll_dice(Side.WHITE, (4, 2)))) == ["roll_accepted"]


def test_premature_roll_stands_on_a_forced_play_E6() -> None:
    # White bears off four from the 6-point with 6-6: a fully forced play
    pos = Position.from_counts({6: 15}, {6: 15}, turn=Side.WHITE)
    t = Table(Referee(start=pos))
    t.setup(pos)
    dice = roll_dice(Side.WHITE, (6, 6))
    t.throw(pos, dice)
    ref = t.referee
    assert len(legal_results(pos, (6, 6))) == 1
    after = legal_results(pos, (6, 6))[0].position
    t.show(after, 2, dice=dice)
    early = roll_dice(Side.BLACK, (5, 3))
    ev = t.show(after, 3, dice=dice + early)
    assert kinds(ev)[:3] == ["premature_roll", "play_accepted", "roll_accepted"]
    assert nth(ev, 0, PrematureRoll).stands
    assert ref.phase == "rolled" and ref.position.turn is Side.BLACK and ref.dice == (5, 3)


def test_premature_roll_victim_option_E6() -> None:
    t = opened(RefereeSettings(premature="victim_option"))
    ref = t.referee
    after = apply_play(ref.before, parse_play(ref.before, "8/5 6/5"))
    mine = (die(3, "right"), die(1, "left"))
    t.show(after, 2, dice=mine)
    t.move_and_pick_up(ref.before, after, mine)
    pos = ref.position
    bd = roll_dice(Side.BLACK, (4, 2))
    t.throw(pos, bd)
    after_b = apply_play(ref.before, parse_play(ref.before, "8/4 6/4"))
    t.show(after_b, 2, dice=bd)
    early = roll_dice(Side.WHITE, (5, 5))
    ev = t.show(after_b, 2, dice=bd + early)
    assert kinds(ev) == ["premature_roll"] and nth(ev, 0, PrematureRoll).pending
    ev = t.press(Action.ACCEPT, Side.BLACK)
    assert kinds(ev) == ["play_accepted", "roll_accepted"]
    assert ref.dice == (5, 5) and ref.position.turn is Side.WHITE


def test_no_legal_move_is_announced_and_passed_E7() -> None:
    # White on the bar against a closed board
    black = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    pos = Position.from_counts({6: 14}, black, bar=(1, 0), turn=Side.WHITE)
    t = Table(Referee(start=pos))
    t.setup(pos)
    dice = roll_dice(Side.WHITE, (6, 5))
    ev = t.throw(pos, dice)
    assert kinds(ev) == ["roll_accepted", "no_legal_move"] and ev[1].rule == "E7"
    ev = t.move_and_pick_up(pos, pos, dice)
    assert kinds(ev) == ["play_accepted"] and t.referee.position.turn is Side.BLACK


def illegal_after(t: Table) -> tuple[Position, Position]:
    ref = t.referee
    legal = apply_play(ref.before, parse_play(ref.before, "8/5 6/5"))
    # one checker 8/4 instead of 8/5: illegal for 3-1
    bad = apply_play(ref.before, parse_play(ref.before, "8/4 6/5"))
    return legal, bad


def test_illegal_play_names_points_and_nearest_then_correction_E8() -> None:
    t = opened()
    legal, bad = illegal_after(t)
    dice = (die(3, "right"), die(1, "left"))
    ev = t.move_and_pick_up(t.referee.before, bad, dice)
    assert kinds(ev) == ["illegal_play"]
    e = nth(ev, 0, IllegalPlay)
    assert e.rule == "M1" and "(E8)" in e.message and set(e.wrong_points) == {4, 5}
    assert e.nearest and e.observed == bad
    assert t.referee.phase == "illegal"
    # only the opponent decides
    assert kinds(t.press(Action.CORRECT, Side.WHITE)) == ["action_refused"]
    assert kinds(t.press(Action.CORRECT, Side.BLACK)) == ["correction_demanded"]
    t.show(bad, dice=(), hand=True)
    ev = t.show(legal, 2)
    assert kinds(ev) == ["illegal_play_resolved"]
    assert not nth(ev, 0, IllegalPlayResolved).accepted and nth(ev, 0, IllegalPlayResolved).play == "8/5 6/5"
    assert t.referee.position.turn is Side.BLACK and t.referee.position.layout_key() == legal.layout_key()


def test_illegal_play_accepted_by_the_opponent_E8() -> None:
    t = opened()
    _, bad = illegal_after(t)
    t.move_and_pick_up(t.referee.before, bad, (die(3, "right"), die(1, "left")))
    ev = t.press(Action.ACCEPT)
    assert kinds(ev) == ["illegal_play_resolved"] and nth(ev, 0, IllegalPlayResolved).accepted
    assert t.referee.position.layout_key() == bad.layout_key()


def test_rolling_accepts_an_illegal_play_E8() -> None:
    t = opened()
    _, bad = illegal_after(t)
    t.move_and_pick_up(t.referee.before, bad, (die(3, "right"), die(1, "left")))
    ev = t.throw(bad, roll_dice(Side.BLACK, (6, 1)))
    assert kinds(ev) == ["illegal_play_resolved", "roll_accepted"]


def test_doubling_accepts_an_illegal_play_E8() -> None:
    t = opened()
    _, bad = illegal_after(t)
    t.move_and_pick_up(t.referee.before, bad, (die(3, "right"), die(1, "left")))
    ev = t.press(Action.DOUBLE, Side.BLACK)
    assert kinds(ev) == ["illegal_play_resolved", "cube_offered"]


def test_legal_moves_policy_always_demands_correction_E8() -> None:
    t = opened(RefereeSettings(illegal_policy="legal-moves"))
    _, bad = illegal_after(t)
    ev = t.move_and_pick_up(t.referee.before, bad, (die(3, "right"), die(1, "left")))
    assert kinds(ev) == ["illegal_play", "correction_demanded"]
    assert t.referee.phase == "correcting"


def test_unmoved_board_with_legal_moves_is_illegal_M5() -> None:
    t = opened()
    ev = t.move_and_pick_up(START, START, (die(3, "right"), die(1, "left")))
    assert kinds(ev) == ["illegal_play"] and ev[0].rule == "M5"


def test_uncertain_evidence_never_calls_illegal_but_asks_for_a_clear_view() -> None:
    t = opened()
    _, bad = illegal_after(t)
    ref = t.referee
    dice = (die(3, "right"), die(1, "left"))
    t.show(bad, dice=dice, hand=True)
    t.show(bad, 2, dice=dice)
    # the dice are gone but a hand stays over the board: no verdict
    assert t.show(bad, 3, hand=True) == []
    # low-confidence readings of the same illegal board: no verdict either, a request
    t.noise = Noise(level=3.0)
    evs = t.show(bad, 8)
    assert "illegal_play" not in kinds(evs)
    assert "clear_view_needed" in kinds(evs)
    assert ref.phase == "judging"
    t.noise = Noise()
    assert kinds(t.show(bad, 4)) == ["illegal_play"]


def test_a_changing_board_restarts_the_evidence() -> None:
    t = opened()
    legal, bad = illegal_after(t)
    dice = (die(3, "right"), die(1, "left"))
    ev = t.show(bad, dice=dice, hand=True)
    ev += t.show(bad, dice=dice)  # one look at a bad board
    ev += t.show(legal, dice=dice)  # changed unseen (no hand in any frame)
    ev += t.show(legal)  # the dice go
    assert kinds(ev) == ["play_accepted"]
    assert nth(ev, 0, PlayAccepted).after == legal


def test_double_take_and_cube_ownership_C2_C3() -> None:
    t = opened(match=MatchState(5))
    play(t, "8/5 6/5")
    ev = t.press(Action.DOUBLE)
    assert kinds(ev) == ["cube_offered"] and nth(ev, 0, CubeOffered).side is Side.BLACK and nth(ev, 0, CubeOffered).value == 2
    assert kinds(t.press(Action.TAKE, Side.BLACK)) == ["action_refused"]
    ev = t.press(Action.TAKE)
    assert kinds(ev) == ["cube_taken"] and t.referee.cube.owner is Side.WHITE
    assert ev[0].state.cube_value == 2
    # Black no longer owns the cube: no redouble (C2)
    ev = t.press(Action.DOUBLE, Side.BLACK)
    assert kinds(ev) == ["action_refused"] and ev[0].rule == "C2"


def test_double_pass_ends_the_game_C3_S1() -> None:
    t = opened(match=MatchState(3))
    play(t, "8/5 6/5")
    t.press(Action.DOUBLE)
    ev = t.press(Action.PASS)
    assert kinds(ev) == ["cube_passed", "game_over"]
    assert nth(ev, 1, GameOver).winner is Side.BLACK and nth(ev, 1, GameOver).points == 1 and nth(ev, 1, GameOver).score == (0, 1)
    assert t.referee.phase == "setup" and t.referee.game_number == 2


def test_no_cube_in_the_crawford_game_or_a_1_point_match_S3() -> None:
    t = opened(match=MatchState(3, (2, 0), crawford_game=True))
    play(t, "8/5 6/5")
    ev = t.press(Action.DOUBLE)
    assert kinds(ev) == ["action_refused"] and "Crawford" in ev[0].message
    t = opened(match=MatchState(1))
    play(t, "8/5 6/5")
    ev = t.press(Action.DOUBLE)
    assert kinds(ev) == ["action_refused"] and "1-point" in ev[0].message


def test_gammon_and_the_match_S1_S2() -> None:
    # White bears off the last checker; Black has borne off none: a gammon
    pos = Position.from_counts({2: 1}, {13: 15}, turn=Side.WHITE)
    t = Table(Referee(start=pos, match=MatchState(3, (1, 0))))
    t.setup(pos)
    dice = roll_dice(Side.WHITE, (6, 5))
    t.throw(pos, dice)
    after = legal_results(pos, (6, 5))[0].position
    ev = t.move_and_pick_up(pos, after, dice)
    assert kinds(ev) == ["play_accepted", "game_over", "match_over"]
    assert nth(ev, 1, GameOver).result == "gammon" and nth(ev, 1, GameOver).points == 2
    assert nth(ev, 2, MatchOver).winner is Side.WHITE and nth(ev, 2, MatchOver).score == (3, 0)


def test_resignation_accepted_and_rejected_S4() -> None:
    t = opened(match=MatchState(7))
    ev = t.press(Action.RESIGN, Side.BLACK, level=2)
    assert kinds(ev) == ["resigned"]
    assert kinds(t.press(Action.REJECT_RESIGN)) == ["resignation_answered"]
    assert t.referee.phase == "rolled"
    t.press(Action.RESIGN, Side.BLACK, level=2)
    ev = t.press(Action.ACCEPT_RESIGN, Side.WHITE)
    assert kinds(ev) == ["resignation_answered", "game_over"]
    assert nth(ev, 1, GameOver).points == 2 and nth(ev, 1, GameOver).result == "resign"


def test_dark_is_white_mapping_and_halves() -> None:
    s = RefereeSettings(light_is_white=False)
    t = opened(s)
    # White (dark) rolled into "left", the light player's left = White's right
    assert t.referee.position.turn is Side.WHITE
    play(t, "8/5 6/5")
    assert kinds(t.events)[-1] == "play_accepted"
    pos = t.referee.position
    # Black (light) rolls into the light player's right
    assert kinds(t.throw(pos, roll_dice(Side.BLACK, (2, 1), light_is_white=False))) == ["roll_accepted"]
    o = observe(pos, light_is_white=False)
    # light point 1 is White's 24 (two dark = White checkers); light 24 is White's 1 (two Black)
    assert o.points[0].dark.best == 2 and o.points[23].light.best == 2


def test_events_round_trip_through_dicts() -> None:
    t = opened()
    _, bad = illegal_after(t)
    t.move_and_pick_up(t.referee.before, bad, (die(3, "right"), die(1, "left")))
    t.press(Action.ACCEPT)
    for e in t.events:
        assert from_dict(to_dict(e)) == e


def test_resume_from_a_committed_state() -> None:
    t = opened(match=MatchState(5))
    play(t, "8/5 6/5")
    state = t.events[-1].state
    ref = Referee.from_state(state)
    t2 = Table(ref)
    assert kinds(t2.setup(state.position)) == ["setup_checked"]
    assert ref.phase == "awaiting_roll" and ref.position.turn is Side.BLACK
    assert kinds(t2.throw(state.position, roll_dice(Side.BLACK, (3, 3)))) == ["roll_accepted"]


def test_noisy_frames_of_legal_plays_are_accepted() -> None:
    rng = random.Random(7)
    t = Table(Referee(), rng=rng, noise=Noise(1.0, 0.3, 0.5))
    t.setup()
    t.throw(START, (die(3, "right"), die(1, "left")))
    ev = t.move_and_pick_up(START, apply_play(START, parse_play(START, "8/5 6/5")), (die(3, "right"), die(1, "left")))
    assert "play_accepted" in kinds(ev)


def test_the_opening_roll_lying_on_the_first_frame_read_set_up_is_the_opening_roll_E1() -> None:
    """The board is read set up for the first time on the frame the opening dice already lie on
    (a hand was over it until then): the dice came after a frame without them, one in each half,
    so they are the opening roll (bench_reallike game 78 stayed in the opening all game)."""
    t = Table(Referee())
    opening = (die(3, "right"), die(1, "left"))
    t.show(Position.start(), hand=True)  # the players finish the set-up; no dice yet
    ev = t.show(Position.start(), 4, dice=opening)
    assert kinds(ev) == ["setup_checked", "game_started", "opening_roll"]
    assert t.referee.dice == (3, 1) and t.referee.position.turn is Side.WHITE


def test_one_die_of_the_opening_roll_found_on_the_first_frame_read_set_up_is_thrown_E1() -> None:
    """As above, the camera finding only one of the opening dice on that frame (small dice are not
    found on every frame: bench_video game 11 at 640x360 found White's 4 one frame later): it came after
    a frame without dice, so the watch counts the throw, and the opening roll is read once both lie."""
    t = Table(Referee())
    opening = (die(3, "right"), die(1, "left"))
    t.show(Position.start(), hand=True)  # the players finish the set-up; no dice yet
    ev = t.show(Position.start(), 3, dice=opening[1:])
    assert kinds(ev) == ["setup_checked", "game_started"]
    ev = t.show(Position.start(), 2, dice=opening)
    assert kinds(ev) == ["opening_roll"] and t.referee.dice == (3, 1) and t.referee.position.turn is Side.WHITE


def test_a_lone_die_whose_pair_is_never_found_asks_nothing_E1() -> None:
    """The lone die is not counted as a throw by itself: no "the camera finds one die only" question
    for a die that may have lain there from before."""
    t = Table(Referee())
    t.show(Position.start(), hand=True)
    ev = t.show(Position.start(), 6, dice=(die(1, "left"),))
    assert kinds(ev) == ["setup_checked", "game_started"] and t.referee.phase == "opening"


def test_one_die_lying_through_the_whole_set_up_is_no_roll_E1() -> None:
    t = Table(Referee())
    ev = t.show(Position.start(), 3, dice=(die(1, "left"),))
    ev += t.show(Position.start(), 2, dice=(die(3, "right"), die(1, "left")))
    assert kinds(ev) == ["setup_checked", "game_started"] and t.referee.dice == ()


@pytest.mark.parametrize("halves", [("right", "left"), ("right", "right")])
def test_dice_lying_from_before_the_set_up_are_no_roll_E1(halves: tuple[str, str]) -> None:
    """Dice that lay through the whole set-up (left from the last game), or both in one half after
    a frame without them (a game's last roll uncovered), are no opening roll."""
    t = Table(Referee())
    lying = (die(3, halves[0]), die(1, halves[1]))
    if halves[0] == halves[1]:
        t.show(Position.start(), hand=True)
    ev = t.show(Position.start(), 4, dice=lying)
    assert kinds(ev) == ["setup_checked", "game_started"]
    assert t.referee.phase == "opening" and t.referee.dice == ()
