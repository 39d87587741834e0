"""The display's view model: an Event (and its TableState) as the JSON the page draws.

Pure: no I/O. The page decides nothing about the game; it shows what the
referee decided and which decisions are due.
"""

from __future__ import annotations

from typing import Any

from tavli_pi.referee.events import Event, TableState
from tavli_pi.rules.ids import XGInfo, position_id, xgid
from tavli_pi.rules.position import Side

__all__ = ["view_of", "verdict_of", "DECISIONS_BY_PHASE", "VERDICT_STYLE"]

#: Which touch buttons are due in each referee phase (the referee still checks).
DECISIONS_BY_PHASE: dict[str, tuple[str, ...]] = {
    "awaiting_roll": ("double",),
    "illegal": ("accept", "correct"),
    "out_of_sync": ("accept",),  # each player confirms the board as it stands
    "cube": ("take", "pass"),
}

#: Event kind -> how loudly the page shows it.
VERDICT_STYLE: dict[str, str] = {
    "play_accepted": "ok",
    "roll_accepted": "ok",
    "illegal_play": "illegal",
    "roll_void": "warn",
    "clear_view_needed": "warn",
    "board_out_of_sync": "warn",
    "board_resynced": "ok",
    "board_adopted": "ok",
    "no_legal_move": "info",
    "game_over": "result",
    "match_over": "result",
}

_DEFAULT_TEXT: dict[str, str] = {
    "play_accepted": "Play accepted",
    "roll_accepted": "Roll",
    "illegal_play": "Illegal play",
    "roll_void": "Reroll",
    "clear_view_needed": "Clear the view",
    "board_out_of_sync": "The board differs from the last known position: restore it, or both players confirm",
    "board_resynced": "Board restored",
    "board_adopted": "Board confirmed by both players",
    "no_legal_move": "No legal move",
    "game_over": "Game over",
    "match_over": "Match over",
    "opening_roll": "Opening roll",
    "cube_offered": "Double offered",
    "cube_taken": "Double taken",
    "cube_passed": "Double passed",
    "setup_checked": "Setup",
    "game_started": "New game",
    "resigned": "Resignation offered",
    "resignation_answered": "Resignation answered",
    "illegal_play_resolved": "Illegal play resolved",
}


def verdict_of(event: Event) -> dict[str, str]:
    """The large-type line for this event: text, style and the rule id it cites."""
    text = event.message or event.state.last_verdict or _DEFAULT_TEXT.get(event.kind, event.kind)
    return {"text": text, "style": VERDICT_STYLE.get(event.kind, "info"), "rule": event.rule}


def _side(s: Side | None) -> str | None:
    return None if s is None else s.name.lower()


def view_of(event: Event, seq: int) -> dict[str, Any]:
    """Everything the page needs after ``event``; ``seq`` orders the updates."""
    st: TableState = event.state
    pos = st.position
    dice = tuple(st.dice)
    info = XGInfo(
        cube_value=st.cube_value,
        cube_owner=st.cube_owner,
        dice=(dice[0], dice[1]) if len(dice) == 2 else (0, 0),
        score=st.score,
        crawford=st.crawford,
        match_length=st.match_length,
    )
    return {
        "seq": seq,
        "kind": event.kind,
        "phase": st.phase,
        "players": list(st.players),
        "turn": _side(pos.turn),
        "points": list(pos.points),
        "bar": list(pos.bar),
        "off": list(pos.off),
        "pips": [pos.pip_count(Side.WHITE), pos.pip_count(Side.BLACK)],
        "dice": list(dice),
        "cube": {
            "value": st.cube_value,
            "shown": 64 if st.cube_value == 1 else st.cube_value,
            "owner": _side(st.cube_owner),
        },
        "score": list(st.score),
        "match_length": st.match_length,
        "crawford": st.crawford,
        "game_number": st.game_number,
        "clocks": None if st.clocks is None else list(st.clocks),
        "verdict": verdict_of(event),
        "wrong_points": list(st.wrong_points),
        "position_id": position_id(pos),
        "xgid": xgid(pos, info),
        "decisions": list(DECISIONS_BY_PHASE.get(st.phase, ())),
    }
