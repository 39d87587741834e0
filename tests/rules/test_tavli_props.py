"""Hypothesis properties of the Plakoto / Fevga generator (V1, P2-P4, F2-F5, F7).

Positions come from random games with random settings (tests/rules/tavli_brute.py);
hypothesis picks the pairs and, where it matters, the setting under test.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tavli_pi.rules.position import CHECKERS, Side
from tavli_pi.rules.tavli_moves import apply_tavli_play, breaks_blocks, legal_results
from tavli_pi.rules.tavli_position import TavliPosition, own_to_physical, parse_tavli_position
from tavli_pi.rules.tavli_settings import BlockCheck, Prime, TavliSettings, Variant
from tests.rules.tavli_brute import random_games

PL = random_games(Variant.PLAKOTO, 2000, seed=31)
FE = random_games(Variant.FEVGA, 2000, seed=32)
Pair = tuple[TavliPosition, tuple[int, int], TavliSettings]
both = st.sampled_from([(Variant.PLAKOTO, p) for p in PL] + [(Variant.FEVGA, p) for p in FE])


@settings(max_examples=400, deadline=None)
@given(both)
def test_checkers_are_conserved(vp: tuple[Variant, Pair]) -> None:
    variant, (pos, dice, s) = vp
    for r in legal_results(variant, pos, dice, s):
        for side in Side:
            assert r.position.on_board(side) + r.position.off[side] == CHECKERS
        assert r.position.turn is pos.turn
        assert r.position.off[pos.turn.other] == pos.off[pos.turn.other]
        # the trusted constructor's output passes full validation and the notation
        assert parse_tavli_position(str(r.position), variant) == r.position


@settings(max_examples=400, deadline=None)
@given(both)
def test_no_move_lands_on_a_closed_point(vp: tuple[Variant, Pair]) -> None:
    variant, (pos, dice, s) = vp
    me = pos.turn
    for r in legal_results(variant, pos, dice, s):
        for m in r.play:
            if m.dst == 0:
                continue
            w, b, pin = pos.stack(own_to_physical(variant, me, m.dst))
            opp = b if me is Side.WHITE else w
            my_pinned = pin == me.sign
            if variant is Variant.FEVGA:
                assert opp == 0  # F2
            else:
                assert opp <= 1 and not my_pinned  # P2
        # replaying the hops one by one meets no closed point either
        apply_tavli_play(variant, pos, [(m.src, m.dst) for m in r.play])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PL))
def test_a_pinned_checker_never_moves(pair: Pair) -> None:
    pos, dice, s = pair
    me = pos.turn
    pinned = [p for p in range(1, 25) if pos.pinned[p - 1] == me.sign]
    for r in legal_results(Variant.PLAKOTO, pos, dice, s):
        for p in pinned:
            assert r.position.pinned[p - 1] == me.sign  # still there, still pinned (P4)
        assert all(own_to_physical(Variant.PLAKOTO, me, m.src) not in pinned for m in r.play)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(FE), st.sampled_from(list(BlockCheck)))
def test_F3_to_F5_never_broken(pair: Pair, check: BlockCheck) -> None:
    pos, dice, s = pair
    s = TavliSettings(s.mother, s.first_checker, Prime.NOT_IN_FRONT_OF_ALL, check)
    me = pos.turn
    through = s.first_checker.through
    for r in legal_results(Variant.FEVGA, pos, dice, s):
        if not r.play:
            continue
        assert not breaks_blocks(r.position, me, s)  # F4, F5 at the end of every play
        # F3, and under every-move F4/F5 after each single move
        cur = pos
        for m in r.play:
            if m.src == 24:
                left = CHECKERS - cur.count(me, 24, Variant.FEVGA)
                if left == 1:
                    runner = next(p for p in range(1, 24) if cur.count(me, p, Variant.FEVGA))
                    assert runner <= through
            cur, _ = apply_tavli_play(Variant.FEVGA, cur, [(m.src, m.dst)])
            if check is BlockCheck.EVERY_MOVE and cur.off[me] < CHECKERS:
                assert not breaks_blocks(cur, me, s)
