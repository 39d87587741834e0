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

Pure: time is the ``now`` argument of every call.
"""

from __future__ import annotations

from tavli_pi.rules.position import Side
from tavli_pi.referee.match_clock import ClockSettings, Flag, MatchClock, Timeout

__all__ = ["RefereeClock", "HOLDS", "format_seconds"]

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
