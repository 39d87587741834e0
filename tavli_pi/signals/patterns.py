"""Blink patterns: what each LED and the buzzer do after each event.

A pattern is a list of (seconds, on) steps, played once or repeated. Each
output shows a *transient* pattern (an event's own flash) while it lasts,
then its *standing* pattern, which follows the table's phase (red while an
illegal play is open, amber while a double, a clear view or an out-of-step board awaits).
Time is always passed in: nothing here sleeps.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Pattern", "STEADY", "OFF", "blink", "OUTPUTS", "transient_for", "standing_for"]

OUTPUTS = ("green", "amber", "red", "buzzer")


@dataclass(frozen=True, slots=True)
class Pattern:
    steps: tuple[tuple[float, bool], ...]
    repeat: bool = False

    @property
    def length(self) -> float:
        return sum(d for d, _ in self.steps)

    def value(self, elapsed: float) -> bool | None:
        """On/off ``elapsed`` seconds after the start; None once a one-shot pattern ended."""
        total = self.length
        if elapsed < 0:
            return None
        if self.repeat and total > 0:
            elapsed %= total
        elif elapsed >= total:
            return None
        t = 0.0
        for d, on in self.steps:
            t += d
            if elapsed < t:
                return on
        return None


STEADY = Pattern(((1.0, True),), repeat=True)
OFF = Pattern(((1.0, False),), repeat=True)


def blink(on: float, off: float, times: int | None = None) -> Pattern:
    """``times`` blinks (forever when None)."""
    if times is None:
        return Pattern(((on, True), (off, False)), repeat=True)
    return Pattern(((on, True), (off, False)) * times)


def _once(seconds: float) -> Pattern:
    return Pattern(((seconds, True),))


#: event kind -> the outputs' transient patterns (distinct per event).
_TRANSIENT: dict[str, dict[str, Pattern]] = {
    "setup_checked": {"green": _once(2.0)},
    "game_started": {"green": blink(0.2, 0.2, 2)},
    "opening_roll": {"green": _once(0.6)},
    "opening_tie": {"amber": blink(0.2, 0.2, 2)},
    "roll_accepted": {},
    "roll_void": {"amber": blink(0.25, 0.25, 4), "buzzer": blink(0.1, 0.1, 2)},
    "premature_roll": {"amber": blink(0.1, 0.1, 6), "buzzer": blink(0.1, 0.1, 3)},
    "no_legal_move": {"green": blink(0.2, 0.2, 3), "amber": blink(0.2, 0.2, 3)},
    "play_accepted": {"green": _once(1.0)},
    "illegal_play": {"buzzer": _once(0.8)},
    "illegal_play_resolved": {"green": blink(0.6, 0.2, 2)},
    "illegal_play_accepted": {"amber": _once(1.0)},
    "clear_view_needed": {"buzzer": _once(0.15)},
    "board_out_of_sync": {"amber": blink(0.1, 0.1, 4), "buzzer": blink(0.15, 0.15, 2)},
    "board_resynced": {"green": _once(1.5)},
    "board_adopted": {"green": blink(0.4, 0.2, 3)},
    "cube_offered": {"buzzer": _once(0.4)},
    "cube_taken": {"green": blink(0.3, 0.2, 2)},
    "cube_passed": {"red": blink(0.3, 0.2, 2)},
    "resigned": {"buzzer": blink(0.2, 0.2, 3)},
    "game_over": {"green": blink(0.3, 0.3, 5), "buzzer": blink(0.4, 0.2, 2)},
    "match_over": {name: blink(0.3, 0.3, 8) for name in ("green", "amber", "red")},
    "action_refused": {"red": blink(0.1, 0.1, 2), "buzzer": _once(0.1)},
    "correction_demanded": {"buzzer": blink(0.1, 0.1, 2)},
    "setup_wrong": {"buzzer": _once(0.3)},
}


def transient_for(kind: str) -> dict[str, Pattern]:
    return _TRANSIENT.get(kind, {})


def standing_for(phase: str, *, clear_view: bool, setup_wrong: bool) -> dict[str, Pattern]:
    """The patterns that hold while the table is in ``phase``."""
    out = {name: OFF for name in OUTPUTS}
    if phase == "illegal":
        out["red"] = blink(0.15, 0.15)
    elif phase == "correcting":
        out["red"] = STEADY
    elif phase in ("cube", "resign"):
        out["amber"] = STEADY
    elif phase == "out_of_sync":  # restore the board or confirm it: amber, never red
        out["amber"] = blink(0.8, 0.4)
    if clear_view:
        out["amber"] = blink(0.5, 0.5)
    if setup_wrong and phase == "setup":
        out["amber"] = STEADY
    return out
