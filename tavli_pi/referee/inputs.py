"""Player inputs: GPIO buttons, clock paddles and web touches all become these."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tavli_pi.rules.position import Side

__all__ = ["Action", "PlayerInput"]


class Action(StrEnum):
    ACCEPT = "accept"  # accept an illegal play as played (E8) / confirm
    CORRECT = "correct"  # demand a legal play (E8)
    DOUBLE = "double"  # offer the cube (C2)
    TAKE = "take"  # take the cube (C3)
    PASS = "pass"  # pass the cube (C3)
    BEAVER = "beaver"  # money setting (C5)
    RESIGN = "resign"  # offer a resignation of `level` (S4)
    ACCEPT_RESIGN = "accept_resign"
    REJECT_RESIGN = "reject_resign"
    PADDLE = "paddle"  # clock paddle pressed by `side`
    PAUSE = "pause"  # director/dispute pause of the clock
    RESUME = "resume"
    #: the roll, entered by the players when the camera sees the dice but cannot read them
    #: (too small): ``level`` is the two dice as a number, 53 for 5-3; at the opening roll
    #: White's die then Black's (E1, E2)
    ROLL = "roll"


@dataclass(frozen=True, slots=True)
class PlayerInput:
    """One decision. ``side`` is who made it; ``None`` when the source cannot tell
    (a single shared button): the referee then infers it from whose decision is due."""

    action: Action
    side: Side | None = None
    level: int = 0  # resignation level 1-3 for RESIGN; the dice (53) for ROLL
    source: str = "button"  # "button", "touch", "paddle", "link"
