"""E8: an illegal play may be pointed out only before the next roll; after that it stands as
played. A play the referee could judge only after the next roll was thrown (hands over the board
until then) is never called illegal late: the board is out of sync for the players to confirm."""

from __future__ import annotations

from tavli_pi.referee.events import BoardMismatch
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.position import Position, Side

from .synth import Table, kinds, only, opened, roll_dice


def _illegal_for_31(before: Position) -> Position:
    """Black moves one checker five pips (13/8 in Black's numbering) on a 3-1: one play, not legal."""
    counts_w = {p: before.count(Side.WHITE, p) for p in range(1, 25) if before.count(Side.WHITE, p)}
    counts_b = {p: before.count(Side.BLACK, p) for p in range(1, 25) if before.count(Side.BLACK, p)}
    counts_b[13] -= 1
    counts_b[8] = counts_b.get(8, 0) + 1
    return Position.from_counts(counts_w, counts_b).with_turn(Side.BLACK)


def _played_then(t: Table, next_thrown: bool) -> list:  # type: ignore[type-arg]
    ref = t.referee
    dice = roll_dice(Side.BLACK, (3, 1))
    t.throw(ref.position, dice)
    before = ref.before
    bad = _illegal_for_31(before)
    out = t.show(before, dice=dice, hand=True) + t.show(bad, dice=dice, hand=True)
    out += t.show(bad, hand=True)  # the dice picked up, a hand still over the board
    if next_thrown:
        white = roll_dice(Side.WHITE, (6, 5))
        out += t.show(bad, hand=True, dice=white, motion=True)  # White throws at once
        out += t.show(bad, 4, dice=white)
    else:
        out += t.show(bad, 4)
    return out


def test_an_illegal_play_seen_clearly_before_the_next_roll_is_called_E8() -> None:
    t = Table(Referee())
    opened(t)
    assert "illegal_play" in kinds(_played_then(t, next_thrown=False))


def test_a_play_first_seen_clearly_after_the_next_roll_stands_and_is_never_called_late_E8() -> None:
    t = Table(Referee())
    opened(t)
    out = _played_then(t, next_thrown=True)
    assert "illegal_play" not in kinds(out), kinds(out)
    lost = only(out, BoardMismatch)
    assert "E8" in lost.message or "next roll" in lost.message, lost.message
