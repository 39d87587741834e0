"""The roll's dice read again while they lie (referee/roll_reread.py).

``bench_video`` game 2 at 640x360 (11 px dice): White's 5 read at 0.93, 0.90, 0.90, 0.90 while it
lay, the roll taken at 0.8977 (under the 0.9 a call needs) -- the planted 6-1 play made with 5-1 was
asked about ("the dice were read 5-1 without certainty") instead of called, and nobody answers a
recording."""

from __future__ import annotations

from tavli_pi.referee.dice import DiceWatch
from tavli_pi.referee.events import RollNeeded
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.roll_reread import read_again, slots_of
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import DieReading

from .synth import Table, kinds, opened


def lying(value: int, x: float, confidence: float, *, half: str = "left", flat: bool = True,
          moving: bool = False, note: str = "") -> DieReading:
    """A die of 11 px lying at (x, 180) image px."""
    return DieReading((x, 180.0), value, confidence, flat, False, half, moving,  # type: ignore[arg-type]
                      note=note, size_px=11.0)


ROLL = (lying(5, 240.0, 0.8977), lying(1, 270.0, 0.91))


def test_slots_put_the_high_die_first_and_a_double_by_its_confidence() -> None:
    assert slots_of(ROLL) == (0, 1)
    assert slots_of((lying(1, 240.0, 0.95), lying(5, 270.0, 0.80))) == (1, 0)
    assert slots_of((lying(3, 240.0, 0.80), lying(3, 270.0, 0.95))) == (1, 0)


def test_a_die_read_again_alike_is_as_sure_as_its_surest_read() -> None:
    conf, against = read_again((0.8977, 0.91), (False, False), ROLL,
                               (lying(5, 241.0, 0.93), lying(1, 270.0, 0.90)), 0.6)
    assert conf == (0.93, 0.91) and against == (False, False)


def test_a_die_read_again_otherwise_is_sure_no_more() -> None:
    conf, against = read_again((0.95, 0.91), (False, False), ROLL, (lying(6, 240.0, 0.70), lying(1, 270.0, 0.9)), 0.6)
    assert conf == (0.0, 0.91) and against == (True, False)
    # read alike afterwards, it stays unsure: it was read two ways
    conf, against = read_again(conf, against, ROLL, (lying(5, 240.0, 0.99),), 0.6)
    assert conf == (0.0, 0.91) and against == (True, False)


def test_reads_that_say_nothing_leave_the_roll_as_it_was() -> None:
    start = ((0.8977, 0.91), (False, False))
    for seen in (
        (lying(5, 240.0, 0.99, moving=True),),  # tumbling: a new throw, not this die
        (lying(5, 240.0, 0.99, flat=False),),  # cocked
        (lying(6, 240.0, 0.5),),  # another value, read under the watch's confidence
        (lying(5, 218.0, 0.99),),  # two sides away: not where the 5 lay (nor the 1)
        (lying(5, 240.0, 0.99), lying(6, 243.0, 0.99)),  # two dice there
    ):
        assert read_again(*start, ROLL, seen, 0.6) == start, seen
    entered = (lying(5, 240.0, 1.0, note="entered"), lying(1, 270.0, 1.0, note="entered"))
    assert read_again((1.0, 1.0), (False, False), entered, (lying(6, 240.0, 0.99),), 0.6) == ((1.0, 1.0), (False, False))


def test_the_watch_reports_each_die_at_its_best_read_of_the_settling_frames() -> None:
    w = DiceWatch(settle=2, min_confidence=0.6)
    assert w.feed((lying(5, 240.0, 0.93), lying(1, 270.0, 0.90))) is None
    got = w.feed((lying(1, 270.0, 0.91), lying(5, 240.0, 0.8977)))
    assert got is not None and [(d.value, d.value_confidence) for d in got] == [(1, 0.91), (5, 0.93)]
    # a frame of other dice starts the count and the best read again
    w.rearm()
    w.feed((lying(5, 240.0, 0.99), lying(1, 270.0, 0.9)))
    w.feed((lying(6, 240.0, 0.8), lying(1, 270.0, 0.9)))
    got = w.feed((lying(6, 240.0, 0.7), lying(1, 270.0, 0.9)))
    assert got is not None and sorted((d.value, d.value_confidence) for d in got) == [(1, 0.9), (6, 0.8)]


def _black_plays_6_2(t: Table, dice: tuple[DieReading, ...]) -> tuple[Referee, Position]:
    ref = opened(t)
    t.throw(ref.position, dice)
    assert ref.dice == (4, 2)
    return ref, apply_play(ref.before, parse_play(ref.before, "24/18 13/11"))  # legal for 6-2, not 4-2


def test_a_die_read_surely_while_the_play_is_made_makes_the_call_E8() -> None:
    t = Table(Referee())
    unsure = (lying(4, 240.0, 0.85), lying(2, 270.0, 0.95))
    ref, played = _black_plays_6_2(t, unsure)
    assert ref._dice_conf == (0.85, 0.95)
    # the 4 lies still and is read at 0.93 on a clear frame of the play: sure, the play is called
    ev = t.move_and_pick_up(ref.before, played, (lying(4, 240.0, 0.93), lying(2, 270.0, 0.95)))
    assert "illegal_play" in kinds(ev) and "roll_needed" not in kinds(ev)


def test_a_die_read_surely_only_under_a_hand_still_asks_for_the_roll_E2() -> None:
    t = Table(Referee())
    unsure = (lying(4, 240.0, 0.85), lying(2, 270.0, 0.95))
    ref, played = _black_plays_6_2(t, unsure)
    t.show(played, dice=(lying(4, 240.0, 0.97), lying(2, 270.0, 0.95)), hand=True)
    ev = t.move_and_pick_up(ref.before, played, unsure)
    assert "illegal_play" not in kinds(ev)
    assert [e for e in ev if isinstance(e, RollNeeded)][0].extra["fits"] == ["6-2"]


def test_a_die_read_two_ways_while_it_lies_is_no_ground_for_a_call_E2() -> None:
    t = Table(Referee())
    sure = (lying(4, 240.0, 0.95), lying(2, 270.0, 0.95))
    ref, played = _black_plays_6_2(t, sure)
    t.show(played, dice=(lying(6, 240.0, 0.80), lying(2, 270.0, 0.95)))  # the 4 read as a 6 once
    ev = t.move_and_pick_up(ref.before, played, sure)
    assert "illegal_play" not in kinds(ev) and "roll_needed" in kinds(ev)
