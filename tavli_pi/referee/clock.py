"""The referee's side of the match clock: why it is paused, and when it resets.

:class:`~tavli_pi.referee.match_clock.MatchClock` keeps the time (reserve plus a
simple delay, flags). :class:`RefereeClock` adds what only the referee knows:

- *holds*: the reasons the clock stands still. ``director`` (a PAUSE input),
  ``dispute`` (an illegal play awaits a decision or a correction, E8),
  ``clear_view`` (the referee asked for a clear view of the board), ``board``
  (the board is out of step with the referee: restore or confirm it) and
  ``overtime`` (a first flag under the USBGF overtime option waits for the
  director). The clock runs again only when the last hold is released.
- *games*: at the end of a game both clocks stop (U.S. Backgammon Clock Rules,
  March 2013, §5: the clocks are stopped between games, and at the start of
  the next game no clock runs until the loser of the opening roll presses,
  §3.3, http://www.bkgm.com/tournaments/US-Backgammon-Clock-2013.html). The
  reserve is for the whole match (§2.1: 2 minutes per match point, less 1
  minute per point already scored, which is how a clock introduced at a score
  or after a restart is set). ``reset_each_game=True`` recomputes the reserve
  from the score at every game instead, for clubs that play it that way.

Pure: time is the ``now`` argument of every call. :class:`ClockKeeper` is the
referee's part that runs it: the paddles, the director's pause, holds while a
dispute or the board needs attention, and flags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from tavli_pi.referee import events as ev
from tavli_pi.referee.events import IN_GAME, Phase
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.match_clock import ClockSettings, Flag, MatchClock, Timeout
from tavli_pi.rules.position import Side

if TYPE_CHECKING:
    from tavli_pi.referee.offers import Offers
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.rules.match import MatchState

__all__ = ["RefereeClock", "ClockKeeper", "ClockReferee", "HOLDS", "format_seconds"]

#: every reason the referee may hold the clock
HOLDS = ("director", "dispute", "clear_view", "overtime")


def format_seconds(seconds: float) -> str:
    """``m:ss`` as a clock shows it (rounded up: 0:00 only when the time is gone)."""
    whole = int(-(-max(0.0, seconds) // 1))
    return f"{whole // 60}:{whole % 60:02d}"


class RefereeClock:
    """A MatchClock with pause reasons and per-game handling (see the module doc)."""

    def __init__(
        self,
        settings: ClockSettings,
        match_length: int,
        score: tuple[int, int] = (0, 0),
        *,
        reset_each_game: bool = False,
    ) -> None:
        self.settings = settings
        self.match_length = match_length
        self.reset_each_game = reset_each_game
        self.clock = MatchClock(settings, match_length, score)
        self.holds: set[str] = set()

    # -- queries -------------------------------------------------------------------
    @property
    def running(self) -> Side | None:
        return self.clock.running

    @property
    def paused(self) -> bool:
        return self.clock.paused

    def remaining(self, now: float) -> tuple[float, float]:
        return self.clock.remaining(now)

    def flagged(self, now: float) -> Flag | None:
        return self.clock.flagged(now)

    def poll(self, now: float) -> Flag | None:
        """A flag that fell on or before ``now``, reported once. An overtime flag holds the clock."""
        flag = self.clock.poll(now)
        if flag is not None and flag.timeout is Timeout.OVERTIME:
            self.holds.add("overtime")
        return flag

    # -- actions ---------------------------------------------------------------------
    def press(self, side: Side, now: float) -> bool:
        """``side`` presses; False (nothing happens) while held, flagged, or not ``side``'s clock."""
        if self.holds:
            return False
        return self.clock.press(side, now)

    def hold(self, reason: str, now: float) -> bool:
        """Add a reason to stand still. True when this stopped a running clock."""
        was = self.clock.paused
        self.holds.add(reason)
        self.clock.pause(now)
        return self.clock.paused and not was

    def release(self, reason: str, now: float) -> bool:
        """Drop a reason. True when this restarted the clock (no reason left)."""
        if reason not in self.holds:
            return False
        self.holds.discard(reason)
        if self.holds:
            return False
        was = self.clock.paused
        self.clock.resume(now)
        return was and not self.clock.paused

    def end_game(self, now: float) -> None:
        """Both clocks stop; disputes and pauses end with the game."""
        self.clock.stop(now)
        self.holds.clear()

    def new_game(self, score: tuple[int, int], now: float) -> None:
        """A game starts: no clock runs; with ``reset_each_game`` the reserves are recomputed."""
        self.clock.stop(now)
        self.holds.discard("dispute")
        self.holds.discard("clear_view")
        self.holds.discard("board")
        if self.reset_each_game:
            self.clock = MatchClock(self.settings, self.match_length, score)

    def restore(self, remaining: tuple[float, float], now: float) -> None:
        """Set both reserves, e.g. to the last logged reading after a restart."""
        for side in Side:
            self.clock.set_remaining(side, remaining[side], now)


_CLOCKED = (*IN_GAME, Phase.CUBE, Phase.RESIGN)  # phases in which a clock may run
_HOLD_NAMES = {"director": "the director", "dispute": "a dispute", "clear_view": "a clear view of the board",
               "overtime": "the director (overtime)", "board": "the board to be restored or confirmed"}


class ClockReferee(Protocol):
    """What the clock keeper uses of its referee (:class:`~tavli_pi.referee.referee.Referee`)."""

    phase: Phase
    dice: tuple[int, int] | tuple[()]
    wrong_points: tuple[int, ...]
    last_verdict: str

    @property
    def clock(self) -> RefereeClock | None: ...
    @property
    def match(self) -> MatchState: ...
    @property
    def position(self) -> GamePosition: ...
    @property
    def before(self) -> GamePosition: ...
    @property
    def offers(self) -> Offers: ...
    @property
    def now(self) -> float: ...
    @property
    def clear_view_asked(self) -> bool: ...
    def emit(self, cls: type[ev.Event], **kw: Any) -> None: ...
    def refuse(self, inp: PlayerInput, rule: str, message: str) -> None: ...


class ClockKeeper:
    """The referee's handling of its :class:`RefereeClock` (``ref.clock``; nothing when None)."""

    def __init__(self, ref: ClockReferee) -> None:
        self.ref = ref

    def owner(self) -> Side:
        """The side that is to act now, whose clock should run."""
        ref = self.ref
        if ref.phase == Phase.CUBE and ref.offers.state.doubler is not None:
            return ref.offers.state.doubler.other  # the taker decides
        if ref.phase == Phase.RESIGN and ref.offers.state.resign is not None:
            return ref.offers.state.resign.winner  # the opponent answers
        if ref.phase in (Phase.ROLLED, Phase.JUDGING, Phase.ILLEGAL, Phase.CORRECTING):
            return ref.before.turn  # the mover, until they press
        return ref.position.turn

    def _event(self, clock: RefereeClock, side: Side, message: str, **extra: Any) -> None:
        ref = self.ref
        ref.emit(ev.ClockReading, side=side, remaining=clock.remaining(ref.now), message=message,
                 extra={"paused": clock.paused, "holds": sorted(clock.holds), **extra})

    def paddle(self, inp: PlayerInput) -> None:
        ref = self.ref
        c = ref.clock
        if c is None:
            ref.refuse(inp, "", "this table has no clock: set [clock] enabled = true to use the paddles")
            return
        if ref.phase not in _CLOCKED:
            ref.refuse(inp, "", "the clocks are stopped between games: after the opening roll its loser "
                       "presses, starting the winner's clock (USBGF clock rules 3.3)")
            return
        owner = self.owner()
        side = inp.side if inp.side is not None else (c.running if c.running is not None else owner.other)
        if c.flagged(ref.now) is not None:
            ref.refuse(inp, "", "time has run out: the clock waits for the director")
            return
        if c.holds:
            why = " and ".join(_HOLD_NAMES[h] for h in sorted(c.holds))
            ref.refuse(inp, "", f"the clock is paused for {why}; it restarts when that is settled")
            return
        if c.running is None and side is owner:
            ref.refuse(inp, "", f"{owner.title} is to act: {owner.other.title} presses to start "
                       f"{owner.title}'s clock (USBGF clock rules 3.3)")
            return
        if c.running is not None and c.running is not side:
            ref.refuse(inp, "", f"{side.title}'s clock is not running: {c.running.title} presses "
                       "at the end of their turn")
            return
        c.press(side, ref.now)
        runs = c.running
        assert runs is not None
        left = c.remaining(ref.now)[runs]
        self._event(c, runs, f"{side.title} pressed the clock: {runs.title}'s clock runs "
                          f"({format_seconds(left)} left).", pressed_by=side.name.lower())

    def director(self, inp: PlayerInput) -> None:
        ref = self.ref
        c = ref.clock
        if c is None:
            ref.refuse(inp, "", "this table has no clock: set [clock] enabled = true")
            return
        runs = c.running
        if c.flagged(ref.now) is not None:
            ref.refuse(inp, "", "time has run out: the clock stays stopped (clock.on_timeout)")
            return
        if runs is None:
            ref.refuse(inp, "", f"no clock is running to {inp.action}: the clocks are stopped")
            return
        if inp.action is Action.PAUSE:
            if "director" in c.holds:
                ref.refuse(inp, "", "the clock is already paused by the director")
                return
            c.hold("director", ref.now)
            self._event(c, runs, "The director paused the clock.")
            return
        if not {"director", "overtime"} & c.holds:
            ref.refuse(inp, "", "the director has not paused the clock")
            return
        c.release("overtime", ref.now)
        c.release("director", ref.now)
        if c.holds:
            why = " and ".join(_HOLD_NAMES[h] for h in sorted(c.holds))
            self._event(c, runs, f"The director released the clock; it still waits for {why}.")
        else:
            self._event(c, runs, "The director restarted the clock.")

    def hold_for_disputes(self) -> None:
        """Pause while an illegal play is disputed (E8) or the board cannot be seen; resume after."""
        ref = self.ref
        c = ref.clock
        if c is None:
            return
        wants = {
            "dispute": ref.phase in (Phase.ILLEGAL, Phase.CORRECTING),
            "clear_view": ref.clear_view_asked and ref.phase in IN_GAME,
            "board": ref.phase == Phase.OUT_OF_SYNC,
        }
        for reason, on in wants.items():
            runs = c.running
            if on and reason not in c.holds:
                if c.hold(reason, ref.now) and runs is not None:
                    self._event(c, runs, f"Clock paused for {_HOLD_NAMES[reason]}.")
            elif not on and c.release(reason, ref.now) and runs is not None:
                self._event(c, runs, "Clock running again.")

    def poll(self) -> None:
        """Report a flag that fell since the last step (USBGF clock rules 5)."""
        ref = self.ref
        c = ref.clock
        if c is None:
            return
        flag = c.poll(ref.now)
        if flag is None:
            return
        loser, winner = flag.side, flag.side.other
        info = {"flag": flag.timeout.value, "flag_at": flag.at}
        if flag.timeout is Timeout.OVERTIME:
            ref.last_verdict = f"{loser.title}: overtime"
            self._event(c, loser, f"{loser.title}'s reserve ran out: {format_seconds(c.settings.overtime)} "
                              "of overtime (USBGF optional rule); the director restarts the clock.", **info)
            return
        if flag.timeout is Timeout.NOTIFY:
            ref.last_verdict = f"{loser.title}: time"
            self._event(c, loser, f"{loser.title}'s time ran out: call the director, who rules "
                              "(clock.on_timeout = notify).", **info)
            return
        self._event(c, loser, f"{loser.title}'s time ran out.", **info)
        ref.phase = Phase.MATCH_OVER
        ref.dice = ()
        ref.wrong_points = ()
        ref.last_verdict = f"{winner.title} wins the match on time"
        ref.emit(ev.MatchOver, winner=winner, score=ref.match.score, extra={"reason": "time"},
                 message=f"{loser.title}'s time ran out: {winner.title} wins the match (USBGF clock rules "
                 "5, time expiration: a player whose reserve runs out loses the match).")
