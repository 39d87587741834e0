"""What the table unit should show, derived from the referee's events.

The link is an output: it decides nothing about the game. :class:`EventMapper`
keeps the unit's desired view (LED scene, clocks, score) from each event's
:class:`~tavli_pi.referee.events.TableState` and the event itself, and says
which messages changed. Shared by :class:`~tavli_pi.link.table_link.TableLink`
and :class:`~tavli_pi.link.fake.FakeLink`, so both produce the same commands.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli_pi.link.protocol import NO_CLOCK, NONE_SIDE, Buzz, ClockSet, Scene, ScoreSet
from tavli_pi.referee import events as ev
from tavli_pi.rules.games import GamePosition
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_position import TavliPosition

__all__ = ["UnitView", "Command", "EventMapper", "changed_leds", "led_for_point", "initial_view"]

Command = Scene | ClockSet | ScoreSet | Buzz

BAR_LED = Scene.BAR
TRAY_LED = {Side.WHITE: Scene.TRAYS[0], Side.BLACK: Scene.TRAYS[1]}
_NO_TURN_PHASES = frozenset({"setup", "game_over", "match_over"})


@dataclass(frozen=True, slots=True)
class UnitView:
    """Everything the unit shows that persists: re-sent whole after a reconnect."""

    scene: Scene
    clock: ClockSet
    score: ScoreSet

    def commands(self) -> list[Command]:
        return [self.scene, self.clock, self.score]


def initial_view() -> UnitView:
    return UnitView(
        Scene(NONE_SIDE, bytes(Scene.N_LEDS)),
        ClockSet(NO_CLOCK, 0, NONE_SIDE),
        ScoreSet(0, 0, 0, False),
    )


def led_for_point(point: int, mover: Side) -> int:
    """Logical LED of a point in White's numbering (0 = bar, 25 = the mover's tray)."""
    if point == 0:
        return BAR_LED
    if point == 25:
        return TRAY_LED[mover]
    if not 1 <= point <= 24:
        raise ValueError(f"point {point} is not 0-25")
    return point - 1


def changed_leds(before: GamePosition, after: GamePosition) -> set[int]:
    """LEDs of the points, bar and trays whose checkers differ between two positions
    (a Plakoto point whose pinned checker changed counts too, P3)."""
    leds = {i for i in range(24) if before.points[i] != after.points[i]}
    if isinstance(before, TavliPosition) and isinstance(after, TavliPosition):
        leds |= {i for i in range(24) if before.pinned[i] != after.pinned[i]}
    elif isinstance(before, Position) and isinstance(after, Position) and before.bar != after.bar:
        leds.add(BAR_LED)
    for side in Side:
        if before.off[side] != after.off[side]:
            leds.add(TRAY_LED[side])
    return leds


class EventMapper:
    """Follows the events; ``apply(event)`` returns the commands to send now."""

    def __init__(self) -> None:
        self.view = initial_view()
        self._last_play: frozenset[int] = frozenset()
        self._illegal_before: GamePosition | None = None
        self._running: int = NONE_SIDE

    def apply(self, event: ev.Event) -> list[Command]:
        state = event.state
        buzz: list[Command] = []
        match event:
            case ev.PlayAccepted():
                self._last_play = frozenset(changed_leds(event.before, event.after))
            case ev.IllegalPlay():
                self._illegal_before = event.before
                buzz.append(Buzz(Buzz.DOUBLE))
            case ev.IllegalPlayResolved():
                if self._illegal_before is not None:
                    self._last_play = frozenset(changed_leds(self._illegal_before, event.after))
                self._illegal_before = None
            case ev.RollVoid():
                buzz.append(Buzz(Buzz.SHORT))
            case ev.GameStarted():
                self._last_play = frozenset()
                self._illegal_before = None
                self._running = NONE_SIDE
            case ev.GameOver() | ev.MatchOver():
                self._last_play = frozenset()
                self._running = NONE_SIDE
                buzz.append(Buzz(Buzz.LONG))
            case ev.ClockReading():
                # a paused clock (dispute, clear view, director) runs for nobody
                self._running = NONE_SIDE if event.extra.get("paused") else int(event.side)

        roles = bytearray(Scene.N_LEDS)
        for led in self._last_play:
            roles[led] = Scene.LAST
        if state.phase == ev.Phase.ILLEGAL:
            mover = event.side if isinstance(event, ev.IllegalPlay) else state.position.turn
            for point in state.wrong_points or (event.wrong_points if isinstance(event, ev.IllegalPlay) else ()):
                roles[led_for_point(point, mover)] = Scene.ILLEGAL
        elif state.phase == ev.Phase.OUT_OF_SYNC:
            # the points that differ from the last known position: attention, not illegal
            for point in state.wrong_points:
                roles[led_for_point(point, state.position.turn)] = Scene.ATTENTION
        turn = NONE_SIDE if state.phase in _NO_TURN_PHASES else int(state.position.turn)
        scene = Scene(turn, bytes(roles))

        if isinstance(event, ev.ClockReading):
            clocks: tuple[float, float] | None = event.remaining
        else:
            clocks = state.clocks
        if clocks is None:
            clock = ClockSet(NO_CLOCK, 0, NONE_SIDE)
        else:
            clock = ClockSet(_ms(clocks[0]), _ms(clocks[1]), self._running)
        score = ScoreSet(
            min(state.score[0], 255), min(state.score[1], 255), min(state.match_length, 255), state.crawford
        )

        new = UnitView(scene, clock, score)
        changed: list[Command] = [c for c, old in zip(new.commands(), self.view.commands()) if c != old]
        self.view = new
        return changed + buzz


def _ms(seconds: float) -> int:
    return max(0, min(int(round(seconds * 1000)), NO_CLOCK - 1))
