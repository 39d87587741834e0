"""A referee started during a game (B3, issue 9): a confirmed set-up board that is clearly a
position of a game in progress is carried on from, not taken for a misread start; the first
roll's half says whose turn it is (E3)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tavli_pi.referee.events import BoardAdopted, Event, PlayAccepted, RollAccepted
from tavli_pi.referee.evidence import reachable, spot_counts
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, Observation, SpotEvidence

from .synth import Table, die, kinds, observe, only, roll_dice

#: a game some turns in (White's numbering): 15 + 15, and differing from the start at many points
MIDGAME = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2}, {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2})


def _joined(t: Table, ev: list) -> BoardAdopted:  # type: ignore[type-arg]
    joined = only(ev, BoardAdopted)
    assert joined.extra.get("in_progress") is True and "game in progress" in joined.message
    assert t.referee.phase == "awaiting_roll"
    assert t.referee.position.layout_key() == MIDGAME.layout_key()
    return joined


def test_a_confirmed_board_of_a_game_in_progress_is_carried_on_from() -> None:
    t = Table(Referee())
    ev = t.setup(MIDGAME)
    assert kinds(ev) == ["setup_checked"] and t.referee.state.setup_wrong  # asked: fix it or confirm
    ev = t.press(Action.ACCEPT)
    _joined(t, ev)
    assert t.referee.blind == ()  # not a misread start: no blind spots
    # Black throws in Black's own half: Black's turn (E3); a legal play is accepted
    ev = t.throw(t.referee.position, roll_dice(Side.BLACK, (4, 2)))
    roll = only(ev, RollAccepted)
    assert roll.side is Side.BLACK and roll.dice == (4, 2)
    before = t.referee.position
    after = apply_play(before, parse_play(before, "13/9 6/4"))
    ev = t.move_and_pick_up(before, after, roll_dice(Side.BLACK, (4, 2)))
    assert only(ev, PlayAccepted).side is Side.BLACK


def test_an_unattended_table_joins_a_game_in_progress_after_waiting() -> None:
    t = Table(Referee(RefereeSettings(attended=False)))
    ev = t.setup(MIDGAME) + t.show(MIDGAME, 12)
    _joined(t, ev)
    ev = t.throw(t.referee.position, roll_dice(Side.WHITE, (6, 5)))
    assert only(ev, RollAccepted).side is Side.WHITE


def test_a_start_misread_at_a_few_spots_stays_a_start_with_blind_spots() -> None:
    # one White checker of the 13-point read on the 11 (B3: the players set it up right): two
    # spots differ, fewer than ``in_progress_spots``, so the board is the start, misread there
    near = Position.from_counts({24: 2, 13: 4, 11: 1, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    t = Table(Referee(RefereeSettings(in_progress_spots=4)))
    t.setup(near)
    ev = t.press(Action.ACCEPT)
    assert "board_adopted" not in kinds(ev) and t.referee.phase == "opening"
    assert t.referee.position.layout_key() == Position.start().layout_key()
    assert t.referee.blind == (10, 12)  # the 11- and 13-points (light numbering from 0)
    joined = Table(Referee(RefereeSettings(in_progress_spots=2)))
    joined.setup(near)
    assert "board_adopted" in kinds(joined.press(Action.ACCEPT))  # the setting decides


def _soft(n: int, sure: float) -> CountEvidence:
    probs = [1e-4] * (MAX_COUNT + 1)
    probs[n], probs[n - 1] = sure, 1.0 - sure
    total = sum(probs)
    return CountEvidence(tuple(p / total for p in probs))


def _unsure_at(obs: Observation, spots: Sequence[int], sure: float = 0.6) -> Observation:
    """``obs`` with the count of the checkers on each of ``spots`` (light numbering from 0) read at
    ``sure`` only, the rest on the count one less (a stack read without certainty; a frame's posterior
    grows with the frames that agree: 0.55 stays under 0.75 over the 4 frames a reading keeps)."""
    points = list(obs.points)
    for i in spots:
        light, dark = points[i].light, points[i].dark
        points[i] = (SpotEvidence(_soft(light.best, sure), dark) if light.best
                     else SpotEvidence(light, _soft(dark.best, sure)))
    return dataclasses.replace(obs, points=tuple(points))


def _midgame_frames(t: Table, n: int, unsure: Sequence[int], sure: float = 0.6) -> list[Event]:
    out: list[Event] = []
    for _ in range(n):
        t.index += 1
        out += t.feed(_unsure_at(observe(MIDGAME, frame_index=t.index), unsure, sure))
    return out


#: three of the spots where MIDGAME differs from the start, light numbering from 0 (White's 16-, 7- and
#: 5-points): read unsurely, as a board not learnt reads a few stacks
UNSURE = (15, 6, 4)


def test_an_unattended_game_in_progress_is_joined_though_a_few_of_its_spots_are_read_unsurely() -> None:
    # nobody confirms a recording's board: one that differs from the start at many spots read surely
    # is a game in progress, though a few others read unsurely (bench_video.py --from-play 6: such
    # boards were taken for a misread start, and every roll after voided as an opening roll)
    t = Table(Referee(RefereeSettings(attended=False)))
    ev = _midgame_frames(t, 14, UNSURE)
    _joined(t, ev)
    assert t.referee.blind == ()
    ev = t.throw(t.referee.position, roll_dice(Side.WHITE, (6, 5)))
    assert only(ev, RollAccepted).side is Side.WHITE


def test_players_confirming_a_board_read_unsurely_off_the_start_confirm_the_start() -> None:
    # at an attended table ACCEPT says "it is set up": a board that is not read surely wherever it
    # differs stays the start, with those spots blind (unchanged)
    t = Table(Referee())
    _midgame_frames(t, 2, UNSURE)
    ev = t.press(Action.ACCEPT)
    assert "board_adopted" not in kinds(ev) and t.referee.phase == "opening"
    assert t.referee.position.layout_key() == Position.start().layout_key()


def test_an_unattended_start_misread_at_a_few_spots_is_still_a_start() -> None:
    near = Position.from_counts({24: 2, 13: 4, 11: 1, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    t = Table(Referee(RefereeSettings(attended=False)))
    ev = t.setup(near) + t.show(near, 12)
    assert "board_adopted" not in kinds(ev) and t.referee.phase == "opening"
    assert t.referee.blind == (10, 12)
    # nobody confirmed it: no call rests on that board until a play checked against its roll fits it
    assert t.referee.board_unsure
    t.throw(near, (die(3, "right"), die(1, "left")))
    before = t.referee.position
    ev = t.move_and_pick_up(near, apply_play(near, parse_play(before, "8/5 6/5")), (die(3, "right"), die(1, "left")))
    assert "play_accepted" in kinds(ev) and not t.referee.board_unsure


#: every spot where MIDGAME differs from the start (light numbering from 0)
DIFFERING = (23, 15, 12, 6, 5, 4, 11, 16, 17, 18, 20)


def test_an_unattended_opening_roll_in_one_half_on_a_board_taken_as_set_up_joins_the_game() -> None:
    # left as it is while read unsurely wherever it differs, the board is taken for the start (its
    # blind spots learnt); then a roll lies in one half, which no opening roll does (E1): read surely
    # now, the board is a game in progress, joined, and the roll is the half's player's (E3)
    t = Table(Referee(RefereeSettings(attended=False)))
    ev = _midgame_frames(t, 14, DIFFERING, 0.55)
    assert "board_adopted" not in kinds(ev) and t.referee.phase == "opening" and t.referee.blind
    t.show(MIDGAME, 2)
    ev = t.throw(MIDGAME, roll_dice(Side.BLACK, (4, 2)))
    assert only(ev, BoardAdopted).extra.get("in_progress") is True
    assert t.referee.blind == () and t.referee.phase == "rolled"
    roll = only(ev, RollAccepted)
    assert roll.side is Side.BLACK and roll.dice == (4, 2)
    assert "roll_void" not in kinds(ev)


def test_an_attended_opening_roll_in_one_half_is_void() -> None:
    t = Table(Referee())
    _midgame_frames(t, 2, DIFFERING, 0.55)
    t.press(Action.ACCEPT)
    t.show(MIDGAME, 2)
    ev = t.throw(MIDGAME, roll_dice(Side.BLACK, (4, 2)))
    assert "roll_void" in kinds(ev) and "board_adopted" not in kinds(ev)


def test_a_play_that_does_not_fit_a_board_joined_unsurely_is_not_called() -> None:
    # joined from a reading not sure at every spot (unattended), the board joined may be the wrong one:
    # a play that does not fit it is out of step, not illegal, until a play has fitted it
    t = Table(Referee(RefereeSettings(attended=False)))
    _joined(t, _midgame_frames(t, 14, UNSURE))
    assert t.referee.board_unsure
    dice = roll_dice(Side.WHITE, (6, 5))
    t.throw(t.referee.position, dice)
    before = t.referee.position
    bad = apply_play(before, parse_play(before, "13/7 13/7"))  # 6-6's, not 6-5's
    ev = t.move_and_pick_up(before, bad, dice) + t.show(bad, 4)
    assert "illegal_play" not in kinds(ev) and "board_out_of_sync" in kinds(ev)


def test_once_a_play_fits_the_board_joined_an_illegal_play_is_called() -> None:
    t = Table(Referee(RefereeSettings(attended=False)))
    _joined(t, _midgame_frames(t, 14, UNSURE))
    dice = roll_dice(Side.WHITE, (6, 5))
    t.throw(t.referee.position, dice)
    before = t.referee.position
    after = apply_play(before, parse_play(before, "13/7 13/8"))
    ev = t.move_and_pick_up(before, after, dice)
    assert only(ev, PlayAccepted).side is Side.WHITE and not t.referee.board_unsure
    dice = roll_dice(Side.BLACK, (4, 2))
    t.throw(after, dice)
    now = t.referee.position
    bad = apply_play(now, parse_play(now, "13/9 13/9"))  # 4 pips twice: 4-4's, not 4-2's
    ev = t.move_and_pick_up(now, bad, dice) + t.show(bad, 2)
    assert "illegal_play" in kinds(ev)


def _dark_counted_off(obs: Observation, spot: int, n: int) -> Observation:
    """``obs`` with the dark stack of ``n`` on ``spot`` (light numbering from 0) read one short at 0.55,
    and the dark tray read as holding one checker at 0.8 (an empty tray's weak evidence: an insert, its
    lining)."""
    short = [1e-6] * (MAX_COUNT + 1)
    short[n - 1], short[n] = 0.55, 0.45
    tray = [1e-6] * (MAX_COUNT + 1)
    tray[0], tray[1] = 0.2, 0.8
    points = list(obs.points)
    points[spot] = SpotEvidence(points[spot].light, CountEvidence(tuple(short)))
    return dataclasses.replace(obs, points=tuple(points), off=SpotEvidence(obs.off.light, CountEvidence(tuple(tray))))


def test_a_game_joined_unattended_has_no_checker_borne_off_while_its_side_is_outside_home() -> None:
    # bench_video.py --seed 7 --from-play 4, game 12: the 15th dark checker, missed on a point, was read in
    # the tray, and the game was joined with a dark checker borne off while dark had checkers all over the
    # board -- a board no game reaches (a player bears off once all fifteen checkers are home). The tray is
    # read empty then, and the checker goes back where the evidence least minds it: on its stack
    t = Table(Referee(RefereeSettings(attended=False)))
    assert MIDGAME.off == (0, 0) and observe(MIDGAME).points[11].dark.best == 4  # Black's 13-point
    ev: list[Event] = []
    for _ in range(14):
        t.index += 1
        ev += t.feed(_dark_counted_off(observe(MIDGAME, frame_index=t.index), 11, 4))
    joined = only(ev, BoardAdopted)
    assert joined.after.off == (0, 0)
    _joined(t, ev)


def test_a_game_joined_with_a_roll_lying_in_one_half_is_that_players_turn() -> None:
    # a recording that starts with a roll lying (bench_video.py --from-play 4 --rolled): the dice lie in
    # Black's half (Black's right hand, E3), so Black is on roll in the board joined, not the start's side
    t = Table(Referee(RefereeSettings(attended=False)))
    dice = roll_dice(Side.BLACK, (4, 2))
    ev: list[Event] = []
    for _ in range(14):
        t.index += 1
        ev += t.feed(observe(MIDGAME, dice=dice, frame_index=t.index))
    joined = only(ev, BoardAdopted)
    assert joined.after.layout_key() == MIDGAME.layout_key() and joined.after.turn is Side.BLACK


def test_a_board_read_as_every_checker_borne_off_is_no_game_to_join() -> None:
    # bench_video.py --seed 7 --from-play 4, game 6 (rosewood, 640 px): every checker but one read in the
    # trays, and the game was joined there -- a side with all fifteen borne off has won: no game in progress
    board = Position.from_counts({}, {5: 1})  # the rest borne off
    assert not reachable(*spot_counts(board, True)) and reachable(*spot_counts(MIDGAME, True))
    t = Table(Referee(RefereeSettings(attended=False)))
    ev: list[Event] = []
    for _ in range(14):
        t.index += 1
        ev += t.feed(observe(board, frame_index=t.index))
    assert "board_adopted" not in kinds(ev)
