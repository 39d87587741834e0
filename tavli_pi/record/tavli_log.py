"""A tavli match in the SQLite match log, as the tavli text/JSON record (docs/tavli-record.md).

The log keeps every event of a Plakoto, Fevga or tavli match as it does for
Portes; the header names the game (``MatchHeader.game``) and its settings
(``MatchHeader.rules``, :func:`rules_text`). :func:`build_tavli_record` turns
the events into a :class:`~tavli_pi.record.tavli_text.TavliRecord`: one game
per ``game_started``, its start position (the side that played first on
roll), every accepted or corrected play found among the legal plays of its
roll (the rules write the play), and the result as the rules give it on the
final position. A play the players let stand although illegal (E8), or a
board the players adopted, cannot be replayed: the game's turns stop there
and :attr:`TavliLogRecord.notes` says so (the log keeps the positions).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tavli_pi.errors import RecordError, TavliError
from tavli_pi.record.game_record import resolved_dice
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.tavli_text import RecordedGame, RecordedTurn, TavliRecord, turn_of
from tavli_pi.referee.events import (
    BoardAdopted,
    Event,
    GameOver,
    GameStarted,
    IllegalPlay,
    IllegalPlayResolved,
    PlayAccepted,
)
from tavli_pi.rules import moves as portes
from tavli_pi.rules import tavli_moves as tavli
from tavli_pi.rules.games import GamePosition, game_result
from tavli_pi.rules.position import Position
from tavli_pi.rules.tavli_position import TavliPosition
from tavli_pi.rules.tavli_settings import (
    MatchSettings,
    TavliSettings,
    Variant,
    match_settings_from_mapping,
    parse_variant,
    settings_from_mapping,
)

__all__ = ["rules_text", "parse_rules_text", "TavliLogRecord", "build_tavli_record"]


def rules_text(match: MatchSettings, settings: TavliSettings) -> str:
    """The match and rule settings as one ``key=value; ...`` line (RULES-TAVLI.md keys).

    >>> m, s = parse_rules_text(rules_text(MatchSettings(match_length=3), TavliSettings()))
    >>> m.match_length, s == TavliSettings()
    (3, True)
    """
    keys: dict[str, object] = {
        "tavli.match_length": match.match_length, "tavli.games": ",".join(g.value for g in match.games),
        "tavli.winner_starts": str(match.winner_starts).lower(),
        "tavli.portes_backgammon": match.portes_backgammon, **settings.as_mapping(),
    }
    return "; ".join(f"{k}={v}" for k, v in keys.items())


def parse_rules_text(text: str) -> tuple[MatchSettings, TavliSettings]:
    """Inverse of :func:`rules_text` (RecordError naming the part that is wrong)."""
    rule: dict[str, object] = {}
    match: dict[str, object] = {}
    try:
        for part in filter(None, (p.strip() for p in text.split(";"))):
            key, _, value = part.partition("=")
            if key.startswith("tavli."):
                if key == "tavli.games":
                    match[key] = [parse_variant(v) for v in value.split(",")]
                elif key == "tavli.winner_starts":
                    match[key] = value == "true"
                else:
                    match[key] = int(value)
            else:
                rule[key] = value
        return match_settings_from_mapping(match), settings_from_mapping(rule)
    except (ValueError, TavliError) as exc:
        raise RecordError(f"the log's tavli settings {text!r} cannot be read ({exc})") from exc


@dataclass(frozen=True, slots=True)
class TavliLogRecord:
    record: TavliRecord
    notes: tuple[str, ...] = ()
    finished: bool = False


def _turn(variant: Variant, before: GamePosition, after: GamePosition, dice: tuple[int, int],
          settings: TavliSettings) -> RecordedTurn | None:
    """The recorded turn from ``before`` to ``after``, or None when it is no legal play of ``dice``."""
    key = after.layout_key()
    if isinstance(before, Position):
        rs = portes.legal_results(before, dice)
        if not rs:
            return turn_of(variant, before, dice, None) if key == before.layout_key() else None
        for r in rs:
            if r.position.layout_key() == key:
                return turn_of(variant, before, dice, r)
        return None
    assert isinstance(before, TavliPosition)
    ts = tavli.legal_results(variant, before, dice, settings)
    if not ts:
        return turn_of(variant, before, dice, None) if key == before.layout_key() else None
    for t in ts:
        if t.position.layout_key() == key:
            return turn_of(variant, before, dice, t)
    return None


class _Game:
    def __init__(self, variant: Variant, start: GamePosition) -> None:
        self.variant = variant
        self.start = start
        self.started = False  # the first turn fixed the side on roll
        self.turns: list[RecordedTurn] = []
        self.last = start
        self.stopped = False


def build_tavli_record(header: MatchHeader, events: Iterable[Event]) -> TavliLogRecord:
    """The tavli record of a log's events (see the module doc)."""
    if header.game == "portes":
        raise RecordError("this log holds a Portes match: export it as mat, sgf or ids")
    match, settings = parse_rules_text(header.rules)
    games: list[RecordedGame] = []
    notes: list[str] = []
    cur: _Game | None = None
    finished = False
    illegal: IllegalPlay | None = None

    def close() -> None:
        nonlocal cur
        if cur is None:
            return
        res = game_result(cur.variant, cur.last, settings, match) if cur.turns and not cur.stopped else None
        games.append(RecordedGame(cur.variant, cur.start, tuple(cur.turns), res))
        cur = None

    for e in events:
        if isinstance(e, GameStarted):
            close()
            variant = parse_variant(e.state.variant)
            cur = _Game(variant, e.state.position)
            continue
        if e.kind == "match_over":
            finished = True
            continue
        if cur is None:
            continue
        if isinstance(e, IllegalPlay):
            illegal = e
        elif isinstance(e, (PlayAccepted, IllegalPlayResolved)):
            if cur.stopped:
                continue
            if isinstance(e, PlayAccepted):
                before, after, dice = e.before, e.after, e.dice
            else:
                if illegal is None:
                    raise RecordError("an illegal_play_resolved event without its illegal_play: "
                                      "the log is out of order")
                before, after, dice = illegal.before, e.after, resolved_dice(illegal, e)
                illegal = None
            if not cur.started:
                cur.start, cur.last, cur.started = before, before, True
            t = _turn(cur.variant, before, after, dice, settings)
            if t is None:
                cur.stopped = True
                notes.append(f"game {len(games) + 1} ({cur.variant.value}): turn {len(cur.turns) + 1} was not a "
                             "legal play (an illegal play let stand, E8): later turns are not in the text record")
                continue
            cur.turns.append(t)
            cur.last = after.with_turn(after.turn.other)
        elif isinstance(e, BoardAdopted) and not cur.stopped:
            cur.stopped = True
            notes.append(f"game {len(games) + 1} ({cur.variant.value}): a board adopted by the players: "
                         "later turns are not in the text record")
        elif isinstance(e, GameOver):
            close()
    close()
    return TavliLogRecord(TavliRecord(header.players, match, settings, tuple(games)), tuple(notes), finished)

