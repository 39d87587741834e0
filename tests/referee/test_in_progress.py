"""A referee started during a game (B3, issue 9): a confirmed set-up board that is clearly a
position of a game in progress is carried on from, not taken for a misread start; the first
roll's half says whose turn it is (E3)."""

from __future__ import annotations

from tavli_pi.referee.events import BoardAdopted, PlayAccepted, RollAccepted
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position, Side

from .synth import Table, kinds, only, roll_dice

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
