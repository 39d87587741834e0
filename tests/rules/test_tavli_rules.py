"""Plakoto and Fevga, one or more hand-written tests per rule of RULES-TAVLI.md (V1-V8, P1-P7, F1-F7).

Positions are written in the RULES-TAVLI.md notation through
``TavliPosition.from_stacks`` (White's numbering); plays are read back in the
mover's own numbering.
"""

from __future__ import annotations

import pytest

from tavli_pi.errors import IllegalActionError
from tavli_pi.rules.position import Side
from tavli_pi.rules.tavli_moves import (
    TavliMove,
    apply_tavli_play,
    breaks_blocks,
    format_tavli_play,
    judge,
    legal_results,
    results_or_pass,
)
from tavli_pi.rules.tavli_position import TavliPosition, format_tavli_position
from tavli_pi.rules.tavli_scoring import EndReason, game_over, mother_pinned
from tavli_pi.rules.tavli_settings import (
    BlockCheck,
    FirstChecker,
    Mother,
    Prime,
    TavliSettings,
    Variant,
)

PL = Variant.PLAKOTO
FE = Variant.FEVGA
W, B = Side.WHITE, Side.BLACK


def pos(stacks: dict[int, str], off: tuple[int, int] = (0, 0), turn: Side = W) -> TavliPosition:
    return TavliPosition.from_stacks(stacks, off, turn)


def plays(variant: Variant, p: TavliPosition, dice: tuple[int, int],
          st: TavliSettings = TavliSettings()) -> set[str]:
    return {format_tavli_play(r.play) for r in legal_results(variant, p, dice, st)}


def ends(variant: Variant, p: TavliPosition, dice: tuple[int, int],
         st: TavliSettings = TavliSettings()) -> set[str]:
    return {format_tavli_position(r.position) for r in legal_results(variant, p, dice, st)}


# -- V: common ----------------------------------------------------------------------
def test_V1_each_die_a_move_and_a_combined_move_needs_an_open_point() -> None:
    # Black holds White's 18 and 19 (Plakoto): 24/18/13 and 24/19/13 both pass a closed point
    p = pos({24: "w15", 18: "b2", 19: "b2", 1: "b11"})
    assert legal_results(PL, p, (6, 5)) == ()
    # one of the two open: the combined move goes through it
    p = pos({24: "w15", 18: "b2", 1: "b13"})
    assert plays(PL, p, (6, 5)) == {"24/19/13"}


def test_V1_doubles_play_four_times() -> None:
    rs = legal_results(PL, TavliPosition.start(PL), (2, 2))
    assert rs and all(len(r.play) == 4 for r in rs)
    assert "24/22/20/18/16" in {format_tavli_play(r.play) for r in rs}


def test_V2_nothing_is_ever_hit() -> None:
    # Plakoto: landing on a lone Black checker pins it; it stays on the board
    p = pos({24: "w15", 20: "b1", 1: "b14"})
    r = next(r for r in legal_results(PL, p, (4, 1)) if r.play[0] == TavliMove(24, 20, True))
    assert r.position.stack(20) == (1, 1, -1)  # w on top of the pinned black checker
    assert r.position.on_board(B) == 15
    # Fevga: a lone opposing checker holds its point (F2)
    p = pos({24: "w15", 20: "b1", 12: "b14"})
    assert all(r.position.count_physical(W, 20) == 0 for r in legal_results(FE, p, (4, 1)))


def test_V3_the_winner_of_a_game_starts_the_next() -> None:
    from tavli_pi.rules.tavli_match import TavliMatch
    from tavli_pi.rules.tavli_settings import MatchSettings

    m = TavliMatch()
    assert m.starter is None  # the first game opens with one die each
    assert m.after_game(B, 1).starter is B
    assert TavliMatch(MatchSettings(winner_starts=False)).after_game(B, 1).starter is None


def test_V4_bearing_off_only_with_all_15_home() -> None:
    p = pos({13: "w1", 1: "w14", 24: "b15"})
    assert all(r.position.off[W] == 0 for r in legal_results(PL, p, (2, 1)))
    # 7/1 (6) brings the last one home, then 1/off (1)
    p = pos({7: "w1", 1: "w14", 24: "b15"})
    assert {r.position.off[W] for r in legal_results(PL, p, (6, 1))} == {1}


def test_V5_single_one_point_mars_two() -> None:
    done = pos({24: "b15"}, off=(15, 0))
    assert game_over(PL, done) is not None
    over = game_over(PL, done)
    assert over and over.winner is W and over.points == 2 and over.mars
    over = game_over(FE, pos({13: "b14"}, off=(15, 1)))
    assert over and over.winner is W and over.points == 1 and not over.mars
    assert game_over(FE, TavliPosition.start(FE)) is None


def test_V6_the_game_ending_move_ends_the_play() -> None:
    # the 15th checker off with the first die of a double: one move, and legal
    p = pos({1: "w1", 24: "b15"}, off=(14, 0))
    rs = legal_results(FE, p, (1, 1))
    assert [format_tavli_play(r.play) for r in rs] == ["1/off"]
    # a mother pin that decides the game: the second die is void
    p = pos({3: "w1", 6: "w14", 1: "b1", 20: "b14"})
    rs = legal_results(PL, p, (2, 1))
    r = next(r for r in rs if r.play[0] == TavliMove(3, 1, True))
    assert len(r.play) == 1
    over = game_over(PL, r.position)
    assert over and over.winner is W and over.points == 2 and over.reason is EndReason.MOTHER


def test_V6_a_finished_game_has_no_plays() -> None:
    with pytest.raises(IllegalActionError, match="game is over"):
        legal_results(PL, pos({24: "b15"}, off=(15, 0)), (3, 1))


def test_V7_both_dice_if_possible_else_the_larger() -> None:
    # White's 24 is shut in (Black holds 18 and 19); the runner on 8 can play 6 or 5, not both
    p = pos({24: "w14", 8: "w1", 18: "b2", 19: "b2", 1: "b11"})
    assert plays(PL, p, (6, 5)) == {"8/2"}
    # the larger cannot be played: the smaller
    p = pos({24: "w14", 8: "w1", 2: "b2", 18: "b2", 19: "b2", 1: "b9"})
    assert plays(PL, p, (6, 5)) == {"8/3"}


def test_V7_a_play_breaking_F4_is_not_a_way_to_play_both_dice() -> None:
    # White holds 24, 23, 22, 21, 20. 5-1: both dice can only be played from 24
    # (the others face Black's points); 24/19 24/23 and 24/23/18... Only plays
    # that leave 19-24 not all held count as two-dice plays.
    p = pos({24: "w10", 23: "w1", 22: "w1", 21: "w1", 20: "w1", 1: "w1",
             12: "b9", 17: "b1", 16: "b1", 15: "b1", 18: "b1", 14: "b1", 13: "b1"})
    rs = legal_results(FE, p, (5, 1))
    assert rs
    for r in rs:
        assert not breaks_blocks(r.position, W)
    # with the prime rules off, F4 still forbids filling 19 while 20-24 are held
    assert not any(r.position.count_physical(W, 19) and all(
        r.position.count_physical(W, q) for q in range(20, 25)) for r in rs)


def test_V8_no_legal_play_is_one_unchanged_entry() -> None:
    p = pos({24: "w15", 18: "b2", 19: "b2", 1: "b11"})
    (only,) = results_or_pass(PL, p, (6, 5))
    assert only.play == () and only.position == p
    j = judge(PL, p, (6, 5), p)
    assert j.legal and j.result == only


# -- P: Plakoto ----------------------------------------------------------------------
def test_P1_setup() -> None:
    s = TavliPosition.start(PL)
    assert format_tavli_position(s) == "b15 " + "- " * 22 + "w15 0 0 white"
    assert s.count(W, 24, PL) == 15 and s.count(B, 24, PL) == 15


def test_P2_closed_points() -> None:
    # two Black checkers close 20; one Black checker pinning a White one closes 19
    p = pos({24: "w14", 20: "b2", 19: "w1b1", 1: "b12"})
    for r in legal_results(PL, p, (5, 4)):
        assert all(m.dst not in (20, 19) for m in r.play)
    # a point where White pins Black is open to White
    p = pos({24: "w14", 20: "b1w1", 1: "b14"})
    assert "24/20" in " ".join(plays(PL, p, (4, 3)))


def test_P3_pin_and_pass_through_frees() -> None:
    p = pos({24: "w15", 20: "b1", 1: "b14"})
    texts = plays(PL, p, (4, 3))
    assert "24/20* 24/21" in texts or "24/21 24/20*" in texts
    # touching down on 20 and moving on frees the checker again
    r = next(r for r in legal_results(PL, p, (4, 3)) if r.position.count_physical(W, 17) == 1)
    assert r.position.stack(20) == (0, 1, 0)
    # more pinners may join the pinned point, which keeps one pinned checker at the bottom
    p = pos({24: "w14", 20: "b1w1", 1: "b14"})
    r = next(r for r in legal_results(PL, p, (4, 4)) if r.position.count_physical(W, 20) == 5)
    assert r.position.stack(20) == (5, 1, -1)


def test_P4_a_pinned_checker_cannot_move_until_freed() -> None:
    p = pos({20: "w1b1", 24: "w14", 1: "b14"})
    assert all(m.src != 20 for r in legal_results(PL, p, (3, 1)) for m in r.play)
    # Black frees it by leaving (Black's own point 5 is White's 20)
    black = pos({20: "w1b1", 24: "w14", 1: "b14"}, turn=B)
    freed = [r.position for r in legal_results(PL, black, (3, 1)) if r.position.stack(20) == (1, 0, 0)]
    assert freed
    after = freed[0].with_turn(W)
    assert any(m.src == 20 for r in legal_results(PL, after, (3, 1)) for m in r.play)


def test_P5_a_pinned_checker_stops_bearing_off() -> None:
    p = pos({3: "w1b1", 6: "w13", 1: "b12", 24: "b2"}, off=(1, 0))
    assert all(r.position.off[W] == 1 for r in legal_results(PL, p, (6, 6)))
    free = pos({3: "w1", 6: "w13", 1: "b13", 24: "b2"}, off=(1, 0))
    assert any(r.position.off[W] > 1 for r in legal_results(PL, free, (6, 6)))


@pytest.mark.parametrize("mode,winner,points", [
    (Mother.TWO_POINTS_UNLESS_OWN_MOTHER, None, None),  # White still has a free checker on 24
    (Mother.TWO_POINTS, W, 2),
    (Mother.OFF, None, None),
])
def test_P6_mother_with_the_pinner_on_its_own_24(mode: Mother, winner: Side | None, points: int | None) -> None:
    p = pos({1: "b1w1", 24: "w2", 6: "w12", 20: "b14"})
    over = game_over(PL, p, TavliSettings(mother=mode))
    assert mother_pinned(p, B)
    if points is None:
        assert over is None
    else:
        assert over and over.winner is winner and over.points == points


def test_P6_pinner_wins_when_its_own_24_empties_and_draw_when_both_pinned() -> None:
    st = TavliSettings()
    # White pins Black's mother and still has one on its 24: play goes on
    p = pos({1: "b1w1", 24: "w1", 6: "w13", 20: "b14"})
    assert game_over(PL, p, st) is None
    # White moves the last checker off its 24: the game ends with that move, White wins 2
    rs = legal_results(PL, p, (6, 5), st)
    won = [r for r in rs if r.position.count_physical(W, 24) == 0]
    assert won and all(r.play[-1].src == 24 for r in won)
    assert any(len(r.play) == 1 for r in won)  # 24/18 first: the 5 is void (V6)
    over = game_over(PL, won[0].position, st)
    assert over and over.winner is W and over.points == 2
    # Black pins White's last checker on White's 24: both mothers pinned, a draw
    black = pos({1: "b1w1", 24: "w1", 6: "w13", 20: "b14"}, turn=B)
    draws = [r for r in legal_results(PL, black, (4, 1), st) if r.position.pinned[23] == 1]
    assert draws
    over = game_over(PL, draws[0].position, st)
    assert over and over.winner is None and over.points == 0 and over.reason is EndReason.MOTHER_DRAW


def test_P6_two_points_setting_ends_at_once() -> None:
    st = TavliSettings(mother=Mother.TWO_POINTS)
    p = pos({4: "w1", 24: "w2", 6: "w12", 1: "b1", 20: "b14"})
    rs = legal_results(PL, p, (3, 1), st)
    r = next(r for r in rs if r.play[0] == TavliMove(4, 1, True))
    assert len(r.play) == 1
    over = game_over(PL, r.position, st)
    assert over and over.winner is W and over.points == 2
    # with the mother rule off the same pin is an ordinary pin and the play goes on
    off = TavliSettings(mother=Mother.OFF)
    assert all(len(r.play) == 2 for r in legal_results(PL, p, (3, 1), off))


def test_P7_no_legal_move_loses_the_turn() -> None:
    p = pos({24: "w15", 18: "b2", 19: "b2", 1: "b11"})
    assert legal_results(PL, p, (6, 5)) == ()
    assert results_or_pass(PL, p, (6, 5))[0].position == p


# -- F: Fevga ------------------------------------------------------------------------
def test_F1_setup_and_direction() -> None:
    s = TavliPosition.start(FE)
    assert format_tavli_position(s) == "- " * 11 + "b15 " + "- " * 11 + "w15 0 0 white"
    black = s.with_turn(B)
    # Black runs from White's 12 down to White's 1, then on from White's 24
    rs = legal_results(FE, black, (6, 5))
    assert {format_tavli_position(r.position) for r in rs} == {
        "b1 " + "- " * 10 + "b14 " + "- " * 11 + "w15 0 0 black"}
    bear = pos({13: "b1", 24: "w15"}, off=(0, 14), turn=B)  # Black's own 1 is White's 13
    assert [r.position.off[B] for r in legal_results(FE, bear, (1, 2))] == [15]


def test_F2_a_single_checker_holds_its_point() -> None:
    p = pos({24: "w15", 19: "b1", 12: "b14"})
    assert all(r.position.count_physical(W, 19) == 0 for r in legal_results(FE, p, (5, 1)))


def test_F3_first_checker_rule() -> None:
    s = TavliPosition.start(FE)
    assert plays(FE, s, (6, 5)) == {"24/18/13"}
    # 5-5: the runner gets through with its third hop, then another may leave
    assert plays(FE, s, (5, 5)) == {"24/19/14/9 24/19", "24/19/14/9/4"}
    # a runner on 12: through only in the in-start-quarter reading
    p = pos({24: "w14", 12: "w1", 1: "b15"})
    # past-start-point: the runner must get through (to 11 or lower) before 24 may move
    assert plays(FE, p, (2, 1)) == {"12/10/9", "12/10 24/23", "12/11 24/22"}
    inq = TavliSettings(first_checker=FirstChecker.IN_START_QUARTER)
    assert "24/22 24/23" in plays(FE, p, (2, 1), inq)
    p = pos({24: "w14", 15: "w1", 1: "b15"})  # not through either way
    assert plays(FE, p, (2, 1), inq) == {"15/13/12"}
    # once two have left, anyone may
    p = pos({24: "w13", 20: "w1", 18: "w1", 1: "b15"})
    assert any(m.src == 24 for r in legal_results(FE, p, (2, 1)) for m in r.play)


def test_F4_never_all_six_of_the_starting_quarter() -> None:
    p = pos({24: "w10", 23: "w1", 22: "w1", 21: "w1", 20: "w1", 7: "w1", 12: "b15"})
    assert breaks_blocks(pos({24: "w10", 23: "w1", 22: "w1", 21: "w1", 20: "w1", 19: "w1",
                              12: "b15"}), W)
    for st in (TavliSettings(), TavliSettings(block_check=BlockCheck.EVERY_MOVE)):
        rs = legal_results(FE, p, (5, 1), st)
        assert rs
        assert not any(all(r.position.count_physical(W, q) for q in range(19, 25)) for r in rs)


def _prime_position() -> TavliPosition:
    # White holds its 20-24 and its 1 = Black's 8-13 (F5's example); Black all behind, on its 14+
    return pos({24: "w5", 23: "w2", 22: "w2", 21: "w2", 20: "w1", 2: "w3",
                12: "b10", 11: "b5"})


def test_F5_no_prime_in_front_of_every_opposing_checker() -> None:
    p = _prime_position()
    rs = legal_results(FE, p, (1, 1))
    assert rs
    assert not any(r.position.count_physical(W, 1) and all(
        r.position.count_physical(W, q) for q in range(20, 25)) for r in rs)
    allowed = TavliSettings(prime=Prime.ALLOWED)
    assert any(r.position.count_physical(W, 1) and all(
        r.position.count_physical(W, q) for q in range(20, 25))
        for r in legal_results(FE, p, (1, 1), allowed))


def test_F5_a_prime_with_an_opposing_checker_past_it_is_fine() -> None:
    # one Black checker already past (on White's 6 = Black's 18... no: Black's own 6 is White's 18)
    p = pos({24: "w5", 23: "w2", 22: "w2", 21: "w2", 20: "w1", 2: "w3",
             12: "b10", 11: "b4", 18: "b1"})
    assert any(r.position.count_physical(W, 1) and all(
        r.position.count_physical(W, q) for q in range(20, 25))
        for r in legal_results(FE, p, (1, 1)))


def test_F6_a_block_breaking_play_is_illegal_and_judged_so() -> None:
    p = _prime_position()
    primed, _ = apply_tavli_play(FE, p, [(2, 1), (2, 1), (2, 1), (24, 23)])
    j = judge(FE, p, (1, 1), primed)
    assert not j.legal and j.nearest and j.nearest[0][0] > 0


def test_F7_block_check_end_of_play_or_every_move() -> None:
    # White holds 19-23 and 24: F4 broken at the start of the turn is refused by
    # every-move for each single step that keeps it; end-of-play lets a play open it again.
    p = pos({24: "w6", 23: "w1", 22: "w1", 21: "w1", 20: "w1", 18: "w5",
             12: "b15"})
    # 2-1: 20/18 then 21/20 ends holding 19? no: 19 is empty; build one made and broken within the play
    q = pos({24: "w6", 23: "w2", 22: "w2", 21: "w2", 20: "w2", 10: "w1", 12: "b15"})
    end = TavliSettings(block_check=BlockCheck.END_OF_PLAY)
    every = TavliSettings(block_check=BlockCheck.EVERY_MOVE)
    # 1-1: 20/19 fills the quarter (F4) and 19/18 empties 19 again: fine at the end
    # of the play, refused after the single move 20/19 (the only way to reach this end)
    made_broken, _ = apply_tavli_play(FE, q, [(20, 19), (19, 18), (10, 9), (9, 8)])
    key = format_tavli_position(made_broken)
    assert key in ends(FE, q, (1, 1), end)
    assert key not in ends(FE, q, (1, 1), every)
    assert judge(FE, q, (1, 1), made_broken, every).legal is False
    # the empty play is never refused: a position already breaking F4 with no move left
    assert legal_results(FE, p, (2, 1), end)


def test_judge_names_the_nearest_legal_ends_as_for_portes() -> None:
    s = TavliPosition.start(PL)
    rs = legal_results(PL, s, (6, 5))
    # observed: the pinner's checker and the pinned one read the wrong way round is 1 off
    p = pos({24: "w15", 20: "b1", 1: "b14"}, turn=W)
    pinned = next(r for r in legal_results(PL, p, (4, 1)) if r.position.stack(20) == (1, 1, -1))
    misread = TavliPosition(pinned.position.points[:19] + (-1,) + pinned.position.points[20:],
                            pinned.position.pinned[:19] + (1,) + pinned.position.pinned[20:],
                            pinned.position.off, pinned.position.turn)
    j = judge(PL, p, (4, 1), misread)
    assert not j.legal and j.nearest[0] == (1, pinned) and j.wrong_points == (20,)
    # a legal end is recognised whatever the side on roll in the observation
    j = judge(PL, s, (6, 5), rs[0].position.with_turn(B))
    assert j.legal and j.result == rs[0]
    # k nearest, sorted by distance
    j = judge(PL, s, (6, 5), s, k=5)
    assert [d for d, _ in j.nearest] == sorted(d for d, _ in j.nearest) and len(j.nearest) == 2
