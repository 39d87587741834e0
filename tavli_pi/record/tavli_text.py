"""The tavli match record: a documented plain text and JSON (issue 13 item 6; docs/tavli-record.md).

gnubg cannot read Plakoto or Fevga, so a tavli match (Portes, Plakoto and
Fevga in turn, T2) is exported as text: a match header, then per game a
header with its variant and the score before it, the start position, the
numbered turns (side, roll, play) and the result. Every play is written in
White's numbering, the numbering of the position notation (RULES-TAVLI.md),
die by die in the order played: ``24/19/14/9 24/19``; ``*`` marks a hit
(Portes) or a pin (Plakoto); ``bar`` and ``off`` as usual; ``-`` no legal
play (V8, E7). Re-importing the text replays every turn through the rules and
rebuilds every position exactly; a turn that is not a legal play of its roll
is a :class:`FormatError` naming the line.

Pure functions: no I/O (writing files is the caller's, temp file then rename).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavli_pi.errors import FormatError, TavliError
from tavli_pi.rules import moves as portes
from tavli_pi.rules import tavli_moves as tavli
from tavli_pi.rules.games import GamePosition, GameResult, game_result
from tavli_pi.rules.ids import parse_position, xgid
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.tavli_position import (
    format_tavli_position,
    own_to_physical,
    parse_tavli_position,
    physical_to_own,
)
from tavli_pi.rules.tavli_settings import (
    MatchSettings,
    TavliSettings,
    Variant,
    parse_variant,
    settings_from_mapping,
)

__all__ = [
    "RecordedTurn",
    "RecordedGame",
    "TavliRecord",
    "turn_of",
    "replay",
    "format_record",
    "parse_record",
    "record_to_json",
    "record_from_json",
    "FORMAT_LINE",
]

#: the first line of every text record
FORMAT_LINE = "# tavli-pi tavli match record, format 1 (docs/tavli-record.md)"
_BAR = 25


@dataclass(frozen=True, slots=True)
class RecordedTurn:
    """One turn: the side that rolled, the roll, the play in White's numbering ("" = none)."""

    side: Side
    dice: tuple[int, int]
    play: str


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """One game of the match: variant, start position (side on roll included), turns, result."""

    variant: Variant
    start: GamePosition
    turns: tuple[RecordedTurn, ...] = ()
    result: GameResult | None = None


@dataclass(frozen=True, slots=True)
class TavliRecord:
    """A whole tavli match."""

    players: tuple[str, str] = ("White", "Black")
    match: MatchSettings = MatchSettings()
    settings: TavliSettings = TavliSettings()
    games: tuple[RecordedGame, ...] = field(default=())


# -- plays in White's numbering -----------------------------------------------------
def _name(side: Side) -> str:
    return side.name.lower()


def _tok(n: int) -> str:
    return "off" if n == 0 else "bar" if n == _BAR else str(n)


def _chain(hops: list[tuple[int, int, bool]]) -> str:
    """White-numbered hops ``(src, dst, mark)`` joined per checker, in order."""
    chains: list[list[str]] = []
    last = -1
    for s, t, mark in hops:
        hop = _tok(t) + ("*" if mark else "")
        if chains and s == last and s not in (0, _BAR):
            chains[-1].append(hop)
        else:
            chains.append([_tok(s), hop])
        last = t
    return " ".join("/".join(c) for c in chains)


def _portes_phys(side: Side, n: int) -> int:
    return n if n in (0, _BAR) or side is Side.WHITE else 25 - n


def turn_of(variant: Variant, pos: GamePosition, dice: tuple[int, int],
            result: portes.PlayResult | tavli.TavliResult | None) -> RecordedTurn:
    """The record of the turn that played ``result`` (None: no legal play, V8) from ``pos``."""
    side = pos.turn
    if result is None:
        return RecordedTurn(side, dice, "")
    if isinstance(result, tavli.TavliResult):
        hops = [
            (own_to_physical(variant, side, m.src),
             own_to_physical(variant, side, m.dst) if m.dst else 0, m.pin)
            for m in result.play
        ]
    else:
        hops = [(_portes_phys(side, m.src), _portes_phys(side, m.dst), m.hit)
                for m in result.plays[0]]
    return RecordedTurn(side, dice, _chain(hops))


def _hops(text: str, where: str) -> list[tuple[int, int]]:
    hops: list[tuple[int, int]] = []
    for tok in text.split():
        pts: list[int] = []
        for seg in tok.split("/"):
            s = seg.rstrip("*").lower()
            if s in ("off", "bar"):
                pts.append(0 if s == "off" else _BAR)
            elif s.isdigit() and 1 <= int(s) <= 24:
                pts.append(int(s))
            else:
                raise FormatError(f"{where}: {seg!r} in {tok!r} is not a point: use 1-24, bar or off")
        if len(pts) < 2:
            raise FormatError(f"{where}: {tok!r} is not a move: write FROM/TO, e.g. 24/19")
        hops.extend(zip(pts, pts[1:]))
    return hops


def _apply(variant: Variant, pos: GamePosition, turn: RecordedTurn, settings: TavliSettings,
           where: str) -> GamePosition:
    """The position after ``turn`` (other side on roll), checked against the rules."""
    if turn.side is not pos.turn:
        raise FormatError(f"{where}: {_name(turn.side)} plays but {_name(pos.turn)} is on roll")
    try:
        hops = _hops(turn.play, where)
        if isinstance(pos, Position):
            if variant is not Variant.PORTES:
                raise FormatError(f"{where}: a {variant.value} game needs a tavli position")
            own = [(_portes_phys(pos.turn, s), _portes_phys(pos.turn, t)) for s, t in hops]
            after = portes.apply_play(pos, tuple(portes.Move(s, t) for s, t in own)) if own else pos
            if not portes.is_legal(pos, turn.dice, after):
                raise FormatError(
                    f"{where}: {turn.play or '-'} is not a legal play of {turn.dice[0]}-{turn.dice[1]} (M1-M7)"
                )
            return portes.end_turn(after)
        own_hops = [(physical_to_own(variant, pos.turn, s), physical_to_own(variant, pos.turn, t) if t else 0)
                    for s, t in hops]
        end = tavli.apply_tavli_play(variant, pos, own_hops)[0] if own_hops else pos
        legal = {r.position.layout_key() for r in tavli.results_or_pass(variant, pos, turn.dice, settings)}
        if end.layout_key() not in legal:
            raise FormatError(
                f"{where}: {turn.play or '-'} is not a legal {variant.value} play of "
                f"{turn.dice[0]}-{turn.dice[1]} (V1-V8, P, F)"
            )
        return tavli.end_turn(end)
    except FormatError:
        raise
    except TavliError as exc:
        raise FormatError(f"{where}: {exc}") from exc


def replay(game: RecordedGame, settings: TavliSettings = TavliSettings(),
           where: str = "game") -> list[GamePosition]:
    """Every position of ``game``: the start, then the position after each turn."""
    out = [game.start]
    pos = game.start
    for i, t in enumerate(game.turns, 1):
        pos = _apply(game.variant, pos, t, settings, f"{where} turn {i}")
        out.append(pos)
    return out


# -- text -------------------------------------------------------------------------
def _format_position(variant: Variant, pos: GamePosition) -> str:
    if isinstance(pos, Position):
        return xgid(pos)
    return format_tavli_position(pos)


def _format_result(r: GameResult) -> str:
    if r.winner is None:
        return f"draw ({r.reason})"
    return f"{_name(r.winner)} wins {r.points} ({r.reason})"


def format_record(rec: TavliRecord) -> str:
    """The plain-text record (docs/tavli-record.md)."""
    st = " ".join(f"{k}={v}" for k, v in rec.settings.as_mapping().items())
    lines = [
        FORMAT_LINE,
        f"Match: {rec.match.match_length} points, games {' '.join(g.value for g in rec.match.games)}, "
        f"winner starts {'yes' if rec.match.winner_starts else 'no'}, "
        f"portes backgammon {rec.match.portes_backgammon}",
        f"White: {rec.players[0]}",
        f"Black: {rec.players[1]}",
        f"Settings: {st}",
    ]
    score = [0, 0]
    for n, g in enumerate(rec.games, 1):
        lines += ["", f"Game {n}: {g.variant.value}, score white {score[0]} black {score[1]}",
                  f"Start: {_format_position(g.variant, g.start)}"]
        for i, t in enumerate(g.turns, 1):
            lines.append(f"{i:4d} {_name(t.side)} {t.dice[0]}-{t.dice[1]}: {t.play or '-'}")
        if g.result is not None:
            lines.append(f"Result: {_format_result(g.result)}")
            if g.result.winner is not None:
                score[g.result.winner] += g.result.points
    return "\n".join(lines) + "\n"


def _side(word: str, where: str) -> Side:
    if word == "white":
        return Side.WHITE
    if word == "black":
        return Side.BLACK
    raise FormatError(f"{where}: {word!r} is not a side: expected white or black")


def _parse_header(lines: list[str]) -> tuple[tuple[str, str], MatchSettings, TavliSettings, int]:
    if not lines or lines[0].strip() != FORMAT_LINE:
        raise FormatError(f"line 1: expected {FORMAT_LINE!r}: is this a tavli-pi tavli record?")
    want = ["Match:", "White:", "Black:", "Settings:"]
    vals: list[str] = []
    for i, w in enumerate(want, 2):
        if len(lines) < i or not lines[i - 1].startswith(w):
            raise FormatError(f"line {i}: expected a line starting {w!r}")
        vals.append(lines[i - 1][len(w):].strip())
    m = vals[0]
    try:
        parts = [p.strip() for p in m.split(",")]
        length = int(parts[0].split()[0])
        games = tuple(parse_variant(x) for x in parts[1].split()[1:])
        starts = parts[2].split()[-1] == "yes"
        bg = int(parts[3].split()[-1])
        match = MatchSettings(length, games, starts, bg)
        kv = dict(x.split("=", 1) for x in vals[3].split())
        settings = settings_from_mapping(kv)
    except (ValueError, IndexError, TavliError) as exc:
        raise FormatError(f"lines 2-5: the match header is malformed ({exc})") from exc
    return (vals[1], vals[2]), match, settings, 5


def parse_record(text: str) -> TavliRecord:
    """Read a text record back; every turn is replayed and checked (FormatError names the line)."""
    lines = text.splitlines()
    players, match, settings, i = _parse_header(lines)
    games: list[RecordedGame] = []
    score = [0, 0]
    n = len(lines)
    while i < n:
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        where = f"line {i}"
        if not line.startswith("Game "):
            raise FormatError(f"{where}: expected 'Game N: VARIANT, score ...', got {line[:40]!r}")
        head, _, rest = line.partition(":")
        try:
            number = int(head.split()[1])
            variant = parse_variant(rest.split(",")[0])
        except (ValueError, IndexError, TavliError) as exc:
            raise FormatError(f"{where}: a game header is 'Game N: VARIANT, score white A black B'") from exc
        if number != len(games) + 1:
            raise FormatError(f"{where}: game {number} follows game {len(games)}")
        want_score = f"score white {score[0]} black {score[1]}"
        if want_score not in rest:
            raise FormatError(f"{where}: the score before game {number} should read {want_score!r}")
        if i >= n or not lines[i].startswith("Start:"):
            raise FormatError(f"line {i + 1}: expected 'Start: POSITION' after the game header")
        try:
            ptext = lines[i][len("Start:"):].strip()
            start: GamePosition = (parse_position(ptext) if variant is Variant.PORTES
                                   else parse_tavli_position(ptext, variant))
        except TavliError as exc:
            raise FormatError(f"line {i + 1}: {exc}") from exc
        i += 1
        pos = start
        turns: list[RecordedTurn] = []
        result: GameResult | None = None
        while i < n and lines[i].strip() and not lines[i].startswith("Game "):
            raw = lines[i].strip()
            i += 1
            where = f"line {i}"
            if raw.startswith("Result:"):
                result = game_result(variant, pos, settings, match)
                if result is None or _format_result(result) != raw[len("Result:"):].strip():
                    got = "no end" if result is None else _format_result(result)
                    raise FormatError(f"{where}: the result does not match the final position ({got})")
                if result.winner is not None:
                    score[result.winner] += result.points
                continue
            try:
                num, side_w, roll, *play = raw.replace(":", " :", 1).split()
                if int(num) != len(turns) + 1 or not play or play[0] != ":":
                    raise ValueError
                a, b = roll.split("-")
                dice = (int(a), int(b))
            except ValueError as exc:
                raise FormatError(f"{where}: a turn is 'N SIDE D1-D2: PLAY' (turn {len(turns) + 1})") from exc
            body = " ".join(play[1:])
            t = RecordedTurn(_side(side_w, where), dice, "" if body == "-" else body)
            pos = _apply(variant, pos, t, settings, where)
            turns.append(t)
        games.append(RecordedGame(variant, start, tuple(turns), result))
    return TavliRecord(players, match, settings, tuple(games))


# -- JSON -------------------------------------------------------------------------
def record_to_json(rec: TavliRecord) -> dict[str, Any]:
    """The record as JSON-ready data, with the position after every turn."""
    games = []
    for g in rec.games:
        positions = replay(g, rec.settings)
        games.append({
            "variant": g.variant.value,
            "start": _format_position(g.variant, g.start),
            "turns": [
                {"side": _name(t.side), "dice": [t.dice[0], t.dice[1]], "play": t.play,
                 "position": _format_position(g.variant, p)}
                for t, p in zip(g.turns, positions[1:])
            ],
            "result": None if g.result is None else {
                "winner": None if g.result.winner is None else _name(g.result.winner),
                "points": g.result.points, "reason": g.result.reason,
            },
        })
    final = TavliMatch(rec.match)
    for g in rec.games:
        if g.result is not None and not final.over:
            final = final.after_game(g.result.winner, g.result.points)
    return {
        "format": "tavli-pi/tavli-record", "version": 1,
        "players": {"white": rec.players[0], "black": rec.players[1]},
        "match": {"tavli.match_length": rec.match.match_length,
                  "tavli.games": [v.value for v in rec.match.games],
                  "tavli.winner_starts": rec.match.winner_starts,
                  "tavli.portes_backgammon": rec.match.portes_backgammon},
        "settings": rec.settings.as_mapping(),
        "score": {"white": final.score[0], "black": final.score[1]},
        "games": games,
    }


def record_from_json(data: Any) -> TavliRecord:
    """Read :func:`record_to_json` data back; every turn is replayed and checked."""
    from tavli_pi.rules.tavli_settings import match_settings_from_mapping

    try:
        if data.get("format") != "tavli-pi/tavli-record":
            raise FormatError('not a tavli record: "format" must be "tavli-pi/tavli-record"')
        match = match_settings_from_mapping(data["match"])
        settings = settings_from_mapping(data["settings"])
        players = (str(data["players"]["white"]), str(data["players"]["black"]))
        games = []
        for gi, g in enumerate(data["games"], 1):
            variant = parse_variant(g["variant"])
            start: GamePosition = (parse_position(g["start"]) if variant is Variant.PORTES
                                   else parse_tavli_position(g["start"], variant))
            turns = tuple(
                RecordedTurn(_side(t["side"], f"game {gi}"), (int(t["dice"][0]), int(t["dice"][1])), t["play"])
                for t in g["turns"]
            )
            game = RecordedGame(variant, start, turns, None)
            positions = replay(game, settings, f"game {gi}")
            for ti, (t, p) in enumerate(zip(g["turns"], positions[1:]), 1):
                if t.get("position") not in (None, _format_position(variant, p)):
                    raise FormatError(f"game {gi} turn {ti}: the stored position differs from the replayed one")
            result = game_result(variant, positions[-1], settings, match) if g.get("result") else None
            games.append(RecordedGame(variant, start, turns, result))
        return TavliRecord(players, match, settings, tuple(games))
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        if isinstance(exc, FormatError):
            raise
        raise FormatError(f"the JSON record is malformed ({type(exc).__name__}: {exc})") from exc

