"""Drive a table with a script: each moment's inputs, then its rendered frame.

Shared by ``tavli-pi demo``, the end-to-end tests and the referee benchmark,
so that all three run the same loop. The table is anything with ``submit``
(player inputs) and ``process`` (one frame in, the referee's events out):
:class:`tavli_pi.app.TableApp`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from tavli_pi.referee.events import Event, Phase
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Side
from tavli_pi.sim.script import Moment
from tavli_pi.vision.camera import Camera, Frame

__all__ = ["Table", "Step", "drive", "asks_setup_confirmation", "entered_roll", "asks_unseen_roll", "set_up",
           "ANSWER_HOLD"]

#: frames the players leave the board standing after they answer the referee's question about a play
#: it saw without its roll, until the referee has taken the answer (a verdict on the play): players
#: asked what they rolled answer before the next player plays on
ANSWER_HOLD = 2


class Table(Protocol):
    def submit(self, inp: PlayerInput) -> None: ...

    def process(self, frame: Frame) -> list[Event]: ...


@runtime_checkable
class Holding(Protocol):
    """A camera that can show the table as it stands for a few more frames
    (:meth:`tavli_pi.sim.camera.SimCamera.hold`)."""

    def hold(self, frames: int = 1) -> bool: ...


@dataclass(frozen=True, slots=True)
class Step:
    """What happened on one scripted moment."""

    index: int
    moment: Moment
    frame: Frame
    events: tuple[Event, ...]
    #: event kinds since the last moment that expected something (this one's included)
    window: tuple[str, ...] = ()
    #: frames of this moment's board shown again while the players answered the referee (``events``
    #: holds theirs too; ``frame`` is the moment's first)
    held: int = 0

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(e.kind for e in self.events)

    @property
    def missing(self) -> tuple[str, ...]:
        """Event kinds the script expects by this moment that the referee has not given
        since the previous moment that expected something (a verdict may come a frame early)."""
        return tuple(k for k in self.moment.expect if k not in self.window)


def asks_setup_confirmation(events: Sequence[Event]) -> bool:
    """Whether the referee asks the players to fix or confirm the set-up board (B3): a set-up
    found wrong, or a request for a clear view, while the table is at set-up."""
    return any(e.state.phase is Phase.SETUP and (e.kind == "clear_view_needed"
                                                 or (e.kind == "setup_checked" and not getattr(e, "ok", True)))
               for e in events)


def set_up(m: Moment) -> bool:
    """Whether the players would confirm the board of ``m`` as set up to start (B3): it is the
    start, with no hand over it and no dice on it (players confirm only what is true)."""
    from tavli_pi.rules.position import Position

    return (isinstance(m.position, Position) and m.position.layout_key() == Position.start().layout_key()
            and not m.hand and not m.dice)


def asks_unseen_roll(events: Sequence[Event]) -> bool:
    """Whether the referee asks for the roll of a play it saw made without seeing the roll
    (``roll_needed`` with ``extra["unseen"]``): a question about a play already on the board."""
    return any(e.kind == "roll_needed" and "unseen" in e.extra for e in events)


def entered_roll(events: Sequence[Event], moments: Sequence[Moment], index: int,
                 light_is_white: bool = True) -> PlayerInput | None:
    """The roll the players enter when the referee asks for it (``roll_needed``: the camera sees
    the dice but cannot read them): the dice lying still at moment ``index``, as ``Action.ROLL``
    (at the opening roll White's die first); None when no roll lies there."""
    ask = next((e for e in events if e.kind == "roll_needed"), None)
    if ask is None:
        return None
    # the players enter what they see lying now, and nothing when no roll lies there (a roll
    # long picked up, or one still tumbling, is not entered)
    lying = moments[index].dice
    if "doubted" in ask.extra:
        # the referee read the roll without certainty and the play does not fit it: the players
        # say the roll they played, the last one that lay still on the board
        lying = next((m.dice for m in reversed(moments[: index + 1])
                      if len(m.dice) == 2 and not any(d.moving for d in m.dice)), ())
    roller = getattr(ask, "side", None)
    if "unseen" in ask.extra and isinstance(roller, Side):
        # the camera missed the roll of a play it sees: the players say the roll that play was made
        # with -- the dice lying under the hand that moved the checkers (in the roller's half; the
        # opening roll one die in each half), whatever lies on the board now
        light = Side.WHITE if light_is_white else Side.BLACK
        half = "right" if roller is light else "left"
        lying = next((m.dice for m in reversed(moments[: index + 1])
                      if m.hand and len(m.dice) == 2 and not any(d.moving for d in m.dice)
                      and (all(d.half == half for d in m.dice) or {d.half for d in m.dice} == {"left", "right"})), ())
    if len(lying) != 2 or any(d.moving for d in lying):
        return None
    if getattr(ask, "side", None) is None:  # the opening roll: one die each, White's in White's half
        white_half = "right" if light_is_white else "left"
        w = next((d.value for d in lying if d.half == white_half), lying[0].value)
        b = next((d.value for d in lying if d.half != white_half), lying[1].value)
        level = 10 * w + b
    else:
        level = 10 * lying[0].value + lying[1].value
    return PlayerInput(Action.ROLL, None, level, source="touch")


def drive(table: Table, camera: Camera, moments: Sequence[Moment], *,
          confirm_setup: bool = False, enter_rolls: bool = False, light_is_white: bool = True) -> Iterator[Step]:
    """Feed ``moments`` (whose scenes ``camera`` renders, in the same order) to ``table``.

    The players may answer the referee as players at a real table do: ``confirm_setup``, when
    the referee reads their set-up board otherwise than they set it up (the script sets it up
    right), one of them presses ACCEPT before the next frame (B3); ``enter_rolls``, when the
    camera cannot read the dice (``roll_needed``), they enter the roll before the next frame. Asked
    for the roll of a play already made (:func:`asks_unseen_roll`), they wait for the referee to take
    their answer before the next play: a camera that can (:class:`Holding`) shows the moment's board
    again, up to ``ANSWER_HOLD`` frames, until the referee accepts or calls the play; those frames'
    events are the moment's.
    """
    window: list[str] = []
    answers: list[PlayerInput] = []
    asked = False
    for i, m in enumerate(moments):
        for inp in answers:
            table.submit(inp)
        answers = []
        for inp in m.inputs:
            table.submit(inp)
        frame = camera.read()
        if frame is None:
            return
        events = tuple(table.process(frame))
        # the question stays on the display until the set-up is checked: the players answer it
        # once the board is really set up (they confirm only what is true)
        asked = (asked or asks_setup_confirmation(events)) and not any(
            e.kind == "setup_checked" and getattr(e, "ok", False) for e in events)
        if confirm_setup and asked and set_up(m):
            answers.append(PlayerInput(Action.ACCEPT, None, source="touch"))
            asked = False
        roll = entered_roll(events, moments, i, light_is_white) if enter_rolls else None
        if roll is not None:
            answers.append(roll)
        held = 0
        if roll is not None and asks_unseen_roll(events) and isinstance(camera, Holding):
            got: tuple[Event, ...] = ()
            while held < ANSWER_HOLD and not any(e.kind in ("play_accepted", "illegal_play") for e in got):
                if not camera.hold(1):
                    break
                for inp in answers:
                    table.submit(inp)
                answers = []
                again = camera.read()
                if again is None:
                    return
                got = tuple(table.process(again))
                events += got
                held += 1
        window += [e.kind for e in events]
        yield Step(i, m, frame, events, tuple(window), held)
        if m.expect:
            window = []
