"""The backgammon match clock: reserve time plus a simple (non-Bronstein) delay.

A pure state machine. Time is the ``now`` argument of every call (seconds on
any monotonic scale), so tests drive it without sleeping.

The default settings follow the U.S. Backgammon Clock Rules (simple delay
clocks, March 2013, §2.1, http://www.bkgm.com/tournaments/US-Backgammon-Clock-2013.html):
each player's reserve is 2 minutes per point of match length, less 1 minute per
point already scored by either player; each move has a 12-second delay that is
not charged to the reserve. Doubles matches use 2.5 min / 1.25 min / 18 s (§2.2).
The 2 min x N - 1 min x (scored) formula equals 1 minute per point still
needed, summed over both players. A flag loses the match; the USBGF optional
"overtime" rule gives 1-2 minutes after a first expiry instead, and ``NOTIFY``
leaves the decision to the director.

Pressing follows those rules too (§3, Unified Clock Rules 3.3-3.5): at the
start of a game no clock runs; the loser of the opening roll presses, starting
the opponent's clock; a player ends a turn (or a double, or a take) by pressing,
which stops their clock and starts the other one.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from tavli_pi.rules.position import Side

__all__ = ["Timeout", "ClockSettings", "Flag", "MatchClock"]


class Timeout(enum.Enum):
    """What a flag (reserve run out) means, as the director configured it."""

    LOSE_MATCH = "lose_match"  # USBGF 2013 §5: the flagged player loses the match
    OVERTIME = "overtime"  # USBGF option: a first expiry gives overtime; a second loses
    NOTIFY = "notify"  # only alert the director, who rules


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Clock settings; the defaults are the USBGF singles setting."""

    per_point: float = 120.0  # reserve seconds per point of match length
    per_point_scored: float = 60.0  # less this per point already scored by either player
    money_reserve: float = 1800.0  # reserve for a money session (match length 0)
    delay: float = 12.0  # free seconds per move before the reserve runs
    on_timeout: Timeout = Timeout.LOSE_MATCH
    overtime: float = 60.0  # reserve given after a first flag with Timeout.OVERTIME

    @classmethod
    def doubles(cls, **overrides: Any) -> ClockSettings:
        """USBGF doubles (team) matches: 2.5 min per point, 1.25 less per point scored, 18 s delay."""
        return cls(**{"per_point": 150.0, "per_point_scored": 75.0, "delay": 18.0, **overrides})

    def reserve(self, match_length: int, score: tuple[int, int] = (0, 0)) -> float:
        """Each player's reserve for a clock started at ``score`` in a match to ``match_length``."""
        if match_length <= 0:
            return self.money_reserve
        return max(0.0, self.per_point * match_length - self.per_point_scored * (score[0] + score[1]))


@dataclass(frozen=True, slots=True)
class Flag:
    """A side's reserve ran out at ``at``; ``timeout`` says what follows."""

    side: Side
    at: float
    timeout: Timeout  # LOSE_MATCH: the match is over; OVERTIME: overtime granted, clock paused


class MatchClock:
    """Two reserves, one delay per move, pause for disputes.

    >>> c = MatchClock(ClockSettings(), match_length=5)
    >>> c.press(Side.BLACK, now=0.0)      # Black lost the opening roll: White's clock runs
    True
    >>> c.remaining(now=42.0)             # 12 s delay, then 30 s off White's 600 s reserve
    (570.0, 600.0)
    """

    def __init__(
        self, settings: ClockSettings, match_length: int, score: tuple[int, int] = (0, 0)
    ) -> None:
        self.settings = settings
        r = settings.reserve(match_length, score)
        self._reserve: list[float] = [r, r]  # reserve at the start of the running turn
        self._running: Side | None = None
        self._turn_used = 0.0  # running time of the current turn before ``_since``
        self._since: float | None = None  # when the current running stretch began; None = paused
        self._flag: Flag | None = None  # the final flag
        self._last_flag: Flag | None = None  # the latest flag, final or overtime
        self._polled: Flag | None = None
        self._overtime_used = [False, False]

    # -- queries -----------------------------------------------------------
    @property
    def running(self) -> Side | None:
        """The side whose clock runs (also while paused), None between games."""
        return self._running

    @property
    def paused(self) -> bool:
        return self._running is not None and self._since is None

    def _turn_elapsed(self, now: float) -> float:
        return self._turn_used + (0.0 if self._since is None else max(0.0, now - self._since))

    def delay_left(self, now: float) -> float:
        """Seconds of the free delay the running side still has this move."""
        if self._running is None:
            return 0.0
        return max(0.0, self.settings.delay - self._turn_elapsed(now))

    def remaining(self, now: float) -> tuple[float, float]:
        """Reserve seconds left, indexed by Side (never below 0)."""
        self._check(now)
        left = list(self._reserve)
        if self._running is not None:
            charged = max(0.0, self._turn_elapsed(now) - self.settings.delay)
            left[self._running] = max(0.0, left[self._running] - charged)
        return (left[0], left[1])

    def flagged(self, now: float) -> Flag | None:
        """The flag that ended play (LOSE_MATCH or NOTIFY), or None.

        An OVERTIME flag does not end play; :meth:`poll` reports it.
        """
        self._check(now)
        return self._flag

    def poll(self, now: float) -> Flag | None:
        """Advance to ``now``; return each flag that fell on or before ``now``, once."""
        self._check(now)
        if self._last_flag is None or self._last_flag is self._polled:
            return None
        self._polled = self._last_flag
        return self._last_flag

    # -- actions -------------------------------------------------------------
    def press(self, side: Side, now: float) -> bool:
        """``side`` hits its paddle. Returns False when the press does nothing.

        With no clock running (start of a game) it starts the other side's
        clock; with ``side``'s clock running it ends the turn and starts the
        opponent's (a new move with a fresh delay). Pressing while the
        opponent's clock runs, while paused, or after a flag does nothing.
        """
        self._check(now)
        if self._flag is not None or self.paused:
            return False
        if self._running is None:
            self._start_turn(side.other, now)
            return True
        if self._running is not side:
            return False
        self._reserve = list(self.remaining(now))
        self._start_turn(side.other, now)
        return True

    def stop(self, now: float) -> None:
        """Both clocks stopped, as between games (charges the running turn)."""
        self._check(now)
        self._reserve = list(self.remaining(now))
        self._running = None
        self._since = None
        self._turn_used = 0.0

    def pause(self, now: float) -> None:
        """Freeze both clocks for a dispute or a director call; the move's delay is kept."""
        self._check(now)
        if self._running is not None and self._since is not None:
            self._turn_used = self._turn_elapsed(now)
            self._since = None

    def resume(self, now: float) -> None:
        """Restart the clock that was running when paused."""
        if self._running is not None and self._since is None and self._flag is None:
            self._since = now

    def set_remaining(self, side: Side, seconds: float, now: float) -> None:
        """The director sets a reserve (a faulty clock, or play on after a NOTIFY flag).

        A running move keeps what is left of its delay; a paused clock stays paused.
        """
        self._check(now)
        if side is self._running:
            self._turn_used = min(self._turn_elapsed(now), self.settings.delay)
            if self._since is not None:
                self._since = now
        self._reserve[side] = float(seconds)
        if self._flag is not None and self._flag.side is side and seconds > 0:
            self._flag = None

    # -- internals -------------------------------------------------------------
    def _start_turn(self, side: Side, now: float) -> None:
        self._running = side
        self._turn_used = 0.0
        self._since = now

    def _check(self, now: float) -> None:
        """Latch a flag at the exact instant the running reserve reached 0."""
        side = self._running
        if side is None or self._since is None or self._flag is not None:
            return
        limit = self.settings.delay + self._reserve[side]  # turn time at which the flag falls
        if self._turn_elapsed(now) < limit:
            return
        at = self._since + (limit - self._turn_used)
        s = self.settings
        if s.on_timeout is Timeout.OVERTIME and not self._overtime_used[side]:
            # USBGF option: the director is called; the clock waits paused with the overtime set.
            self._overtime_used[side] = True
            self._reserve[side] = s.overtime
            self._turn_used = s.delay  # the delay of this move is spent
            self._since = None
            self._last_flag = Flag(side, at, Timeout.OVERTIME)
            return
        timeout = Timeout.LOSE_MATCH if s.on_timeout is Timeout.OVERTIME else s.on_timeout
        self._reserve[side] = 0.0
        self._turn_used = s.delay
        self._since = None
        self._flag = self._last_flag = Flag(side, at, timeout)

