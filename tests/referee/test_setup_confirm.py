"""Set-up never deadlocks (B3, issue 9): the players confirm a board vision reads otherwise,
and the spots vision misread on it become blind spots the rules fill in."""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.events import Event, SetupChecked
from tavli_pi.referee.evidence import EvidenceTable, read
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import Observation

from .synth import Table, die, kinds, nth, observe

START = Position.start()
#: White's 13-point, in the light player's numbering (light is White)
P13 = 12


class SwappedTable(Table):
    """A table whose camera reads the checkers on White's 13-point in the other colour
    (a translucent overlay, a lamp's reflection: a misreading of this board, not of a frame)."""

    def feed(self, item: Observation | PlayerInput) -> list[Event]:
        if isinstance(item, Observation):
            pts = list(item.points)
            s = pts[P13]
            pts[P13] = dataclasses.replace(s, light=s.dark, dark=s.light)
            item = dataclasses.replace(item, points=tuple(pts))
        return super().feed(item)


def test_a_set_up_read_otherwise_asks_the_players_and_accept_confirms_it_B3() -> None:
    t = SwappedTable(Referee())
    ev = t.setup()
    assert kinds(ev) == ["setup_checked"]
    asked = nth(ev, 0, SetupChecked)
    assert not asked.ok and "point 13" in " ".join(asked.problems) and "ACCEPT" in asked.message
    assert t.referee.state.setup_wrong
    ev = t.press(Action.ACCEPT)
    assert kinds(ev) == ["setup_checked", "game_started"]
    done = nth(ev, 0, SetupChecked)
    assert done.ok and done.extra.get("confirmed") is True
    assert t.referee.phase == "opening" and not t.referee.state.setup_wrong
    assert t.referee.blind == (P13,)  # learnt from the set-up frames the players confirmed


def test_accept_before_any_clear_frame_learns_the_blind_spots_from_the_next_frames() -> None:
    t = SwappedTable(Referee())
    assert kinds(t.press(Action.ACCEPT)) == ["setup_checked", "game_started"]  # the app confirmed it
    assert t.referee.blind == ()
    t.show(START, 2)
    assert t.referee.blind == (P13,)


def test_plays_are_judged_through_a_blind_spot_and_illegal_plays_still_caught_E5_E8() -> None:
    t = SwappedTable(Referee())
    t.setup()
    t.press(Action.ACCEPT)
    t.throw(START, (die(3, "right"), die(1, "left")))
    ref = t.referee
    legal = apply_play(ref.before, parse_play(ref.before, "8/5 6/5"))
    ev = t.move_and_pick_up(ref.before, legal, (die(3, "right"), die(1, "left")))
    assert "play_accepted" in kinds(ev) and ref.position.layout_key() == legal.layout_key()
    # Black 6-5 plays 24/13 (onto the blind 13-point, which then reads as White's) ...
    dice = (die(6, "left"), die(5, "left"))
    t.throw(ref.position, dice)
    before = ref.before
    after = apply_play(before, parse_play(before, "24/13"))
    ev = t.move_and_pick_up(before, after, dice)
    assert "play_accepted" in kinds(ev) and "illegal_play" not in kinds(ev)
    # ... and an illegal White play on spots vision can read is still called (E8)
    dice = (die(3, "right"), die(1, "right"))
    t.throw(ref.position, dice)
    before = ref.before
    bad = apply_play(before, parse_play(before, "8/4 6/5"))  # 8/4 with a 3: one pip too far
    ev = t.move_and_pick_up(before, bad, dice)
    assert kinds(ev) == ["illegal_play"]


def test_a_blind_spot_takes_the_best_candidates_counts_and_is_never_a_difference() -> None:
    swapped = observe(START)
    pts = list(swapped.points)
    pts[P13] = dataclasses.replace(pts[P13], light=pts[P13].dark, dark=pts[P13].light)
    obs = dataclasses.replace(swapped, points=tuple(pts))
    seeing = read(EvidenceTable([obs, obs]), [START])
    assert P13 in seeing.differing and seeing.free is None  # 20 dark checkers: no position
    blind = read(EvidenceTable([obs, obs], blind=(P13,)), [START])
    assert blind.differing == () and blind.gap == 0.0 and blind.free is not None
    assert blind.free.layout_key() == START.layout_key()


def test_the_opening_roll_thrown_instead_of_an_answer_confirms_the_set_up_B3_E1() -> None:
    t = SwappedTable(Referee())
    assert kinds(t.setup()) == ["setup_checked"]
    ev = t.throw(START, (die(3, "right"), die(1, "left")))
    assert kinds(ev) == ["setup_checked", "game_started", "opening_roll"]
    done = nth(ev, 0, SetupChecked)
    assert done.ok and done.extra.get("confirmed") is True and "opening roll" in done.message
    assert t.referee.phase == "rolled" and t.referee.dice == (3, 1) and t.referee.blind == (P13,)


def test_dice_seen_before_the_question_never_answer_it() -> None:
    t = SwappedTable(Referee())
    lying = (die(3, "right"), die(1, "left"))  # print on the board read as dice, in every frame
    ev = t.show(START, 6, dice=lying)
    assert kinds(ev) == ["setup_checked"] and t.referee.phase == "setup"


def test_an_opening_roll_too_small_to_read_confirms_the_set_up_and_is_asked_for_E1() -> None:
    small = tuple(dataclasses.replace(die(0, h, confidence=0.0), note="too small to read (8 px, need 12)",
                                      size_px=8.0) for h in ("right", "left"))
    t = SwappedTable(Referee())
    t.setup()
    ev = t.throw(START, small, settled=4)
    assert kinds(ev) == ["setup_checked", "game_started", "roll_needed"]
    assert t.referee.phase == "opening"


def test_an_unattended_table_takes_a_board_left_as_it_is_as_set_up() -> None:
    """A recorded video has nobody to press ACCEPT: a board asked about and left clear and still for
    ``2 * clear_view_after`` frames is taken as set up; an attended table keeps asking."""
    from tavli_pi.referee.settings import RefereeSettings

    t = SwappedTable(Referee(RefereeSettings(attended=False)))
    ev = t.setup() + t.show(START, 6)
    assert kinds(ev) == ["setup_checked"] and t.referee.phase == "setup"  # not yet: it waits
    ev = t.show(START, 4)
    assert kinds(ev) == ["setup_checked", "game_started"]
    assert "Nobody answered" in nth(ev, 0, SetupChecked).message and t.referee.blind == (P13,)
    attended = SwappedTable(Referee())
    assert kinds(attended.setup() + attended.show(START, 30)) == ["setup_checked"]


def test_the_unattended_set_up_wait_is_in_seconds_by_the_clock_given() -> None:
    """``unattended_wait`` (1 s) is time by the clock the referee is given, not a count of frames:
    at 30 frames a second the board is taken as set up after 30 frames, not the 10 of 10 fps; a
    shorter wait is shorter."""
    from tavli_pi.referee.settings import RefereeSettings

    t = SwappedTable(Referee(RefereeSettings(attended=False)), fps=30.0)
    ev = t.setup() + t.show(START, 26)
    assert kinds(ev) == ["setup_checked"] and t.referee.phase == "setup"  # 0.93 s after the first
    ev = t.show(START, 4)
    assert kinds(ev) == ["setup_checked", "game_started"] and "Nobody answered" in nth(ev, 0, SetupChecked).message
    quick = SwappedTable(Referee(RefereeSettings(attended=False, unattended_wait=0.5)))
    ev = quick.setup() + quick.show(START, 4)
    assert kinds(ev) == ["setup_checked", "setup_checked", "game_started"]


class OpenedLookingTable(Table):
    """A table whose camera reads the start as White's 3-1 opening played 24/21 24/23 (bench_reallike
    game 92: two phantom blots and White's back pair read as none, on every frame)."""

    def feed(self, item: Observation | PlayerInput) -> list[Event]:
        if isinstance(item, Observation) and not (item.hand or item.motion):
            looks = apply_play(START, parse_play(START, "24/21 24/23"))
            seen = observe(looks, frame_index=item.frame_index, dice=item.dice)
            pts = list(item.points)
            for i in (20, 22, 23):  # White's 21-, 23- and 24-points in the light numbering
                pts[i] = seen.points[i]
            item = dataclasses.replace(item, points=tuple(pts))
        return super().feed(item)


def test_a_die_thrown_between_two_clear_frames_still_teaches_the_blind_spots_B3() -> None:
    # the players confirm the set-up before a clear frame, and a die or a shadow passes between
    # the first clear frames: those frames still show the set-up board, so the spots read
    # otherwise are blind -- not a play made without a roll (no play was made: the board is the start)
    t = OpenedLookingTable(Referee())
    assert kinds(t.press(Action.ACCEPT)) == ["setup_checked", "game_started"]
    ev = t.show(START)
    ev += t.show(START, motion=True)
    ev += t.show(START, 3)
    assert "play_accepted" not in kinds(ev)
    assert t.referee.phase == "opening" and t.referee.blind == (20, 22, 23)
    # the opening roll then read, the opening play is judged against the start
    ev = t.throw(START, (die(3, "right"), die(1, "left")))
    assert t.referee.phase == "rolled" and t.referee.dice == (3, 1)
