"""The scripted tavli match of ``tavli-pi demo --tavli``: Portes, Plakoto, Fevga to 3 points (T1, T2).

Like :func:`tavli_pi.sim.script.demo_match`, a list of :class:`Moment` with
the events the referee must give at each; the truth is kept with the rules
(:func:`tavli_pi.rules.games.legal_ends`) and simple bots pick the plays.

1. Portes (no cube, T3): White wins a gammon, 2-0.
2. Plakoto (White starts, V3): a Black checker is pinned and released
   (P3, P4); then Black pins White's mother and wins 2 at once (P6), 2-2.
3. Fevga (Black starts, V3): Black moves a second checker off its 24-point
   before the first is through (F3): pointed out and corrected (E8); White
   wins with a mars, Black having borne off none (V5): 4-2, White wins.
"""

from __future__ import annotations

from collections.abc import Callable

from tavli_pi.referee.inputs import Action
from tavli_pi.rules.games import End, GamePosition, game_result, legal_ends, start_position
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_position import TavliPosition, own_to_physical
from tavli_pi.rules.tavli_settings import MatchSettings, TavliSettings, Variant
from tavli_pi.sim.script import SETTLED, Half, Moment, MomentWriter, ScriptDie

__all__ = ["TavliScriptWriter", "demo_tavli_match", "DEMO_MATCH"]

#: the demo's match: to 3 points, the usual rotation, the winner starts (T1, T2, V3)
DEMO_MATCH = MatchSettings(match_length=3)

Pick = Callable[[GamePosition, tuple[End, ...]], End]


class TavliScriptWriter(MomentWriter[GamePosition]):
    """Writes moments for a tavli match while keeping the true position by the rules."""

    def __init__(self, match: MatchSettings = DEMO_MATCH, settings: TavliSettings | None = None) -> None:
        super().__init__(Position.start())
        self.match = match
        self.settings = settings or TavliSettings()
        self.variant = Variant.PORTES
        #: still frames a roll lies before the roller moves (the referee needs 2 alike, E2)
        self.settled = 2

    @staticmethod
    def half(side: Side) -> Half:
        return "right" if side is Side.WHITE else "left"

    def _dice(self, side: Side, values: tuple[int, int], *, moving: bool = False) -> tuple[ScriptDie, ...]:
        h = self.half(side)
        return tuple(ScriptDie(v, h, i, "flat", moving) for i, v in enumerate(values))

    def setup(self, variant: Variant, first: Side = Side.WHITE, *, note: str) -> None:
        """Set up ``variant`` (B3, P1, F1); ``first`` is on roll when the last game's winner starts (V3)."""
        self.variant = variant
        self.position = start_position(variant, first)
        self._add(1, hand=True, note=note)
        self._add(2, expect=("setup_checked",))

    def opening(self, white: int, black: int) -> tuple[ScriptDie, ...]:
        """The opening roll: in Portes the two dice are the first play (E1); in Plakoto/Fevga the
        single dice are picked up and the winner rolls both (V3)."""
        dice = (ScriptDie(white, "right", 0), ScriptDie(black, "left", 1))
        moving = tuple(ScriptDie(d.value, d.half, d.slot, moving=True) for d in dice)
        self._add(1, dice=moving, note=f"opening roll: White {white}, Black {black}")
        self._add(SETTLED, dice=dice, expect=("opening_roll",))  # the opening keeps the usual settling
        self.position = self.position.with_turn(Side.WHITE if white > black else Side.BLACK)
        if self.variant is not Variant.PORTES:
            self._add(1, hand=True, note="the single dice are picked up (V3)")
            return ()
        return dice

    def roll(self, values: tuple[int, int], *, note: str = "") -> tuple[ScriptDie, ...]:
        side = self.position.turn
        self._add(1, dice=self._dice(side, values, moving=True), note=note or f"{side.name.lower()} rolls")
        dice = self._dice(side, values)
        self._add(self.settled, dice=dice, expect=("roll_accepted",))
        return dice

    def ends(self, dice: tuple[ScriptDie, ...]) -> tuple[End, ...]:
        values = sorted((d.value for d in dice), reverse=True)
        return legal_ends(self.variant, self.position, (values[0], values[1]), self.settings)

    def play(self, dice: tuple[ScriptDie, ...], pick: Pick, *, note: str = "",
             expect: tuple[str, ...] = ("play_accepted",)) -> GamePosition:
        before = self.position
        end = pick(before, self.ends(dice))
        after = end.position
        self._add(1, dice=dice, hand=True, position=after, note=note or "the play")
        self._add(1, dice=dice, position=after)
        self._add(1, position=after, expect=expect)
        self.position = after.with_turn(before.turn.other)
        return after

    def over(self) -> bool:
        return game_result(self.variant, self.position, self.settings, self.match) is not None


# -- the bots -------------------------------------------------------------------------------
def _pips(variant: Variant, pos: GamePosition, side: Side) -> int:
    if isinstance(pos, TavliPosition):
        return pos.pip_count(side, variant)
    return pos.pip_count(side)


def racer(variant: Variant) -> Pick:
    """The fewest own pips left, then the first."""
    def pick(pos: GamePosition, ends: tuple[End, ...]) -> End:
        side = pos.turn
        return min(ends, key=lambda e: _pips(variant, e.position, side))
    return pick


def laggard(variant: Variant) -> Pick:
    """The most own pips left (a side that is losing on purpose), then the first."""
    def pick(pos: GamePosition, ends: tuple[End, ...]) -> End:
        side = pos.turn
        return max(ends, key=lambda e: _pips(variant, e.position, side))
    return pick


def first(pos: GamePosition, ends: tuple[End, ...]) -> End:
    return ends[0]


def by_moves(text: str) -> Pick:
    """The play written ``text`` (mover's own numbering), which must be legal."""
    def pick(pos: GamePosition, ends: tuple[End, ...]) -> End:
        for e in ends:
            if e.moves == text:
                return e
        raise ValueError(f"{text} is not a legal play here: {[e.moves for e in ends]}")
    return pick


def _pins(pos: GamePosition) -> int:
    return sum(1 for p in pos.pinned if p) if isinstance(pos, TavliPosition) else 0


def demo_tavli_match() -> list[Moment]:
    """The scripted tavli match to 3 of ``tavli-pi demo --tavli`` (see the module doc)."""
    w = TavliScriptWriter()
    # -- game 1: Portes; White wins a gammon (T3: 2 points), 2-0 ----------------------------------
    w.setup(Variant.PORTES, note="game 1 of the tavli match to 3: Portes")
    w.press(Action.DOUBLE, Side.WHITE, note="no cube in a tavli match (V2, T3)", expect=("action_refused",))
    dice = w.opening(6, 5)
    w.play(dice, racer(Variant.PORTES))
    white = iter([(6, 6), (5, 5), (6, 6), (6, 6), (5, 5), (6, 6), (4, 4), (6, 6), (5, 5), (6, 6),
                  (6, 6), (6, 6), (6, 6), (6, 6)])
    while not w.over():
        if w.position.turn is Side.BLACK:
            w.play(w.roll((2, 1)), first)
        else:
            w.play(w.roll(next(white)), racer(Variant.PORTES))
    w.moments[-1] = Moment(w.moments[-1].position, (), False, w.moments[-1].inputs, "White wins a gammon (T3)",
                           ("play_accepted", "game_over"))
    # -- game 2: Plakoto; a pin and its release, then Black pins White's mother (P6): 2-2 ------------
    w.setup(Variant.PLAKOTO, Side.WHITE, note="game 2: Plakoto; White won the last game and starts (V3)")
    _plakoto(w)
    # -- game 3: Fevga; an F3 violation corrected, White wins with a mars (V5): 4-2 ----------------
    w.setup(Variant.FEVGA, Side.BLACK, note="game 3: Fevga; Black won the last game and starts (V3)")
    _fevga(w)
    return w.moments


def _plakoto(w: TavliScriptWriter) -> None:
    v = Variant.PLAKOTO
    white_24 = own_to_physical(v, Side.WHITE, 24)

    def leave_mother(pos: GamePosition, ends: tuple[End, ...]) -> End:
        # White empties its 24-point down to the one mother, racing otherwise
        def key(e: End) -> tuple[int, int, int]:
            p = e.position
            assert isinstance(p, TavliPosition)
            n = p.count_physical(Side.WHITE, white_24)
            return (abs(n - 1), _pins(p), _pips(v, p, Side.WHITE))
        return min(ends, key=key)

    def pin_mother(pos: GamePosition, ends: tuple[End, ...]) -> End:
        def key(e: End) -> tuple[int, int]:
            p = e.position
            assert isinstance(p, TavliPosition)
            return (0 if p.pinned[white_24 - 1] == 1 else 1, _pips(v, p, Side.BLACK))
        return min(ends, key=key)

    w.play(w.roll((4, 3)), by_moves("24/20 24/21"), note="White: 24/20 24/21")
    w.play(w.roll((6, 1)), by_moves("24/18/17"), note="Black runs a checker to its 17")
    w.play(w.roll((3, 3)), by_moves("20/17/14/11/8*"), note="White pins the Black checker (P3)")
    w.play(w.roll((2, 1)), first, note="Black plays; its pinned checker cannot move (P4)")
    w.play(w.roll((5, 3)), by_moves("24/19 8/5"), note="White moves on: the Black checker is free again (P4)")
    def runner(pos: GamePosition, ends: tuple[End, ...]) -> End:
        # Black's most advanced checker runs toward White's 24-point (Black's own 1)
        def key(e: End) -> tuple[int, int]:
            p = e.position
            assert isinstance(p, TavliPosition)
            lead = min(o for o in range(1, 25) if p.count(Side.BLACK, o, v))
            return (lead, -_pips(v, p, Side.BLACK))
        return min(ends, key=key)

    def wait(pos: GamePosition, ends: tuple[End, ...]) -> End:
        # pin the mother when it stands alone; else keep the runner where it is
        def key(e: End) -> tuple[int, int, int]:
            p = e.position
            assert isinstance(p, TavliPosition)
            lead = min(o for o in range(1, 25) if p.count(Side.BLACK, o, v))
            return (0 if p.pinned[white_24 - 1] == 1 else 1, -lead, -_pips(v, p, Side.BLACK))
        return min(ends, key=key)

    w.play(w.roll((6, 6)), runner, note="Black runs a checker toward White's 24-point")
    for values in ((6, 6), (2, 1), (6, 6), (2, 1), (6, 6)):
        if w.position.turn is Side.WHITE:
            w.play(w.roll(values), leave_mother, note="White leaves its 24-point, all but the mother")
        else:
            w.play(w.roll(values), wait)
    while not w.over():
        pos = w.position
        assert isinstance(pos, TavliPosition)
        if pos.turn is Side.BLACK:
            # the roll that brings Black's runner onto the lone mother
            lead = min(o for o in range(1, 25) if pos.count(Side.BLACK, o, v) and pos.pinned[
                own_to_physical(v, Side.BLACK, o) - 1] != -1)
            d = min(max(lead - 1, 1), 6)
            w.play(w.roll((d, 1) if d != 1 else (2, 1)), wait)
        else:
            w.play(w.roll((2, 1)), leave_mother)
    w.moments[-1] = Moment(w.moments[-1].position, (), False, w.moments[-1].inputs,
                           "Black pins White's mother: Black wins 2 at once (P6)", ("play_accepted", "game_over"))


def _fevga(w: TavliScriptWriter) -> None:
    v = Variant.FEVGA
    # Black's first roll: a second checker off its 24-point before the first is through (F3)
    dice = w.roll((3, 2), note="Black rolls 3-2")
    before = w.position
    assert isinstance(before, TavliPosition)
    good = w.ends(dice)[0].position
    b24 = own_to_physical(v, Side.BLACK, 24)
    pts = list(before.points)
    pts[b24 - 1] += 2  # two Black checkers leave the 24-point ...
    pts[own_to_physical(v, Side.BLACK, 21) - 1] -= 1  # ... to its 21
    pts[own_to_physical(v, Side.BLACK, 22) - 1] -= 1  # ... and its 22
    bad = TavliPosition(tuple(pts), before.pinned, before.off, before.turn)
    w.illegal_then_correct(dice, bad, good, note="Black moves a second checker off its 24-point (F3)")
    pick = racer(v)

    def best_double(pos: GamePosition) -> tuple[int, int]:
        # the double that takes White furthest (a scripted lucky streak: the race must end soon)
        def left(d: int) -> int:
            ends = legal_ends(v, pos, (d, d), w.settings)
            return _pips(v, pick(pos, ends).position, Side.WHITE)
        d = min((6, 5, 4, 3), key=left)
        return (d, d)

    while not w.over():
        if w.position.turn is Side.WHITE:
            w.play(w.roll(best_double(w.position)), pick)
        else:
            w.play(w.roll((2, 1)), laggard(v))
    w.moments[-1] = Moment(w.moments[-1].position, (), False, w.moments[-1].inputs,
                           "White bears off all 15, Black none: a mars (V5), White wins the match",
                           ("play_accepted", "game_over", "match_over"))
