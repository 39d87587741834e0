"""Synthetic Observations from the truth, with realistic noise, for referee tests.

A noisy count is uncertain in proportion to the stack height (tall stacks and
re-arranged stacks are hard to count), sometimes with the argmax on a
neighbouring count; a hand hides a stretch of points (flat evidence there)
and is flagged; tumbling dice are flagged as moving. The noise model mirrors
what a camera reader reports (a likelihood per count), not what it gets right.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from tavli_pi.referee.dice import own_half
from tavli_pi.referee.events import Event
from tavli_pi.referee.evidence import spot_counts
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.game import TavliRules
from tavli_pi.rules.games import GamePosition
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_position import TavliPosition
from tavli_pi.rules.tavli_settings import Variant
from tavli_pi.vision.observation import (
    MAX_COUNT,
    CountEvidence,
    DieReading,
    Observation,
    SpotEvidence,
    certain,
)

__all__ = ["Noise", "observe", "die", "roll_dice", "Table", "kinds", "opened", "black_threw_4_2"]


@dataclass(frozen=True)
class Noise:
    """How noisy the reader is. ``level`` 0 = certain evidence."""

    level: float = 0.0
    flip: float = 0.0  # chance that a tall stack's argmax lands on a neighbour
    rearranged: float = 0.0  # chance that a stack of 5+ stands in two rows (harder)


def _noisy(n: int, rng: random.Random, noise: Noise) -> CountEvidence:
    if noise.level <= 0:
        return certain(n)
    err = noise.level * (0.05 if n == 0 else 0.15 + 0.06 * n)
    if n >= 5 and rng.random() < noise.rearranged:
        err += 0.15
    err = min(err * rng.uniform(0.5, 1.5), 0.55)
    probs = [1e-4] * (MAX_COUNT + 1)
    probs[n] = 1.0 - err
    lo, hi = n - 1, n + 1
    if lo >= 0 and hi <= MAX_COUNT:
        probs[lo] += err * 0.5
        probs[hi] += err * 0.5
    elif hi <= MAX_COUNT:
        probs[hi] += err
    else:
        probs[lo] += err
    if n >= 3 and rng.random() < noise.flip:
        # the reader prefers a neighbour, though the truth keeps real weight
        nb = n + rng.choice((-1, 1))
        if 0 <= nb <= MAX_COUNT:
            probs[n], probs[nb] = 0.35, 0.55
    s = sum(probs)
    return CountEvidence(tuple(p / s for p in probs))


def _flat() -> CountEvidence:
    return CountEvidence(tuple(1.0 / (MAX_COUNT + 1) for _ in range(MAX_COUNT + 1)))


def die(value: int, half: str, *, flat: bool = True, on_checker: bool = False, moving: bool = False,
        confidence: float = 0.95) -> DieReading:
    x = 0.75 if half == "right" else 0.25 if half == "left" else 0.5
    return DieReading((x, 0.5), value, confidence, flat, on_checker, half, moving)  # type: ignore[arg-type]


def roll_dice(side: Side, values: tuple[int, int], *, light_is_white: bool = True, **kw: object) -> tuple[DieReading, ...]:
    """Two dice from ``side`` in its own right-hand half (the correct place, E3)."""
    h = own_half(side, light_is_white)
    return tuple(die(v, h, **kw) for v in values)  # type: ignore[arg-type]


def observe(
    pos: GamePosition,
    *,
    light_is_white: bool = True,
    rng: random.Random | None = None,
    noise: Noise = Noise(),
    dice: Sequence[DieReading] = (),
    hand: bool = False,
    motion: bool = False,
    frame_index: int = 0,
) -> Observation:
    """An Observation of ``pos`` (White's numbering) as a reader would report it."""
    rng = rng or random.Random(0)
    if isinstance(pos, TavliPosition):
        # a pinned checker counts for its colour on its point (P3)
        light, dark = TavliRules(Variant.PLAKOTO).spot_counts(pos, light_is_white)
    else:
        light, dark = spot_counts(pos, light_is_white)
    hidden: set[int] = set()
    if hand:
        start = rng.randrange(24)
        hidden = {(start + k) % 24 for k in range(rng.randint(2, 6))}
    spots = []
    for i in range(26):
        if i in hidden:
            spots.append(SpotEvidence(_flat(), _flat()))
        else:
            spots.append(SpotEvidence(_noisy(int(light[i]), rng, noise), _noisy(int(dark[i]), rng, noise)))
    return Observation(
        points=tuple(spots[:24]), bar=spots[24], off=spots[25], dice=tuple(dice), hand=hand,
        motion=motion, frame_index=frame_index,
    )


class Table:
    """A referee fed with synthetic frames at 10 frames a second (``fps``); keeps every event."""

    def __init__(self, referee: Referee, *, rng: random.Random | None = None, noise: Noise = Noise(),
                 light_is_white: bool = True, fps: float = 10.0) -> None:
        self.referee = referee
        self.rng = rng or random.Random(1)
        self.noise = noise
        self.light_is_white = light_is_white
        self.t = 0.0
        self.dt = 1.0 / fps  # the clock the referee is given moves on by this each frame (and input)
        self.index = 0
        self.events: list[Event] = []

    def feed(self, item: Observation | PlayerInput) -> list[Event]:
        self.t += self.dt
        out = self.referee.step(item, self.t)
        self.events.extend(out)
        return out

    def show(self, pos: GamePosition, n: int = 1, *, dice: Sequence[DieReading] = (), hand: bool = False,
             motion: bool = False) -> list[Event]:
        out: list[Event] = []
        for _ in range(n):
            self.index += 1
            obs = observe(pos, light_is_white=self.light_is_white, rng=self.rng, noise=self.noise,
                          dice=dice, hand=hand, motion=motion, frame_index=self.index)
            out += self.feed(obs)
        return out

    def press(self, action: Action, side: Side | None = None, level: int = 0) -> list[Event]:
        return self.feed(PlayerInput(action, side, level))

    def setup(self, pos: GamePosition | None = None) -> list[Event]:
        return self.show(pos or Position.start(), 2)

    def throw(self, pos: GamePosition, dice: Sequence[DieReading], settled: int = 2) -> list[Event]:
        """Dice tumbling (one frame), then lying still."""
        moving = [DieReading(d.xy, d.value, 0.3, True, False, d.half, True) for d in dice]
        out = self.show(pos, dice=moving, motion=True)
        return out + self.show(pos, settled, dice=dice)

    def played_dice_down(self, after: GamePosition, dice: Sequence[DieReading]) -> list[Event]:
        """The board as played with the dice still down (a hand, two clear frames), the dice picked
        up (E5), four clear frames."""
        out = self.show(after, hand=True, dice=dice)
        out += self.show(after, 2, dice=dice)
        out += self.show(after, hand=True)
        return out + self.show(after, 4)

    def move_and_pick_up(self, before: GamePosition, after: GamePosition, dice: Sequence[DieReading],
                         *, still: int = 2, extra: int = 6) -> list[Event]:
        """A hand moves the checkers, the board stands with the dice down, the dice go."""
        out = self.show(before, dice=dice, hand=True)
        out += self.show(after, dice=dice, hand=True)
        out += self.show(after, still, dice=dice)
        out += self.show(after, dice=(), hand=True)  # the hand picks the dice up
        for _ in range(extra):
            got = self.show(after)
            out += got
            if any(e.kind in ("play_accepted", "illegal_play") for e in got):
                break
        return out


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


E = TypeVar("E", bound=Event)


def only(events: Sequence[Event], cls: type[E], index: int = 0) -> E:
    """The ``index``-th event of type ``cls`` (typed, so tests read its fields without casts)."""
    found = [e for e in events if isinstance(e, cls)]
    assert len(found) > index, f"no {cls.kind} event #{index} in {kinds(events)}"
    return found[index]


def nth(events: Sequence[Event], index: int, cls: type[E]) -> E:
    """``events[index]``, checked to be a ``cls`` (so its fields are typed)."""
    e = events[index]
    assert isinstance(e, cls), f"event #{index} is {e.kind}, not {cls.kind}"
    return e


def opened(t: Table) -> Referee:
    """Set up, White opens 3-1 with 8/5 6/5: Black is to roll. Returns ``t``'s referee."""
    from tavli_pi.rules.moves import apply_play, parse_play

    t.setup()
    opening = (die(3, "right"), die(1, "left"))
    t.throw(Position.start(), opening)
    ref = t.referee
    t.move_and_pick_up(ref.before, apply_play(ref.before, parse_play(ref.before, "8/5 6/5")), opening)
    assert ref.phase == "awaiting_roll" and ref.position.turn is Side.BLACK
    return ref


def black_threw_4_2() -> tuple[Table, Position, tuple[DieReading, ...]]:
    """A referee after the opening, Black's 4-2 thrown: the table, the position before the play, the dice."""
    t = Table(Referee())
    ref = opened(t)  # Black to roll
    dice = roll_dice(Side.BLACK, (4, 2))
    t.throw(ref.position, dice)
    return t, ref.before, dice
