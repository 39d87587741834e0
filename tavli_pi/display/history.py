"""What the page shows beyond one event: the game's move list, the last play, where the dice lie.

The referee's events carry each play (``PlayAccepted.play`` in gnubg notation,
its ``before``/``after`` positions and dice) but no dice positions: the
Observation knows where each die lies, the events only their values. So the
dice are laid where a real table has them: each player rolls into their own
right-hand half (E2), which for White, seated at the bottom of the drawn board,
is the drawn right half and for Black the drawn left half; the opening roll
(E1) has one die in each half.

Fed every event in order (``feed``), it keeps only the current game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavli_pi.record.game_record import play_from, resolved_dice
from tavli_pi.referee.events import (
    CubeOffered,
    CubePassed,
    CubeTaken,
    Event,
    GameOver,
    GameStarted,
    IllegalPlay,
    IllegalPlayResolved,
    NoLegalMove,
    OpeningRoll,
    PlayAccepted,
    RollAccepted,
)
from tavli_pi.rules.moves import Play, format_play
from tavli_pi.rules.games import GamePosition
from tavli_pi.rules.position import Position, Side, physical_point
from tavli_pi.rules.tavli_position import TavliPosition

__all__ = ["TableHistory", "LastPlay", "marks_of", "dice_laid", "DICE_PHASES"]

#: Phases in which the thrown dice lie on the board (E5: until they are picked up).
DICE_PHASES = frozenset({"rolled", "judging", "illegal", "correcting"})

_BAR, _OFF = 25, 0  # the mover's own numbering (rules.moves.Move)


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The last play: who, the dice, gnubg notation, and the points checkers left and reached."""

    side: Side
    dice: tuple[int, int]
    notation: str
    sources: tuple[int | str, ...]  # White's numbering, or "bar"; one entry per checker
    targets: tuple[int | str, ...]  # White's numbering, or "off"; one entry per checker
    hits: tuple[int, ...]  # White's numbering of the points where a blot was hit

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side.name.lower(),
            "dice": list(self.dice),
            "notation": self.notation,
            "from": list(self.sources),
            "to": list(self.targets),
            "hits": list(self.hits),
        }


def marks_of(side: Side, play: Play) -> tuple[tuple[int | str, ...], tuple[int | str, ...], tuple[int, ...]]:
    """The points checkers left and reached (net of the hops in between), and the hit points.

    ``play`` is per die in ``side``'s own numbering; the result is in White's
    numbering (B2), ``"bar"`` and ``"off"`` for the bar and the tray.
    """
    srcs = [m.src for m in play]
    dsts = [m.dst for m in play]
    for p in list(dsts):  # a checker passing through a point (13/7*/5) neither left nor reached it
        if p in srcs and p in dsts and p not in (_BAR, _OFF):
            srcs.remove(p)
            dsts.remove(p)

    def phys(p: int, edge: str) -> int | str:
        return edge if p in (_BAR, _OFF) else physical_point(side, p)

    sources = tuple(phys(p, "bar") for p in sorted(srcs, reverse=True))
    targets = tuple(phys(p, "off") for p in sorted(dsts, reverse=True))
    hits = tuple(physical_point(side, m.dst) for m in play if m.hit)
    return sources, targets, hits


def tavli_marks(side: Side, before: TavliPosition, after: TavliPosition
                ) -> tuple[tuple[int | str, ...], tuple[int | str, ...], tuple[int, ...]]:
    """Plakoto/Fevga: the White-numbered points ``side``'s checkers left and reached, and the new pins (P3)."""
    sources: list[int | str] = []
    targets: list[int | str] = []
    for p in range(24, 0, -1):
        d = after.count_physical(side, p) - before.count_physical(side, p)
        sources += [p] * max(0, -d)
        targets += [p] * max(0, d)
    targets += ["off"] * (after.off[side] - before.off[side])
    pins = tuple(p for p in range(1, 25) if after.pinned[p - 1] == -side.sign and before.pinned[p - 1] != after.pinned[p - 1])
    return tuple(sources), tuple(targets), pins


def dice_laid(dice: tuple[int, ...], roller: Side, opening: tuple[int, int] | None = None) -> list[dict[str, Any]]:
    """Each die and the drawn half it lies in: ``{"value", "half", "side"}``.

    The roller's right hand is the drawn right half for White (seated at the
    bottom) and the drawn left half for Black. The opening roll has White's die
    on the right and Black's on the left (E1).
    """
    if opening is not None:
        return [
            {"value": opening[1], "half": "left", "side": "black"},
            {"value": opening[0], "half": "right", "side": "white"},
        ]
    half = "right" if roller is Side.WHITE else "left"
    # two dice, doubles too; a die the camera never read (0) is not drawn
    return [{"value": d, "half": half, "side": roller.name.lower()} for d in dice[:2] if d]


@dataclass(slots=True)
class TableHistory:
    """The current game's move list (gnubg notation), its last play and the opening dice."""

    game_number: int = 0
    rows: list[list[str]] = field(default_factory=list)  # [White's entry, Black's entry]
    last_play: LastPlay | None = None
    opening: tuple[int, int] | None = None  # (White's die, Black's die) until the first roll after it
    _illegal: IllegalPlay | None = None
    _last_turn: tuple[Side, object, int] | None = None  # the side, position key and row of the last turn

    def feed(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            self.game_number = event.game_number
            self.rows = []
            self.last_play = None
            self.opening = None
            self._last_turn = None
        elif isinstance(event, OpeningRoll):
            self.opening = (event.white_die, event.black_die)
        elif isinstance(event, RollAccepted):
            self.opening = None
        elif isinstance(event, PlayAccepted):
            self._play(event.side, event.dice, event.before, event.after, event.play)
        elif isinstance(event, NoLegalMove):
            before = event.state.position.with_turn(event.side)  # the state may already be after the pass
            self._play(event.side, event.dice, before, before, "")
        elif isinstance(event, IllegalPlay):
            self._illegal = event
        elif isinstance(event, IllegalPlayResolved) and self._illegal is not None:
            ill = self._illegal
            self._illegal = None
            self._play(ill.side, resolved_dice(ill, event), ill.before, event.after, event.play)
        elif isinstance(event, CubeOffered):
            self._add(event.side, f"Doubles => {event.value}")
        elif isinstance(event, CubeTaken):
            self._add(event.side, "Takes")
        elif isinstance(event, CubePassed):
            self._add(event.side, "Drops")
        elif isinstance(event, GameOver):
            pts = f"{event.points} point{'s' if event.points != 1 else ''}"
            if event.winner is None:
                self._add(Side.WHITE, "Draw (P6)")
            else:
                self._add(event.winner, f"Wins {pts}")

    def _play(self, side: Side, dice: tuple[int, int], before: GamePosition, after: GamePosition,
              text: str) -> None:
        self.opening = None
        if isinstance(before, TavliPosition) and isinstance(after, TavliPosition):
            # Plakoto/Fevga: the referee's text (the mover's own numbering); pins marked like hits
            notation = text
            sources, targets, hits = tavli_marks(side, before, after)
        else:
            assert isinstance(before, Position) and isinstance(after, Position)
            play, _legal = play_from(before, after, dice, text)
            notation = text or format_play(play)
            sources, targets, hits = marks_of(side, play)
        self.last_play = LastPlay(side, dice, notation, sources, targets, hits)
        entry = f"{dice[0]}{dice[1]}: {notation or '(no move)'}"
        key = before.key()
        last = self._last_turn
        if last is not None and last[0] is side and last[1] == key and last[2] == len(self.rows) - 1:
            # the same turn again (a pass reported, then the dice picked up; an E8 correction): replace it
            self.rows[-1][side] = entry
        else:
            self._add(side, entry)
        self._last_turn = (side, key, len(self.rows) - 1)

    def _add(self, side: Side, entry: str) -> None:
        """gnubg's layout: White's entries on the left, Black's on the right, one row per exchange."""
        if side is Side.WHITE or not self.rows or self.rows[-1][1]:
            self.rows.append(["", ""])
        self.rows[-1][side] = entry
        self._last_turn = None

    def moves_json(self) -> list[dict[str, Any]]:
        return [{"n": i + 1, "white": w, "black": b} for i, (w, b) in enumerate(self.rows)]
