"""Events: what the referee decided. Every output subscribes to these.

Events are plain frozen values that carry everything an output needs, so
outputs never ask the referee anything. ``to_dict``/``from_dict`` give the one
JSON shape used by the match log, the MQTT feed and the display.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Protocol, runtime_checkable

from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_match import GameEntry, TavliMatch
from tavli_pi.rules.tavli_position import TavliPosition
from tavli_pi.rules.tavli_settings import MatchSettings, Variant

#: a Portes position, or a Plakoto/Fevga one (pinned checkers, RULES-TAVLI.md)
GamePosition = Position | TavliPosition

__all__ = [
    "TableState",
    "Event",
    "EVENT_TYPES",
    "to_dict",
    "from_dict",
    "position_to_dict",
    "position_from_dict",
    "EventSink",
    "PHASES",
    "Phase",
    "IN_GAME",
]

class Phase(StrEnum):
    """Every ``TableState.phase`` the referee uses. A ``StrEnum``: the JSON is the plain string."""

    SETUP = "setup"  # checking the starting (or resumed) position
    OPENING = "opening"  # waiting for the opening roll (E1)
    AWAITING_ROLL = "awaiting_roll"  # the side on roll may double (C2) or roll (E2)
    ROLLED = "rolled"  # dice accepted; the play is in progress until the dice leave (E5)
    JUDGING = "judging"  # the dice left; waiting for a clear view of the board
    ILLEGAL = "illegal"  # an illegal play awaits the opponent's decision (E8)
    CORRECTING = "correcting"  # a legal play was demanded (E8)
    OUT_OF_SYNC = "out_of_sync"  # the board is not the position the referee knows: restore it or confirm it
    CUBE = "cube"  # a double awaits take or pass (C3)
    RESIGN = "resign"  # a resignation awaits an answer (S4)
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


#: Every phase, in the order of a game (kept for callers that list them).
PHASES = tuple(Phase)
#: The phases of a game in progress (a resignation may be offered, S4; a clear view is awaited).
IN_GAME = (Phase.AWAITING_ROLL, Phase.ROLLED, Phase.JUDGING, Phase.ILLEGAL, Phase.CORRECTING, Phase.OUT_OF_SYNC)


def position_to_dict(p: GamePosition) -> dict[str, Any]:
    """A Portes position with its bar; a Plakoto/Fevga one with ``pinned`` (+1 a White checker pinned
    under Black's, -1 a Black one under White's) and no bar (V2)."""
    if isinstance(p, TavliPosition):
        return {"points": list(p.points), "pinned": list(p.pinned), "off": list(p.off),
                "turn": p.turn.name.lower()}
    return {"points": list(p.points), "bar": list(p.bar), "off": list(p.off), "turn": p.turn.name.lower()}


def position_from_dict(d: dict[str, Any]) -> Any:
    """Inverse of :func:`position_to_dict` (a :data:`GamePosition`)."""
    if "pinned" in d:
        return TavliPosition(tuple(d["points"]), tuple(d["pinned"]), (d["off"][0], d["off"][1]),
                             Side[d["turn"].upper()])
    return Position(
        tuple(d["points"]), (d["bar"][0], d["bar"][1]), (d["off"][0], d["off"][1]), Side[d["turn"].upper()]
    )


def tavli_to_dict(m: TavliMatch) -> dict[str, Any]:
    """The tavli match (T1-T4): length, rotation, score and the games played."""
    s = m.settings
    return {
        "match_length": s.match_length, "games": [g.value for g in s.games], "winner_starts": s.winner_starts,
        "portes_backgammon": s.portes_backgammon, "score": list(m.score), "variant": m.variant.value,
        "history": [{"variant": g.variant.value, "winner": None if g.winner is None else g.winner.name.lower(),
                     "points": g.points} for g in m.history],
    }


def tavli_from_dict(d: dict[str, Any]) -> TavliMatch:
    s = MatchSettings(d["match_length"], tuple(Variant(g) for g in d["games"]), d["winner_starts"],
                      d["portes_backgammon"])
    hist = tuple(GameEntry(Variant(g["variant"]), None if g["winner"] is None else Side[g["winner"].upper()],
                           g["points"]) for g in d["history"])
    return TavliMatch(s, (d["score"][0], d["score"][1]), hist)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableState:
    """The whole table as the referee sees it after an event (for display/feed/link)."""

    phase: Phase
    position: GamePosition
    dice: tuple[int, ...] = ()
    cube_value: int = 1
    cube_owner: Side | None = None  # None = centred
    score: tuple[int, int] = (0, 0)  # indexed by Side
    match_length: int = 0  # 0 = money session
    crawford: bool = False  # this game is the Crawford game
    game_number: int = 1
    players: tuple[str, str] = ("White", "Black")
    last_verdict: str = ""
    wrong_points: tuple[int, ...] = ()  # physical (White's) numbering
    clocks: tuple[float, float] | None = None  # seconds left, by Side
    clear_view: bool = False  # the referee asked for a clear view of the board and still waits for it
    setup_wrong: bool = False  # the set-up was reported wrong and is not yet right (B3)
    variant: str = "portes"  # the game being played: portes, plakoto or fevga (RULES-TAVLI.md)
    tavli: TavliMatch | None = None  # the tavli match (T1-T4): its score, rotation and games; None outside one


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of all events. ``rule`` cites RULES.md where a rule decided it."""

    kind: ClassVar[str] = "event"
    at: float
    state: TableState
    rule: str = ""
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


EVENT_TYPES: dict[str, type[Event]] = {}


def _register(cls: type[Event]) -> type[Event]:
    EVENT_TYPES[cls.kind] = cls
    return cls


def _value(v: Any) -> Any:
    if isinstance(v, (Position, TavliPosition)):
        return position_to_dict(v)
    if isinstance(v, TavliMatch):
        return tavli_to_dict(v)
    if isinstance(v, Side):
        return v.name.lower()
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: _value(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, (tuple, list)):
        return [_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    return v


def to_dict(event: Event) -> dict[str, Any]:
    """The JSON-ready form: ``{"kind": ..., "at": ..., "state": {...}, ...}``."""
    d: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        d[f.name] = _value(getattr(event, f.name))
    return d


def _state_from(d: dict[str, Any]) -> TableState:
    owner = d.get("cube_owner")
    clocks = d.get("clocks")
    return TableState(
        phase=Phase(d["phase"]),
        position=position_from_dict(d["position"]),
        dice=tuple(d.get("dice", ())),
        cube_value=d.get("cube_value", 1),
        cube_owner=None if owner is None else Side[owner.upper()],
        score=(d["score"][0], d["score"][1]),
        match_length=d.get("match_length", 0),
        crawford=d.get("crawford", False),
        game_number=d.get("game_number", 1),
        players=(d["players"][0], d["players"][1]),
        last_verdict=d.get("last_verdict", ""),
        wrong_points=tuple(d.get("wrong_points", ())),
        clocks=None if clocks is None else (clocks[0], clocks[1]),
        clear_view=d.get("clear_view", False),
        setup_wrong=d.get("setup_wrong", False),
        variant=d.get("variant", "portes"),
        tavli=None if d.get("tavli") is None else tavli_from_dict(d["tavli"]),
    )


def from_dict(d: dict[str, Any]) -> Event:
    """Inverse of :func:`to_dict` for every registered event kind."""
    cls = EVENT_TYPES.get(d.get("kind", ""))
    if cls is None:
        raise ValueError(f"unknown event kind {d.get('kind')!r}")
    kwargs: dict[str, Any] = {}
    hints = {f.name: f for f in dataclasses.fields(cls)}
    for name, f in hints.items():
        if name not in d:
            continue
        v = d[name]
        if name == "state":
            v = _state_from(v)
        elif v is not None and str(f.type).startswith("Side"):
            v = Side[v.upper()]
        elif v is not None and str(f.type).startswith(("Position", "GamePosition")):
            v = position_from_dict(v)
        elif isinstance(v, list):
            v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
        kwargs[name] = v
    return cls(**kwargs)


# -- the events ------------------------------------------------------------
# Each names the side it concerns. Plays are in the usual notation
# ("13/11 6/5*", "bar/22", "6/off") from the mover's own numbering.


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class SetupChecked(Event):
    kind: ClassVar[str] = "setup_checked"
    ok: bool
    problems: tuple[str, ...] = ()


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    game_number: int
    score: tuple[int, int]
    crawford: bool


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class OpeningRoll(Event):
    kind: ClassVar[str] = "opening_roll"
    white_die: int
    black_die: int
    winner: Side | None  # None: a tie, reroll (E1)


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class RollAccepted(Event):
    kind: ClassVar[str] = "roll_accepted"
    side: Side
    dice: tuple[int, int]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class RollVoid(Event):
    kind: ClassVar[str] = "roll_void"
    side: Side
    reason: str  # "left_half", "cocked", "on_checker", "premature", ...


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class NoLegalMove(Event):
    kind: ClassVar[str] = "no_legal_move"
    side: Side
    dice: tuple[int, int]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayAccepted(Event):
    kind: ClassVar[str] = "play_accepted"
    side: Side
    dice: tuple[int, int]
    play: str
    before: GamePosition
    after: GamePosition


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class IllegalPlay(Event):
    kind: ClassVar[str] = "illegal_play"
    side: Side
    dice: tuple[int, int]
    before: GamePosition
    observed: GamePosition | None
    wrong_points: tuple[int, ...]  # White's numbering; 0 = bar, 25 = tray
    nearest: tuple[str, ...]  # nearest legal plays, notation


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class IllegalPlayResolved(Event):
    kind: ClassVar[str] = "illegal_play_resolved"
    side: Side
    accepted: bool  # True: the opponent let it stand (E8); False: corrected
    play: str
    after: GamePosition


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class RollNeeded(Event):
    """The dice lie still but the camera cannot read them (too small): the players enter the
    roll (``Action.ROLL``). ``side`` is the roller (None at the opening roll: both dice)."""

    kind: ClassVar[str] = "roll_needed"
    side: Side | None
    reason: str


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class ClearViewNeeded(Event):
    kind: ClassVar[str] = "clear_view_needed"
    reason: str


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class CubeOffered(Event):
    kind: ClassVar[str] = "cube_offered"
    side: Side
    value: int  # the value offered (after doubling)


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class CubeTaken(Event):
    kind: ClassVar[str] = "cube_taken"
    side: Side  # the side that took
    value: int


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class CubePassed(Event):
    kind: ClassVar[str] = "cube_passed"
    side: Side  # the side that passed
    value: int  # points lost


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class Resigned(Event):
    kind: ClassVar[str] = "resigned"
    side: Side
    level: int  # 1 single, 2 gammon, 3 backgammon


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class ResignationAnswered(Event):
    kind: ClassVar[str] = "resignation_answered"
    side: Side  # the side that answered
    accepted: bool


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winner: Side | None  # None: a drawn Plakoto game (P6)
    points: int
    result: str  # "single", "gammon", "backgammon", "pass", "resign"
    score: tuple[int, int]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver(Event):
    kind: ClassVar[str] = "match_over"
    winner: Side
    score: tuple[int, int]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class ClockReading(Event):
    kind: ClassVar[str] = "clock_reading"
    side: Side
    remaining: tuple[float, float]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionDemanded(Event):
    kind: ClassVar[str] = "correction_demanded"
    side: Side  # the side that must correct its play (E8)


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class PrematureRoll(Event):
    kind: ClassVar[str] = "premature_roll"
    side: Side  # the side that rolled too early (E6)
    dice: tuple[int, int]
    stands: bool  # False: void; True: it stands (exception or setting)
    pending: bool = False  # the victim decides (setting "victim_option")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionRefused(Event):
    kind: ClassVar[str] = "action_refused"
    side: Side | None
    action: str  # the PlayerInput action refused, e.g. "double"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class BoardMismatch(Event):
    """The board is not the last position the referee knows, and no single play explains it
    (a roll or a turn went unseen, or checkers were moved without a roll). Never an illegal
    play: the players restore ``known`` or both confirm ``observed`` (ACCEPT)."""

    kind: ClassVar[str] = "board_out_of_sync"
    known: GamePosition  # the last position the referee knows (before the unjudged change)
    observed: GamePosition | None  # the board as read (None: not a whole 15 + 15 reading)
    points: tuple[int, ...]  # White's numbering where they differ; 0 = bar, 25 = trays
    reason: str  # "unseen_change" (no roll seen) or "not_one_play" (judged against a stale board)
    confirmed: tuple[str, ...] = ()  # sides ("white", "black") that confirmed the board as seen


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class BoardResynced(Event):
    """The board matches a position the referee knows again (restored by the players)."""

    kind: ClassVar[str] = "board_resynced"
    position: GamePosition


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class BoardAdopted(Event):
    """Both players confirmed the board as seen: the referee carries on from ``after``.

    ``before`` is the last position the referee knew; the turns between were not
    judged (the log keeps both positions; the match formats cannot express the jump).
    """

    kind: ClassVar[str] = "board_adopted"
    before: GamePosition
    after: GamePosition  # ``after.turn``: the side the referee expects to roll next
    points: tuple[int, ...]  # White's numbering where they differ; 0 = bar, 25 = trays


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class BoardLearnt(Event):
    """The camera learnt this board (its checkers, stack pitch and empty field) from ``position``, the
    position in play, on a clear frame: a board the referee joined in progress, or one taken as set up
    though it did not read as the start, that was not learnt then. From this frame on it is read against
    what was learnt. Not a verdict: the app says it so that what was learnt is committed with the
    referee's state at this frame (a resumed match reads on with it)."""

    kind: ClassVar[str] = "board_learnt"
    position: GamePosition


@runtime_checkable
class EventSink(Protocol):
    """What every output is: it handles each event and closes once (idempotently).

    A ``typing.Protocol``: the display, the GPIO signals, the table link, the
    feed and the match log are sinks by having these two methods, no base
    class or adapter needed. Outputs never decide anything about the game;
    they only show, store or send.
    """

    def handle(self, event: Event) -> None: ...

    def close(self) -> None: ...
