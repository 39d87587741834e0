"""Drive whole games of a random legal bot through the referee at the Observation level."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tavli_pi.referee.events import BoardAdopted, PlayAccepted
from tavli_pi.rules.moves import legal_results
from tavli_pi.rules.position import Position, Side

from .synth import Table, die, roll_dice

__all__ = ["GameStats", "play_random_game", "MissStats", "play_random_game_with_misses", "plant_illegal"]


@dataclass
class GameStats:
    turns: int = 0
    accepted: int = 0
    wrong_accepts: int = 0  # accepted an end position other than the truth
    illegal_calls: int = 0
    clear_view: int = 0
    no_move: int = 0
    events: list[str] = field(default_factory=list)


def play_random_game(t: Table, rng: random.Random, *, max_turns: int = 500) -> GameStats:
    """One game from the set-up to its end; every play legal (chosen at random)."""
    st = GameStats()
    ref = t.referee
    t.setup()
    assert ref.phase == "opening", ref.phase
    start = Position.start()
    white_half = "right" if t.light_is_white else "left"
    black_half = "left" if t.light_is_white else "right"
    while ref.phase == "opening":
        wd, bd = rng.randint(1, 6), rng.randint(1, 6)
        dice = (die(wd, white_half), die(bd, black_half))
        t.throw(start, dice)
        t.show(start, dice=(), hand=True)  # tie: the dice are picked up again
    pos = start
    opening = True
    while ref.phase not in ("game_over", "setup", "match_over") and st.turns < max_turns:
        st.turns += 1
        if not opening:
            assert ref.phase == "awaiting_roll", ref.phase
            side = ref.position.turn
            values = (rng.randint(1, 6), rng.randint(1, 6))
            dice = roll_dice(side, values, light_is_white=t.light_is_white)
            t.throw(pos, dice)
        opening = False
        assert ref.phase == "rolled", (ref.phase, [e.kind for e in t.events[-5:]])
        before = ref.before
        results = legal_results(before, ref.dice)
        after = rng.choice(results).position if results else before
        if not results:
            st.no_move += 1
        n0 = len(t.events)
        t.move_and_pick_up(before, after, dice, extra=12)
        new = t.events[n0:]
        st.events += [e.kind for e in new]
        for e in new:
            if e.kind == "illegal_play":
                st.illegal_calls += 1
            elif e.kind == "clear_view_needed":
                st.clear_view += 1
            elif isinstance(e, PlayAccepted):
                st.accepted += 1
                if e.after.layout_key() != after.layout_key():
                    st.wrong_accepts += 1
        if st.illegal_calls:
            break
        pos = ref.position if ref.phase == "awaiting_roll" else after
        if ref.phase == "judging":
            break
    return st


def plant_illegal(before: Position, after: Position, dice: tuple[int, int], rng: random.Random) -> Position | None:
    """``after`` with one of the mover's checkers pushed one pip too far (an illegal end)."""
    from tavli_pi.rules.moves import is_legal

    side = before.turn
    sign = side.sign
    pts = list(after.points)
    sources = [i for i, v in enumerate(pts) if v * sign > 0]
    rng.shuffle(sources)
    for i in sources:
        j = i - 1 if side is Side.WHITE else i + 1
        if not 0 <= j < 24 or pts[j] * sign < 0:
            continue
        new = pts.copy()
        new[i] -= sign
        new[j] += sign
        p = Position(tuple(new), after.bar, after.off, after.turn)
        if not is_legal(before, dice, p):
            return p
    return None


@dataclass
class MissStats:
    turns: int = 0
    missed: int = 0  # turns whose dice vision did not see
    out_of_sync: int = 0
    resynced: int = 0
    adopted: int = 0
    wrong_adoptions: int = 0  # an adopted board other than the true one
    undetected: int = 0  # a missed turn after which the referee was not out of step
    stale: int = 0  # turns after which the referee, in step, knew another board than the truth
    accepted: int = 0
    inferred: int = 0  # plays accepted with a roll the camera never saw: asked for and entered, or inferred (unseen.py)
    illegal_calls: int = 0
    events: list[str] = field(default_factory=list)


def play_random_game_with_misses(t: Table, rng: random.Random, *, miss_rate: float = 0.2,
                                 max_turns: int = 80) -> MissStats:
    """A game of random legal plays in which vision misses some rolls (no dice in those frames).

    The driver keeps the truth. While the referee is out of step, the players
    either restore the position it knows (the truth goes back there) or both
    press ACCEPT (side unknown, as from the touch page); otherwise they play on.
    A turn is only missed when it moves a checker (an unseen dance leaves no trace).
    """
    from tavli_pi.referee.inputs import Action
    from tavli_pi.rules.moves import end_turn

    st = MissStats()
    ref = t.referee
    t.setup()
    start = Position.start()
    while ref.phase == "opening":
        t.throw(start, (die(rng.randint(1, 6), "right"), die(rng.randint(1, 6), "left")))
        t.show(start, dice=(), hand=True)
    before = ref.before
    results = legal_results(before, ref.dice)
    after = rng.choice(results).position
    white_first = before.turn is Side.WHITE
    opening_dice = (die(ref.dice[0], "right" if white_first else "left"),
                    die(ref.dice[1], "left" if white_first else "right"))
    t.move_and_pick_up(before, after, opening_dice, extra=12)
    truth = end_turn(after)
    while st.turns < max_turns and ref.phase not in ("game_over", "setup", "match_over"):
        st.turns += 1
        if ref.phase == "out_of_sync" and rng.random() < 0.5:
            known = ref.sync.state.known
            assert known is not None
            if rng.random() < 0.4:
                truth = known  # the players put the board back as the referee knows it
                t.show(truth, hand=True)
                got = t.show(truth, 6)
            else:
                got = t.show(truth, 4)
                got += t.press(Action.ACCEPT)
                got += t.press(Action.ACCEPT)
                got += t.show(truth, 4)
            for e in got:
                if isinstance(e, BoardAdopted) and e.after.layout_key() != truth.layout_key():
                    st.wrong_adoptions += 1
        side = truth.turn
        values = (rng.randint(1, 6), rng.randint(1, 6))
        results = legal_results(truth, values)
        after = rng.choice(results).position if results else truth
        miss = bool(results) and rng.random() < miss_rate
        dice = () if miss else roll_dice(side, values, light_is_white=t.light_is_white)
        st.missed += miss
        if miss:
            t.show(truth, motion=True)
            t.show(truth, 2)
        else:
            t.throw(truth, dice)
        got = t.move_and_pick_up(truth, after, dice, extra=8)
        if any(e.kind == "roll_needed" and "unseen" in e.extra for e in got):
            # asked for the roll the camera missed, the players enter it (RollQuestion.ask, roll_question.py)
            t.press(Action.ROLL, None, 10 * values[0] + values[1])
            t.show(after, 3)
        truth = end_turn(after)
        if miss and ref.phase != "out_of_sync":
            st.undetected += 1
        if ref.phase == "awaiting_roll" and ref.position.layout_key() != truth.layout_key():
            st.stale += 1
        if after.off[side] == 15:
            break
    asked = False  # the roll of the play on the board was asked for (RollQuestion.ask, roll_question.py)
    for e in t.events:
        st.events.append(e.kind)
        asked = asked or (e.kind == "roll_needed" and "unseen" in e.extra)
        if e.kind == "illegal_play":
            st.illegal_calls += 1
        elif e.kind == "board_out_of_sync" and not getattr(e, "confirmed", ()):
            st.out_of_sync += 1
        elif e.kind == "board_resynced":
            st.resynced += 1
        elif e.kind == "board_adopted":
            st.adopted += 1
        elif e.kind == "play_accepted":
            st.accepted += 1
            st.inferred += "roll_unseen" in e.extra or asked
            asked = False
    return st
