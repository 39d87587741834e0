"""Set-up (B3): is the board set up to start? The referee's part that checks it, asks the players to
fix or confirm it, and learns this board's blind spots from the confirmed board.

While the referee is in phase ``setup``, every clear, still frame is read against the position the game
starts from (:attr:`SetupState.target`). Read as it (``accept_gap``): ``setup_checked`` ok, and the game
starts (``game_started``; the opening, or in a tavli match the last game's winner rolls both dice, V3).
Read confidently otherwise: ``setup_checked`` not ok, naming each point read otherwise, once a reading;
the players fix the board, or confirm it as it stands with ACCEPT -- set-up never deadlocks. The opening
roll thrown instead (two dice still, one in each half) answers so too (E1), and at an unattended table
(a recording) a board left clear and still for ``unattended_wait`` seconds is taken as set up.

A confirmed board the camera reads otherwise teaches where vision misreads this board: those spots
are its blind spots (the referee's ``blind``; the rules fill them in, ``EvidenceTable``), learnt from
the confirmed set-up frames, or from the next clear frames while the board still stands. A confirmed
board that is clearly a game in progress (``in_progress_spots`` points or more read confidently
otherwise) is carried on from instead (``board_adopted``, ``extra.in_progress``): the first roll's half
says whose turn it is.

Unattended (a recording: nobody confirms, the board is taken as it was left), a board some plays into a
game differs from the start at many spots, a few of them read unsurely on a board not learnt: there
``in_progress_spots`` of the differing spots read at :data:`IN_PROGRESS_SURE` or more make it a game in
progress, and an opening roll thrown into one half (no opening roll is, E1) on a board taken for the
start shows a game in progress too. A game joined so, or a start taken with blind spots, may be the
wrong board: until a play checked against its roll fits it, a play that does not is out of step, never
called illegal (the referee's ``board_unsure``).

:class:`SetupCheck` keeps its state in the plain :class:`SetupState` (a snapshot stores it; one written
before this part held it on the referee restores into it: :data:`MOVED`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from tavli_pi.referee import events as ev
from tavli_pi.referee.events import Phase
from tavli_pi.referee.evidence import EvidenceTable, Reading, reachable, read
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.snapshot import restore_slots
from tavli_pi.referee.unseen import roller_of
from tavli_pi.rules.position import Side

if TYPE_CHECKING:
    from tavli_pi.referee.clock import RefereeClock
    from tavli_pi.referee.dice import DiceWatch
    from tavli_pi.referee.game import GameRules
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.rules.match import MatchState
    from tavli_pi.rules.tavli_match import TavliMatch
    from tavli_pi.vision.observation import DieReading, Observation

__all__ = ["MOVED", "SetupCheck", "SetupReferee", "SetupState"]

#: the referee's attributes a snapshot written before this part held the set-up state has, by the
#: field of :class:`SetupState` each became
MOVED = {
    "_setup_target": "target", "_after_setup": "after", "_announce_game": "announce",
    "_setup_waited_s": "waited_s", "_reported": "reported", "_setup_wrong": "wrong",
    "_setup_saw_no_dice": "saw_no_dice", "_learn_blind": "learn_blind", "_blind_frames": "blind_frames",
}


#: unattended, how sure a spot read off the start must be to count towards ``in_progress_spots``
#: (:meth:`SetupCheck._moved_on`; vision's own test of a set-up frame, ``vision.setup.in_progress``,
#: asks the same of one frame)
IN_PROGRESS_SURE = 0.75


def _white_point(spot: int, light_is_white: bool) -> int:
    return spot + 1 if light_is_white else 24 - spot


@dataclass(slots=True)
class SetupState:
    """The set-up of the game being set up (plain values: a snapshot can store them)."""

    target: GamePosition  # the position the game starts from
    after: Phase  # the phase once set up: the opening, or awaiting the starter's roll (V3)
    announce: bool  # a tavli game announces itself (game_started) once set up, its starter known
    waited_s: float = 0.0  # seconds an unattended set-up board was left as it is (B3)
    reported: set[tuple[Any, ...]] = field(default_factory=set)  # the readings said wrong already
    wrong: bool = False  # a wrong set-up was reported and is not yet right (``TableState.setup_wrong``)
    saw_no_dice: bool = False  # a set-up frame showed no dice (dice lying after it were thrown)
    learn_blind: bool = False  # confirmed before any clear frame: learn ``blind`` from the next ones
    blind_frames: list[Observation] = field(default_factory=list)
    #: the board taken was joined in progress (``board_adopted``, ``extra.in_progress``) and no play has fitted it
    #: yet: a play checked against its roll, or one it shows as a legal play of some roll, confirms it (the
    #: referee's ``board_unsure`` and this both cleared then)
    joined: bool = False
    #: a game in progress was read, but as no board a game reaches (a join refused): the referee keeps
    #: looking on later still frames (:meth:`SetupCheck.look_again`); the times the players were asked
    refused: bool = False
    asked_again: int = 0
    looked: int = 0  # after a join refused: the frames of the still run read again last (0: none yet)

    def __setstate__(self, state: object) -> None:
        """Restore a snapshot: a state from an older tavli-pi may lack the fields added since (their defaults)."""
        restore_slots(self, state, joined=False, refused=False, asked_again=0, looked=0)


class SetupReferee(Protocol):
    """What the set-up check uses of its referee (:class:`~tavli_pi.referee.referee.Referee`)."""

    phase: Phase
    last_verdict: str
    blind: tuple[int, ...]
    misread: tuple[int, ...]
    board_unsure: bool

    @property
    def settings(self) -> RefereeSettings: ...
    @property
    def game(self) -> GameRules: ...
    @property
    def position(self) -> GamePosition: ...
    @property
    def clock(self) -> RefereeClock | None: ...
    @property
    def match(self) -> MatchState: ...
    @property
    def tavli(self) -> TavliMatch | None: ...
    @property
    def game_number(self) -> int: ...
    @property
    def now(self) -> float: ...
    @property
    def frame_dt(self) -> float: ...
    @property
    def frames(self) -> list[Observation]: ...
    @property
    def dice_watch(self) -> DiceWatch: ...
    def emit(self, cls: type[ev.Event], **kw: Any) -> None: ...
    def collect(self, obs: Observation) -> bool: ...
    def keep_clear(self, frames: list[Observation], obs: Observation) -> bool: ...
    def reset_view(self) -> None: ...
    def learn_misread(self, table: EvidenceTable, known: GamePosition) -> None: ...
    def ask_clear_view(self, reason: str, *, now: bool = False) -> None: ...
    def carry_on_from(self, after: GamePosition, known: GamePosition, verdict: str, message: str,
                      extra: dict[str, Any] | None = None) -> None: ...
    def take_opening_roll(self, dice: Sequence[DieReading]) -> None: ...
    def take_roll(self, dice: Sequence[DieReading]) -> None: ...
    def set_lone_die(self, die: DieReading | None) -> None: ...


class SetupCheck:
    """The referee's set-up check (phase ``setup``, B3); see the module doc."""

    def __init__(self, ref: SetupReferee, state: SetupState) -> None:
        self.ref = ref
        self.state = state

    def new_game(self, target: GamePosition, after: Phase, *, announce: bool) -> None:
        """The next game is to be set up, from ``target``."""
        st = self.state
        st.target, st.after, st.announce = target, after, announce
        st.reported.clear()
        st.joined = st.refused = False
        st.asked_again = st.looked = 0
        self.ref.board_unsure = False

    def watch(self, obs: Observation) -> None:
        """A frame in phase ``setup``."""
        ref, st = self.ref, self.state
        if st.wrong and st.after == Phase.OPENING and self._opening_thrown(obs):
            return
        if not obs.dice:
            st.saw_no_dice = True
        clear = ref.collect(obs)
        s = ref.settings
        if not clear:
            st.waited_s = 0.0  # somebody is at the board
        if not clear or len(ref.frames) < s.settle_frames:
            return  # hands are normal while the players set up
        target = st.target
        table = EvidenceTable(ref.frames, ref.blind, ref.misread)
        r = read(table, [target], light_is_white=s.light_is_white, turn=target.turn, game=ref.game)
        if r.gap <= s.accept_gap:
            ref.learn_misread(table, target)
            lying, lone = self._lying_from_before(obs), self._lone_throw(obs)
            self._done("The checkers are set up correctly.", dice=lying)
            ref.set_lone_die(lone if lying else None)
            return
        if r.min_confidence >= s.illegal_confidence:
            # a confident reading that is not the start (a position or not: a misread colour may
            # make 20 dark checkers): fix the board, or confirm it is set up (never a deadlock)
            key = ("setup", r.free_light, r.free_dark)
            if key not in st.reported:
                st.reported.add(key)
                self.ask(self._describe(r, target))
        else:
            ref.ask_clear_view("the checker counts cannot be read; if the board is set up to start (B3), "
                               "press ACCEPT to confirm it")
        if not s.attended:
            self._unanswered()

    def _lying_from_before(self, obs: Observation) -> bool:
        """Whether the dice on the frame that shows the board set up lay there from before (they are
        no roll). Two dice, one in each half, that came after a set-up frame without dice are the
        opening roll (E1), thrown as the board was read set up for the first time: the watch counts
        them. Dice that lay all through set-up, or both in one half (a game's last roll), do not."""
        if not obs.dice:
            return False
        thrown = (self.state.after == Phase.OPENING and self.state.saw_no_dice
                  and len(obs.dice) == 2 and {d.half for d in obs.dice} == {"left", "right"})
        return not thrown

    def _lone_throw(self, obs: Observation) -> DieReading | None:
        """The one die on the frame that shows the board set up, when it came after a set-up frame
        without dice, lying still in a half: maybe one of the opening dice, its pair not found on that
        frame (small dice are not found on every frame). Not a roll yet: the referee counts the throw
        once both dice lie one in each half, that die still where it lay (``Referee.set_lone_die``)."""
        if self.state.after != Phase.OPENING or not self.state.saw_no_dice or len(obs.dice) != 1:
            return None
        d = obs.dice[0]
        return d if d.half in ("left", "right") and not d.moving else None

    def _unanswered(self) -> None:
        """An unattended table (a recorded video): nobody answers the set-up question; a board left
        as it is, clear and still, for ``unattended_wait`` seconds is taken as set up (B3)."""
        st = self.state
        st.waited_s = st.waited_s + self.ref.frame_dt
        if self.ref.settings.waited(st.waited_s):
            st.waited_s = 0.0
            self.confirm(PlayerInput(Action.ACCEPT, None, source="unattended"))

    def ask(self, problems: Sequence[str]) -> None:
        """Say where the set-up board is read to differ from the start (B3), and ask the players to fix it
        or confirm it with ACCEPT (set-up never deadlocks: :meth:`confirm`)."""
        ref = self.ref
        ref.last_verdict = "set up the checkers"
        if not self.state.wrong:
            ref.dice_watch.disarm()  # an opening roll thrown from now on answers it (dice lying now do not)
        self.state.wrong = True
        ref.emit(
            ev.SetupChecked, ok=False, problems=tuple(problems), rule="B3",
            message="Set up the checkers: " + "; ".join(problems)
            + ". If the board is set up to start, press ACCEPT to confirm it.",
        )

    def _opening_thrown(self, obs: Observation) -> bool:
        """Asked to fix or confirm the set-up board, the players threw the opening roll instead
        (two dice lying still, one in each half, read or too small to read): they take the board as
        set up, as if they had pressed ACCEPT, and the dice are the opening roll (E1). True when it
        was taken so."""
        watch = self.ref.dice_watch
        dice = watch.feed(obs.dice, need=2)
        unread = watch.unread  # dice too small to read: still a throw (the players enter it, E1)
        thrown = dice if dice is not None else unread
        if thrown is None or len(thrown) != 2 or {d.half for d in thrown} != {"left", "right"}:
            return False
        self.confirm(PlayerInput(Action.ACCEPT, None, source="dice"))
        if dice is None:
            return True  # the opening phase asks for the roll it cannot read (or knows it by the play)
        watch.disarm()  # these dice are the opening roll: the next throw rearms the watch
        self.ref.take_opening_roll(dice)
        return True

    def confirm(self, inp: PlayerInput) -> None:
        """ACCEPT at set-up: the players confirm the board is set up to start (B3) when vision
        reads it otherwise; the referee goes on from the start position. The spots where vision
        read the confirmed board otherwise are this board's blind spots (the referee's ``blind``),
        learnt from the clear set-up frames, or from the next clear frames while the board still
        stands. An input from ``source="dice"`` is the opening roll thrown instead of an answer."""
        st = self.state
        target = st.target
        frames = [o for o in self.ref.frames if not (o.hand or o.motion)]
        if self._asked_again(inp, frames):
            return
        said = {"dice": "The opening roll was thrown: the players take the board as set up (B3).",
                "unattended": "Nobody answered (an unattended table): the board is taken as set up (B3)."
                }.get(inp.source, "The players confirmed the set-up (B3).")
        self._done(said, dice=False, confirmed=True)
        if frames:
            self._learn_blind_spots(frames, target)
        else:
            st.learn_blind, st.blind_frames = True, []

    def _learn_blind_spots(self, frames: Sequence[Observation], target: GamePosition) -> None:
        ref = self.ref
        s = ref.settings
        table = EvidenceTable(frames)
        r = read(table, [target], light_is_white=s.light_is_white, turn=target.turn, game=ref.game)
        self.state.learn_blind, self.state.blind_frames = False, []
        # a board no game in progress reaches (a side with all fifteen borne off, or a checker borne off
        # while its side has others outside its home board) is a misread, not a game to carry on from
        # surely: unattended, read again as one a game reaches
        sure = len(r.differing) >= s.in_progress_spots and r.min_confidence >= s.illegal_confidence
        if r.free is not None and sure and reachable(r.free_light, r.free_dark, ref.game):
            self._join_in_progress(r.free, len(r.differing), target, lying=frames[-1].dice)
            return
        if not s.attended:
            found = self._moved_on(table, target)
            if found is not None:
                self._join_in_progress(*found, target, unsure=True, lying=frames[-1].dice)
                return
        # a game in progress read as no board a game reaches: the join is refused, but the board is no start
        # either (``bench_video.py --from-play 6 --size 640``, game 5: taken for a start with ten blind spots,
        # the referee followed nothing for the rest of the clip). The referee keeps looking (:meth:`look_again`);
        # at an attended table the players were asked once more first (:meth:`_asked_again`)
        refused = self._refused(table, r, target)
        ref.blind = r.differing
        self.state.refused = refused
        # unattended, a start read otherwise may be no start at all (a game in progress read too badly
        # to tell): no call rests on it until a checked play fits it; nor on a refused join's
        ref.board_unsure = (not s.attended and bool(r.differing)) or refused
        if refused:
            ref.ask_clear_view("the board is a game in progress the camera reads as no board a game reaches; the "
                               "referee follows it once it reads it clearly on a still board", now=True)

    def _refused(self, table: EvidenceTable, r: Reading, target: GamePosition) -> bool:
        """Whether ``r`` (``table``'s frames read against the start ``target``) is a game in progress read as no
        board a game reaches: ``in_progress_spots`` of the spots it differs at read at :data:`IN_PROGRESS_SURE`
        or more (as :meth:`_moved_on` asks), the whole reading no position (a checker missed or counted twice)
        or none a game reaches (:func:`reachable`)."""
        s = self.ref.settings
        if len(r.differing) < s.in_progress_spots or (r.free is not None and reachable(r.free_light, r.free_dark,
                                                                                         self.ref.game)):
            return False
        sure = table.posterior(np.asarray(r.free_light), np.asarray(r.free_dark))[list(r.differing)]
        return int((sure >= IN_PROGRESS_SURE).sum()) >= s.in_progress_spots

    def _asked_again(self, inp: PlayerInput, frames: Sequence[Observation]) -> bool:
        """Attended, the players confirmed (ACCEPT) a board read as a game in progress that is no board a game
        reaches: the set-up question is asked once more -- fix the board (a checker out of place or half on
        a point, a hand in the view) or confirm it again (B3). Their second ACCEPT goes on (set-up never
        deadlocks): the referee then follows nothing it cannot read and keeps looking
        (:meth:`look_again`). True when asked."""
        ref, st = self.ref, self.state
        s = ref.settings
        if not s.attended or inp.source in ("unattended", "dice") or st.asked_again or len(frames) < s.settle_frames:
            return False
        target = st.target
        table = EvidenceTable(frames)
        r = read(table, [target], light_is_white=s.light_is_white, turn=target.turn, game=ref.game)
        if not self._refused(table, r, target):
            return False
        st.asked_again += 1
        st.reported.clear()
        self.ask(("the board reads as a game in progress, but as no position a game reaches (a checker misread): "
                  "fix it, or press ACCEPT again",) + self._describe(r, target))
        return True

    def new_still_run(self) -> None:
        """A new still run began (the referee's frames restarted after a hand or a changed reading): a join
        refused is read again on it once it settles (:meth:`look_again`)."""
        self.state.looked = 0

    def look_again(self, frames: Sequence[Observation]) -> bool:
        """After a join refused (``refused``): ``frames``, the clear frames of a still board, read again; a
        game in progress read there as a board a game reaches (:meth:`_moved_on`, at any table) is joined,
        unsure (no call rests on it until a play checked against its roll fits it), and the log says it was
        joined late. Read on a still run's first settled frames and once more when its frames are all kept
        (``max_evidence_frames``), not on every frame; the referee starts ``looked`` again with each still
        run (:meth:`new_still_run`). True when joined."""
        ref, st = self.ref, self.state
        s = ref.settings
        kept = len(frames)
        if (not st.refused or kept <= st.looked or kept not in (s.stable_frames, s.max_evidence_frames)
                or ref.position.layout_key() != st.target.layout_key()):
            return False
        st.looked = kept
        found = self._moved_on(EvidenceTable(frames), st.target)
        if found is None:
            return False
        st.refused = False
        ref.blind = ()
        self._join_in_progress(*found, st.target, unsure=True, lying=frames[-1].dice, late=True)
        return True

    def _moved_on(self, table: EvidenceTable, target: GamePosition) -> tuple[GamePosition, int] | None:
        """Unattended (nobody confirmed the board: it was left as it is): the whole position ``table``'s
        frames read (one or two checkers missed put back where likeliest, ``read(conserve=True)``) and the
        spots it differs from the start at, when ``in_progress_spots`` of those are read at
        :data:`IN_PROGRESS_SURE` or more, however unsure the others; else None. A misread start differs
        at a few spots; a game some plays on differs at many, a few of them read unsurely
        (``bench_video.py --from-play 6``, real-like recordings that start after the 6th play: 9-10 spots
        off the start, 6 read at 0.82-0.96, one dark checker not found, were learnt as a misread
        start's blind spots and every roll after was voided as an opening roll in one half). Read as a board
        a game reaches (``read(playable=True)``): no checker in a side's trays while it reads others outside
        its home board (``--seed 7 --from-play 4``, game 12: the 15th dark checker, read light on a point,
        was read in the tray, an empty tray's weak evidence, and joined as borne off)."""
        s = self.ref.settings
        r = read(table, [target], light_is_white=s.light_is_white, turn=target.turn, game=self.ref.game,
                 conserve=True, playable=True)
        if r.free is None or len(r.differing) < s.in_progress_spots or not reachable(r.free_light, r.free_dark,
                                                                                     self.ref.game):
            return None
        sure = table.posterior(np.asarray(r.free_light), np.asarray(r.free_dark))[list(r.differing)]
        if int((sure >= IN_PROGRESS_SURE).sum()) < s.in_progress_spots:
            return None
        return r.free, len(r.differing)

    def joined_by_roll(self, dice: Sequence[DieReading]) -> bool:
        """An opening roll lying in one half (void, E1) at an unattended table whose set-up board was
        taken as the start though read otherwise (its blind spots learnt): nobody throws the opening
        so, so when the clear frames kept show a game in progress (:meth:`_moved_on`), the game is
        joined there (``board_adopted``) and the dice are the roll of the half's player (E3). True when
        so."""
        ref = self.ref
        if ref.settings.attended or not ref.blind:
            return False
        frames = [o for o in ref.frames if not (o.hand or o.motion)]
        if len(frames) < ref.settings.settle_frames:
            return False
        found = self._moved_on(EvidenceTable(frames), self.state.target)
        if found is None:
            return False
        ref.blind = ()
        self._join_in_progress(*found, self.state.target, unsure=True)
        ref.take_roll(dice)
        return True

    def _join_in_progress(self, board: GamePosition, spots: int, start: GamePosition, *,
                          unsure: bool = False, lying: Sequence[DieReading] = (), late: bool = False) -> None:
        """The confirmed set-up board is clearly a position of a game in progress, not a misread start:
        the referee was started mid-game. It carries on from that board (the log keeps it; the match
        formats cannot express a game that did not start at B3), and the first roll's half says who
        rolled (E3), as after an adopted board. ``unsure``: joined unattended from a board not read
        surely at every spot (the referee's ``board_unsure``). ``lying``: the dice on the last clear frame
        of the board joined; lying still, all in one half, they are the roll in play, thrown by that half's
        player (E3), who is on roll in the board joined (else the start's side: the first roll says).

        Whether read surely or not, a board joined so is confirmed by nothing (the players' ACCEPT says the
        board is as they left it, not that the camera read it right): the referee's ``board_unsure`` until a
        play checked against its roll fits it -- a first play that does not fit it is out of step, never
        called (``bench_video.py --seed 8 --from-play 4``, game 13: one dark checker read two points off,
        surely; the first play, a legal 4-4, was called illegal against it). ``late``: joined after a join
        refused (:meth:`look_again`)."""
        ref = self.ref
        still = [d for d in lying if not d.moving]
        roller = roller_of(still, ref.settings.light_is_white) if still and len(still) == len(lying) else None
        ref.reset_view()
        first = "Read again on a still board, a game in progress" if late else "A game in progress"
        extra: dict[str, Any] = {"in_progress": True, "unsure": bool(unsure)}
        if late:
            extra["late"] = True
        ref.carry_on_from(board.with_turn(roller or start.turn), start, "game in progress",
                          f"{first}: the board is clearly not the start (it differs at {spots} "
                          "points). The referee carries on from it; the first roll's half of the board says "
                          "whose turn it is. No play is called against it until one fits it.", extra=extra)
        self.state.joined, self.state.refused = True, False
        ref.board_unsure = True

    def watch_blind(self, obs: Observation) -> None:
        """After a set-up confirmed before any clear frame: the first clear frames of the still
        set-up board give the blind spots (the board is the start until the opening play)."""
        ref, st = self.ref, self.state
        if not st.learn_blind:
            return
        if ref.phase not in (Phase.OPENING, Phase.AWAITING_ROLL) \
                or ref.position.layout_key() != st.target.layout_key():
            st.learn_blind, st.blind_frames = False, []  # the board moved on: nothing to learn from
            return
        # kept as a play's frames are (keep_clear): a die thrown or a shadow between two clear frames is
        # no reason to start again; a hand is, and so is a board that reads confidently otherwise
        if not ref.keep_clear(st.blind_frames, obs):
            return
        if len(st.blind_frames) >= ref.settings.settle_frames:
            self._learn_blind_spots(st.blind_frames, st.target)

    def _done(self, message: str, *, dice: bool, confirmed: bool = False) -> None:
        ref, st = self.ref, self.state
        st.wrong = False
        st.saw_no_dice = False
        ref.emit(ev.SetupChecked, ok=True, message=message, rule="B3",
                 extra={"confirmed": True} if confirmed else {})
        ref.reset_view()
        ref.phase = st.after
        if ref.clock is not None:
            ref.clock.new_game(ref.match.score, ref.now)
        if ref.phase == Phase.OPENING or st.announce:
            st.announce = False
            ref.emit(
                ev.GameStarted, game_number=ref.game_number, score=ref.match.score,
                crawford=ref.match.crawford_game, rule="T2" if ref.tavli is not None else "",
                message=self._game_title(),
            )
        if dice:
            ref.dice_watch.disarm()  # dice lying from before do not count as a roll
        else:
            ref.dice_watch.rearm()

    def _game_title(self) -> str:
        ref = self.ref
        if ref.tavli is None:
            return f"Game {ref.game_number}" + (" (Crawford game)" if ref.match.crawford_game else "")
        starter = ref.tavli.starter
        first = f"; {starter.title} won the last game and starts by rolling both dice (V3)" if starter is not None else ""
        return (f"Game {ref.game_number} of the tavli match to {ref.match.length}: "
                f"{ref.game.variant.value.capitalize()}{first}")

    def _describe(self, r: Reading, target: GamePosition) -> tuple[str, ...]:
        ref = self.ref
        light_is_white = ref.settings.light_is_white
        tl, td = ref.game.spot_counts(target, light_is_white)
        light = Side.WHITE if light_is_white else Side.BLACK
        out: list[str] = []
        for i in r.differing:
            where = "the bar" if i == 24 else "the trays" if i == 25 else f"point {_white_point(i, light_is_white)}"
            for colour, side, seen, want in (
                ("light", light, r.free_light[i], int(tl[i])),
                ("dark", light.other, r.free_dark[i], int(td[i])),
            ):
                if seen != want:
                    out.append(f"{where}: {seen} {side.title} ({colour}) checkers, should be {want}")
        return tuple(out)
