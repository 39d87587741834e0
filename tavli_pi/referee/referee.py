"""The referee: a pure state machine, ``step(input, now) -> list[Event]``.

Inputs are vision's Observations (one per frame) and PlayerInputs (buttons,
touches). Time is a parameter; the referee does no I/O. The turn cycle keys on
physical events (DESIGN.md): dice settle (a roll: E1, E3, E6), checkers move
while the dice lie, the dice leave the board (the turn is final: E5, judge
the play). The play is judged by rules-constrained reading
(:mod:`tavli_pi.referee.evidence`): accepted, called illegal only on a
confident, stable, consistent reading, otherwise the players are asked for a
clear view. Never a verdict from a frame with a hand or motion in it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from tavli_pi.referee import events as ev
from tavli_pi.referee.clock import ClockKeeper, RefereeClock
from tavli_pi.referee.dice import (
    DiceWatch,
    entered_dice,
    opening_pair_of,
    of_the_roll,
    bearing_off_no_contact,
    opening_void_reason,
    own_half,
    void_reason,
)
from tavli_pi.referee.events import Phase
from tavli_pi.referee.game import GameRules, TavliRules, rules_for
from tavli_pi.referee.evidence import EvidenceTable, Reading, misread_spots, read
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.offers import Offers
from tavli_pi.referee.one_die_call import UNREAD, ends_with, fitting_roll, judge_one_die, nearest_with
from tavli_pi.referee.roll_doubt import describe, plausible_rolls, put_right, rolls_allowing
from tavli_pi.referee.roll_reread import read_again
from tavli_pi.referee.roll_question import RollQuestion
from tavli_pi.referee.roll_seen import rolls_holding, seen_of_roll, seen_text
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.referee.setup_check import MOVED, SetupCheck, SetupState
from tavli_pi.referee.sync import BoardSync
from tavli_pi.referee.unseen import (
    OPENING_ROLLS, ROLLS, UnseenPlay, plays_for_any_roll, roller_of, rolls_text,
)
from tavli_pi.referee.unseen_dance import take_unseen_dance, take_unseen_dance_and_play
from tavli_pi.referee.verdict import (
    Miscount, Verdict, confidently_differs, frame_argmax, judge_evidence, judge_play, one_checker_off,
)
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.games import End, GamePosition, game_result
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import game_winner, outcome_borne_off
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.tavli_settings import TavliSettings, Variant
from tavli_pi.vision.observation import DieReading, Observation

__all__ = ["Referee", "Verdict", "judge_evidence"]


#: frames in a row without the roller's dice before the play is final (E5), when they are too small
#: to read (the players entered the roll): such dice are not found in every frame
DICE_GONE_FRAMES = 2


def _clear(obs: Observation) -> bool:
    """A frame with no hand and no motion over the board (the dice watch's ``clear``)."""
    return not obs.hand and not obs.motion


#: attributes a snapshot written by an older tavli-pi (snapshot.FORMAT 1) may lack, each with the
#: value a new referee starts with (a test checks they agree with ``__init__``): restored, the
#: referee holds every attribute, so the code reads them plainly
SNAPSHOT_ADDED: dict[str, Any] = {
    "_last_frame_at": None, "blind": (), "_unread_roll": None, "_throw_seen": False, "_dice_gone": 0,
    "_roll_dice": (), "_small_dice": False, "_dice_conf": (1.0, 1.0), "_dice_against": (False, False),
    "_doubted": None, "_miscount": None,
    "_unseen_last": None, "_void_roll": None, "misread": (), "_next_throw": False, "_pointed_out": False,
    "_no_dice": 0, "board_unsure": False, "_lone_die": None, "_dice_flicker": False, "_untouched": False,
}


class Referee:
    """One table's referee for one match (or money session).

    ``step(item, now)`` takes an Observation or a PlayerInput and returns the
    events it caused; ``state`` is the TableState after them.
    """

    def __init__(
        self,
        settings: RefereeSettings | None = None,
        *,
        match: MatchState | None = None,
        players: tuple[str, str] = ("White", "Black"),
        start: GamePosition | None = None,
        tavli: TavliMatch | None = None,
        tavli_settings: TavliSettings | None = None,
    ) -> None:
        self.settings = settings or RefereeSettings()
        s = self.settings
        rules = s.rules
        #: a tavli match (T1-T4) when not None: games rotate, no cube, no Crawford
        self.tavli = tavli
        self.tavli_settings = tavli_settings or TavliSettings()
        if tavli is not None:
            match = match or MatchState(tavli.settings.match_length, crawford_rule=False,
                                        score=tavli.score, games=len(tavli.history))
        self.match = match or MatchState(0, crawford_rule=rules.crawford)
        self.game: GameRules = self._rules_now()
        self.players = players
        self.cube = CubeState()
        self.position: GamePosition = start or self.game.start(self._starter() or Side.WHITE)
        self.game_number = self.match.games + 1
        self.phase = Phase.SETUP
        self.dice: tuple[int, int] | tuple[()] = ()
        self.before: GamePosition = self.position
        self.results: tuple[End, ...] = ()
        self.last_verdict = ""
        self.wrong_points: tuple[int, ...] = ()
        self._now = 0.0
        self._out: list[ev.Event] = []
        # the set-up check (B3, setup_check.py); a tavli game announces itself once set up
        self.setup = SetupCheck(self, SetupState(
            self.position, Phase.OPENING if start is None and self._starter() is None else Phase.AWAITING_ROLL,
            tavli is not None and start is None))
        self._watch = DiceWatch(s.settle_frames, s.die_confidence, armed=False)
        self._prem = DiceWatch(s.settle_frames, s.die_confidence, armed=True)
        self._frames: list[Observation] = []
        self._waited = 0
        self._asked = False
        self._last_frame_at: float | None = None  # when the last observation came (the injected clock)
        self._frame_dt = 0.0  # seconds since the observation before this one
        #: spots (light numbering 0-25) vision misreads on this board: the players confirmed a set-up
        #: vision read otherwise there; the rules fill them in (``EvidenceTable``'s ``blind``)
        self.blind: tuple[int, ...] = ()
        #: spots where vision read a position the referee knew (the set-up, an accepted play) otherwise:
        #: its frames there share their error, and count as one look (``EvidenceTable``'s ``shared``)
        self.misread: tuple[int, ...] = ()
        #: no hand over the board since the last turn was committed: the clear frames kept since are
        #: frames of the position the referee knows (:meth:`start_turn` learns :attr:`misread` from them)
        self._untouched = False
        #: unattended, the game goes on from a board taken as it was left though read otherwise: a game
        #: joined in progress from a board not read surely at every spot, or a start with blind spots
        #: (setup_check.py). Until a play checked against its roll fits it, a play that does not is not
        #: called illegal: the board is out of step (the board taken may be the wrong one)
        self.board_unsure = False
        self._unread_roll: tuple[DieReading, ...] | None = None  # a throw asked for (RollNeeded)
        self._throw_seen = False  # while judging: the next roll is being thrown (E8)
        self._dice_gone = 0  # frames in a row without the roller's dice (E5)
        #: a clear frame since the roll was taken showed only some of its dice: the camera loses them
        self._dice_flicker = False
        self._no_dice = 0  # frames in a row without a die lying on the board (none seen, or only a throw's)
        self._roll_dice: tuple[DieReading, ...] = ()  # this turn's dice as they lay when the roll was taken
        self._small_dice = False  # this turn's dice are too small to read (the players entered them)
        #: how sure vision was of each of this turn's dice (aligned with ``dice``; 1.0: entered)
        self._dice_conf: tuple[float, float] = (1.0, 1.0)
        #: each of this turn's dice read with another value since the roll was taken (roll_reread.py)
        self._dice_against: tuple[bool, bool] = (False, False)
        #: the one die lying, come after a set-up frame without dice, when the board was read set up
        #: (maybe an opening die, its pair not found): :meth:`set_lone_die`
        self._lone_die: DieReading | None = None
        #: the board (layout key) whose illegal call waits for the players to enter the roll, as the
        #: dice were read without certainty and another roll allows it (roll_doubt.py)
        self._doubted: object = None
        #: a stack this game counts one off, as a play stood with it (spot, light?, read minus true):
        #: the next turns' readings one off there are that miscount, not a board out of step
        self._miscount: Miscount | None = None
        #: the last play taken with a roll the camera did not see: (the board before it, after it, the
        #: side, at the opening?) -- the players may still put it right (sync.py)
        self._unseen_last: tuple[GamePosition, GamePosition, Side, bool] | None = None
        #: a roll voided for lying in the other player's half while the referee waited for a roll: the
        #: other player's roll if the side on roll danced unseen (unseen_dance.py)
        self._void_roll: tuple[DieReading, ...] | None = None
        #: while the opening play is judged (phase ``rolled``): the dice watch follows the next player's
        #: throw landing in their half, so that roll is asked for or taken as soon as the play stands
        self._next_throw = False
        #: the opponent demanded a legal play (E8) before the play was judged: said again once it is
        #: called, and the play is judged as soon as the roller's dice are not seen (E5)
        self._pointed_out = False
        self._opening_turn = False
        self._observed: GamePosition | None = None  # the illegal end position
        self._pending_roll: tuple[DieReading, ...] | None = None
        self._premature: tuple[DieReading, ...] | None = None
        self._either_may_roll = False  # after an adoption: the first roll may come from either side
        self.sync = BoardSync(self)  # the out-of-sync recovery (sync.py)
        #: the roll of a play seen without it, asked of the players before the play is taken (roll_question.py)
        self.question = RollQuestion(self)
        self.offers = Offers(self)  # cube and resignation offers (offers.py)
        self.timing = ClockKeeper(self)  # paddles, pauses, holds and flags of ``clock`` (clock.py)
        self.clock: RefereeClock | None = None
        if s.clock is not None:
            self.clock = RefereeClock(s.clock, self.match.length, self.match.score,
                                      reset_each_game=s.clock_reset_each_game)

    # -- resume ---------------------------------------------------------------
    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a snapshot (:mod:`~tavli_pi.referee.snapshot`); what an older one lacks starts
        as a new referee's (:data:`SNAPSHOT_ADDED`)."""
        self.__dict__.update({k: copy.copy(v) for k, v in SNAPSHOT_ADDED.items()})
        state = dict(state)
        asked = state.pop("_unseen_asked", None)  # stop 16 kept the open roll question on the referee
        setup = {new: state.pop(old) for old, new in MOVED.items() if old in state}  # stop 21 kept the set-up's
        self.__dict__.update(state)
        if "question" not in state:
            self.question = RollQuestion(self)
            self.question.asked = asked
        if "setup" not in state:
            self.setup = SetupCheck(self, SetupState(**setup))

    @classmethod
    def from_state(
        cls, state: ev.TableState, settings: RefereeSettings | None = None, *, crawford_rule: bool = True,
        tavli_settings: TavliSettings | None = None,
    ) -> Referee:
        """A referee that carries on from the last committed TableState (crash resume).

        A turn in progress restarts at its last committed point: dice accepted
        but not judged are kept (the referee waits for them to leave), a
        pending double or illegal play is judged again from the board.
        """
        s = settings or RefereeSettings()
        score = state.score
        n = state.match_length
        fresh_game = state.phase in (Phase.SETUP, Phase.OPENING, Phase.GAME_OVER)
        if state.tavli is not None:
            ref = cls(s, players=state.players, start=None if fresh_game else state.position,
                      tavli=state.tavli, tavli_settings=tavli_settings)
        else:
            at_n1 = crawford_rule and n >= 2 and max(score) == n - 1
            won = n > 0 and max(score) >= n
            match = MatchState(
                n, score, state.crawford and at_n1 and not won, at_n1 and not state.crawford and not won,
                crawford_rule, max(0, state.game_number - 1),
            )
            ref = cls(s, match=match, players=state.players, start=None if fresh_game else state.position)
        ref.game_number = state.game_number + (1 if state.phase == Phase.GAME_OVER else 0)
        if ref.clock is not None and state.clocks is not None:
            ref.clock.restore(state.clocks, 0.0)  # the reserves carry on; no clock runs until a press
        if state.phase == Phase.MATCH_OVER:
            ref.phase = Phase.MATCH_OVER
            return ref
        if state.phase == Phase.OPENING and state.cube_value > 1:
            # automatic doubles (C5) turned the cube before the crash: keep it and the count
            ref.cube = CubeState(state.cube_value, None)
            ref.offers.state.auto_doubles = state.cube_value.bit_length() - 1
        if fresh_game:
            return ref
        ref.cube = CubeState(state.cube_value, state.cube_owner)
        if state.phase in (Phase.ROLLED, Phase.JUDGING, Phase.ILLEGAL, Phase.CORRECTING, Phase.OUT_OF_SYNC) and len(state.dice) == 2:
            ref.phase = Phase.ROLLED
            ref.dice = (state.dice[0], state.dice[1])
            ref.before = state.position
            ref.results = ref.game.ends(state.position, ref.dice)
            ref._opening_turn = False
        elif state.phase == Phase.CUBE:
            ref.phase = Phase.CUBE
            ref.offers.state.doubler = state.position.turn
        elif state.phase == Phase.OUT_OF_SYNC:
            # the board is checked against the last known position again (and the mismatch re-raised)
            ref.phase = Phase.AWAITING_ROLL
        return ref

    # -- the state ----------------------------------------------------------------
    @property
    def state(self) -> ev.TableState:
        return ev.TableState(
            phase=self.phase,
            position=self.position,
            dice=tuple(self.dice),
            cube_value=self.cube.value,
            cube_owner=self.cube.owner,
            score=self.match.score,
            match_length=self.match.length,
            crawford=self.match.crawford_game,
            game_number=self.game_number,
            players=self.players,
            last_verdict=self.last_verdict,
            wrong_points=self.wrong_points,
            clocks=None if self.clock is None else self.clock.remaining(self._now),
            clear_view=self._asked,
            setup_wrong=self.setup.state.wrong,
            variant=self.game.variant.value,
            tavli=self.tavli,
        )

    # -- what the referee's parts use (setup, sync, question, offers, timing; unseen_dance.py) ----
    # The parts act on the referee only through its public names (``phase``, ``position``, ``before``,
    # ``dice``, the properties here, ``start_turn``, ``commit``, ...), each part typing the few it uses
    # as a Protocol; the names with a leading underscore are the referee's own (a snapshot pickles
    # them as they are; tests/referee/test_privacy.py checks that no other module touches them).
    @property
    def now(self) -> float:
        """The injected clock's time of the input being stepped."""
        return self._now

    @property
    def frames(self) -> list[Observation]:
        """The clear frames kept of the board as it stands (a part may carry frames over to it)."""
        return self._frames

    @property
    def dice_watch(self) -> DiceWatch:
        """The watch that takes dice lying still as a roll (a part may disarm it, or feed it dice
        that are no roll now)."""
        return self._watch

    @property
    def clear_view_asked(self) -> bool:
        """A clear view was asked for and is still awaited (``TableState.clear_view``)."""
        return self._asked

    @property
    def either_may_roll(self) -> bool:
        """After an adopted board: the first roll may come from either side (its half says whose)."""
        return self._either_may_roll

    @property
    def frame_dt(self) -> float:
        """Seconds between the observation being stepped and the one before it."""
        return self._frame_dt

    @property
    def unseen_last(self) -> tuple[GamePosition, GamePosition, Side, bool] | None:
        """The last play taken with a roll the camera did not see, while nothing was taken since: (the
        board before it, after it, the side, at the opening?)."""
        return self._unseen_last

    def forget_unseen_last(self) -> None:
        """That play can no longer be put right (the board was adopted from it)."""
        self._unseen_last = None

    def lose_step(self) -> None:
        """The board is out of step (phase ``out_of_sync``, sync.py): no roll thrown meanwhile counts,
        and the clear-view count starts again (the frames kept stay)."""
        self.phase = Phase.OUT_OF_SYNC
        self._pending_roll = None
        self._premature = None
        self._waited = 0
        self._asked = False

    def drop_unread_roll(self) -> None:
        """The unread throw asked for is settled (its roll entered, or a roll taken otherwise)."""
        self._unread_roll = None

    def emit(self, cls: type[ev.Event], **kw: Any) -> None:
        """Emit an event of ``cls`` now, carrying the table state after the change."""
        self._out.append(cls(at=self._now, state=self.state, **kw))

    def refuse(self, inp: PlayerInput, rule: str, message: str) -> None:
        """Refuse a player's input (``action_refused``), saying why."""
        self.emit(ev.ActionRefused, side=inp.side, action=str(inp.action), rule=rule, message=message)

    # -- the game being played (portes, or a game of a tavli match) ------------------------
    def _starter(self) -> Side | None:
        """Who starts the game by rolling both dice (V3: the last game's winner), else None."""
        return None if self.tavli is None else self.tavli.starter

    def _rules_now(self) -> GameRules:
        if self.tavli is None:
            return rules_for(Variant.PORTES)
        return rules_for(self.tavli.variant, self.tavli_settings, self.tavli.settings, cube=False)

    # -- the one entry point ----------------------------------------------------------
    def step(self, item: Observation | PlayerInput, now: float) -> list[ev.Event]:
        self._now = now
        self._out = []
        if self.clock is not None:
            self.timing.poll()
        if isinstance(item, PlayerInput):
            self._on_input(item)
        else:
            self._on_observation(item)
        if self.clock is not None:
            self.timing.hold_for_disputes()
        return self._out

    # -- observations -------------------------------------------------------------
    def _on_observation(self, obs: Observation) -> None:
        last = self._last_frame_at
        self._frame_dt = 0.0 if last is None else max(0.0, self._now - last)
        self._last_frame_at = self._now
        self.setup.watch_blind(obs)
        if obs.hand:
            self._untouched = False
        if not obs.motion and any(d.moving for d in obs.dice):
            # a die flagged tumbling on a frame the reader sees no motion in lies still (a smear that
            # does not move is no rolling die, vision/reader.py): a die it cannot read, not a throw
            obs = replace(obs, dice=tuple(replace(d, moving=False) for d in obs.dice))
        self._no_dice = 0 if any(not d.moving for d in obs.dice) else self._no_dice + 1
        p = self.phase
        if p == Phase.SETUP:
            self.setup.watch(obs)
        elif p == Phase.OPENING:
            self._opening(obs)
        elif p == Phase.AWAITING_ROLL:
            self._awaiting_roll(obs)
        elif p == Phase.ROLLED:
            self._rolled(obs)
        elif p == Phase.JUDGING:
            if obs.dice and (all(d.moving for d in obs.dice) or self._next_roll_lies(obs)):
                self._throw_seen = True  # the next roll is being thrown, or lies thrown (E8)
            self.collect(obs)
            if self._pending_roll is None:
                # the next roll may settle before the referee has a clear view of the last play:
                # keep it, and take it once the play is judged (a slow verdict must not lose a roll)
                self._pending_roll = self._watch.feed(obs.dice, need=2, clear=_clear(obs))
            self._try_judge()
        elif p in (Phase.ILLEGAL, Phase.CORRECTING):
            self._after_illegal(obs)
        elif p == Phase.OUT_OF_SYNC:
            self.sync.watch(obs)
        # cube, resign, game_over, match_over: the board is not watched

    def _next_roll_lies(self, obs: Observation) -> bool:
        """While judging: dice lie still in the next player's half (read or not; at the opening turn,
        two of them, as the roller's dice lie one in each half): the next roll was thrown."""
        if obs.hand or obs.motion or (self._opening_turn and len(obs.dice) < 2):
            return False
        return roller_of(obs.dice, self.settings.light_is_white) is self.before.turn.other

    def collect(self, obs: Observation) -> bool:
        """Keep the clear frames since the board last had a hand over it (:meth:`keep_clear`)."""
        return self.keep_clear(self._frames, obs)

    def keep_clear(self, frames: list[Observation], obs: Observation) -> bool:
        """Keep in ``frames`` the clear frames since the board last had a hand over it.

        A frame with motion but no hand (dice picked up or thrown, a shadow) is not kept, but
        does not throw away the still frames before it: if the checkers changed meanwhile, the
        next clear frame reads them otherwise and the frames start again (below), and a verdict
        needs every one of its latest frames to read the same (``stable_frames``)."""
        if obs.hand:
            frames.clear()
            return False
        if obs.motion:
            return False
        last = frames[-1] if frames else None
        if last is not None and not (last.points is obs.points and last.bar is obs.bar and last.off is obs.off):
            # a changed confident reading means the board changed unseen: start again (a reading the
            # reader reused for an unchanged picture is the same objects, and reads the same)
            pl, pd = frame_argmax(last)
            nl, nd = frame_argmax(obs)
            if (pl, pd) != (nl, nd) and confidently_differs(last, obs):
                frames.clear()
        frames.append(obs)
        del frames[: -self.settings.max_evidence_frames]
        return True

    def _blind(self) -> tuple[int, ...]:
        return self.blind

    def reset_view(self) -> None:
        """Drop the frames kept and start the clear-view count again (a new board to judge)."""
        self._frames.clear()
        self._waited = 0
        self._asked = False

    def ask_clear_view(self, reason: str, *, now: bool = False) -> None:
        """Ask the players for a clear view (``clear_view_needed``, once), after ``clear_view_after``
        frames without a verdict (``now``: at once)."""
        self._waited += 1
        if self._asked or (not now and self._waited < self.settings.clear_view_after):
            return
        self._asked = True
        self.last_verdict = "clear the view"
        self.emit(ev.ClearViewNeeded, reason=reason, message=f"Please clear the view of the board: {reason}.")

    # setup (B3: setup_check.py) --------------------------------------------------------
    def ask_setup_confirmation(self, problems: Sequence[str]) -> list[ev.Event]:
        """Say where the set-up board is read to differ from the start (B3), and ask the players to fix it
        or confirm it with ACCEPT (:meth:`SetupCheck.ask`). The app calls it, while it waits to learn the
        board; returns the events (also given by ``step``)."""
        out_before = len(self._out)
        self.setup.ask(problems)
        return self._out[out_before:]

    def carry_on_from(self, after: GamePosition, known: GamePosition, verdict: str, message: str,
                      extra: dict[str, Any] | None = None) -> None:
        """Go on from ``after``, a board the referee did not follow there from ``known`` (adopted by
        the players, or a game joined in progress): awaiting a roll, either side may throw it (the
        half the dice land in says who, E3). Says so in a ``board_adopted`` event."""
        self.position = self.before = after
        self.dice, self.results = (), ()
        self.phase = Phase.AWAITING_ROLL
        self._either_may_roll = True
        self.board_unsure = False
        self.last_verdict = verdict
        self.emit(ev.BoardAdopted, before=known, after=after, points=self.game.differing_points(known, after),
                  extra=extra or {}, message=message)

    # the opening roll (E1) ------------------------------------------------------------
    def set_lone_die(self, die: DieReading | None) -> None:
        """The board was read set up with ``die`` lying alone, come after a frame without dice (else
        None). The watch counts no dice lying from before; but once two dice lie one in each half, one
        of them where ``die`` lay, they are the opening roll thrown, its second die found late (small
        dice are not found on every frame: ``bench_video`` game 11 at 640x360 found White's 4 only on
        the frame after the one the board was read set up on, and never read the opening roll)."""
        self._lone_die = die

    def _opening(self, obs: Observation) -> None:
        lone = self._lone_die
        if lone is not None and (self._watch.armed or opening_pair_of(obs.dice, lone)):
            if not self._watch.armed:
                self._watch.rearm()  # the lone die and its pair: the opening throw, counted from now
            self._lone_die = None
        dice = self._watch.feed(obs.dice, need=2, clear=_clear(obs))
        if dice is None:
            # the board first: a roll lying in one half may show the opening was played unseen
            self._watch_board(obs)
            if self.phase is Phase.OPENING:
                self._ask_for_unread_roll(opening=True)
            elif self.phase is Phase.AWAITING_ROLL:
                self._ask_for_unread_roll(opening=False)
            return
        self.take_opening_roll(dice)

    def take_opening_roll(self, dice: Sequence[DieReading]) -> None:
        """``dice`` lie still as the opening roll (E1): void, a tie, or the winner's turn starts."""
        self._unread_roll = None
        s = self.settings
        reason, whose = opening_void_reason(
            dice, light_is_white=s.light_is_white, die_on_checker_void=s.die_on_checker_void
        )
        if reason == "same_half" and self._played_before(dice):
            self.take_roll(dice)  # the opening was played unseen: these dice are the next roll
            return
        if reason == "same_half" and self.setup.joined_by_roll(dice):
            return  # unattended: no opening roll, a roll of a game in progress (setup_check.py)
        if reason:
            self.last_verdict = "reroll"
            self.emit(
                ev.RollVoid, side=whose or Side.WHITE, reason=reason, rule="E1" if reason == "same_half" else "E3",
                message=f"Opening roll void ({reason.replace('_', ' ')}): both players roll again.",
            )
            return
        white_half = own_half(Side.WHITE, s.light_is_white)
        wd = next(d.value for d in dice if d.half == white_half)
        bd = next(d.value for d in dice if d.half != white_half)
        if wd == bd:
            self.last_verdict = "tie: roll again"
            cube = self.offers.automatic_double()
            if cube is not None:
                # C5: a tie in money play turns the centred cube, at most rules.max_automatic times a game
                self.last_verdict = f"tie: the cube is at {cube.value}"
                self.emit(
                    ev.OpeningRoll, white_die=wd, black_die=bd, winner=None, rule="C5",
                    message=f"Both rolled {wd}: automatic double, the cube is at {cube.value}; roll again.",
                    extra={"automatic_double": cube.value},
                )
                return
            self.emit(
                ev.OpeningRoll, white_die=wd, black_die=bd, winner=None, rule="E1",
                message=f"Both rolled {wd}: roll again.",
            )
            return
        winner = Side.WHITE if wd > bd else Side.BLACK
        self.position = self.position.with_turn(winner)
        if isinstance(self.game, TavliRules):
            # V3: the single dice are not played; the winner rolls both dice for the first play
            self.phase = Phase.AWAITING_ROLL
            self.before = self.position
            self.last_verdict = f"{winner.title} starts"  # the single dice still lie: not a roll
            self.emit(
                ev.OpeningRoll, white_die=wd, black_die=bd, winner=winner, rule="V3",
                message=f"{winner.title} starts ({max(wd, bd)} against {min(wd, bd)}): "
                f"{winner.title}, roll both dice for the first play.",
            )
            return
        wc = next(d.value_confidence for d in dice if d.half == white_half)
        bc = next(d.value_confidence for d in dice if d.half != white_half)
        self.start_turn((max(wd, bd), min(wd, bd)), opening=True, small=any(d.note == "entered" for d in dice),
                        sure=(wc, bc) if wd > bd else (bc, wc), at=dice)
        self.last_verdict = f"{winner.title} starts"
        self.emit(
            ev.OpeningRoll, white_die=wd, black_die=bd, winner=winner, rule="E1",
            message=f"{winner.title} starts with {max(wd, bd)}-{min(wd, bd)}.",
        )
        self.after_roll_accepted()

    # a roll (E2, E3) --------------------------------------------------------------------
    def _awaiting_roll(self, obs: Observation) -> None:
        dice = self._watch.feed(obs.dice, need=2, clear=_clear(obs))
        if dice is not None:
            # the frame the roll settles on is a clear view of the board too: when its play was made
            # before the dice were read (the hand came and went while they lay there), it shows the
            # board as played and counts as the verdict's first frame (start_turn keeps it only then;
            # real-like game 21: a 2-2 read surely only once the play was made was judged a frame late)
            self.collect(obs)
            self.take_roll(dice)
            return
        # a roll may lie there with only its values missing (asked for once): the board is watched
        # all the same, and once the dice are picked up (E5) the play may show the roll (unseen.py);
        # the board first, as dice lying in the other player's half may be that player's roll
        self._watch_board(obs)
        if self.phase is Phase.AWAITING_ROLL:
            self._ask_for_unread_roll(opening=False)

    # dice the camera sees but cannot read (too small): the players enter the roll ---------------
    def _ask_for_unread_roll(self, *, opening: bool) -> bool:
        """True while a throw the camera cannot read waits for the players to enter it (Action.ROLL).
        Asked once per throw: the dice lie still where the camera sees them, with no value it can
        read (issue 9: a die too small to read is never given a value)."""
        unread = self._watch.unread
        if unread is not None and unread is not self._unread_roll:
            self._unread_roll = unread
            side = None if opening else self.position.turn
            reason = next((d.note for d in unread if d.note), "") or "the dice cannot be read"
            who = ("enter the opening roll, White's die then Black's" if side is None
                   else f"{side.title}, enter your roll")
            self.last_verdict = "enter the roll"
            self.emit(ev.RollNeeded, side=side, reason=reason, rule="E1" if opening else "E2",
                      message=f"The camera sees the dice but cannot read them ({reason}): {who} "
                      "on the table's page.")
        return self._unread_roll is not None

    def _entered_roll(self, inp: PlayerInput) -> None:
        """Action.ROLL: the players enter the roll the camera could not read; it is judged as if
        read (E1, E2; the halves the dice lie in still void a roll, E3)."""
        unread = self._unread_roll
        a, b = divmod(inp.level, 10)
        if not (1 <= a <= 6 and 1 <= b <= 6):
            self.refuse(inp, "E2", "enter the roll as its two dice, 1 to 6 each: 53 for 5-3")
            return
        if self._doubted is not None and self.phase in (Phase.ROLLED, Phase.JUDGING):
            self._corrected_roll((a, b))
            return
        if self.question.answers() and self.question.entered((a, b)):
            return
        if not unread or self.phase not in (Phase.OPENING, Phase.AWAITING_ROLL):
            self.refuse(inp, "E2", "no unread roll lies on the board: the referee reads the dice itself")
            return
        opening = self.phase == Phase.OPENING
        dice = list(unread)
        if opening and self._played_before(dice):
            opening = False  # the opening was played unseen: this is the next player's roll
        if opening:
            # White's die is the one in White's half (E1); a die the camera did not find lies in the
            # other half (two dice seen in one half void the roll anyway)
            white_half = own_half(Side.WHITE, self.settings.light_is_white)
            black_half = own_half(Side.BLACK, self.settings.light_is_white)
            if len(dice) == 1:
                dice = list(entered_dice(dice, (0, 0), halves=(dice[0].half, black_half if dice[0].half == white_half
                                                           else white_half)))
            dice.sort(key=lambda d: d.half != white_half)
        self._watch.disarm()  # these dice are the roll now; a new throw rearms the watch
        entered = entered_dice(dice, (a, b))
        if opening:
            self.take_opening_roll(entered)
        else:
            self.take_roll(entered)

    def take_roll(self, dice: Sequence[DieReading]) -> None:
        """``dice`` lie still as a roll of the side on roll: void (E3, E4), or the turn starts (E2)."""
        self._unread_roll = None
        s = self.settings
        if self.phase is Phase.AWAITING_ROLL and not self._either_may_roll:
            self._played_before(dice)  # the roll of the other player: the turn before was played unseen
        side = self.position.turn
        if self._either_may_roll and len(dice) == 2:
            # after an adopted board the half the dice land in says who rolled
            kw = {"light_is_white": s.light_is_white, "die_on_checker_void": s.die_on_checker_void}
            if void_reason(dice, side, **kw) == "left_half" and not void_reason(dice, side.other, **kw):
                side = side.other
                self.position = self.position.with_turn(side)
        if len(dice) != 2:
            self.last_verdict = "reroll"
            self.emit(ev.RollVoid, side=side, reason="dice", rule="E4",
                      message=f"{side.title}: roll exactly two dice together, from the cup.")
            return
        reason = void_reason(dice, side, light_is_white=s.light_is_white, die_on_checker_void=s.die_on_checker_void)
        if reason:
            self.last_verdict = "reroll"
            self.emit(
                ev.RollVoid, side=side, reason=reason, rule="E3",
                message=f"{side.title}'s roll is void ({reason.replace('_', ' ')}): roll again.",
            )
            if self.phase is Phase.AWAITING_ROLL and roller_of(dice, s.light_is_white) is side.other:
                self._void_roll = tuple(dice)  # the other player's roll, if this side danced unseen
            return
        read = sorted(((d.value, d.value_confidence) for d in dice), reverse=True)
        values = [v for v, _ in read]
        self.start_turn((values[0], values[1]), opening=False, small=any(d.note == "entered" for d in dice),
                        sure=(read[0][1], read[1][1]), at=dice)
        self.last_verdict = f"{side.title} rolled {values[0]}-{values[1]}"
        self.emit(ev.RollAccepted, side=side, dice=self.dice, rule="E2", message=f"{side.title} rolled {values[0]}-{values[1]}.")
        self.after_roll_accepted()

    def start_turn(self, dice: tuple[int, int], *, opening: bool, small: bool = False,
                   sure: tuple[float, float] = (1.0, 1.0), at: Sequence[DieReading] = ()) -> None:
        """The turn of the side on roll starts with ``dice`` (phase ``rolled``). ``small``: dice too small
        to read; ``sure``: how sure vision was of each die; ``at``: the dice as they lay."""
        self._dice_conf, self._roll_dice = sure, tuple(at)
        self._dice_against = (False, False)
        self._lone_die = None  # a roll is taken: no lone die of the set-up waits for its pair
        self._doubted = None
        self._dice_gone = 0
        self._dice_flicker = False
        self._small_dice = small
        self.dice = dice
        self.before = self.position
        # a roll with a die the camera never read (one_die_call.py): the ends of every roll holding the other
        self.results = (ends_with(self.game, self.position, max(dice)) if UNREAD in dice
                        else self.game.ends(self.position, dice))
        self.phase = Phase.ROLLED
        self._opening_turn = opening
        # a roll taken late (entered, or read only once the play was made: bench_reallike games 0,
        # 48, 77) keeps the clear frames since the last hand when they show the board moved: they are
        # the board as played. Frames of the board as it was are dropped, as before: a play whose
        # hand the reader did not flag would be judged on them too until they leave the window
        moved = bool(self._frames) and self.against_known().gap >= self.settings.accept_margin
        kept = list(self._frames) if moved else []
        if self._frames and self._untouched:
            # no hand over the board since the last turn was committed: these are frames of the position
            # known, whatever they read. A spot read otherwise on every one of them is the reader's misread
            # on this board, as on the frames of an accepted play (real-like game 17: a 2-stack under a
            # broadcast band read as one checker and a phantom beside it, 0.80 and 0.86 on every frame
            # while the roll lay, summed over the frames after a pass into a sure move of the other side)
            self.learn_misread(EvidenceTable(self._frames, self._blind()), self.position)
        self.reset_view()
        self._frames.extend(kept)
        self._prem.rearm()
        self._premature = None
        self._pending_roll = None
        self.wrong_points = ()
        self._either_may_roll = False
        self._void_roll = None
        self._next_throw = False
        self._pointed_out = False
        self.question.drop()

    def after_roll_accepted(self) -> None:
        if not self.results:
            side = self.position.turn
            self.emit(
                ev.NoLegalMove, side=side, dice=self.dice, rule="E7",
                message=f"{side.title} cannot move: pick up the dice to pass.",
            )

    # the play (E5, E6) -----------------------------------------------------------------
    def _rolled(self, obs: Observation) -> None:
        s = self.settings
        side = self.position.turn
        other_half = own_half(side.other, s.light_is_white)
        small = self._small_dice
        # a play the opponent pointed out (E8) is final on the first clear frame without the roller's dice
        gone = DICE_GONE_FRAMES if small and not self._pointed_out else 1
        # the roller's dice were not seen for as long as a pick-up takes (the play not judged yet, for a
        # hand or motion): a die seen now where none of them lay is a new throw, whatever it reads
        were_gone = self._dice_gone >= gone
        if self._opening_turn:
            # the opening dice lie one in each half: two or more in the other player's half are
            # that player's next throw (dice too small to read look alike), not the roller's dice
            # still lying; no premature roll is judged at the opening turn
            other = [d for d in obs.dice if d.half == other_half]
            if len(other) < 2:
                # one die there that is no die of the opening roll (read surely, another value, lying
                # elsewhere: of_the_roll) is that player's throw too, its other die not found (real-like
                # game 145: taken for the opening dice still lying, the play was never judged)
                other = [d for d in other if not of_the_roll(d, self._roll_dice, s.die_confidence, gone=were_gone)]
            mine = [d for d in obs.dice if d.half != other_half] if other else list(obs.dice)
            theirs = []
            if other or (self._next_throw and not obs.dice):
                # the next player's throw lands while the play is still judged: the watch counts it now
                # (a frame without dice rearms it), so once the play stands that roll is taken, or asked
                # for, at once -- not two frames later, after the next play was made (real-like game 138)
                if not self._next_throw:
                    self._watch.rearm()  # a throw of the other player: counted from its first frame
                self._next_throw = True
                settled = self._watch.feed(other, need=2)
                if settled is not None:
                    self._pending_roll = settled
        else:
            mine = [d for d in obs.dice if d.half != other_half]
            theirs = [d for d in obs.dice if d.half == other_half]
        # not a die come since
        mine = [d for d in mine if of_the_roll(d, self._roll_dice, s.die_confidence, gone=were_gone)]
        if mine and not obs.hand and not obs.motion:
            if len(mine) < len(self._roll_dice):
                self._dice_flicker = True  # one of the dice lying not found on a clear frame: nobody takes one alone
            # the roll's dice read again where they lie: how surely each was read (roll_reread.py)
            self._dice_conf, self._dice_against = read_again(self._dice_conf, self._dice_against, self._roll_dice,
                                                             mine, s.die_confidence)
        self.collect(obs)
        if theirs and mine:
            if self._premature is None:
                early = self._prem.feed(theirs, need=2)
                if early is not None:
                    self._premature_roll(early)
                    if self.phase != Phase.ROLLED:
                        return
        elif not theirs:
            self._prem.rearm()
            if self._pending_roll is None:
                self._premature = None
        # dice too small to read: a new throw (every die seen moving: the next roll) also says the
        # roller's dice were picked up (at the opening turn every die counts as the roller's)
        throw = small and bool(obs.dice) and all(d.moving for d in obs.dice)
        self._dice_gone = self._dice_gone + 1 if (not mine or throw) else 0
        if (small and not mine and not obs.hand and not obs.motion and 0 < self._dice_gone < gone
                and self._accept_if_clear()):
            return  # one frame without the small dice and a clearly legal play: it stands (E5)
        if ((not mine or throw) and not obs.hand and (not obs.motion or throw) and self._dice_gone >= gone
                and not self._unsure_dice_lost()):
            # E5: the roller picked up the dice; the play is final. (Dice too small to read are not
            # found in every frame: one frame missing them is not a pick-up, DICE_GONE_FRAMES are.)
            self.judge_final_play(throw=throw, void_dice_lie=bool(
                theirs and self._premature is not None and self._pending_roll is None))

    def _unsure_dice_lost(self) -> bool:
        """Dice read without certainty (under ``illegal_confidence``) missing from fewer than
        DICE_GONE_FRAMES frames, over a board no checker has moved on: the camera may have lost them for
        a frame, nobody picked them up, so the unmoved board is not called yet (M5). Any other board is
        judged at once, as before: only this call waits a frame. (A 640 px recording's 4-4 read 4-1 at
        0.89 and 0.74 lost both dice on one frame and the unmoved board was called: ``bench_video.py
        --size 640 --seed 7 --turns 10 --from-play 4 --rolled --hold 15 --think 15``, game 2. Holding every
        play a frame, as for dice too small to read, called planted plays a frame late and lost plays
        over the 200 real-like games.) Dice read surely wait so too when the camera has lost one of them
        on a clear frame since the roll was taken (``_dice_flicker``): it does not find them on every frame.
        (A 640 px green table's 3-4, its 9-10 px dice read at 0.91, one of them missing on the two frames
        after the roll was taken and both on the third: the unmoved board was called; ``bench_video.py
        --size 640 --seed 11 --turns 10 --from-play 4 --rolled --hold 15 --think 15``, game 9.)"""
        # (dice too small to read, or a throw of them, are judged only after DICE_GONE_FRAMES already)
        if self._pointed_out or self._dice_gone >= DICE_GONE_FRAMES:
            return False
        if min(self._dice_conf) >= self.settings.illegal_confidence and not self._dice_flicker:
            return False
        v = self._verdict()
        return v.kind == "illegal" and v.result is not None and v.result.layout_key() == self.before.layout_key()

    def judge_after_late_roll(self) -> None:
        """A roll known only after its play was seen (entered by the players): the dice were picked up
        before (E5), so the play is judged: legal on the frames kept, it stands now; anything else is
        judged on the next clear frames, so a call is made on a board still standing once the roll is
        known (a hand putting it right meanwhile starts the frames again)."""
        self.phase = Phase.JUDGING
        self._throw_seen = False
        if self._verdict().kind == "legal":
            self._try_judge()

    def judge_final_play(self, *, throw: bool = False, void_dice_lie: bool = False) -> None:
        """E5: the roller's dice are picked up, so the play is final: judge it (on the frames kept).
        ``throw``: the next roll is being thrown already; ``void_dice_lie``: the void premature dice
        still lie there (no roll until a new throw)."""
        self.phase = Phase.JUDGING
        self._throw_seen = throw
        self._waited = 0
        self._asked = False
        self._watch_next_roll()
        if void_dice_lie:
            self._watch.disarm()
        self._try_judge()

    def _accept_if_clear(self) -> bool:
        """Dice too small to read missing from one frame (maybe picked up, maybe not found): a board
        that is clearly one legal end of the roll is accepted then (a play is never called illegal
        before the dice are surely gone, DICE_GONE_FRAMES). True when it was accepted."""
        v = self._verdict()
        if v.kind != "legal" or v.result is None:
            return False
        self._watch_next_roll()
        self.accept_play(v.result)
        return True

    def _watch_next_roll(self) -> None:
        """The roller's dice are picked up (E5): the watch looks for the next roll -- going on with the
        throw it already follows (``_next_throw``), else anew."""
        if not self._next_throw:
            self._watch.rearm()

    def _premature_roll(self, dice: tuple[DieReading, ...]) -> None:
        s = self.settings
        roller = self.position.turn
        early = roller.other
        values = sorted((d.value for d in dice), reverse=True)
        pair = (values[0], values[1])
        exception = len(self.results) <= 1 or (
            isinstance(self.before, Position) and bearing_off_no_contact(self.before))
        stands = exception or s.premature == "stands"
        self._premature = dice
        if not stands and s.premature == "victim_option":
            self.last_verdict = "premature roll"
            self.emit(
                ev.PrematureRoll, side=early, dice=pair, stands=False, pending=True, rule="E6",
                message=f"{early.title} rolled before {roller.title} picked up the dice: "
                f"{roller.title}, accept the roll or demand a reroll.",
            )
            return
        self.emit(
            ev.PrematureRoll, side=early, dice=pair, stands=stands, rule="E6",
            message=f"{early.title} rolled too early: the roll "
            + ("stands." if stands else f"is void; roll again after {roller.title} picks up the dice."),
        )
        if stands:
            self._premature_stands(dice)
        else:
            self.last_verdict = "reroll"
            self.emit(ev.RollVoid, side=early, reason="premature", rule="E6",
                      message=f"{early.title}'s roll is void (premature): roll again.")

    def _premature_stands(self, dice: tuple[DieReading, ...]) -> None:
        # the roller's play is final now; the early roll is processed once it is judged
        self._pending_roll = dice
        self.phase = Phase.JUDGING
        self._try_judge()

    def candidates(self) -> list[GamePosition]:
        """The boards the roll's play may leave: its legal ends (no legal move: the board before it)."""
        if not self.results:
            return [self.before]
        return [r.position for r in self.results]

    def _try_judge(self) -> None:
        frames = self._frames
        v = self._verdict()
        if v.kind == "legal" and v.result is not None:
            self._miscount = None  # read as it is: no miscount stands
            self.accept_play(v.result)
        elif (v.kind == "illegal" and v.result is not None and self._small_dice
              and v.result.layout_key() == self.before.layout_key()):
            # dice too small to read, and the board as before the roll: the camera lost the dice for
            # a moment, nobody picked them up; an unmoved board is called (M5) only on dice it follows
            self.ask_clear_view("no checker has moved yet", now=False)
        elif v.kind == "illegal" and v.result is not None:
            why = self.game.one_play_reason(self.before, v.result, self.dice2())
            if self._roll_in_doubt(v.result):
                pass  # another roll the dice could be allows it: asked for, or it stands as that roll
                # (also a board that is no one play of the roll read: two unsure dice read 2-1 where
                # 2-2 was thrown moved four checkers, real-like game 163 frame 37, lost out of sync)
            elif why:
                # not one play of the mover: the referee lost track of the board, nobody played illegally
                self.sync.lose(v.result, roll_seen=True, why=why)
            elif self._next_roll_seen():
                # E8: a play is called illegal only before the next roll; once the next roll is on the
                # board it stands as played. Judged only now (the evidence came late), the board is
                # one the referee did not follow: the players confirm it (or restore the last known one)
                self.sync.lose(v.result, roll_seen=True, why="the next roll came before the play was "
                               "settled (E8: it stands as played)")
            else:
                self._illegal(v.result)
        elif self._doubted is not None:
            return  # the players are asked for the roll: that question stands until they answer
        elif self._stands_by_next_roll(v.reading, len(frames)):
            assert v.reading is not None
            # a stack counted one off keeps being counted so: the next turns are judged knowing it
            self._miscount = self._one_checker_off(v.reading)
            self.accept_play(self.candidates()[v.reading.best], by_roll=True)
        else:
            self.ask_clear_view(v.reason, now=len(frames) >= self.settings.max_evidence_frames)

    def _verdict(self) -> Verdict:
        """The play judged on the frames kept (:func:`~tavli_pi.referee.verdict.judge_play`)."""
        return judge_play(self._frames, self.candidates(), self.settings, self.game, self.before, self.dice2(),
                          blind=self._blind(), misread=self.misread, next_roll_seen=self._next_roll_seen())

    def _next_roll_seen(self) -> bool:
        """While judging: the next roll lies on the board (read, or too small to read) or is being thrown."""
        return (self._pending_roll is not None or self._watch.unread is not None
                or self._throw_seen)

    def _stands_by_next_roll(self, r: Reading | None, frames: int) -> bool:
        """E8: once the next roll lies on the board, a play can no longer be called illegal; it
        stands as played. A play the evidence cannot settle then is taken as the best legal play
        when that is clearly ahead of every other (``accept_margin``) and the board is not far from
        it (under ``illegal_gap``: a board that far off is out of step, not a play). The referee
        never waits for a verdict the game has moved past. Once the next roll lies still (taken, or
        asked for), one clear frame is enough for a board read as that play all but exactly (under
        ``accept_gap``, as a legal verdict): the next player's hand may come on the next frame, and no
        clear frame of this play follows it (real-like game 103, a camera flagging motion on most
        frames: White's play read at margin 7.3, gap 0 on its one clear frame, judged on while Black
        threw and played, then lost out of step)."""
        s = self.settings
        if not (self._next_roll_seen() and r is not None and frames >= 1 and r.margin >= s.accept_margin):
            return False
        if frames < s.stable_frames:
            lies = self._pending_roll is not None or self._watch.unread is not None
            return lies and r.gap <= s.accept_gap
        return r.gap < s.illegal_gap or self._one_checker_off(r) is not None

    def _one_checker_off(self, r: Reading) -> Miscount | None:
        """:func:`~tavli_pi.referee.verdict.one_checker_off` of ``r`` against its best legal end."""
        return one_checker_off(r, self.candidates()[r.best], self.before, self.game, self.settings.light_is_white,
                               self._miscount)

    def _roll_in_doubt(self, observed: GamePosition) -> bool:
        """Before an illegal call (roll_doubt.py): True when a die was read without certainty and
        another roll it could be allows ``observed``; no call is made then. The players are asked to
        enter the roll (``roll_needed``, once) and the play is judged against it; once the next roll
        lies on the board, the play stands as a play of the likeliest such roll (E8)."""
        if len(self.dice) != 2:
            return False
        s = self.settings
        dice = self.dice2()
        rolls = plausible_rolls(dice, self._dice_conf, s.illegal_confidence)[1:]
        fits = rolls_allowing(self.game, self.before, observed, rolls) if rolls else []
        if not fits:
            return False
        side = self.before.turn
        read = "-".join(map(str, dice))
        if self._next_roll_seen():
            a, b = fits[0]
            self.dice = (a, b)
            self.results = self.game.ends(self.before, (a, b))
            self.accept_play(observed, by_roll=True, note=f"The dice were read {read} without certainty; the "
                             f"board is a play of {a}-{b}")
            return True
        key = observed.layout_key()
        if self._doubted != key:
            self._doubted = key
            self.last_verdict = "enter the roll"
            self.emit(ev.RollNeeded, side=side, rule="E2",
                      reason=f"the dice were read {read} without certainty, and the play fits {describe(fits)}",
                      message=f"The dice were read {read}, but not surely, and the play is not legal for "
                      f"{read}: {side.title}, enter your roll on the table's page.",
                      extra={"doubted": read, "fits": [f"{x}-{y}" for x, y in fits]})
        return True

    def _corrected_roll(self, values: tuple[int, int]) -> None:
        """The players entered the roll the referee doubted (:meth:`_roll_in_doubt`): the turn's
        play is judged against it (E2), from the frames already seen."""
        a, b = max(values), min(values)
        side = self.before.turn
        self._doubted = None
        self._dice_conf, self._dice_against = (1.0, 1.0), (False, False)
        self.dice = (a, b)
        self.results = self.game.ends(self.before, (a, b))
        self.last_verdict = f"{side.title} rolled {a}-{b}"
        self.emit(ev.RollAccepted, side=side, dice=self.dice, rule="E2",
                  message=f"{side.title} rolled {a}-{b} (entered by the players).", extra={"entered": True})
        self.after_roll_accepted()
        if self.phase is Phase.JUDGING:
            self._try_judge()

    def _play_text(self, after: GamePosition) -> str:
        for r in self.results:
            if r.position.layout_key() == after.layout_key():
                return r.moves
        return ""

    def learn_misread(self, table: EvidenceTable, known: GamePosition) -> None:
        """:attr:`misread` learnt again from ``table``'s frames of ``known``, a board that stands
        (:func:`~tavli_pi.referee.evidence.misread_spots`); kept through the match (the board and the
        camera stay) until the frames of a known board read the spot right."""
        self.misread = misread_spots(table, known, self.misread, self.settings.light_is_white, self.game)

    def accept_play(self, after: GamePosition, *, by_roll: bool = False, note: str = "",
                    unseen: tuple[tuple[int, int], ...] = (), seen: tuple[int, ...] = ()) -> None:
        """The play stands. ``by_roll``: the next roll let it stand (E8); ``note``: said with it;
        ``unseen``: the rolls it is legal for, when the referee never saw the roll (the event
        carries the first, and says the play was not checked: ``extra["unchecked"]``); ``seen``: the
        die values read surely of that roll (:mod:`tavli_pi.referee.roll_seen`)."""
        if self._frames:
            self.learn_misread(EvidenceTable(self._frames, self._blind()), after)
        if not unseen or self.setup.state.joined:
            # a play checked against its roll fitted the board taken; or, on a board joined in progress, a play
            # the board shows clearly as a legal play of some roll from it (its roll unseen): a checker the join
            # misread and the play did not move would show as a change no legal play makes
            self.board_unsure = False
            self.setup.state.joined = False  # the board joined is confirmed: no later unseen play confirms another
        side = self.before.turn
        dice = self.dice2()
        text = self._play_text(after) if self.results else ""
        self.last_verdict = "play accepted" if self.results else "no legal move: pass"
        over = self.commit(after)
        said = [note, self.game.mother_note(after) if isinstance(self.game, TavliRules) else ""]
        extra: dict[str, Any] = {}
        if by_roll:
            said.append("The next roll lets it stand (E8)")
            extra["stands_by_roll"] = True
        if unseen:
            # not checked: "legal for some roll" is no proof of "legal for theirs" (roll_seen.py)
            part = f" ({seen_text(seen)} was read)" if seen else ""
            said.append(f"Not checked: the roll was not seen{part}; the play is legal for {rolls_text(unseen)}")
            extra["roll_unseen"] = [f"{a}{b}" for a, b in unseen]
            extra["unchecked"] = "roll not seen"
            if seen:
                extra["roll_seen"] = list(seen)
            self.last_verdict = "play taken, not checked: roll not seen"
        note = ". ".join(x for x in said if x)
        self.emit(
            ev.PlayAccepted, side=side, dice=dice, play=text, before=self.before, after=after,
            rule="E5", message=f"{side.title} played {text or '(no move)'}." + (f" {note}." if note else ""),
            extra=extra,
        )
        self.finish_turn(over)

    def dice2(self) -> tuple[int, int]:
        """The roll as two dice; (0, 0) when there is none."""
        d = self.dice
        return (d[0], d[1]) if len(d) == 2 else (0, 0)

    def commit(self, after: GamePosition) -> bool:
        """The turn is over with ``after`` on the board: the state the event carries. True: the game is over."""
        self.reset_view()
        self._untouched = True  # the frames from now on are of ``after`` until a hand comes over the board
        self._observed = None
        self._doubted = None
        self._next_throw = False
        self._pointed_out = False
        self.wrong_points = ()
        if self.game.finished(after):
            self.position = after
            return True
        self.position = self.game.end_turn(after)
        self.dice = ()
        self.phase = Phase.AWAITING_ROLL
        return False

    def finish_turn(self, over: bool) -> None:
        """After a committed turn: the game ends (``over``), or a roll thrown meanwhile is taken."""
        if over:
            pos = self.position
            if self.tavli is not None:
                # V5, P6 (and T3 for a Portes game of the match): points from the position alone
                res = game_result(self.game.variant, pos, self.tavli_settings, self.tavli.settings)
                assert res is not None
                self.game_over(res.winner, res.points, res.reason)
                return
            assert isinstance(pos, Position)
            winner = game_winner(pos)
            assert winner is not None
            out = outcome_borne_off(pos, self.cube, settings=self.settings.rules, match=self.match)
            self.game_over(winner, out.points, out.value.name.lower())
            return
        pending = self._pending_roll
        self._pending_roll = None
        self._premature = None
        if pending is not None:
            self.take_roll(pending)
        elif self.phase is Phase.AWAITING_ROLL and self._watch.unread is not None:
            # the next roll lay unread while this play was judged: asked for now, before the next play
            self._ask_for_unread_roll(opening=False)

    def _illegal(self, observed: GamePosition) -> None:
        if self.board_unsure:
            # the board this play started from was taken unsurely (unattended), or joined in progress and
            # not yet confirmed by a play that fits it: no call rests on it (bench_video.py --from-play 6
            # --think 15: legal plays were called on boards taken so). Out of step instead: attended, the
            # players are asked to confirm the board; unattended, it is joined again from the board as it
            # stands (sync.py)
            joined = self.setup.state.joined
            self.sync.lose(observed, roll_seen=True, rejoin=joined,
                           why=("the board was joined in progress and no play has fitted it yet" if joined else
                                "the board was taken as it was left, though not read surely at every point")
                           + "; a play that does not fit it is not called")
            return
        side = self.before.turn
        dice = self.dice2()
        said = ""
        if UNREAD in dice:  # one die read, the other not (one_die_call.py): the nearest of any roll with it
            value = max(dice)
            nearest, wrong, roll = nearest_with(self.game, self.before, value, observed)
            said = (f"the camera read a {value} on one die and not the other; no roll with a {value} "
                    "allows this play: ")
        else:
            nearest, wrong = self.game.nearest(self.before, dice, observed)
            roll = dice
        self._observed = observed
        self.wrong_points = wrong
        self.last_verdict = "illegal play"
        pts = ", ".join("bar" if p == 0 else "tray" if p == 25 else str(p) for p in wrong)
        self.phase = Phase.ILLEGAL
        rule = self.game.broken_rule(self.before, observed, roll)
        self.emit(
            ev.IllegalPlay, side=side, dice=dice, before=self.before, observed=observed,
            wrong_points=wrong, nearest=nearest, rule=rule,
            message=f"Illegal play by {side.title} ({rule}): {said}check point(s) {pts}. Legal would be e.g. "
            f"{nearest[0]}. {side.other.title} may accept it or demand a legal play (E8).",
            extra={"die_unread": True} if said else {},
        )
        if self._pending_roll is not None:
            # E8: rolling accepts an illegal play.
            self.resolve_illegal(accepted=True)
            return
        if self.settings.illegal_policy == "legal-moves" or self._pointed_out:
            # (the opponent demanded a legal play before the call: that demand stands, E8)
            self._demand_correction()
        else:
            self.reset_view()
            self._watch.rearm()

    def _demand_correction(self) -> None:
        self.phase = Phase.CORRECTING
        self.reset_view()
        side = self.before.turn
        self.emit(ev.CorrectionDemanded, side=side, rule="E8",
                  message=f"{side.title}: play a legal move for {self._dice_text()}.")

    def _dice_text(self) -> str:
        """The roll as said: ``6-3``, or ``3-?`` with a die the camera did not read (one_die_call.py)."""
        return "-".join(str(d) if d != UNREAD else "?" for d in self.dice2())

    def resolve_illegal(self, *, accepted: bool, after: GamePosition | None = None) -> bool:
        """Settle the disputed play (E8); True when it ended the game."""
        side = self.before.turn
        if accepted:
            assert self._observed is not None
            end = self._observed
            text = ""
            self.last_verdict = "illegal play accepted"
        else:
            assert after is not None
            end = after
            text = self._play_text(after)
            self.last_verdict = "play corrected"
        extra: dict[str, Any] = {}
        said = ""
        if UNREAD in self.dice2():
            # one die read, the other never (one_die_call.py): a legal correction is legal for a roll
            # with the die read, and that roll is the turn's. A play let stand fits no such roll; a game
            # record needs two dice (a .mat line "30:" is no roll gnubg reads), so the turn is given the
            # roll with the die read whose legal plays come nearest the play, said so and flagged
            value = max(self.dice2())
            roll = None if accepted else fitting_roll(self.game, self.before, value, end)
            if roll is None:
                roll = nearest_with(self.game, self.before, value, end)[2]
                extra["die_guessed"] = True
                said = (f" The other die was not read: the record gives the turn {roll[0]}-{roll[1]}, the roll "
                        f"with a {value} whose legal plays come nearest it.")
            self.dice = roll
            extra["dice"] = list(roll)
        over = self.commit(end)
        self.emit(
            ev.IllegalPlayResolved, side=side, accepted=accepted, play=text, after=end, rule="E8",
            message=(f"{side.other.title} accepted the play as it stands." if accepted
                     else f"{side.title} corrected the play: {text}.") + said, extra=extra,
        )
        self.finish_turn(over)
        return over

    def _after_illegal(self, obs: Observation) -> None:
        if self.phase == Phase.ILLEGAL:
            # E8: the opponent rolling accepts the illegal play.
            dice = self._watch.feed(obs.dice, need=2)
            if dice is not None:
                self._pending_roll = dice
                self.resolve_illegal(accepted=True)
                return
        if not self.collect(obs):
            return
        v = self._verdict()
        if v.kind != "legal" and UNREAD not in self.dice2():
            # dice read without certainty: put right as a play of the roll really thrown?
            roll, v = put_right(self._frames, self.candidates(), self.before, self.dice2(), self._dice_conf,
                                self.settings, self.game, self._blind())
            if roll is not None:
                self.dice, self.results, self._dice_conf = roll, self.game.ends(self.before, roll), (1.0, 1.0)
                self._dice_against = (False, False)
        if v.kind == "legal" and v.result is not None:
            self.resolve_illegal(accepted=False, after=v.result)

    # -- out of sync: the board is not the position the referee knows (sync.py) ------------------
    def _watch_board(self, obs: Observation) -> None:
        """No roll accepted: a clear, stable, confident reading that differs from the known
        position means a roll (or a whole turn) went unseen, or checkers moved without a roll.

        Judged only once no die is seen: dice still lying may yet be read as the roll
        (a slow reading of the dice is not a lost board). Dice lying still in the other player's
        half are that player's roll: the play before it may be inferred then (:meth:`_played_before`),
        never the board lost.
        """
        s = self.settings
        if not self.collect(obs) or len(self._frames) < s.stable_frames:
            if len(self._frames) < s.stable_frames:
                self.setup.new_still_run()  # its board is read again once it settles
            return
        if self.setup.look_again(self._frames):
            return  # a game in progress, its join refused, read on a still board as one a game reaches
        if obs.dice:
            # (a die flagged tumbling on a frame without motion lies where it is all the same)
            self._played_before(obs.dice)
            return
        r = self.against_known()
        # a play seen without its roll must beat the board as it was by ``accept_margin``; no play
        # scores above the unconstrained reading, so under that gap none can (the usual still board)
        if s.infer_unseen_rolls and r.gap >= s.accept_margin and self._play_without_roll():
            return
        if (s.infer_unseen_rolls and self._void_roll is not None and r.gap >= s.illegal_gap and r.free is not None
                and r.stable_frames >= s.stable_frames and take_unseen_dance(self, r.free, self._void_roll)):
            return  # the side on roll danced unseen: the dice voided as theirs were the other side's roll
        if (s.infer_unseen_rolls and not s.attended and r.gap >= s.accept_margin and not self._either_may_roll
                and self.phase is Phase.AWAITING_ROLL and take_unseen_dance_and_play(self)):
            return  # unattended: the side on roll danced unseen and the other side has played (unread roll)
        if (r.gap >= s.illegal_gap and r.free is not None and r.min_confidence >= s.illegal_confidence
                and r.stable_frames >= s.stable_frames):
            self._void_roll = None  # the board is out of step now: those dice no longer explain it
            if self._one_die_call():
                return  # one die read surely, the other never: illegal whatever that one shows (E8)
            held = self._held_play() if s.infer_unseen_rolls else ""
            self.sync.lose(r.free, roll_seen=False, why=held or "the board changed without a roll the referee saw",
                           held=bool(held))
            if s.infer_unseen_rolls:
                self.sync.ask_roll_of_one_play()  # one play of the mover, no roll allowing it: its roll?
        elif (s.infer_unseen_rolls and self.question.asked is None and r.gap >= s.illegal_gap and r.free is not None
              and r.stable_frames >= s.stable_frames):
            # changed as clearly, but read too unsure to call the board lost: still one play of the side
            # on roll that no roll's legal play explains is asked about -- a question, not a call; with
            # the roll entered the play is judged as any (a call needs its usual evidence)
            self.question.ask_of_one_play(self.position, r.free, opening=self.phase == Phase.OPENING)

    def _played_before(self, dice: Sequence[DieReading]) -> bool:
        """``dice`` lie in one player's half while the referee waits for the other's roll (or, at the
        opening, both in one half; or, unattended after a game joined in progress, whose side on roll
        is a guess, in either half): they are that player's roll, so the turn before it was played
        unseen (unseen.py). When the board shows that play clearly (:meth:`_play_without_roll`, on
        the frames kept so far) it is accepted, the dice stay the next roll, and True is returned."""
        s = self.settings
        roller = roller_of(dice, s.light_is_white)
        if not s.infer_unseen_rolls or roller is None or len(self._frames) < s.stable_frames:
            return False
        # unattended, after an adopted board (a game joined in progress: nobody said whose turn it is)
        # the side on roll is a guess: dice in either player's half may follow the other's play, unseen
        # since the join (its roll lay on the board learnt and vanished with it)
        guessed = self._either_may_roll and not s.attended
        if self.phase is not Phase.OPENING and (self.phase is not Phase.AWAITING_ROLL
                                                or (roller is not self.position.turn.other and not guessed)):
            return False
        # as in _watch_board: no play can beat the board as it was when the board reads that close to it
        if self.against_known().gap < s.accept_margin:
            return False
        return self._play_without_roll(sides=(roller.other,), keep_dice=True)

    def against_known(self) -> Reading:
        """The frames kept, read against the position the referee knows."""
        s = self.settings
        return read(EvidenceTable(self._frames, self._blind(), self.misread), [self.position],
                    light_is_white=s.light_is_white, turn=self.position.turn, game=self.game, hints=(self.position,))

    def _play_without_roll(self, sides: tuple[Side, ...] = (), keep_dice: bool = False) -> bool:
        """No roll read, no die on the board: when the board is clearly one legal play of the side
        on roll for some roll (:mod:`tavli_pi.referee.unseen`), by the margins any play is accepted
        with and ahead of the board as it was, accept it; True when it was accepted. At the opening
        (or after an adopted board) either side may have rolled; the evidence must pick out one play
        of one side."""
        opening = self.phase == Phase.OPENING
        found = self.unseen_play(sides, opening=opening)
        if found is None:
            return False
        if not keep_dice and self.question.ask(*found, opening=opening):
            return True
        self.take_unseen_play(*found, opening=opening, keep_dice=keep_dice)
        return True

    def unseen_play(self, sides: tuple[Side, ...], *, opening: bool,
                    known: GamePosition | None = None) -> tuple[Side, UnseenPlay] | None:
        """The one legal play, of one of ``sides`` (none given: the side on roll, or either side at the
        opening or after an adopted board) for some roll, that the frames kept show clearly ahead of
        the board as the referee knows it (``known``; None: ``self.position``); None when none or more
        than one does."""
        s = self.settings
        known = self.position if known is None else known
        if not sides:
            sides = (Side.WHITE, Side.BLACK) if opening or self._either_may_roll else (known.turn,)
        # a backgammon (or Portes) opening roll is never a double (E1); in Plakoto and Fevga the
        # opening's winner rolls both dice for the first play (V3)
        rolls = OPENING_ROLLS if opening and not isinstance(self.game, TavliRules) else ROLLS
        # a die of this throw read surely: only the rolls holding it (roll_seen.py; the throw is the
        # one after the position the referee knows, so only then)
        narrow = known is self.position
        found: list[tuple[Side, UnseenPlay]] = []
        for side in sides:
            before = known.with_turn(side)
            seen = self._seen_of_roll(side, opening=opening) if narrow else ()
            plays = plays_for_any_roll(self.game, before, rolls_holding(seen, rolls) if seen else rolls)
            if not plays:
                continue
            # the board as it was is a candidate too: a play is taken only when it beats standing still
            v = judge_evidence(self._frames, [before, *(p.position for p in plays)], s, side, game=self.game,
                               known=before, blind=self._blind())
            if v.kind == "legal" and v.reading is not None and v.reading.best > 0:
                found.append((side, plays[v.reading.best - 1]))
        return found[0] if len(found) == 1 else None

    def _seen_of_roll(self, side: Side, *, opening: bool) -> tuple[int, ...]:
        """The die values read surely (``illegal_confidence``) of the unread throw asked for, when it
        is ``side``'s roll (:func:`~tavli_pi.referee.roll_seen.seen_of_roll`); () when nothing was. A
        Plakoto or Fevga opening's single dice are not the first play's roll (V3)."""
        if opening and isinstance(self.game, TavliRules):
            return ()
        return seen_of_roll(self._unread_roll, side, opening=opening, light_is_white=self.settings.light_is_white,
                            confidence=self.settings.illegal_confidence)

    def _held_play(self) -> str:
        """Why the board, read clearly as a legal play of the side on roll for some roll, was not taken
        as played: no roll holding the die read surely of the unread throw allows it (roll_seen.py).
        "" when that is not so (no die read, or no legal play of any roll shows)."""
        opening = self.phase == Phase.OPENING
        sides = (Side.WHITE, Side.BLACK) if opening or self._either_may_roll else (self.position.turn,)
        said = [(side, seen) for side in sides if (seen := self._seen_of_roll(side, opening=opening))]
        if len(said) != 1:
            return ""
        side, seen = said[0]
        unread, self._unread_roll = self._unread_roll, None  # judged as if nothing was read of the roll
        try:
            found = self.unseen_play((side,), opening=opening)
        finally:
            self._unread_roll = unread
        if found is None or rolls_holding(seen, found[1].rolls):
            return ""
        return (f"{side.title}'s play is legal only for {rolls_text(found[1].rolls)}, and the camera read "
                f"{seen_text(seen)} of the roll: not taken as played")

    def _one_die_call(self) -> bool:
        """Unattended, the board changed clearly with the roll unread but for one die read surely: when no
        value of the other die makes the board legal, the play is called (one_die_call.py) and True is
        returned; False (nothing done) otherwise. Never at the opening."""
        s = self.settings
        if s.attended or self.phase is not Phase.AWAITING_ROLL or self._either_may_roll:
            return False
        side = self.position.turn
        seen = self._seen_of_roll(side, opening=False)
        if len(seen) != 1:
            return False
        value = seen[0]
        v = judge_one_die(self._frames, self.game, self.position, value, s, blind=self._blind())
        if v is None or v.result is None:
            return False
        self.drop_unread_roll()
        self._watch.disarm()  # those dice were picked up: a new throw rearms the watch
        self.start_turn((value, UNREAD), opening=False, sure=(1.0, 0.0))
        self._illegal(v.result)
        return True

    def take_unseen_play(self, side: Side, play: UnseenPlay, *, opening: bool, keep_dice: bool) -> None:
        """Accept ``play`` of ``side``, made with a roll the referee did not see (:meth:`unseen_play`),
        as not checked (the roll unknown). ``keep_dice``: dice lying now are the next player's roll (the
        watch goes on counting them)."""
        roll = play.rolls[0]
        seen = self._seen_of_roll(side, opening=opening)
        self.drop_unread_roll()
        self.position = self.position.with_turn(side)
        if opening and not isinstance(self.game, TavliRules):
            white, black = (roll[0], roll[1]) if side is Side.WHITE else (roll[1], roll[0])
            self.emit(ev.OpeningRoll, white_die=white, black_die=black, winner=side, rule="E1",
                      message=f"{side.title} started; the opening roll was not seen ({rolls_text(play.rolls)} "
                      "by the play).", extra={"roll_unseen": True})
        self.start_turn(roll, opening=opening)
        if not keep_dice:
            # dice lying unseen until now are not the next roll: a frame without dice (or a throw)
            # rearms; with ``keep_dice`` they are the next player's roll and the watch goes on. Dice
            # not seen for as long as a pick-up takes (DICE_GONE_FRAMES, this frame too) were picked
            # up: the next dice seen are the next throw, counted from their first frame (a throw
            # landing on the frame after the one the play is taken on was never counted, the watch
            # waiting for a frame without dice that never came: recording 0 at 640 px lost a 2-1
            # read on four frames)
            if self._no_dice >= DICE_GONE_FRAMES:
                self._watch.rearm()
            else:
                self._watch.disarm()
        before = self.position
        self.accept_play(play.position, unseen=play.rolls, seen=seen)
        self._unseen_last = (before, self.position, side, opening)

    # -- game and match end (S1-S3) ---------------------------------------------------------
    def game_over(self, winner: Side | None, points: int, result: str) -> None:
        """The game ends (``game_over``; ``match_over`` when it ends the match too, S2); else the next
        game is set up (B3)."""
        if self.tavli is not None:
            self.tavli = self.tavli.after_game(winner, points)
            self.match = replace(self.match, score=self.tavli.score, games=self.match.games + 1)
        else:
            assert winner is not None
            self.match = self.match.after_game(winner, points)
        if self.clock is not None:
            self.clock.end_game(self._now)
        self.phase = Phase.GAME_OVER
        self.dice = ()
        rule, message = self._game_over_words(winner, points, result)
        self.last_verdict = "a draw" if winner is None else f"{winner.title} wins {points}"
        self.emit(
            ev.GameOver, winner=winner, points=points, result=result, score=self.match.score, rule=rule,
            message=message,
        )
        champion = self.match.is_over
        if champion is not None:
            self.phase = Phase.MATCH_OVER
            self.last_verdict = f"{champion.title} wins the match"
            self.emit(ev.MatchOver, winner=champion, score=self.match.score, rule="S2",
                      message=f"{champion.title} wins the match {self.match.score[0]}-{self.match.score[1]}.")
            return
        # the next game: set up again (B3); in a tavli match the next game of the rotation (T2)
        self.game_number += 1
        self.cube = CubeState()
        self.game = self._rules_now()
        starter = self._starter()
        self.position = self.game.start(starter or Side.WHITE)
        self.setup.new_game(self.position, Phase.OPENING if starter is None else Phase.AWAITING_ROLL,
                            announce=self.tavli is not None)
        self.offers.new_game()
        self._miscount = None
        self.reset_view()
        self.phase = Phase.SETUP

    def _game_over_words(self, winner: Side | None, points: int, result: str) -> tuple[str, str]:
        """The rule and message of a game's end (S1; V5, P6 in Plakoto and Fevga)."""
        if self.tavli is None:
            assert winner is not None
            return "S1", f"{winner.title} wins a {result} game: {points} point(s)."
        game = self.game.variant.value.capitalize()
        if winner is None:
            return "P6", f"Both mothers are pinned: the {game} game is a draw, 0 points each (P6)."
        if result == "mother":
            return "P6", (f"{winner.other.title}'s mother is pinned: {winner.title} wins the {game} game, "
                          f"{points} points (P6).")
        rule = "T3" if self.game.variant is Variant.PORTES else "V5"
        kind = "a mars" if result in ("mars", "gammon") else "a " + result
        return rule, (f"{winner.title} wins the {game} game with {kind}: {points} point(s) ({rule}); "
                      f"tavli score {self.match.score[0]}-{self.match.score[1]}.")

    # -- player inputs ------------------------------------------------------------------
    def _on_input(self, inp: PlayerInput) -> None:
        a = inp.action
        if a is Action.DOUBLE:
            self.offers.double(inp)
        elif a in (Action.TAKE, Action.PASS, Action.BEAVER):
            self.offers.answer_double(inp)
        elif a is Action.RESIGN:
            self.offers.resign(inp)
        elif a in (Action.ACCEPT_RESIGN, Action.REJECT_RESIGN):
            self.offers.answer_resign(inp)
        elif a in (Action.ACCEPT, Action.CORRECT):
            self._decide(inp)
        elif a is Action.PADDLE:
            self.timing.paddle(inp)
        elif a in (Action.PAUSE, Action.RESUME):
            self.timing.director(inp)
        elif a is Action.ROLL:
            self._entered_roll(inp)

    def _decide(self, inp: PlayerInput) -> None:
        if self.phase == Phase.SETUP and inp.action is Action.ACCEPT:
            self.setup.confirm(inp)
            return
        if self.phase == Phase.OUT_OF_SYNC:
            self.sync.confirm(inp)
            return
        if self.phase == Phase.ILLEGAL:
            victim = self.before.turn.other
            if inp.side not in (None, victim):
                self.refuse(inp, "E8", f"only {victim.title} decides about the illegal play")
                return
            if inp.action is Action.ACCEPT:
                self.resolve_illegal(accepted=True)
            else:
                self._demand_correction()
            return
        if self.phase == Phase.ROLLED and self._premature is not None and self._pending_roll is None \
                and self.settings.premature == "victim_option":
            victim = self.position.turn
            if inp.side not in (None, victim):
                self.refuse(inp, "E6", f"only {victim.title} decides about the premature roll")
                return
            early = victim.other
            if inp.action is Action.ACCEPT:
                self._premature_stands(self._premature)
            else:
                self.last_verdict = "reroll"
                self.emit(ev.RollVoid, side=early, reason="premature", rule="E6",
                          message=f"{early.title}'s roll is void (premature): roll again.")
            return
        if inp.action is Action.CORRECT and self.phase in (Phase.ROLLED, Phase.JUDGING):
            # E8: the opponent points out the play before the referee has judged it; it is judged as soon
            # as it is final, and the demand stands if it is called (a legal play is accepted as ever)
            victim = self.before.turn.other
            if inp.side not in (None, victim):
                self.refuse(inp, "E8", f"only {victim.title} may demand a legal play")
                return
            self._pointed_out = True
            return
        self.refuse(inp, "", f"nothing to {inp.action} now")

