"""The next roll shows the turn before was played unseen (referee/unseen.py, issue 9).

Replays the pattern of the traced real-like games 3 and 7 (bench_reallike.py --only 3,7 --trace):
the roller's dice are never found (too small, lost in a shadow), the play is made, the board stands
clear and without dice for one frame only, and the next player's dice land in that player's half.
The referee used to void them as a roll in the wrong half (E3) or a same-half opening roll (E1) and
lose every later turn; now the board is judged for the unseen play first, and the dice are the next
roll. A roll in the wrong half on a board nobody moved is still void, and nothing here ever calls a
play illegal.
"""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.events import OpeningRoll, PlayAccepted, RollAccepted, RollNeeded
from tavli_pi.referee.evidence import best_conserving
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import DieReading

from .synth import Table, die, kinds, only, opened, roll_dice

START = Position.start()


def _play(pos: Position, text: str) -> Position:
    return apply_play(pos, parse_play(pos, text))


def _unseen_then(t: Table, before: Position, after: Position, nxt: tuple[DieReading, ...]) -> list:  # type: ignore[type-arg]
    """No die found while the hand plays; one clear frame of the board; the next roll thrown (one
    frame of motion) and lying still for three frames."""
    out = t.show(before, hand=True)
    out += t.show(after, hand=True)
    out += t.show(after)  # the only clear frame without dice
    out += t.show(after, motion=True, dice=[dataclasses.replace(d, moving=True) for d in nxt])
    out += t.show(after, 3, dice=nxt)
    return out


def test_a_roll_in_the_other_half_shows_the_turn_before_was_played_unseen() -> None:
    t = Table(Referee())
    ref = opened(t)  # Black to roll
    pos = ref.position
    after = _play(pos, "13/7 8/7")  # Black's 6-1, its dice never seen
    ev = _unseen_then(t, pos, after, roll_dice(Side.WHITE, (4, 2)))
    assert "roll_void" not in kinds(ev) and "illegal_play" not in kinds(ev)
    assert kinds(ev) == ["play_accepted", "roll_accepted"]
    p = only(ev, PlayAccepted)
    assert p.side is Side.BLACK and p.extra["roll_unseen"] == ["61"]
    assert only(ev, RollAccepted).side is Side.WHITE and ref.dice == (4, 2)
    # and White's play is judged as usual
    nxt = legal_results(ref.before, (4, 2))[0].position
    assert kinds(t.move_and_pick_up(ref.before, nxt, roll_dice(Side.WHITE, (4, 2)))) == ["play_accepted"]


def test_a_missed_opening_and_the_next_roll_in_one_half_E1() -> None:
    t = Table(Referee())
    t.setup()
    after = _play(START, "24/18 13/8")  # White's opening 6-5, the opening roll never seen
    ev = _unseen_then(t, START, after, roll_dice(Side.BLACK, (3, 1)))
    assert "roll_void" not in kinds(ev)
    assert kinds(ev) == ["opening_roll", "play_accepted", "roll_accepted"]
    assert only(ev, OpeningRoll).winner is Side.WHITE
    assert only(ev, RollAccepted).side is Side.BLACK and t.referee.dice == (3, 1)


def test_unreadable_dice_of_the_next_player_ask_that_player_for_the_roll_E2() -> None:
    t = Table(Referee())
    ref = opened(t)
    pos = ref.position
    after = _play(pos, "24/18 13/9")  # Black's 6-4
    small = tuple(dataclasses.replace(die(0, "right", confidence=0.0), note="too small to read (8 px, need 12)")
                  for _ in range(2))
    ev = _unseen_then(t, pos, after, small)
    assert kinds(ev) == ["play_accepted", "roll_needed"]
    assert only(ev, RollNeeded).side is Side.WHITE


def test_a_roll_in_the_wrong_half_on_an_unmoved_board_is_still_void_E3() -> None:
    t = Table(Referee())
    ref = opened(t)  # Black to roll, and Black throws into White's half
    ev = t.throw(ref.position, roll_dice(Side.WHITE, (5, 2)), settled=3)
    assert kinds(ev) == ["roll_void"] and ref.position.turn is Side.BLACK


def test_a_die_flagged_tumbling_on_a_still_frame_lies_there_unread_E2() -> None:
    # traced game 3: one die read, the other flagged tumbling frame after frame with no motion in
    # the picture; the roll used to be never taken
    t = Table(Referee())
    ref = opened(t)
    stuck = (die(5, "left"), dataclasses.replace(die(0, "left", confidence=0.0), moving=True))
    ev = t.throw(ref.position, stuck, settled=3)
    assert kinds(ev) == ["roll_needed"] and only(ev, RollNeeded).side is Side.BLACK


def test_the_best_reading_keeping_the_count_against_every_count_by_hand() -> None:
    import itertools

    import numpy as np

    rng = np.random.default_rng(0)
    for _ in range(50):
        table = np.log(rng.dirichlet(np.ones(4), size=4))
        brute = max(sum(table[i, c[i]] for i in range(4))
                    for c in itertools.product(range(4), repeat=4) if sum(c) == 3)
        assert abs(best_conserving(table, 3) - brute) < 1e-9


def _joined(t: Table, pos: Position) -> Referee:
    """A referee (of an unattended table) that joined ``pos`` as a game in progress: White guessed on
    roll, either side may throw first."""
    ref = opened(t)
    ref.carry_on_from(pos, ref.position, "joined", "A game in progress.", extra={"in_progress": True})
    t.show(pos, 3)
    return ref


def test_after_a_join_a_roll_in_the_guessed_sides_half_follows_the_other_sides_unseen_play() -> None:
    # bench_video.py --rolled --seed 1 game 1: joined with Black's 6-6 lying unseen (learnt into the
    # board), White guessed on roll; Black played, White's 6-5 landed in White's half with the 5 read
    # only. The play was never judged (the dice in the side on roll's half were taken as no sign of a
    # play before them), and the game went out of step at Black's next play
    t = Table(Referee(RefereeSettings(attended=False)))
    pos = _play(_play(START, "8/2 6/2"), "13/9 13/10").with_turn(Side.WHITE)
    ref = _joined(t, pos)
    assert ref.position.turn is Side.WHITE
    after = _play(pos.with_turn(Side.BLACK), "24/18(2) 13/7(2)")  # Black's 6-6, its dice never seen
    one = (die(5, "right"), dataclasses.replace(die(0, "right", confidence=0.0), note="the camera finds one die only"))
    ev = _unseen_then(t, pos, after, one)
    assert "illegal_play" not in kinds(ev) and "board_out_of_sync" not in kinds(ev)
    p = only(ev, PlayAccepted)
    assert p.side is Side.BLACK and p.extra["roll_unseen"] == ["66"]
    assert ref.position.turn is Side.WHITE


def test_after_a_join_a_roll_on_an_unmoved_board_is_the_guessed_sides_roll() -> None:
    t = Table(Referee(RefereeSettings(attended=False)))
    pos = _play(_play(START, "8/2 6/2"), "13/9 13/10").with_turn(Side.WHITE)
    ref = _joined(t, pos)
    ev = t.throw(pos, roll_dice(Side.WHITE, (4, 2)), settled=3)
    assert kinds(ev) == ["roll_accepted"] and only(ev, RollAccepted).side is Side.WHITE and ref.dice == (4, 2)

