"""The display's view model: an Event (and its TableState) as the JSON the page draws.

Pure: no I/O. The page decides nothing about the game; it shows what the
referee decided and which decisions are due.
"""

from __future__ import annotations

from typing import Any

from tavli_pi.referee.events import Event, OpeningRoll, TableState
from tavli_pi.rules.ids import XGInfo, position_id, xgid
from tavli_pi.rules.position import Side
from tavli_pi.rules.tavli_position import TavliPosition, format_tavli_position
from tavli_pi.rules.tavli_settings import Variant

from .history import DICE_PHASES, TableHistory, dice_laid

__all__ = ["view_of", "verdict_of", "cube_text", "DECISIONS_BY_PHASE", "VERDICT_STYLE"]

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
    "roll_needed": "warn",
    "board_out_of_sync": "warn",
    "board_resynced": "ok",
    "board_adopted": "ok",
    "board_learnt": "info",
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
    "roll_needed": "Enter the roll",
    "board_out_of_sync": "The board differs from the last known position: restore it, or both players confirm",
    "board_resynced": "Board restored",
    "board_adopted": "Board confirmed by both players",
    "board_learnt": "Board learnt",
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


def cube_text(value: int, owner: Side | None) -> str:
    """The cube as players say it: ``centred``, ``Black owns 2`` (C1)."""
    if owner is None:
        return "centred" if value == 1 else f"centred at {value}"
    return f"{owner.title} owns {value}"


def _dice(event: Event, st: TableState, history: TableHistory | None) -> list[dict[str, Any]]:
    """The dice lying on the board now, each with the drawn half it lies in."""
    if isinstance(event, OpeningRoll):
        return dice_laid((), Side.WHITE, (event.white_die, event.black_die))
    if st.phase not in DICE_PHASES or len(st.dice) == 0:
        return []
    opening = history.opening if history is not None else None
    if opening is not None and sorted(opening) != sorted(st.dice):
        opening = None
    return dice_laid(tuple(st.dice), st.position.turn, opening)


def _tavli(st: TableState) -> dict[str, Any] | None:
    """The tavli match for the page (T1-T4): the game being played, the score, the games so far."""
    m = st.tavli
    if m is None:
        return None
    return {
        "match_length": m.settings.match_length,
        "score": list(m.score),
        "game": st.variant,
        "games": [g.value for g in m.settings.games],
        "history": [{"game": g.variant.value, "winner": None if g.winner is None else g.winner.name.lower(),
                     "points": g.points} for g in m.history],
    }


def view_of(event: Event, seq: int, history: TableHistory | None = None) -> dict[str, Any]:
    """Everything the page needs after ``event``; ``seq`` orders the updates.

    ``history`` (already fed ``event``) adds the move list, the last play and
    the opening dice; without it those are empty.
    """
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
    if isinstance(pos, TavliPosition):
        variant = Variant(st.variant)
        board: dict[str, Any] = {
            "points": list(pos.points), "pinned": list(pos.pinned), "bar": [0, 0], "off": list(pos.off),
            "pips": [pos.pip_count(Side.WHITE, variant), pos.pip_count(Side.BLACK, variant)],
            "position_id": format_tavli_position(pos), "xgid": "",
        }
    else:
        board = {
            "points": list(pos.points), "pinned": [0] * 24, "bar": list(pos.bar), "off": list(pos.off),
            "pips": [pos.pip_count(Side.WHITE), pos.pip_count(Side.BLACK)],
            "position_id": position_id(pos), "xgid": xgid(pos, info),
        }
    return {
        "seq": seq,
        "kind": event.kind,
        "phase": st.phase,
        "players": list(st.players),
        "turn": _side(pos.turn),
        "points": board["points"],
        "pinned": board["pinned"],  # +1 a White checker pinned under Black's, -1 the reverse (P3)
        "bar": board["bar"],
        "off": board["off"],
        "pips": board["pips"],
        "variant": st.variant,
        "tavli": _tavli(st),
        "dice": list(dice),
        "dice_laid": _dice(event, st, history),
        "cube": {
            "value": st.cube_value,
            "face": 64 if st.cube_value == 1 and st.cube_owner is None else st.cube_value,
            "owner": _side(st.cube_owner),
            "text": cube_text(st.cube_value, st.cube_owner),
        },
        "score": list(st.score),
        "match_length": st.match_length,
        "crawford": st.crawford,
        "game_number": st.game_number,
        "clocks": None if st.clocks is None else list(st.clocks),
        "verdict": verdict_of(event),
        "wrong_points": list(st.wrong_points),
        "position_id": board["position_id"],
        "xgid": board["xgid"],
        # no cube in Plakoto, Fevga or a tavli match (V2, T3): no cube decisions are ever due
        "decisions": [d for d in DECISIONS_BY_PHASE.get(st.phase, ())
                      if st.tavli is None or d not in ("double", "take", "pass")]
        # a set-up the referee reads otherwise: the players confirm it is set up (B3, never a deadlock)
        + (["accept"] if st.phase == "setup" and st.setup_wrong else [])
        # dice the camera cannot read, or read without certainty: the players enter the roll (E2)
        + (["roll"] if st.last_verdict == "enter the roll" else []),
        "game": history.game_number if history is not None else st.game_number,
        "moves": history.moves_json() if history is not None else [],
        "last_play": None if history is None or history.last_play is None else history.last_play.to_json(),
    }
