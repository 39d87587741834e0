"""Notation (format/parse), apply_play, is_legal, distance and judge."""

from __future__ import annotations

import pytest

from tavli_pi.errors import InvalidPlayError
from tavli_pi.rules.moves import (
    Move, apply_play, distance, end_turn, format_play, is_legal, judge, legal_results, parse_play,
)
from tavli_pi.rules.position import Position, Side

START = Position.start()


def test_format_and_parse() -> None:
    play = (Move(13, 11), Move(6, 5, True))
    assert format_play(play) == "13/11 6/5*"
    assert format_play((Move(25, 22), Move(6, 0))) == "bar/22 6/off"
    assert format_play((Move(8, 5), Move(8, 5), Move(6, 3))) == "8/5(2) 6/3"
    assert format_play(()) == ""
    assert parse_play(START, "8/5(2) 6/3") == (Move(8, 5), Move(8, 5), Move(6, 3))
    assert parse_play(START, "24/18/13") == (Move(24, 18), Move(18, 13))


def test_parse_marks_hits_from_the_position() -> None:
    pos = Position.from_counts({13: 2, 1: 13}, {15: 1, 19: 14})  # Black blot on White's 10
    assert parse_play(pos, "13/10* 10/9") == (Move(13, 10, True), Move(10, 9))
    assert parse_play(pos, "13/10 13/12")[0].hit  # the hit is implied
    with pytest.raises(InvalidPlayError, match="no blot"):
        parse_play(pos, "13/12*")


@pytest.mark.parametrize("text,why", [("", "empty"), ("13", "FROM/TO"), ("13/15", "backwards"),
                                      ("25/20", "not a point"), ("12/10", "no checker"),
                                      ("8/5(9)", "repeat"), ("off/3", "backwards")])
def test_parse_errors(text: str, why: str) -> None:
    with pytest.raises(InvalidPlayError, match=why):
        parse_play(START, text)


def test_black_uses_own_numbering() -> None:
    black = Position.start(Side.BLACK)
    after = apply_play(black, parse_play(black, "24/21 13/11"))
    assert after.count(Side.BLACK, 21) == 1 and after.count(Side.BLACK, 11) == 1
    assert after.points[24 - 21] == -1  # Black's 21 is White's 4


def test_is_legal_and_end_turn() -> None:
    good = apply_play(START, parse_play(START, "8/5 6/5"))
    bad = apply_play(START, parse_play(START, "24/20 6/5"))
    assert is_legal(START, (3, 1), good)
    assert is_legal(START, (3, 1), good.with_turn(Side.BLACK))  # turn ignored
    assert not is_legal(START, (3, 1), bad)
    assert end_turn(good).turn is Side.BLACK


def test_distance_counts_checkers_out_of_place() -> None:
    a = apply_play(START, parse_play(START, "8/5 6/5"))
    assert distance(START, START) == 0
    assert distance(START, a) == 2
    assert distance(a, START) == 2


def test_judge_legal_play() -> None:
    after = apply_play(START, parse_play(START, "13/10 24/23"))
    j = judge(START, (3, 1), after)
    assert j.legal and j.result is not None and j.result.position == after
    assert j.wrong_points == ()


def test_judge_illegal_play_names_points() -> None:
    # 3-1 played as 13/10 8/6: a 2 that was not rolled
    observed = apply_play(START, (Move(13, 10), Move(8, 6)))
    j = judge(START, (3, 1), observed, k=3)
    assert not j.legal and j.result is None
    assert len(j.nearest) == 3
    assert [d for d, _ in j.nearest] == sorted(d for d, _ in j.nearest)
    assert j.nearest[0][0] == 1  # one checker out of place: 8/6 vs 8/7
    assert format_play(j.nearest[0][1].plays[0]) == "13/10 8/7"
    assert j.wrong_points == (6, 7)  # White's numbering


def test_judge_when_no_move_is_possible() -> None:
    black = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 20: 3}
    pos = Position.from_counts({13: 14}, black, bar=(1, 0))
    assert legal_results(pos, (6, 6)) == ()
    j = judge(pos, (6, 6), pos)
    assert j.legal and j.result is not None and j.result.plays == ((),)
    moved = Position.from_counts({13: 13, 10: 1}, black, bar=(1, 0))
    j2 = judge(pos, (6, 6), moved)
    assert not j2.legal and j2.nearest[0][0] == 1 and j2.wrong_points == (10, 13)
    assert is_legal(pos, (6, 6), pos) and not is_legal(pos, (6, 6), moved)


def test_judge_reports_bar_and_tray() -> None:
    pos = Position.from_counts({13: 2, 1: 13}, {15: 1, 19: 14})
    hit = apply_play(pos, parse_play(pos, "13/10* 13/12"))
    # the hit checker was put in Black's tray instead of on the bar
    observed = Position(hit.points, (0, 0), (0, 1), hit.turn)
    j = judge(pos, (3, 1), observed)
    assert not j.legal and j.nearest[0][1].position == hit
    assert j.wrong_points == (0, 25)
