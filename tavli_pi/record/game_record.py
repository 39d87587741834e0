"""From the referee's event stream to games and moves, the shape every export writes.

The log keeps everything (void rolls, clock readings, illegal plays and how
they were resolved); a match record keeps what analysis programs read: per
game, the turns (dice and the play, one :class:`~tavli_pi.rules.moves.Move`
per die, in the mover's numbering), the cube actions, accepted resignations
and the result.

A ``board_adopted`` event (the players confirmed a board the referee had lost
track of) is a jump in position that the match formats cannot express: the
game's turns stop there (``GameRecord.note`` says so), while its cube actions,
resignation and result are still recorded. The log keeps both positions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from tavli_pi.errors import RecordError, RulesError
from tavli_pi.record.header import MatchHeader
from tavli_pi.referee.events import (
    BoardAdopted,
    CubeOffered,
    CubePassed,
    CubeTaken,
    Event,
    GameOver,
    GameStarted,
    IllegalPlay,
    IllegalPlayResolved,
    MatchOver,
    NoLegalMove,
    OpeningRoll,
    PlayAccepted,
    Resigned,
    ResignationAnswered,
)
from tavli_pi.rules.moves import Play, apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position, Side

__all__ = [
    "Turn",
    "CubeAction",
    "Resignation",
    "Action",
    "GameRecord",
    "MatchRecord",
    "RecordBuilder",
    "build_record",
    "resolved_dice",
    "play_from",
]


@dataclass(frozen=True, slots=True)
class Turn:
    """A roll and the play made with it; ``play == ()`` when no checker could move (E7)."""

    side: Side
    dice: tuple[int, int]
    play: Play
    before: Position | None = field(default=None, compare=False)
    after: Position | None = field(default=None, compare=False)
    legal: bool = field(default=True, compare=False)


@dataclass(frozen=True, slots=True)
class CubeAction:
    """``side`` doubles to ``value``, or takes / drops a double to ``value`` (C2, C3)."""

    side: Side
    action: str  # "double", "take", "drop"
    value: int


@dataclass(frozen=True, slots=True)
class Resignation:
    """``side`` resigned at ``level`` (1 single, 2 gammon, 3 backgammon), accepted (S4)."""

    side: Side
    level: int


Action = Turn | CubeAction | Resignation


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game. ``score`` is the match score before it, by Side."""

    number: int
    score: tuple[int, int]
    crawford: bool = False
    actions: tuple[Action, ...] = ()
    winner: Side | None = None  # None: unfinished
    points: int = 0
    result: str = ""  # "single", "gammon", "backgammon", "pass", "resign"
    note: str = ""  # why the turns stop early (a board adopted by the players)

    @property
    def resigned(self) -> bool:
        return self.result == "resign"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    header: MatchHeader
    games: tuple[GameRecord, ...] = ()
    finished: bool = False

    @property
    def score(self) -> tuple[int, int]:
        """The score after the last finished game."""
        s = [0, 0]
        for g in self.games:
            if g.winner is not None:
                s[g.winner] += g.points
        return (s[0], s[1])


def resolved_dice(illegal: IllegalPlay, resolved: IllegalPlayResolved) -> tuple[int, int]:
    """The roll of a disputed turn: the call's, or, when the call named one die only (the other never
    read: ``0``), the roll the legal correction was made with (``extra["dice"]``)."""
    d = resolved.extra.get("dice")
    return (int(d[0]), int(d[1])) if isinstance(d, list) and len(d) == 2 else illegal.dice


def play_from(before: Position, after: Position, dice: tuple[int, int], text: str) -> tuple[Play, bool]:
    """The per-die play from ``before`` to ``after`` with ``dice``, and whether it is legal.

    A legal play is the canonical play of the matching legal result; an
    illegal play that was let stand (E8) is parsed from its notation.
    """
    read = all(1 <= d <= 6 for d in dice)  # a die the camera never read is 0 (a call on the die read)
    for r in legal_results(before, dice) if read else ():
        if r.position.layout_key() == after.layout_key():
            return r.plays[0], True
    if before.layout_key() == after.layout_key():
        return (), read and not legal_results(before, dice)
    if text.strip():
        try:
            play = parse_play(before, text)
            if apply_play(before, play).layout_key() == after.layout_key():
                return play, False
        except RulesError:
            pass
    return _diff_play(before, after), False


def _own(pos: Position, side: Side) -> list[int]:
    """``side``'s checkers by own point: [0] off, [1..24] points, [25] bar."""
    return [pos.off[side]] + [pos.count(side, p) for p in range(1, 25)] + [pos.bar[side]]


def _diff_play(before: Position, after: Position) -> Play:
    """A play taking ``before`` to ``after`` read from the checkers alone (an illegal play let stand).

    Checkers that left points are paired, highest first, with the points that
    gained checkers. If no forward pairing exists (a checker moved backwards),
    the play is recorded as empty: the log keeps the positions, the formats cannot.
    """
    side = before.turn
    b, a = _own(before, side), _own(after, side)
    srcs = [p for p in range(25, -1, -1) for _ in range(max(0, b[p] - a[p]))]
    dsts = [p for p in range(25, -1, -1) for _ in range(max(0, a[p] - b[p]))]
    if len(srcs) != len(dsts) or any(s <= d for s, d in zip(srcs, dsts)):
        return ()
    text = " ".join(f"{'bar' if s == 25 else s}/{'off' if d == 0 else d}" for s, d in zip(srcs, dsts))
    try:
        play = parse_play(before, text)
        return play if apply_play(before, play).layout_key() == after.layout_key() else ()
    except RulesError:
        return ()


class RecordBuilder:
    """Feed events in log order; :meth:`record` gives the match so far."""

    def __init__(self, header: MatchHeader) -> None:
        self._header = header
        self._games: list[GameRecord] = []
        self._actions: list[Action] = []
        self._current: GameRecord | None = None
        self._pending_illegal: IllegalPlay | None = None
        self._pending_double = 0
        self._finished = False
        self._adopted = False  # the current game's board was adopted: later turns are not recorded

    # -- feeding ----------------------------------------------------------
    def feed(self, event: Event) -> None:
        """One event, in log order: one ``match`` over the event types the record keeps.

        In a tavli match only the Portes games are kept (the formats cannot hold
        Plakoto or Fevga; they are exported as the tavli text record).
        """
        if event.state.variant != "portes":
            if isinstance(event, GameStarted):
                self._close_open_game()
            elif isinstance(event, MatchOver):
                self._finished = True
            return
        match event:
            case GameStarted():
                self._close_open_game()
                self._current = GameRecord(event.game_number, event.score, event.crawford)
                self._actions = []
                self._adopted = False
                return
            case MatchOver():
                self._finished = True
                return
            case OpeningRoll():
                return
        if event.kind in _IGNORED:
            return
        game = self._ensure_game(event)
        match event:
            case PlayAccepted():
                b, a = _portes(event.before), _portes(event.after)
                play, legal = play_from(b, a, event.dice, event.play)
                self._add_turn(Turn(event.side, event.dice, play, b, a, legal))
            case NoLegalMove():
                pos = _portes(event.state.position).with_turn(event.side)  # the state is after the pass
                self._add_turn(Turn(event.side, event.dice, (), pos, pos, True))
            case IllegalPlay():
                self._pending_illegal = event
            case IllegalPlayResolved():
                ill = self._pending_illegal
                if ill is None:
                    raise RecordError("an illegal_play_resolved event without its illegal_play: "
                                      "the log is out of order")
                b, a = _portes(ill.before), _portes(event.after)
                dice = resolved_dice(ill, event)
                play, legal = play_from(b, a, dice, event.play)
                self._add_turn(Turn(event.side, dice, play, b, a, legal))
                self._pending_illegal = None
            case BoardAdopted():
                if not self._adopted:
                    turns = sum(1 for a in self._actions if isinstance(a, Turn))
                    why = ("a game joined in progress (the referee was started mid-game)" if event.extra.get("in_progress")
                           else f"board adopted by the players after {turns} recorded turn(s)")
                    self._current = replace(game, note=f"{why}; later turns are not recorded (the log keeps the positions)")
                self._adopted = True
                self._pending_illegal = None
            case CubeOffered():
                self._pending_double = event.value
                self._actions.append(CubeAction(event.side, "double", event.value))
            case CubeTaken():
                self._actions.append(CubeAction(event.side, "take", event.value))
            case CubePassed():
                self._actions.append(CubeAction(event.side, "drop", self._pending_double or 2 * event.value))
            case Resigned():
                self._actions.append(Resignation(event.side, event.level))
            case ResignationAnswered(accepted=False):
                if self._actions and isinstance(self._actions[-1], Resignation):
                    self._actions.pop()  # a rejected resignation is not part of the game record
            case GameOver():
                self._current = replace(game, winner=event.winner, points=event.points, result=event.result)
                self._close_open_game()

    def _add_turn(self, turn: Turn) -> None:
        if self._adopted:
            return  # after a position jump the moves no longer follow from the game's start
        last = self._actions[-1] if self._actions else None
        if (isinstance(last, Turn) and last.side is turn.side and last.before is not None
                and turn.before is not None and last.before.key() == turn.before.key()):
            self._actions[-1] = turn  # the same turn judged again (E8 correction)
        else:
            self._actions.append(turn)

    def _ensure_game(self, event: Event) -> GameRecord:
        if self._current is None:
            s = event.state
            self._current = GameRecord(s.game_number, s.score, s.crawford)
            self._actions = []
        return self._current

    def _close_open_game(self) -> None:
        if self._current is not None:
            self._games.append(replace(self._current, actions=tuple(self._actions)))
            self._current = None
            self._actions = []
            self._adopted = False

    # -- result -------------------------------------------------------------
    def record(self) -> MatchRecord:
        games = list(self._games)
        if self._current is not None:
            games.append(replace(self._current, actions=tuple(self._actions)))
        if self._header.game != "portes":
            # the Portes games of a tavli match alone: numbered 1.. with their own running score
            score = [0, 0]
            renumbered = []
            for n, g in enumerate(games, 1):
                renumbered.append(replace(g, number=n, score=(score[0], score[1]), crawford=False))
                if g.winner is not None:
                    score[g.winner] += g.points
            games = renumbered
        return MatchRecord(self._header, tuple(games), self._finished)


_IGNORED = frozenset({"setup_checked", "roll_accepted", "roll_void", "roll_needed", "clear_view_needed",
                      "clock_reading", "board_out_of_sync", "board_resynced", "board_learnt"})


def _portes(p: object) -> Position:
    if not isinstance(p, Position):
        raise RecordError("a Portes game's event holds a Plakoto/Fevga position: the log is damaged")
    return p


def build_record(header: MatchHeader, events: Iterable[Event]) -> MatchRecord:
    """The match record of a whole event stream."""
    b = RecordBuilder(header)
    for e in events:
        b.feed(e)
    return b.record()
