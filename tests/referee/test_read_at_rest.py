"""A throw seen lying still but unread is read on the first frame that reads it (bench_video --size 640).

Traced on the steady 640 px recordings (``bench_video.py --size 640 --turns 6``, game 11, 11-12 px metal
dice): one die read, the other not found or its face not resolved, for four frames (the throw asked for,
``roll_needed``); the play made, and on the one clear frame after it, with the dice still down, both read
(5 at 0.96 and 2 at 0.86). The watch wanted a second frame agreeing, the player picked the dice up, and the
play was taken unchecked. The throw had lain there still, seen, for ``settle`` frames already: it is at
rest, and a frame reading every die of it reads the roll. A throw never seen before still settles as before.
"""

from __future__ import annotations

import dataclasses

from tavli_pi.referee.dice import DiceWatch
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.moves import legal_results

from .synth import Table, die, kinds, opened


def _at(d, x: float):  # type: ignore[no-untyped-def]
    return dataclasses.replace(d, xy=(x, 40.0), size_px=11.0)


def tiny(x: float, half: str = "left"):  # type: ignore[no-untyped-def]
    return _at(dataclasses.replace(die(0, half, confidence=0.0), note="too small to read (11 px, need 12)"), x)


def test_a_throw_seen_unread_is_read_on_one_frame_reading_it() -> None:
    w = DiceWatch(settle=2)
    one = _at(die(5, "left"), 100.0)
    assert w.feed([one]) is None and w.feed([one]) is None  # one die read, the other not found
    assert w.unread is not None  # the throw lies still, unread
    got = w.feed([one, _at(die(2, "left", confidence=0.86), 130.0)])
    assert got is not None and sorted(d.value for d in got) == [2, 5]


def test_an_unread_throw_read_elsewhere_is_no_reading_of_it() -> None:
    w = DiceWatch(settle=2)
    w.feed([tiny(100.0), tiny(130.0)])
    w.feed([tiny(100.0), tiny(130.0)])
    assert w.unread is not None
    # two dice read, but not where the throw lay: they must settle as any throw does
    assert w.feed([_at(die(5, "left"), 300.0), _at(die(2, "left"), 330.0)]) is None


def test_a_throw_never_seen_still_settles_over_two_frames() -> None:
    w = DiceWatch(settle=2)
    dice = [_at(die(5, "left"), 100.0), _at(die(2, "left"), 130.0)]
    assert w.feed(dice) is None
    assert w.feed(dice) is not None


def test_a_roll_read_only_after_the_play_checks_the_play() -> None:
    t = Table(Referee())
    ref = opened(t)
    before = ref.position  # Black to roll
    five = _at(die(5, "left"), 100.0)
    asked = t.throw(before, (five,), settled=3)
    assert "roll_needed" in kinds(asked)  # the camera finds one die only
    after = legal_results(before, (5, 2))[0].position
    t.show(before, dice=(five,), hand=True)
    t.show(after, dice=(five,), hand=True)
    out = t.show(after, dice=(five, _at(die(2, "left", confidence=0.86), 130.0)))  # both read, once
    assert "roll_accepted" in kinds(out) and ref.dice == (5, 2)
    out += t.show(after, hand=True)  # the dice picked up
    for _ in range(4):
        out += t.show(after)
    accepted = [e for e in out if e.kind == "play_accepted"]
    assert len(accepted) == 1 and "roll_unseen" not in accepted[0].extra
