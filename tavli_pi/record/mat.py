"""Jellyfish ``.mat`` match files: the text format XG, GNU Backgammon and BGBlitz import.

The layout is the one GNU Backgammon 1.07 writes with ``export match mat``
(checked against that program's own output): optional ``; [Key "Value"]``
header lines as eXtreme Gammon writes them (``Site``, ``Match ID``,
``Player 1``, ``Player 2``, ``EventDate`` "YYYY.MM.DD", ``EventTime``,
``Variation``, ``Crawford``, ``CubeLimit``, ...; e.g. the XG header quoted in
github.com/nodots/backgammon ``XGParser`` tests and jsboard's ``mat`` parser),
then ``" N point match"`` (0 = money), and per game::

     Game 1
     Alice : 0                      Bob : 0
      1)                             21: 13/11 6/5
      2) 52: 13/8 24/22              63: 6/3* 11/5
     10) 63:                          Doubles => 2
     11)  Takes                      62: 13/7 13/11
                                      Wins 2 points

Player 1 (left column) is White, player 2 (right) Black. A move line is
``%3d) `` and a left entry padded to 28 characters. Moves are one hop per die
in the mover's numbering, ``25`` the bar and ``0`` off; ``66:`` alone is a
roll with no legal move. A resignation writes no line: the game just ends
with ``Wins N points``, which is how gnubg exports and re-imports it.

:func:`parse_mat` reads the format back (any column widths, ``bar``/``off``
and ``8/5(2)`` accepted), replaying every play on a real
:class:`~tavli_pi.rules.position.Position`; anything it cannot read raises
:class:`~tavli_pi.errors.FormatError` naming the line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from tavli_pi.errors import FormatError, RulesError
from tavli_pi.record.game_record import (
    Action,
    CubeAction,
    GameRecord,
    MatchRecord,
    Resignation,
    Turn,
)
from tavli_pi.files import write_atomic
from tavli_pi.record.header import MatchHeader
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.moves import Move, apply_play, is_legal, parse_play
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import game_kind, game_winner

__all__ = ["format_mat", "write_mat", "parse_mat", "read_mat", "format_hop"]

_LEFT = 28  # width of the left column after "%3d) " (gnubg)


# -- writing -----------------------------------------------------------------
def format_hop(m: Move) -> str:
    """``13/8``, ``25/22*`` (from the bar), ``3/0`` (borne off), as gnubg writes them."""
    return f"{m.src}/{m.dst}{'*' if m.hit else ''}"


def _entry(a: Action) -> str:
    if isinstance(a, Turn):
        return f"{a.dice[0]}{a.dice[1]}: " + " ".join(format_hop(m) for m in a.play)
    if isinstance(a, CubeAction):
        if a.action == "double":
            return f" Doubles => {a.value}"
        return " Takes" if a.action == "take" else " Drops"
    raise AssertionError(a)  # pragma: no cover - resignations write no entry


def _header_lines(h: MatchHeader) -> list[str]:
    def kv(k: str, v: str) -> str:
        return f'; [{k} "{v.replace(chr(34), chr(39))}"]'

    out: list[str] = []
    if h.site:
        out.append(kv("Site", h.site))
    if h.match_id:
        out.append(kv("Match ID", h.match_id))
    out += [kv("Player 1", h.players[0]), kv("Player 2", h.players[1])]
    if h.event:
        out.append(kv("Event", h.event))
    if h.round:
        out.append(kv("Round", h.round))
    if h.date:
        out.append(kv("EventDate", h.date.replace("-", ".")))
    if h.time:
        out.append(kv("EventTime", h.time.replace(":", ".")))
    out.append(kv("Variation", "Backgammon"))
    if h.match_length:
        out.append(kv("Crawford", "On" if h.crawford else "Off"))
    else:
        out.append(kv("Jacoby", "On" if h.jacoby else "Off"))
        out.append(kv("Beaver", "On" if h.beavers else "Off"))
    out.append(kv("CubeLimit", str(h.cube_limit)))
    return out


def _game_lines(h: MatchHeader, g: GameRecord) -> list[str]:
    out = ["", f" Game {g.number}",
           " " + f"{h.players[0]} : {g.score[0]}".ljust(31) + f"{h.players[1]} : {g.score[1]}"]
    rows: list[list[str | None]] = []
    for a in g.actions:
        if isinstance(a, Resignation):
            continue
        text = _entry(a)
        if a.side is Side.WHITE:
            rows.append([text, None])
        elif rows and rows[-1][1] is None and rows[-1][0] is not None:
            rows[-1][1] = text
        else:
            rows.append([None, text])
    wins = f"Wins {g.points} point{'s' if g.points != 1 else ''}"
    last = g.actions[-1] if g.actions else None
    # gnubg puts Black's win after White's drop on the drop's line, and
    # imports "Drops" alone on a line as a second double: keep its layout.
    inline = (g.winner is Side.BLACK and isinstance(last, CubeAction) and last.action == "drop"
              and bool(rows) and rows[-1][1] is None)
    if inline:
        rows[-1][1] = " " + wins
    for n, (left, right) in enumerate(rows, 1):
        line = f"{n:3d}) " + (left or "").ljust(_LEFT)
        if right is not None:
            if not line.endswith(" "):
                line += " "
            line += right
        out.append(line.rstrip())
    if g.winner is not None and not inline:
        out.append(" " * 6 + wins if g.winner is Side.WHITE else " " * 34 + wins)
    return out


def format_mat(record: MatchRecord) -> str:
    """The whole match as ``.mat`` text (ends with a newline)."""
    h = record.header
    lines = _header_lines(h) + ["", f" {h.match_length} point match"]
    for g in record.games:
        lines += _game_lines(h, g)
    return "\n".join(lines) + "\n\n"


def write_mat(record: MatchRecord, path: str | os.PathLike[str]) -> Path:
    """Write ``record`` to ``path`` atomically (a reader never sees half a file)."""
    return write_atomic(path, format_mat(record))


# -- reading -----------------------------------------------------------------
_HEADER = re.compile(r'^;\s*\[\s*([A-Za-z][A-Za-z0-9 ]*?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d{1,4})\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d{1,5})\s*$", re.I)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d{1,5})\s+(\S.*?)\s*:\s*(\d{1,5})\s*$")
_MOVE_LINE = re.compile(r"^\s*(\d{1,4})\)(.*)$")
_ENTRY = re.compile(
    r"(?P<dice>[1-6][1-6]):(?P<moves>(?:[ \t]+(?:\d{1,2}|bar|off)[*]?(?:/(?:\d{1,2}|bar|off)[*]?)+"
    r"(?:\(\d\))?)*)"
    r"|(?P<double>Doubles\s*=>\s*(?P<value>\d{1,5}))"
    r"|(?P<take>Takes)|(?P<drop>Drops|Passes)"
    r"|(?P<wins>Wins\s+(?P<points>\d{1,5})\s+points?(?:\s+and\s+the\s+match)?)",
    re.I,
)
_RIGHT_GAP = 12  # more blanks than this before the first entry: the left column is empty


@dataclass
class _GameState:
    number: int
    score: tuple[int, int]
    crawford: bool
    pos: Position = field(default_factory=Position.start)
    cube: int = 1
    offered: int = 0
    actions: list[Action] = field(default_factory=list)
    winner: Side | None = None
    points: int = 0
    result: str = ""


class _Reader:
    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.length: int | None = None
        self.names: tuple[str, str] | None = None
        self.games: list[GameRecord] = []
        self.game: _GameState | None = None
        self.match: MatchState | None = None
        self.lineno = 0

    def fail(self, what: str) -> FormatError:
        return FormatError(f"line {self.lineno}: {what}")

    def line(self, raw: str) -> None:
        s = raw.rstrip()
        if not s.strip():
            return
        if s.lstrip().startswith(";"):
            m = _HEADER.match(s.strip())
            if m:
                self.fields[m.group(1)] = m.group(2)
            return
        if self.length is None:
            m = _LENGTH.match(s)
            if not m:
                raise self.fail(f"expected 'N point match', got {s.strip()[:40]!r}")
            self.length = int(m.group(1))
            crawford = self.fields.get("Crawford", "On").lower() != "off"
            self.match = MatchState(self.length, crawford_rule=crawford)
            return
        m = _GAME.match(s)
        if m:
            self.end_game()
            self.start_game(int(m.group(1)))
            return
        g = self.game
        if g is None:
            raise self.fail(f"expected 'Game 1', got {s.strip()[:40]!r}")
        if not g.actions and g.winner is None and (m := _SCORE.match(s)) and "/" not in s:
            names = (m.group(1), m.group(3))
            self.names = self.names or names
            g.score = (int(m.group(2)), int(m.group(4)))
            assert self.match is not None
            if self.match.score != g.score and not self.games:
                self.match = MatchState(self.match.length, g.score, crawford_rule=self.match.crawford_rule)
            return
        m = _MOVE_LINE.match(s)
        if m:
            self.entries(m.group(2), first_gap=len(m.group(2)) - len(m.group(2).lstrip()))
        else:
            self.entries(s, first_gap=len(s) - len(s.lstrip()) - 5)

    def entries(self, rest: str, first_gap: int) -> None:
        pos = 0
        col = 1 if first_gap > _RIGHT_GAP else 0
        n = 0
        body = rest.strip()
        while pos < len(body):
            m = _ENTRY.match(body, pos)
            if m is None:
                raise self.fail(f"cannot read {body[pos:pos + 30]!r}")
            if col > 1:
                raise self.fail("more than two entries on one line")
            self.entry(m, Side(col))
            col += 1
            n += 1
            pos = m.end()
            while pos < len(body) and body[pos] in " \t":
                pos += 1
        if n == 0:
            return

    def entry(self, m: re.Match[str], side: Side) -> None:
        g = self.game
        assert g is not None
        if g.winner is not None:
            raise self.fail("an action after the game was won")
        if m.group("dice"):
            dice = (int(m.group("dice")[0]), int(m.group("dice")[1]))
            text = " ".join(_token(t) for t in m.group("moves").split())
            before = g.pos.with_turn(side)
            try:
                play = parse_play(before, text) if text else ()
                after = apply_play(before, play)
                legal = is_legal(before, dice, after)
            except RulesError as exc:
                raise self.fail(f"{m.group(0).strip()!r}: {exc}") from exc
            g.actions.append(Turn(side, dice, play, before, after, legal))
            g.pos = after
        elif m.group("double"):
            value = int(m.group("value"))
            if value < 2 or value & (value - 1):
                raise self.fail(f"a cube doubles to a power of two, not {value}")
            g.offered = value
            g.actions.append(CubeAction(side, "double", value))
        elif m.group("take") or m.group("drop"):
            if not g.offered:
                raise self.fail("a take or drop without a double")
            action = "take" if m.group("take") else "drop"
            g.actions.append(CubeAction(side, action, g.offered))
            if action == "take":
                g.cube = g.offered
            g.offered = 0
        else:
            self.win(side, int(m.group("points")))

    def win(self, side: Side, points: int) -> None:
        g = self.game
        assert g is not None
        if points < 1:
            raise self.fail("a game is won by at least 1 point")
        g.winner, g.points = side, points
        last = g.actions[-1] if g.actions else None
        if isinstance(last, CubeAction) and last.action == "drop":
            g.result = "pass"
        elif game_winner(g.pos) is side:
            g.result = game_kind(g.pos, side).name.lower()
        else:
            g.result = "resign"
            g.actions.append(Resignation(side.other, max(1, min(3, points // g.cube))))

    def start_game(self, number: int) -> None:
        assert self.match is not None
        self.game = _GameState(number, self.match.score, self.match.crawford_game)

    def end_game(self) -> None:
        g = self.game
        if g is None:
            return
        self.games.append(GameRecord(g.number, g.score, g.crawford, tuple(g.actions),
                                     g.winner, g.points, g.result))
        if g.winner is not None and self.match is not None:
            try:
                self.match = self.match.after_game(g.winner, g.points)
            except RulesError as exc:
                raise self.fail(f"game {g.number}: {exc}") from exc
        self.game = None

    def result(self) -> MatchRecord:
        self.end_game()
        if self.length is None:
            raise FormatError("no 'N point match' line: not a .mat file")
        f = self.fields
        names = self.names or (f.get("Player 1", "Player 1"), f.get("Player 2", "Player 2"))
        try:
            cube_limit = int(f.get("CubeLimit", "64"))
            header = MatchHeader(
                players=names, match_length=self.length, event=f.get("Event", ""),
                round=f.get("Round", ""), site=f.get("Site", ""),
                date=f.get("EventDate", "").replace(".", "-"),
                time=f.get("EventTime", "").replace(".", ":"), match_id=f.get("Match ID", ""),
                crawford=f.get("Crawford", "On").lower() != "off",
                jacoby=f.get("Jacoby", "Off").lower() == "on",
                beavers=f.get("Beaver", "Off").lower() == "on", cube_limit=cube_limit,
            )
        except (ValueError, RulesError) as exc:
            raise FormatError(f"bad header: {exc}") from exc
        finished = self.match is not None and self.match.is_over is not None
        return MatchRecord(header, tuple(self.games), finished)


def _token(t: str) -> str:
    """gnubg/Jellyfish numbers to the rules notation: 25 = bar, 0 = off."""
    return "/".join("bar" + p[2:] if p.startswith("25") else "off" + p[1:]
                    if p.startswith("0") else p for p in t.split("/"))


def parse_mat(text: str) -> MatchRecord:
    """Read ``.mat`` text; :class:`FormatError` (naming the line) for anything malformed."""
    r = _Reader()
    try:
        for i, raw in enumerate(text.splitlines(), 1):
            r.lineno = i
            r.line(raw)
        return r.result()
    except FormatError:
        raise
    except (RulesError, ValueError, IndexError) as exc:  # defensive: never leak another error
        raise FormatError(f"line {r.lineno}: {exc}") from exc


def read_mat(path: str | os.PathLike[str]) -> MatchRecord:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise FormatError(f"{path}: cannot read ({exc.strerror})") from exc
    return parse_mat(text)
