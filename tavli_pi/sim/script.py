"""Scripted matches: what happens at the table, moment by moment (no pixels).

A script is a list of :class:`Moment`: the checkers on the board, the dice
lying (or tumbling) on it, whether a hand is over the board, and the player
inputs (buttons, touches) made just before that moment is seen. The truth is
kept with the rules (``legal_results``); a simple deterministic bot picks the
plays. :mod:`tavli_pi.sim.table` turns moments into Scenes to render.

:func:`demo_match` is the 3-point match of ``tavli-pi demo``: a tied opening
roll, a cocked die, a premature roll, an illegal play pointed out and
corrected, a White gammon (2-0), the Crawford game (a refused double, Black
wins single on a resignation: 2-1), then a double and a take, Black wins 2
(2-3, Black wins the match).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.moves import PlayResult, legal_results
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import game_winner
from tavli_pi.rules.tavli_position import TavliPosition

__all__ = ["ScriptDie", "Moment", "MomentWriter", "ScriptWriter", "demo_match", "random_game", "runner_bot"]

Half = Literal["left", "right", "bar", "outside"]
Pose = Literal["flat", "cocked", "leaning", "on_checker"]


@dataclass(frozen=True, slots=True)
class ScriptDie:
    value: int
    half: Half  # from the light player's seat
    slot: int = 0  # 0, 1: which of the two places in that half
    pose: Pose = "flat"
    moving: bool = False


@dataclass(frozen=True, slots=True)
class Moment:
    """One camera frame's worth of the table."""

    position: Position | TavliPosition  # a Plakoto/Fevga moment holds a TavliPosition (pinned checkers)
    dice: tuple[ScriptDie, ...] = ()
    hand: bool = False
    inputs: tuple[PlayerInput, ...] = ()  # made just before this frame
    note: str = ""  # a caption (what the script means to happen)
    expect: tuple[str, ...] = field(default=(), compare=False)  # event kinds the referee should give


Bot = Callable[[Position, tuple[PlayResult, ...]], PlayResult]

#: frames a roll lies still before the roller moves (0.3 s at 10 fps; real
#: players take longer): the first may still show the dice's last motion.
SETTLED = 3


def runner_bot(pos: Position, results: tuple[PlayResult, ...]) -> PlayResult:
    """Race home: the fewest own pips left, then the fewest own blots, then the first."""
    side = pos.turn

    def key(r: PlayResult) -> tuple[int, int]:
        p = r.position
        blots = sum(1 for own in range(1, 25) if p.count(side, own) == 1)
        return (p.pip_count(side), blots)

    return min(results, key=key)


def first_bot(pos: Position, results: tuple[PlayResult, ...]) -> PlayResult:
    return results[0]


P = TypeVar("P", bound="Position | TavliPosition")


class MomentWriter(Generic[P]):
    """What every script writer shares: the moments written so far, the true position, and the
    inputs that the next moment carries."""

    def __init__(self, start: P) -> None:
        self.moments: list[Moment] = []
        self.position: P = start
        self._pending: list[PlayerInput] = []

    def _add(self, n: int = 1, *, dice: tuple[ScriptDie, ...] = (), hand: bool = False,
             position: P | None = None, note: str = "", expect: tuple[str, ...] = ()) -> None:
        pos = position if position is not None else self.position
        for i in range(n):
            inputs = tuple(self._pending) if i == 0 else ()
            if i == 0:
                self._pending.clear()
            self.moments.append(Moment(pos, dice, hand, inputs, note if i == 0 else "", expect if i == n - 1 else ()))

    def press(self, action: Action, side: Side | None = None, level: int = 0, *, note: str = "",
              expect: tuple[str, ...] = ()) -> None:
        """A decision, seen with the next frame (one still frame shows it)."""
        self._pending.append(PlayerInput(action, side, level, source="touch"))
        self._add(1, note=note, expect=expect)

    def illegal_then_correct(self, dice: tuple[ScriptDie, ...], bad: P, good: P, *,
                             note: str = "an illegal play") -> None:
        """An illegal play left standing, pointed out, the opponent demands a legal one (E8), corrected."""
        mover = self.position.turn
        self._add(1, dice=dice, hand=True, position=bad, note=note)
        self._add(1, dice=dice, position=bad)
        self._add(1, position=bad, expect=("illegal_play",))
        self._pending.append(PlayerInput(Action.CORRECT, mover.other, source="button"))
        self._add(1, position=bad, note="the opponent demands a legal play (E8)", expect=("correction_demanded",))
        self._add(1, hand=True, position=good, note="corrected")
        self._add(2, position=good, expect=("illegal_play_resolved",))
        self.position = good.with_turn(mover.other)  # type: ignore[assignment]


class ScriptWriter(MomentWriter[Position]):
    """Writes moments while keeping the true position by the rules."""

    def __init__(self, *, light_is_white: bool = True) -> None:
        super().__init__(Position.start())
        self.light_is_white = light_is_white

    def half(self, side: Side) -> Half:
        light = Side.WHITE if self.light_is_white else Side.BLACK
        return "right" if side is light else "left"

    def _dice(self, side: Side, values: tuple[int, int], *, pose: tuple[Pose, Pose] = ("flat", "flat"),
              moving: bool = False) -> tuple[ScriptDie, ...]:
        h = self.half(side)
        return tuple(ScriptDie(v, h, i, pose[i], moving) for i, v in enumerate(values))

    def setup(self, *, note: str = "set up") -> None:
        self.position = Position.start()
        self._add(1, hand=True, note=note)
        self._add(2, expect=("setup_checked",))

    def opening(self, white: int, black: int) -> tuple[ScriptDie, ...]:
        dice = (ScriptDie(white, self.half(Side.WHITE), 0), ScriptDie(black, self.half(Side.BLACK), 1))
        moving = tuple(ScriptDie(d.value, d.half, d.slot, moving=True) for d in dice)
        self._add(1, dice=moving, note=f"opening roll: White {white}, Black {black}")
        self._add(SETTLED, dice=dice, expect=("opening_roll",))
        if white == black:
            self._add(1, hand=True, note="tie: pick up and roll again (E1)")
            return ()
        self.position = self.position.with_turn(Side.WHITE if white > black else Side.BLACK)
        return dice

    def roll(self, values: tuple[int, int], *, pose: tuple[Pose, Pose] = ("flat", "flat"),
             note: str = "", expect: tuple[str, ...] = ("roll_accepted",)) -> tuple[ScriptDie, ...]:
        side = self.position.turn
        self._add(1, dice=self._dice(side, values, moving=True), note=note or f"{side.name.lower()} rolls")
        dice = self._dice(side, values, pose=pose)
        self._add(SETTLED, dice=dice, expect=expect)
        return dice

    def void_roll(self, values: tuple[int, int], pose: tuple[Pose, Pose], note: str) -> None:
        self.roll(values, pose=pose, note=note, expect=("roll_void",))
        self._add(1, hand=True, note="pick up the dice to roll again")

    def play(self, dice: tuple[ScriptDie, ...], bot: Bot = runner_bot, *, after: Position | None = None,
             early: tuple[int, int] | None = None) -> Position:
        """Move the checkers (a hand), leave them with the dice down, pick the dice up."""
        before = self.position
        values = tuple(sorted((d.value for d in dice), reverse=True))
        results = legal_results(before, (values[0], values[1]))
        if after is None:
            after = bot(before, results).position if results else before
        self._add(1, dice=dice, hand=True, position=after, note="the play")
        self._add(1, dice=dice, position=after)
        if early is not None:
            # the opponent throws before the dice are picked up (E6)
            other = before.turn.other
            edice = self._dice(other, early)
            self._add(2, dice=dice + edice, position=after, note="premature roll (E6)",
                      expect=("premature_roll", "roll_void"))
            self._add(1, dice=edice, position=after, expect=("play_accepted",))
            self._add(1, hand=True, position=after, note="the early dice are picked up")
        else:
            self._add(1, position=after, expect=("play_accepted",))
        self.position = after.with_turn(before.turn.other)
        return after

    def play_unseen(self, values: tuple[int, int], bot: Bot = runner_bot, *, asked_after: int = 2,
                    answer: bool = True) -> Position:
        """A roll the camera never sees (thrown and picked up behind a hand) and its play: the board
        stands after the play, the referee asks the players for the roll (``roll_needed`` after
        ``asked_after`` still frames: the frames a play is judged on), and with ``answer`` they enter it
        two frames later (``Action.ROLL``), the play then accepted on it."""
        before = self.position
        after = bot(before, legal_results(before, (max(values), min(values)))).position
        self._add(1, hand=True, position=after, note=f"the play, its roll {values[0]}-{values[1]} unseen")
        self._add(asked_after + 2, position=after, expect=("roll_needed",))
        self.position = after
        if answer:
            self._pending.append(PlayerInput(Action.ROLL, None, 10 * values[0] + values[1], source="touch"))
            self._add(2, position=after, note="the players enter the roll", expect=("roll_accepted", "play_accepted"))
        self.position = after.with_turn(before.turn.other)
        return after

    def game_over(self) -> Side | None:
        return game_winner(self.position)


def demo_match(*, light_is_white: bool = True) -> list[Moment]:
    """The scripted 3-point match of ``tavli-pi demo``."""
    w = ScriptWriter(light_is_white=light_is_white)
    # -- game 1: White wins a gammon (2-0) ------------------------------------------
    w.setup(note="game 1: set up")
    w.opening(3, 3)  # a tie (E1)
    dice = w.opening(6, 5)
    w.play(dice)
    black_rolls = iter([(2, 1), (1, 2), (2, 1), (1, 2), (2, 1), (1, 2), (2, 1), (1, 2), (2, 1), (1, 2)] * 2)
    white_rolls = iter([(6, 6), (5, 5), (6, 6), (6, 6), (5, 5), (6, 6), (4, 4), (6, 6), (5, 5), (6, 6),
                        (6, 6), (6, 6), (6, 6)])
    turn = 0
    while w.game_over() is None:
        side = w.position.turn
        if side is Side.BLACK:
            turn += 1
            values = next(black_rolls)
            if turn == 2:
                w.void_roll(values, ("flat", "cocked"), "a cocked die (E3)")
            dice = w.roll(values)
            if turn == 3:
                before = w.position
                good = legal_results(before, (values[0], values[1]))
                g = first_bot(before, good).position
                bad = _illegal_variant(before, g, (values[0], values[1]))
                w.illegal_then_correct(dice, bad, g)
                continue
            w.play(dice, first_bot, early=(4, 4) if turn == 6 else None)
        else:
            dice = w.roll(next(white_rolls))
            w.play(dice)
    w.moments.append(Moment(w.position, (), True, (), "White wins a gammon"))
    # -- game 2: the Crawford game; Black wins single on a resignation (2-1) ---------------
    w.setup(note="game 2: the Crawford game")
    dice = w.opening(2, 6)
    w.play(dice, first_bot)
    dice = w.roll((3, 1))
    w.play(dice, first_bot)
    w.press(Action.DOUBLE, Side.BLACK, note="no cube in the Crawford game (S3)", expect=("action_refused",))
    dice = w.roll((5, 4))
    w.play(dice, first_bot)
    w.press(Action.RESIGN, Side.WHITE, 1, note="White resigns a single game (S4)", expect=("resigned",))
    w.press(Action.ACCEPT_RESIGN, Side.BLACK, expect=("game_over",))
    # -- game 3: Black doubles, White takes, Black wins 2 (2-3) --------------------------------
    w.setup(note="game 3")
    dice = w.opening(1, 4)
    w.play(dice, first_bot)
    dice = w.roll((2, 2))
    w.play(dice, first_bot)
    w.press(Action.DOUBLE, Side.BLACK, note="Black doubles (C2)", expect=("cube_offered",))
    w.press(Action.TAKE, Side.WHITE, note="White takes (C3)", expect=("cube_taken",))
    dice = w.roll((6, 6))
    w.play(dice, first_bot)
    w.press(Action.RESIGN, Side.WHITE, 1, note="White resigns at 2 (S4)", expect=("resigned",))
    w.press(Action.ACCEPT_RESIGN, Side.BLACK, note="Black wins the match", expect=("game_over", "match_over"))
    return w.moments


def random_game(seed: int, *, turns: int = 10, plant_illegal: int = 0, plant_cocked: int = 0,
                plant_premature: int = 0, light_is_white: bool = True) -> list[Moment]:
    """A game of random legal plays from the start, with faults planted on the given turns.

    ``plant_illegal=k`` makes the k-th turn an illegal play that is pointed out and
    corrected (E8); ``plant_cocked=k`` a cocked die on the k-th roll (E3);
    ``plant_premature=k`` the opponent rolling before the k-th turn's dice are up (E6).
    Every moment carries the events the referee must give (``Moment.expect``).
    """
    import random

    rng = random.Random(seed)
    w = ScriptWriter(light_is_white=light_is_white)
    w.setup(note=f"random game {seed}: set up")
    white, black = rng.sample(range(1, 7), 2)
    dice = w.opening(white, black)
    w.play(dice, lambda pos, results: rng.choice(results))
    for turn in range(2, turns + 1):
        if w.game_over() is not None:
            break
        values = (rng.randint(1, 6), rng.randint(1, 6))
        if turn == plant_cocked:
            w.void_roll(values, ("flat", "cocked"), "a cocked die (E3)")
        dice = w.roll(values)
        before = w.position
        results = legal_results(before, (max(values), min(values)))
        if turn == plant_illegal and results:
            good = rng.choice(results).position
            try:
                bad = _illegal_variant(before, good, values)
            except ValueError:  # pragma: no cover - no checker can go one pip further
                bad = None
            if bad is not None:
                w.illegal_then_correct(dice, bad, good)
                continue
        early = (rng.randint(1, 6), rng.randint(1, 6)) if turn == plant_premature else None
        w.play(dice, lambda pos, results: rng.choice(results), early=early)
    return w.moments


def _illegal_variant(before: Position, good: Position, dice: tuple[int, int]) -> Position:
    """``good`` with one checker moved a pip further: an illegal end position."""
    from tavli_pi.rules.moves import is_legal

    side = before.turn
    s = side.sign
    pts = list(good.points)
    for i in range(24):
        if pts[i] * s <= 0:
            continue
        j = i - 1 if side is Side.WHITE else i + 1
        if not 0 <= j < 24 or pts[j] * s < 0:
            continue
        new = pts.copy()
        new[i] -= s
        new[j] += s
        p = Position(tuple(new), good.bar, good.off, good.turn)
        if not is_legal(before, dice, p):
            return p
    raise ValueError("no illegal variant of the play")  # pragma: no cover
