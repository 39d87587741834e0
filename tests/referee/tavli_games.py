"""Drive Plakoto and Fevga (and the tavli match) through the referee at the Observation level.

The driver keeps the truth with the pure rules (``rules.games.legal_ends``)
and plays random legal plays; planted illegal plays are the true end with one
checker pushed a pip too far or back, a second checker off the Fevga 24-point
before the first is through (F3), or a block F4/F5 forbids, and must all be
called illegal and then corrected (E8).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tavli_pi.referee.events import GameOver, IllegalPlay, PlayAccepted
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.games import End, legal_ends
from tavli_pi.rules.position import CHECKERS, Side
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.tavli_moves import breaks_blocks
from tavli_pi.rules.tavli_position import TavliPosition, own_to_physical
from tavli_pi.rules.tavli_settings import MatchSettings, TavliSettings, Variant

from .synth import Noise, Table, die, roll_dice

__all__ = ["TavliStats", "tavli_table", "play_random_tavli_game", "move_checker", "plant_tavli_illegal"]


def tavli_table(variant: Variant, *, settings: TavliSettings | None = None, noise: Noise = Noise(),
                seed: int = 1, start: TavliPosition | None = None, match_length: int = 1) -> Table:
    """A referee of a tavli match of one game kind (so every game is ``variant``)."""
    m = TavliMatch(MatchSettings(match_length=match_length, games=(variant,)))
    ref = Referee(RefereeSettings(), tavli=m, tavli_settings=settings or TavliSettings(), start=start)
    return Table(ref, rng=random.Random(seed), noise=noise)


def move_checker(pos: TavliPosition, variant: Variant, side: Side, own_from: int, own_to: int
                 ) -> TavliPosition | None:
    """``pos`` with one free checker of ``side`` moved between its own points (0 = off), pinning
    (P3) or releasing as a real hand would; None when no such position exists (a closed point)."""
    pts, pins = list(pos.points), list(pos.pinned)
    off = list(pos.off)
    sign = side.sign
    i = own_to_physical(variant, side, own_from) - 1
    if pts[i] * sign <= 0:
        return None  # no free checker of side there
    pts[i] -= sign
    if pts[i] == 0 and pins[i] == -sign:
        pins[i] = 0
        pts[i] = -sign  # the pinned checker is free again (P4)
    if own_to <= 0:
        off[side] += 1
    else:
        j = own_to_physical(variant, side, own_to) - 1
        if pts[j] * sign < 0:
            if abs(pts[j]) > 1 or pins[j] or variant is Variant.FEVGA:
                return None
            pts[j], pins[j] = sign, -sign  # lands on a lone checker: pins it (P3)
        else:
            pts[j] += sign
    try:
        return TavliPosition(tuple(pts), tuple(pins), (off[0], off[1]), pos.turn)
    except Exception:
        return None


def _legal(variant: Variant, before: TavliPosition, dice: tuple[int, int], settings: TavliSettings,
           pos: TavliPosition) -> bool:
    key = pos.layout_key()
    return any(e.position.layout_key() == key for e in legal_ends(variant, before, dice, settings))


def plant_tavli_illegal(variant: Variant, before: TavliPosition, after: TavliPosition, dice: tuple[int, int],
                        settings: TavliSettings, rng: random.Random) -> tuple[TavliPosition, str] | None:
    """An illegal end of the mover's turn near ``after``, and what kind it is.

    Fevga first: a second checker off the 24-point before the first is
    through (F3) when the mover still has all 15 there; a formation F4/F5
    forbids when one checker's step makes one; else a checker pushed one pip.
    """
    side = before.turn
    own = [before.off[side]] + [before.count(side, p, variant) for p in range(1, 25)]
    if variant is Variant.FEVGA and own[24] == CHECKERS and dice[0] != dice[1]:
        a = move_checker(before, variant, side, 24, 24 - dice[0])
        b = None if a is None else move_checker(a, variant, side, 24, 24 - dice[1])
        if b is not None and not _legal(variant, before, dice, settings, b):
            return b, "F3"
    sources = [p for p in range(1, 25) if after.count(side, p, variant) > 0]
    rng.shuffle(sources)
    if variant is Variant.FEVGA:
        for p in sources:
            for q in range(p - 1, max(0, p - 7), -1):
                cand = move_checker(after, variant, side, p, q)
                if cand is not None and breaks_blocks(cand, side, settings) \
                        and not _legal(variant, before, dice, settings, cand):
                    quarter = all(cand.count(side, x, variant) for x in range(19, 25))
                    return cand, "F4" if quarter else "F5"
    for p in sources:
        for q in (p - 1, p + 1):
            if not 1 <= q <= 24:
                continue
            cand = move_checker(after, variant, side, p, q)
            if cand is not None and not _legal(variant, before, dice, settings, cand):
                return cand, "pushed"
    return None


@dataclass
class TavliStats:
    turns: int = 0
    accepted: int = 0
    wrong_accepts: int = 0  # accepted an end other than the truth
    illegal_calls: int = 0  # illegal calls on legal plays (must stay 0)
    planted: int = 0
    caught: int = 0  # planted illegal plays called illegal
    corrected: int = 0  # and then corrected (E8)
    planted_kinds: dict[str, int] = field(default_factory=dict)
    caught_rules: dict[str, int] = field(default_factory=dict)
    unclear: int = 0
    over: GameOver | None = None
    turns_played: list[tuple[Side, tuple[int, int], str, TavliPosition]] = field(default_factory=list)


def play_random_tavli_game(t: Table, variant: Variant, rng: random.Random, *, plant: float = 0.0,
                           settings: TavliSettings | None = None, max_turns: int = 600) -> TavliStats:
    """One game from the set-up to its end, legal plays at random; ``plant`` the chance of an illegal one."""
    st = TavliStats()
    settings = settings or TavliSettings()
    ref = t.referee
    start = ref.position
    assert isinstance(start, TavliPosition)
    t.setup(start)
    white_half = "right" if t.light_is_white else "left"
    black_half = "left" if t.light_is_white else "right"
    while ref.phase == "opening":
        wd, bd = rng.randint(1, 6), rng.randint(1, 6)
        t.throw(start, (die(wd, white_half), die(bd, black_half)))
        t.show(start, dice=(), hand=True)  # the single dice are picked up (V3: not played)
    while ref.phase == "awaiting_roll" and st.turns < max_turns:
        st.turns += 1
        pos = ref.position
        assert isinstance(pos, TavliPosition)
        side = pos.turn
        values = (rng.randint(1, 6), rng.randint(1, 6))
        dice = roll_dice(side, values, light_is_white=t.light_is_white)
        t.throw(pos, dice)
        assert ref.phase == "rolled", (ref.phase, [e.kind for e in t.events[-5:]])
        ends: tuple[End, ...] = legal_ends(variant, pos, ref.dice if len(ref.dice) == 2 else values, settings)
        chosen = rng.choice(ends)
        after = chosen.position
        assert isinstance(after, TavliPosition)
        planted = None
        if plant and rng.random() < plant:
            planted = plant_tavli_illegal(variant, pos, after, (ref.dice[0], ref.dice[1]), settings, rng)
        n0 = len(t.events)
        if planted is not None:
            bad, kind = planted
            st.planted += 1
            st.planted_kinds[kind] = st.planted_kinds.get(kind, 0) + 1
            t.move_and_pick_up(pos, bad, dice, extra=12)
            got = t.events[n0:]
            ills = [e for e in got if isinstance(e, IllegalPlay)]
            if ills:
                st.caught += 1
                st.caught_rules[ills[0].rule] = st.caught_rules.get(ills[0].rule, 0) + 1
                n1 = len(t.events)
                t.show(after, hand=True)  # the mover puts a legal play on the board (E8)
                t.show(after, 4)
                if any(e.kind == "illegal_play_resolved" for e in t.events[n1:]):
                    st.corrected += 1
            else:
                st.unclear += 1
                break
        else:
            t.move_and_pick_up(pos, after, dice, extra=12)
            for e in t.events[n0:]:
                if isinstance(e, IllegalPlay):
                    st.illegal_calls += 1
                elif isinstance(e, PlayAccepted):
                    st.accepted += 1
                    if e.after.layout_key() != after.layout_key():
                        st.wrong_accepts += 1
                elif e.kind == "clear_view_needed":
                    st.unclear += 1
            if st.illegal_calls or ref.phase in ("judging", "rolled"):
                break
        st.turns_played.append((side, values, chosen.moves, after))
    for e in t.events:
        if isinstance(e, GameOver):
            st.over = e
    return st


def breaks(pos: TavliPosition, side: Side, settings: TavliSettings) -> bool:
    return breaks_blocks(pos, side, settings)


@dataclass
class MatchRun:
    """A whole tavli match driven through the referee: per game its variant and every true position."""

    games: list[tuple[Variant, list[object]]] = field(default_factory=list)
    illegal_calls: int = 0
    wrong_accepts: int = 0


def play_tavli_match(t: Table, rng: random.Random, *, settings: TavliSettings | None = None,
                     max_turns: int = 600) -> MatchRun:
    """A tavli match of random legal plays, game after game (Portes, Plakoto, Fevga, ...), until it is over.

    Each game's truth (its start with the side that played first, then the
    position after every turn, the next side on roll) is kept for checking the record.
    """
    from tavli_pi.rules.games import End as _End
    from tavli_pi.rules.games import legal_ends as _ends

    settings = settings or TavliSettings()
    ref = t.referee
    run = MatchRun()
    assert ref.tavli is not None
    while ref.phase != "match_over":
        assert ref.phase == "setup", ref.phase
        variant = ref.game.variant
        start = ref.position
        t.setup(start)
        truth: list[object] = []
        readings: tuple[object, ...] = ()
        while ref.phase == "opening":
            wd, bd = rng.randint(1, 6), rng.randint(1, 6)
            readings = (die(wd, "right"), die(bd, "left"))
            t.throw(start, readings)  # type: ignore[arg-type]
            if ref.phase != "rolled":
                t.show(start, dice=(), hand=True)
        turns = 0
        while ref.phase in ("awaiting_roll", "rolled") and turns < max_turns:
            turns += 1
            if ref.phase == "awaiting_roll":
                pos = ref.position
                values = (rng.randint(1, 6), rng.randint(1, 6))
                readings = roll_dice(pos.turn, values)
                t.throw(pos, readings)  # type: ignore[arg-type]
            assert ref.phase == "rolled", (ref.phase, [e.kind for e in t.events[-4:]])
            before = ref.before
            if not truth:
                truth.append(before)
            dice = (ref.dice[0], ref.dice[1])
            ends: tuple[_End, ...] = _ends(variant, before, dice, settings)
            after = rng.choice(ends).position
            n0 = len(t.events)
            t.move_and_pick_up(before, after, readings, extra=12)  # type: ignore[arg-type]
            for e in t.events[n0:]:
                if isinstance(e, IllegalPlay):
                    run.illegal_calls += 1
                elif isinstance(e, PlayAccepted) and e.after.layout_key() != after.layout_key():
                    run.wrong_accepts += 1
            truth.append(after.with_turn(after.turn.other))
            if run.illegal_calls or ref.phase in ("judging", "rolled"):
                run.games.append((variant, truth))
                return run
        run.games.append((variant, truth))
        if turns >= max_turns:
            break
    return run


def block_scenario(rng: random.Random, rule: str) -> tuple[TavliPosition, tuple[int, int], TavliPosition] | None:
    """A Fevga position, a roll and an illegal end of it that makes the formation ``rule`` forbids:
    F4 (all six of White's 19-24) or F5 (six consecutive points of Black's route in front of every Black
    checker, Black having borne off none). None when the random draw does not make one."""
    from tavli_pi.rules.tavli_position import physical_to_own

    v = Variant.FEVGA
    pts = [0] * 24
    if rule == "F4":
        missing = rng.randint(19, 23)
        held = [p for p in range(19, 24) if p != missing]
        for p in held:
            pts[p - 1] = rng.randint(1, 2)
        rest = CHECKERS - sum(pts)
        low = rng.sample(range(2, 11), 2)
        pts[low[0] - 1] = 1
        pts[low[1] - 1] = 1
        pts[23] = rest - 2
        d = 24 - missing
        hops = [(24, missing)]
        black_home = 12  # Black's 24-point: all 15 there
        pts[black_home - 1] = -CHECKERS
    else:
        # Black's own q..q+5 as White's points; Black's checkers all on its own points above q+5
        q = rng.randint(5, 12)
        route = [own_to_physical(v, Side.BLACK, o) for o in range(q, q + 6)]
        if any(p in (12,) for p in route):
            return None
        gap = rng.choice(route)
        for p in route:
            if p != gap:
                pts[p - 1] = 1
        src = next((p for p in range(min(24, gap + 6), gap, -1) if p not in route and p != 12), None)
        if src is None:
            return None
        d = src - gap
        pts[src - 1] += CHECKERS - sum(x for x in pts if x > 0)
        hops = [(src, gap)]
        pts[12 - 1] = -CHECKERS  # Black's 24-point: every Black checker behind the prime (own 24 > q + 5)
        if physical_to_own(v, Side.BLACK, 12) <= q + 5:
            return None
    if not 1 <= d <= 6:
        return None
    try:
        pos = TavliPosition(tuple(pts), (0,) * 24, (0, 0), Side.WHITE)
    except Exception:
        return None
    other = rng.randint(1, 6)
    dice = (max(d, other), min(d, other))
    bad: TavliPosition | None = pos
    for a, b in hops:
        bad = move_checker(bad, v, Side.WHITE, a, b) if bad is not None else None
    if bad is None:
        return None
    # the other die: a low checker one step on (or nothing else to move: the illegal end uses one die)
    lows = [p for p in range(2, 12) if bad.count(Side.WHITE, p, v) and p - other >= 1
            and bad.stack(p - other)[1] == 0]
    if lows:
        bad = move_checker(bad, v, Side.WHITE, lows[0], lows[0] - other)
    if bad is None or not breaks_blocks(bad, Side.WHITE, TavliSettings()) or _legal(v, pos, dice, TavliSettings(), bad):
        return None
    if rule == "F5" and all(bad.count(Side.WHITE, p, v) for p in range(19, 25)):
        return None  # that is an F4 break as well: the scenario is F5's alone
    return pos, dice, bad
