"""Hand-written cases, one group per movement rule of RULES.md (M1-M7)."""

from __future__ import annotations

import pytest

from tavli_pi.errors import InvalidDiceError
from tavli_pi.rules.moves import Move, format_play, legal_results
from tavli_pi.rules.position import Position, Side

W, B = Side.WHITE, Side.BLACK


def steps(play: tuple[Move, ...]) -> str:
    """A play die by die, in play order ("24/18* 18/13"; repeats as "1/off(2)").

    The rules are about single-die moves, so these tests read plays this way;
    format_play's merged gnubg notation is tested in test_moves_notation.py.
    """
    parts: list[str] = []
    counts: list[int] = []
    for m in play:
        src = "bar" if m.src == 25 else str(m.src)
        dst = "off" if m.dst == 0 else str(m.dst)
        s = f"{src}/{dst}{'*' if m.hit else ''}"
        if parts and parts[-1] == s:
            counts[-1] += 1
        else:
            parts.append(s)
            counts.append(1)
    return " ".join(p if n == 1 else f"{p}({n})" for p, n in zip(parts, counts))


def plays(pos: Position, dice: tuple[int, int]) -> set[str]:
    return {steps(r.plays[0]) for r in legal_results(pos, dice)}


def all_plays(pos: Position, dice: tuple[int, int]) -> set[str]:
    return {steps(p) for r in legal_results(pos, dice) for p in r.plays}


def test_results_are_shown_in_gnubg_notation() -> None:
    pos = Position.from_counts({24: 1, 1: 14}, {7: 1, 19: 14})
    assert {format_play(r.plays[0]) for r in legal_results(pos, (6, 5))} >= {"24/18*/13", "24/13"}


# -- M1: each die a separate move; same checker may use both; doubles x4 -----
def test_M1_one_checker_uses_both_dice() -> None:
    pos = Position.from_counts({24: 1, 1: 14}, {19: 15})  # Black sits on White's 6
    assert all_plays(pos, (6, 5)) == {"24/18 18/13", "24/19 19/13"}
    # both orders reach one position: one result, two plays
    res = [r for r in legal_results(pos, (6, 5)) if r.position.count(W, 13) == 1]
    assert len(res) == 1 and len(res[0].plays) == 2


def test_M1_doubles_give_four_moves() -> None:
    pos = Position.from_counts({24: 1, 1: 14}, {19: 15})
    assert plays(pos, (3, 3)) == {"24/21 21/18 18/15 15/12"}


def test_M1_never_backwards() -> None:
    pos = Position.from_counts({2: 1, 1: 14}, {19: 15})
    for r in legal_results(pos, (1, 2)):
        for m in r.plays[0]:
            assert m.dst < m.src


# -- M2: open points only; intermediate landing points must be open too ------
def test_M2_blocked_point_not_a_landing() -> None:
    # Black holds White's 18 (Black's own 7): 24/18 is impossible with a 6.
    pos = Position.from_counts({24: 1, 1: 14}, {7: 2, 19: 13})
    assert all_plays(pos, (6, 1)) == {"24/23 23/17"}


def test_M2_blocked_intermediate_point() -> None:
    # White 24 alone; Black holds White's 18 and 19: 6-5 cannot hop through.
    pos = Position.from_counts({24: 1, 1: 14}, {7: 2, 6: 2, 19: 11})
    assert legal_results(pos, (6, 5)) == ()
    # with 19 open, 24/19/13 is possible through the open point only
    pos2 = Position.from_counts({24: 1, 1: 14}, {7: 2, 19: 13})
    assert all_plays(pos2, (6, 5)) == {"24/19 19/13"}


def test_M2_landing_on_blot_allowed() -> None:
    pos = Position.from_counts({24: 1, 1: 14}, {7: 1, 19: 14})
    assert "24/18* 18/13" in all_plays(pos, (6, 5))


# -- M3: hitting sends the blot to the bar; never compulsory -----------------
def test_M3_hit_goes_to_bar_and_is_optional() -> None:
    pos = Position.from_counts({13: 2, 1: 13}, {15: 1, 19: 14})  # Black blot on White's 10
    results = legal_results(pos, (3, 1))
    hits = [r for r in results if r.position.bar[B] == 1]
    quiet = [r for r in results if r.position.bar[B] == 0]
    assert hits and quiet
    assert all(any(m.hit for m in r.plays[0]) for r in hits)


# -- M4: enter first; dice never summed to enter ----------------------------
def test_M4_must_enter_before_other_moves() -> None:
    pos = Position.from_counts({13: 14}, {1: 15}, bar=(1, 0))
    for r in legal_results(pos, (6, 5)):
        assert r.plays[0][0] == Move(25, 19) or r.plays[0][0] == Move(25, 20)


def test_M4_no_summing_to_enter() -> None:
    # Black holds White's 24..20 (Black's own 1..5); only the 6 ... White's 19 open.
    black = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 24: 5}
    pos = Position.from_counts({13: 14}, black, bar=(1, 0))
    assert plays(pos, (2, 3)) == set()  # 2 and 3 blocked; 5=2+3 may not be used
    assert plays(pos, (6, 3)) == {"bar/19 13/10", "bar/19 19/16"}


def test_M4_closed_board_loses_the_turn() -> None:
    black = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}
    pos = Position.from_counts({13: 14}, black, bar=(1, 0))
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert legal_results(pos, (d1, d2)) == ()


def test_M4_two_on_bar_one_enters_rest_lost() -> None:
    black = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 24: 5}
    pos = Position.from_counts({13: 13}, black, bar=(2, 0))
    assert plays(pos, (6, 1)) == {"bar/19"}


# -- M5: max dice; the higher die when only one can be played ---------------
def test_M5_must_play_both_when_possible() -> None:
    # White 9 alone can play 6 (to 3) or 1 then 6; playing 9/3 then nothing
    # for the 1 is not allowed if some order plays both.
    pos = Position.from_counts({9: 1, 1: 14}, {19: 15})
    res = legal_results(pos, (6, 1))
    assert res and all(len(r.plays[0]) == 2 for r in res)


def test_M5_higher_die_when_only_one_can_be_played() -> None:
    # Black holds White's 17: 24/18 and 24/23 are each possible, but neither
    # can be followed by the other die. The 6 must be played, not the 1.
    pos = Position.from_counts({24: 1, 1: 14}, {8: 2, 19: 13})
    assert plays(pos, (6, 1)) == {"24/18"}


def test_M5_lower_die_when_higher_cannot_move() -> None:
    white = {24: 1, 1: 14}
    black = {6: 2, 19: 13}  # White's 19 held: the 5 cannot start
    pos = Position.from_counts(white, black)
    assert plays(pos, (5, 4)) == {"24/20 20/15"}
    black2 = {6: 2, 10: 2, 19: 11}  # also White's 15 held: only the 4
    pos2 = Position.from_counts(white, black2)
    assert plays(pos2, (5, 4)) == {"24/20"}


def test_M5_partial_doubles() -> None:
    white = {24: 1, 1: 14}
    black = {9: 2, 19: 13}  # White's 16 held: 24/20/16 blocked
    pos = Position.from_counts(white, black)
    assert plays(pos, (4, 4)) == {"24/20"}


# -- M6: bearing off ---------------------------------------------------------
def test_M6_no_bear_off_with_checker_outside() -> None:
    pos = Position.from_counts({7: 1, 6: 2, 1: 12}, {12: 15})
    ps = all_plays(pos, (6, 1))
    assert "7/6 6/off" in ps and "7/1 1/off" in ps  # home first, then off
    assert not any(p.startswith("6/off") or p.startswith("1/off") for p in ps)


def test_M6_exact_point_and_higher_point_rule() -> None:
    pos = Position.from_counts({6: 1, 4: 1, 1: 13}, {12: 15})
    # 5: no checker on 5, one on 6: the 6 must move (6/1); then 4 is highest
    assert plays(pos, (5, 5)) == {"6/1 4/off 1/off(2)"}
    # 6 bears off exactly from 6
    assert any("6/off" in p for p in plays(pos, (6, 2)))


def test_M6_highest_point_when_die_is_larger() -> None:
    pos = Position.from_counts({4: 1, 2: 1, 1: 13}, {12: 15})
    assert plays(pos, (6, 5)) == {"4/off 2/off"}
    # 4-2: the 4 bears off from 4 exactly; 2/off only by the 2
    assert "4/off 2/off" in plays(pos, (4, 2))


def test_M6_bear_off_never_compulsory() -> None:
    pos = Position.from_counts({6: 2, 5: 13}, {12: 15})
    ps = all_plays(pos, (5, 1))
    assert "6/5 6/1" in ps and "6/5 5/off" in ps and "6/1 1/off" in ps


# -- M7: a checker hit during the bear-off re-enters before bearing off -----
def test_M7_hit_checker_must_come_home_first() -> None:
    pos = Position.from_counts({6: 3, 1: 11}, {12: 15}, bar=(1, 0))
    for r in legal_results(pos, (6, 5)):
        assert r.plays[0][0].src == 25
        assert all(m.dst != 0 for m in r.plays[0])  # still one outside after entering


def test_dice_are_validated() -> None:
    with pytest.raises(InvalidDiceError):
        legal_results(Position.start(), (0, 3))
    with pytest.raises(InvalidDiceError):
        legal_results(Position.start(), (7, 1))


def test_black_mirrors_white() -> None:
    w = Position.from_counts({24: 2, 13: 5, 8: 3, 6: 4, 4: 1}, {24: 2, 13: 5, 8: 3, 6: 5}, turn=W)
    b = Position(tuple(-v for v in w.points[::-1]), (w.bar[1], w.bar[0]), (w.off[1], w.off[0]), B)
    for dice in [(3, 1), (6, 6), (5, 2)]:
        assert plays(w, dice) == plays(b, dice)
