"""Drive whole games of a random legal bot through the referee at the Observation level."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tavli_pi.rules.moves import legal_results
from tavli_pi.rules.position import Position, Side

from .synth import Table, die, roll_dice

__all__ = ["GameStats", "play_random_game"]


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
            elif e.kind == "play_accepted":
                st.accepted += 1
                if e.after.layout_key() != after.layout_key():  # type: ignore[attr-defined]
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
