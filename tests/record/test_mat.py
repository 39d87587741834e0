"""Jellyfish .mat: exact layout, round trips, and reading gnubg's own export."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.errors import FormatError
from tavli_pi.record.game_record import CubeAction, GameRecord, MatchRecord, Resignation, Turn, build_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.mat import format_mat, parse_mat, read_mat
from tavli_pi.record.synthetic import Choices, synthetic_match
from tavli_pi.rules.moves import Move
from tavli_pi.rules.position import Side

from .gnubg_tool import gnubg_read
from .test_gnubg_import import _compare

W, B = Side.WHITE, Side.BLACK
DATA = Path(__file__).with_name("data")


def _hand_built() -> MatchRecord:
    h = MatchHeader(players=("Alice", "Bob"), match_length=3, site="Athens", date="2024-05-01",
                    time="20:15", event="Club night", round="1")
    g1 = GameRecord(1, (0, 0), False, (
        Turn(B, (2, 1), (Move(13, 11), Move(6, 5))),
        Turn(W, (5, 2), (Move(13, 8), Move(24, 22))),
        Turn(B, (6, 3), (Move(6, 3, True), Move(11, 5))),
        Turn(W, (5, 3), (Move(25, 22, True), Move(13, 8))),
        CubeAction(B, "double", 2),
        CubeAction(W, "drop", 2),
    ), B, 1, "pass")
    g2 = GameRecord(2, (0, 1), False, (
        Turn(W, (3, 1), (Move(8, 5), Move(6, 5))),
        Turn(B, (6, 6), ()),
        Resignation(B, 2),
    ), W, 2, "resign")
    return MatchRecord(h, (g1, g2), finished=False)


EXPECTED = """\
; [Site "Athens"]
; [Player 1 "Alice"]
; [Player 2 "Bob"]
; [Event "Club night"]
; [Round "1"]
; [EventDate "2024.05.01"]
; [EventTime "20.15"]
; [Variation "Backgammon"]
; [Crawford "On"]
; [CubeLimit "64"]

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             21: 13/11 6/5
  2) 52: 13/8 24/22              63: 6/3* 11/5
  3) 53: 25/22* 13/8              Doubles => 2
  4)  Drops                       Wins 1 point

 Game 2
 Alice : 0                      Bob : 1
  1) 31: 8/5 6/5                 66:
      Wins 2 points

"""


def test_layout_is_gnubgs() -> None:
    assert format_mat(_hand_built()) == EXPECTED


def test_hand_built_round_trip() -> None:
    rec = _hand_built()
    back = parse_mat(format_mat(rec))
    assert back.header == rec.header
    assert back.games == rec.games
    assert back.games[1].actions[-1] == Resignation(B, 2)  # recovered from "Wins" without bear-off


@pytest.mark.parametrize("seed,length", [(s, n) for s, n in zip(range(30, 42), (1, 3, 5, 7, 9, 11) * 2)]
                         + [(50, 0), (51, 0)])
def test_random_matches_round_trip(seed: int, length: int) -> None:
    # (no Jacoby here: a .mat cannot tell a Jacoby-single resigned gammon from a resigned single)
    h = MatchHeader(players=("Ann Smith", "Bo"), match_length=length, beavers=seed == 51)
    rec = build_record(h, synthetic_match(seed, h, Choices(double=0.08, resign=0.01)))
    text = format_mat(rec)
    back = parse_mat(text)
    assert back.header == rec.header
    assert back.games == rec.games
    assert back.score == rec.score
    for g, b in zip(rec.games, back.games):
        for x, y in zip(g.actions, b.actions):
            if isinstance(x, Turn):
                assert isinstance(y, Turn)
                assert x.after is not None and y.after is not None
                assert x.after.layout_key() == y.after.layout_key()
                assert y.legal
    assert format_mat(back) == text


def test_reads_gnubgs_own_export_as_gnubg_does() -> None:
    path = DATA / "gnubg_selfplay_3pt.mat"
    rec = read_mat(path)
    assert rec.header.players == ("gnubg", "root") and rec.header.match_length == 3
    assert rec.finished and max(rec.score) >= 3
    assert any(isinstance(a, CubeAction) for g in rec.games for a in g.actions)
    (got,) = gnubg_read([("mat", path)])
    _compare(rec, got, path.name, ordered=False)


def test_illegal_play_is_read_and_flagged() -> None:
    text = EXPECTED.replace("52: 13/8 24/22", "52: 13/7 24/22")  # 6 pips with a 5
    rec = parse_mat(text)
    turn = rec.games[0].actions[1]
    assert isinstance(turn, Turn) and not turn.legal


@pytest.mark.parametrize("text,where", [
    ("", "no 'N point match'"),
    ("hello\n", "line 1"),
    (" 3 point match\n  1) 31: 8/5 6/5\n", "line 2: expected 'Game 1'"),
    (" 3 point match\n Game 1\n  1) 31: 8/5 6/5 13/1\n", "line 3"),
    (" 3 point match\n Game 1\n  1) 31: 8/5 6/5 Takes\n", "line 3: a take or drop without a double"),
    (" 3 point match\n Game 1\n  1) 31: 7/4 6/5\n", "no checker on point 7"),
    (" 3 point match\n Game 1\n  1)  Doubles => 3\n", "power of two"),
    (" 3 point match\n Game 1\n      Wins 1 point\n  2) 31: 8/5 6/5\n", "after the game was won"),
])
def test_malformed_files_name_the_problem(text: str, where: str) -> None:
    with pytest.raises(FormatError, match=where):
        parse_mat(text)
