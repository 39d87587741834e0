"""The roll of a play seen without it: the referee asks the players, and judges the play against it.

A tournament director who did not see a roll asks the players what was rolled: "legal for some
roll" (:mod:`tavli_pi.referee.unseen`) is no proof of "legal for theirs" (a checker played one pip
too far is often legal for another roll). At an attended table a play the camera saw without its
roll -- in step (:meth:`Referee._play_without_roll`) or out of sync (:class:`~tavli_pi.referee.sync.
BoardSync`) -- is therefore not taken at once: the players are asked to enter the roll they played
(``roll_needed``, ``extra["unseen"]``: the rolls the play fits), once a board, and the play is
judged against the roll they enter (``Action.ROLL``), like any other. A board changed clearly by one
play (legal or not) of the side on roll that no roll's legal play explains -- out of sync, or read too
unsure on some spot to be called so -- is asked about the same way (:meth:`RollQuestion.ask_of_one_play`).

The play is taken as legal for the rolls it fits, as before, when nobody sits at the table
(``attended`` False: a recording), when nobody answers within ``UNSEEN_ROLL_WAIT`` seconds of the
referee's clock, or when the next roll already lies in the next player's half (E8: the play stands;
the referee never asks then).

:class:`RollQuestion` is the referee's part that asks and takes the answer; its state is the plain
:class:`~tavli_pi.referee.unseen.AskedRoll` of the open question (a snapshot stores it: a table
restarted while the players are asked still takes their answer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from tavli_pi.referee import events as ev
from tavli_pi.referee.events import Phase
from tavli_pi.referee.game import TavliRules
from tavli_pi.referee.unseen import (
    OPENING_ROLLS, ROLLS, UNSEEN_ROLL_WAIT, AskedRoll, UnseenPlay, plays_for_any_roll, rolls_text,
)
from tavli_pi.rules.position import Side

if TYPE_CHECKING:
    from tavli_pi.referee.dice import DiceWatch
    from tavli_pi.referee.evidence import Reading
    from tavli_pi.referee.game import GameRules
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.referee.sync import BoardSync
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.vision.observation import Observation

__all__ = ["QuestionReferee", "RollQuestion"]

#: the phases in which an entered roll can answer the question (the play is not taken meanwhile)
ANSWERABLE = (Phase.OPENING, Phase.AWAITING_ROLL, Phase.OUT_OF_SYNC)


class QuestionReferee(Protocol):
    """What the question uses of its referee (:class:`~tavli_pi.referee.referee.Referee`)."""

    position: GamePosition
    last_verdict: str

    @property
    def settings(self) -> RefereeSettings: ...
    @property
    def game(self) -> GameRules: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def dice(self) -> tuple[int, int] | tuple[()]: ...
    @property
    def now(self) -> float: ...
    @property
    def frames(self) -> list[Observation]: ...
    @property
    def dice_watch(self) -> DiceWatch: ...
    @property
    def either_may_roll(self) -> bool: ...
    @property
    def sync(self) -> BoardSync: ...
    def emit(self, cls: type[ev.Event], **kw: Any) -> None: ...
    def against_known(self) -> Reading: ...
    def drop_unread_roll(self) -> None: ...
    def start_turn(self, dice: tuple[int, int], *, opening: bool) -> None: ...
    def after_roll_accepted(self) -> None: ...
    def judge_after_late_roll(self) -> None: ...


class RollQuestion:
    """The question "which roll did you play?" about a play seen without its roll; see the module doc.

    It acts on its referee (``ref``): the phase, the position, the frames kept and the events it emits.
    """

    def __init__(self, ref: QuestionReferee) -> None:
        self.ref = ref
        self.asked: AskedRoll | None = None  # the open question, if any

    def ask(self, side: Side, play: UnseenPlay | GamePosition, *, opening: bool) -> bool:
        """Before ``side``'s play (a legal play for some roll, or a board no roll allows) is taken as
        legal for some roll: the players, when someone is at the table, are asked for the roll they
        played (``roll_needed``, once a board). True while the play waits for their answer; False when
        it is to be taken now: nobody at the table, or no answer within ``UNSEEN_ROLL_WAIT`` seconds."""
        ref = self.ref
        if not ref.settings.attended:
            return False
        board = play.position if isinstance(play, UnseenPlay) else play
        key = board.layout_key()
        asked = self.asked
        if asked is not None and asked.key == key and asked.side is side:
            return ref.now - asked.at < UNSEEN_ROLL_WAIT
        self.asked = AskedRoll(key, side, opening, ref.now)
        ref.last_verdict = "enter the roll"
        fits = list(play.rolls) if isinstance(play, UnseenPlay) else []
        ref.emit(ev.RollNeeded, side=side, rule="E2",
                 reason="the roll was not seen; " + (f"the play is legal for {rolls_text(fits)}" if fits
                                                      else "no roll allows the play"),
                 message=f"The camera did not see {side.title}'s roll: {side.title}, enter the roll you "
                 "played on the table's page.",
                 extra={"unseen": [f"{a}-{b}" for a, b in fits]})
        return True

    def ask_of_one_play(self, known: GamePosition, board: GamePosition, *, opening: bool) -> bool:
        """``board`` differs from ``known`` by a change no roll's legal play explains but that is one
        play (legal or not) of the side on roll (:func:`~tavli_pi.referee.sync.one_play_reason` with the
        most a roll moves, 6-6; at the opening, or after an adopted board, of either side): the roll it
        was played with is asked for (:meth:`ask`). Nothing is called without it. True while asked.
        ``board`` is the out-of-sync board as announced, or a reading too unsure on some spot to call
        the board lost; a legal play of some roll is named with the rolls it fits."""
        ref = self.ref
        sides = (Side.WHITE, Side.BLACK) if opening or ref.either_may_roll else (known.turn,)
        movers = [x for x in sides if not ref.game.one_play_reason(known.with_turn(x), board.with_turn(x), (6, 6))]
        if len(movers) != 1:
            return False
        # a legal play of some roll read too unsure to pick out is asked about with the rolls it fits
        rolls = OPENING_ROLLS if opening and not isinstance(ref.game, TavliRules) else ROLLS
        key = board.layout_key()
        fits = next((p for p in plays_for_any_roll(ref.game, known.with_turn(movers[0]), rolls)
                     if p.position.layout_key() == key), None)
        return self.ask(movers[0], board if fits is None else fits, opening=opening)

    def answers(self) -> bool:
        """Whether an entered roll now answers the question (one is open and the play not taken)."""
        return self.asked is not None and self.ref.phase in ANSWERABLE

    def drop(self) -> None:
        """A roll was taken otherwise (read, or entered for dice too small to read): no question."""
        self.asked = None

    def entered(self, values: tuple[int, int]) -> bool:
        """Action.ROLL answering :meth:`ask`: the roll is taken as the asked side's (E2) and the play on
        the board is judged against it, as any play: legal on the frames kept, it stands; illegal, it
        is called (E8) once the next clear frame still shows it. False (nothing done) when the board no
        longer differs from the position the referee knows (the question is stale)."""
        ref = self.ref
        asked = self.asked
        assert asked is not None
        self.asked = None
        if not ref.frames or ref.against_known().gap < ref.settings.accept_margin:
            return False
        if ref.phase is Phase.OUT_OF_SYNC:
            ref.sync.back_in_step()
        side, opening = asked.side, asked.opening
        a, b = max(values), min(values)
        ref.drop_unread_roll()
        ref.position = ref.position.with_turn(side)
        if opening and not isinstance(ref.game, TavliRules):
            white, black = (a, b) if side is Side.WHITE else (b, a)
            ref.emit(ev.OpeningRoll, white_die=white, black_die=black, winner=side, rule="E1",
                     message=f"{side.title} started with {a}-{b} (entered by the players).",
                     extra={"entered": True})
        ref.start_turn((a, b), opening=opening)
        ref.dice_watch.disarm()  # dice lying unseen until now are not the next roll; a throw rearms
        ref.last_verdict = f"{side.title} rolled {a}-{b}"
        ref.emit(ev.RollAccepted, side=side, dice=ref.dice, rule="E2",
                 message=f"{side.title} rolled {a}-{b} (entered by the players).", extra={"entered": True})
        ref.after_roll_accepted()
        ref.judge_after_late_roll()
        return True
