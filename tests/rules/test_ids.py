"""gnubg Position IDs and XGIDs: known vectors and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavli_pi.errors import PositionIdError
from tavli_pi.rules.ids import (
    XGInfo,
    _position_id_reference,
    parse_position,
    parse_xgid,
    position_from_id,
    position_id,
    position_ids,
    xgid,
)
from tavli_pi.rules.position import Position, Side

START_XG = "XGID=-b----E-C---eE---c-e----B-"


def test_start_position_id() -> None:
    # gnubg manual, "A technical description of the Position ID"
    assert position_id(Position.start()) == "4HPwATDgc/ABMA"
    assert position_id(Position.start(Side.BLACK)) == "4HPwATDgc/ABMA"
    assert position_from_id("4HPwATDgc/ABMA") == Position.start()


def test_asymmetric_id_matches_gnubg() -> None:
    # gnubg 1.07: positionid((start, start with 24/23... )) printed 4HPwATDQ5+ADIA
    # for the side on roll having {24:1, 13:5, 8:3, 6:5, 5:1}.
    pos = Position.from_counts({24: 1, 13: 5, 8: 3, 6: 5, 5: 1}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert position_id(pos) == "4HPwATDQ5+ADIA"
    assert position_id(pos.with_turn(Side.BLACK)) == "0OfgAyDgc/ABMA"
    assert position_from_id("0OfgAyDgc/ABMA", Side.BLACK) == pos.with_turn(Side.BLACK)


def test_start_xgid() -> None:
    # the widely published XGID of the opening position (eXtreme Gammon)
    assert xgid(Position.start()).startswith(START_XG + ":0:0:1:00:0:0:0:0:")
    pos, info = parse_xgid(START_XG + ":0:0:1:00:0:0:0:0:10")
    assert pos == Position.start() and info.max_cube == 1024
    pos, info = parse_xgid(START_XG + ":0:0:-1:00:0:0:0:0:10")
    assert pos == Position.start(Side.BLACK)


def test_xgid_asymmetric_and_bars() -> None:
    # published pairs (opengammon's xgid tests): X's checkers are uppercase and
    # points count from X's side; X here is White.
    pos, _ = parse_xgid("XGID=-CCCBBB------------cccbbb-:0:0:1:00:0:0:0:0:8")
    assert [pos.count(Side.WHITE, p) for p in range(1, 7)] == [3, 3, 3, 2, 2, 2]
    assert [pos.count(Side.BLACK, p) for p in range(1, 7)] == [2, 2, 2, 3, 3, 3]
    pos, _ = parse_xgid("XGID=b-----B------------c-----C:0:0:1:00:0:0:0:0:8")
    assert pos.bar == (3, 2) and pos.count(Side.WHITE, 6) == 2 and pos.count(Side.BLACK, 6) == 3


def test_xgid_fields() -> None:
    info = XGInfo(cube_value=4, cube_owner=Side.BLACK, dice=(6, 3), score=(2, 5),
                  crawford=True, match_length=7, max_cube=64)
    s = xgid(Position.start(), info)
    assert s == START_XG + ":2:-1:1:63:2:5:1:7:6"
    assert parse_xgid(s) == (Position.start(), info)
    money = XGInfo(jacoby=True, beaver=True, cube_action="D")
    assert parse_xgid(xgid(Position.start(), money))[1] == money


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/AB!A", "////////////AA",
                                 "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
                                 "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
                                 "XGID=-b----E-C---eE---c-e---zB-:0:0:1:00:0:0:0:0:10",
                                 "XGID=-b----E-C---eE---c-e----B-:0:0:1:79:0:0:0:0:10"])
def test_malformed_ids_are_rejected(bad: str) -> None:
    with pytest.raises(PositionIdError):
        parse_position(bad)


def test_parse_position_accepts_both() -> None:
    assert parse_position("4HPwATDgc/ABMA") == parse_position(START_XG + ":0:0:1:00:0:0:0:0:10")
    assert parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA") == Position.start()


@st.composite
def positions(draw: st.DrawFn) -> Position:
    pts = [0] * 24
    bar = [0, 0]
    for side in Side:
        for _ in range(15):
            slot = draw(st.integers(0, 25))  # 0 = off, 25 = bar
            if slot == 25:
                bar[side] += 1
            elif slot:
                i = slot - 1
                if pts[i] * side.sign < 0:
                    continue  # point held by the other side: leave it off
                pts[i] += side.sign
    on = [sum(v for v in pts if v > 0), sum(-v for v in pts if v < 0)]
    off = (15 - on[0] - bar[0], 15 - on[1] - bar[1])
    return Position(tuple(pts), (bar[0], bar[1]), off, draw(st.sampled_from(list(Side))))


@settings(max_examples=400, deadline=None)
@given(positions())
def test_round_trips(pos: Position) -> None:
    assert position_from_id(position_id(pos), pos.turn) == pos
    assert parse_xgid(xgid(pos))[0] == pos
    assert position_id(pos) == _position_id_reference(pos)  # the fast path (issue 12)


def test_fast_position_id_equals_the_bit_by_bit_one_on_game_positions() -> None:
    from tavli_pi.rules.moves import legal_results
    from tests.rules.gnubg_oracle import sample_pairs

    n = 0
    for pos, dice in sample_pairs(600, seed=77):
        qs = (pos, pos.with_turn(pos.turn.other), *(r.position for r in legal_results(pos, dice)))
        assert position_ids(qs) == [_position_id_reference(q) for q in qs]
        for q in qs:
            pid = position_id(q)
            assert pid == _position_id_reference(q)
            assert position_from_id(pid, q.turn) == q
            n += 1
    assert n > 5000


@pytest.mark.parametrize("key, why", [
    ((1 << 80) - 1, "runs out of bits"),  # no ends at all
    (1 << 60, "stray bits"),  # bits 0-49 are the 50 ends; bit 60 is past them
    ((1 << 16) - 1, "gives a side 16 checkers"),  # a first run of 16
])
def test_bad_keys_give_the_same_one_line_errors(key: int, why: str) -> None:
    import base64

    pid = base64.b64encode(key.to_bytes(10, "little")).decode()[:14]
    with pytest.raises(PositionIdError, match=why):
        position_from_id(pid)
