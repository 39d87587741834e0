"""Hypothesis properties of the move generator (B1, M1, M6)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tavli_pi.rules.ids import parse_position, position_from_id, position_id, xgid
from tavli_pi.rules.moves import apply_play, format_play, is_legal, legal_results, parse_play
from tavli_pi.rules.position import CHECKERS, Position, Side
from tests.rules.gnubg_oracle import sample_pairs

PAIRS = sample_pairs(3000, seed=11)
pairs = st.sampled_from(PAIRS)


def _checkers(pos: Position, side: Side) -> int:
    return pos.on_board(side) + pos.bar[side] + pos.off[side]


@settings(max_examples=300, deadline=None)
@given(pairs)
def test_checkers_are_conserved(pair: tuple[Position, tuple[int, int]]) -> None:
    pos, dice = pair
    for r in legal_results(pos, dice):
        for side in Side:
            assert _checkers(r.position, side) == CHECKERS
        assert r.position.turn is pos.turn
        assert r.position.off[pos.turn.other] == pos.off[pos.turn.other]
        # validation of the trusted constructor's output
        Position(r.position.points, r.position.bar, r.position.off, r.position.turn)


@settings(max_examples=300, deadline=None)
@given(pairs)
def test_pip_drop_equals_dice_used(pair: tuple[Position, tuple[int, int]]) -> None:
    pos, dice = pair
    me = pos.turn
    for r in legal_results(pos, dice):
        play = r.plays[0]
        used = sum(m.src - m.dst for m in play)
        drop = pos.pip_count(me) - r.position.pip_count(me)
        assert drop == used
        # each move uses one die; bear-off may overshoot (M6)
        for m in play:
            if m.dst:
                assert m.src - m.dst in dice
            else:
                assert m.src <= max(dice)
        n = 4 if dice[0] == dice[1] else 2
        assert len(play) <= n
        # opponent pips grow by exactly what the hits sent back
        hits = sum(m.hit for m in play)
        assert r.position.bar[me.other] - pos.bar[me.other] == hits


@settings(max_examples=200, deadline=None)
@given(pairs)
def test_every_listed_play_reaches_its_position(pair: tuple[Position, tuple[int, int]]) -> None:
    pos, dice = pair
    for r in legal_results(pos, dice):
        for play in r.plays:
            assert apply_play(pos, play) == r.position
            text = format_play(play)  # gnubg's merged notation
            assert apply_play(pos, parse_play(pos, text)) == r.position
            assert parse_play(pos, text, dice) in r.plays  # back to per-die moves
            # the per-die form is accepted too and gives the play itself
            steps = " ".join(f"{m.src}/{m.dst}" for m in play).replace("25/", "bar/").replace("/0", "/off")
            assert parse_play(pos, steps) == play
        assert is_legal(pos, dice, r.position)


@settings(max_examples=300, deadline=None)
@given(pairs, st.sampled_from([Side.WHITE, Side.BLACK]))
def test_id_round_trips(pair: tuple[Position, tuple[int, int]], turn: Side) -> None:
    pos = pair[0].with_turn(turn)
    pid = position_id(pos)
    assert len(pid) == 14
    assert position_from_id(pid, turn) == pos
    assert parse_position(xgid(pos)) == pos
