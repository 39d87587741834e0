"""The referee's settings: rule variants (RULES.md) and evidence thresholds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tavli_pi.errors import ConfigError
from tavli_pi.rules.settings import Settings
from tavli_pi.referee.match_clock import ClockSettings, Timeout

__all__ = ["RefereeSettings", "PREMATURE_POLICIES", "ILLEGAL_POLICIES", "check_clock_settings"]

PREMATURE_POLICIES = ("void", "stands", "victim_option")
#: seconds an unattended wait may fall short of ``unattended_wait`` by (frame times summed in floating point)
WAIT_SLACK = 1e-6
ILLEGAL_POLICIES = ("responsible-moves", "legal-moves")


@dataclass(frozen=True, slots=True)
class RefereeSettings:
    """Everything the referee may be told; defaults follow RULES.md.

    Rule variants: ``light_is_white`` (which checker colour is White),
    ``die_on_checker_void`` (E3 c; False = the USBGF 2017 rule), ``premature``
    (E6: "void", "stands", "victim_option"), ``illegal_policy`` (E8:
    "responsible-moves" lets the opponent choose, "legal-moves" always demands
    a legal play), ``rules`` (cube and scoring variants).

    Evidence (log-likelihoods in nats): a legal play is accepted when the best
    legal end position beats the next by ``accept_margin`` and the
    unconstrained reading beats it by at most ``accept_gap``. An
    illegal call needs the unconstrained reading to beat every legal end by
    ``illegal_gap`` and be a real position, read with per-spot confidence
    ``illegal_confidence`` on every differing spot, identically in at least
    ``stable_frames`` clear frames. Dice count as settled after
    ``settle_frames`` identical still frames. ``clear_view_after`` frames
    without a verdict ask the players for a clear view. ``infer_unseen_rolls``: a roll the
    camera never read (missed, or too small and not entered) is known by the play once the dice
    are picked up, when the board is clearly one legal play for some roll (:mod:`~tavli_pi.referee.unseen`);
    False: such a board is out of sync until the players restore or confirm it. ``attended``
    False (a recorded video: nobody answers): a set-up board read otherwise, asked about and left
    as it is, clear, for ``unattended_wait`` seconds (by the time the referee is given: each frame
    stands for the time since the one before it), is taken as set up; a board out of sync read
    confidently and alike for as long is adopted as both players would confirm it.
    ``in_progress_spots``: a set-up board confirmed (or taken as set up, unattended) that vision reads
    clearly as a position differing from the start at this many spots or more is no misread start but
    a game in progress (the referee was started mid-game): it carries on from that board.

    Clock: ``clock`` (None = no clock at this table) are the match clock's
    settings (USBGF by default, :mod:`tavli_pi.referee.match_clock`);
    ``clock_reset_each_game`` recomputes the reserves from the score at every
    game instead of carrying them through the match (:mod:`tavli_pi.referee.clock`).
    """

    light_is_white: bool = True
    die_on_checker_void: bool = True
    premature: Literal["void", "stands", "victim_option"] = "void"
    illegal_policy: Literal["responsible-moves", "legal-moves"] = "responsible-moves"
    rules: Settings = field(default_factory=Settings)
    settle_frames: int = 2
    stable_frames: int = 2
    max_evidence_frames: int = 4
    accept_margin: float = 3.0
    accept_gap: float = 2.5
    illegal_gap: float = 9.0
    illegal_confidence: float = 0.9
    die_confidence: float = 0.6
    clear_view_after: int = 5
    unattended_wait: float = 1.0
    infer_unseen_rolls: bool = True
    attended: bool = True
    in_progress_spots: int = 4
    clock: ClockSettings | None = None
    clock_reset_each_game: bool = False

    def __post_init__(self) -> None:
        if self.premature not in PREMATURE_POLICIES:
            raise ConfigError(
                f"referee.premature must be one of {', '.join(PREMATURE_POLICIES)} (E6), "
                f"got {self.premature!r}"
            )
        if self.illegal_policy not in ILLEGAL_POLICIES:
            raise ConfigError(
                f"referee.illegal_policy must be one of {', '.join(ILLEGAL_POLICIES)} (E8), "
                f"got {self.illegal_policy!r}"
            )
        for name in ("settle_frames", "stable_frames", "max_evidence_frames", "clear_view_after", "in_progress_spots"):
            if getattr(self, name) < 1:
                raise ConfigError(f"referee.{name} must be 1 or more")
        if self.stable_frames > self.max_evidence_frames:
            raise ConfigError("referee.stable_frames cannot exceed referee.max_evidence_frames")
        for name in ("accept_margin", "accept_gap", "illegal_gap", "unattended_wait"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"referee.{name} must be positive "
                                  f"({'seconds' if name == 'unattended_wait' else 'nats of evidence'})")
        if not 0.5 <= self.illegal_confidence <= 1.0:
            raise ConfigError("referee.illegal_confidence must be between 0.5 and 1.0")
        if self.clock is not None:
            check_clock_settings(self.clock)

    def waited(self, seconds: float) -> bool:
        """Whether an unattended wait of ``seconds`` (the frames' times summed: each frame stands for
        the time since the one before it, by the clock the referee is given) has lasted ``unattended_wait``."""
        return seconds >= self.unattended_wait - WAIT_SLACK


def check_clock_settings(c: ClockSettings) -> None:
    """ConfigError naming the ``clock.*`` key that is out of range."""
    if not c.per_point > 0:
        raise ConfigError(f"clock.per_point must be positive seconds (USBGF: 120), got {c.per_point!r}")
    for name in ("per_point_scored", "money_reserve", "delay", "overtime"):
        if getattr(c, name) < 0:
            raise ConfigError(f"clock.{name} must be 0 or more seconds, got {getattr(c, name)!r}")
    if c.per_point_scored > c.per_point:
        raise ConfigError("clock.per_point_scored cannot exceed clock.per_point (USBGF: 60 of 120)")
    if not isinstance(c.on_timeout, Timeout):
        raise ConfigError(
            f"clock.on_timeout must be one of {', '.join(t.value for t in Timeout)}, got {c.on_timeout!r}"
        )
