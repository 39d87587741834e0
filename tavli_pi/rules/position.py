"""The immutable backgammon position (B1-B3).

Physical numbering is White's (B2): ``points[i]`` is White's point ``i + 1``.
A positive count is White checkers, a negative count Black checkers. White
moves from 24 toward 1; Black moves from White's 1 toward 24 (Black's own
point ``p`` is White's ``25 - p``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tavli_pi.errors import InvalidPositionError

__all__ = ["Side", "Position", "CHECKERS", "START_LAYOUT", "physical_point"]

CHECKERS = 15

#: B3: own point -> checkers, from each side's own view.
START_LAYOUT: dict[int, int] = {24: 2, 13: 5, 8: 3, 6: 5}

_new = object.__new__
_set = object.__setattr__


class Side(IntEnum):
    """The two sides; also indexes ``Position.bar`` and ``Position.off``."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    @property
    def title(self) -> str:
        """The side's name as players read it: "White" or "Black"."""
        return self.name.capitalize()

    @property
    def sign(self) -> int:
        """+1 for White, -1 for Black: the sign of this side's counts in ``points``."""
        return 1 if self is Side.WHITE else -1


def physical_point(side: Side, own_point: int) -> int:
    """Map a side's own point number (1-24) to White's numbering (B2)."""
    return own_point if side is Side.WHITE else 25 - own_point


@dataclass(frozen=True, slots=True)
class Position:
    """24 points, the bar, the trays and the side on roll.

    >>> Position.start().pip_count(Side.WHITE)
    167
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    turn: Side = Side.WHITE

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise InvalidPositionError(
                f"a position needs 24 points, got {len(self.points)} (B1)"
            )
        if len(self.bar) != 2 or len(self.off) != 2:
            raise InvalidPositionError(
                f"bar and off are (white, black) pairs, got bar={self.bar!r} off={self.off!r} (B1)"
            )
        if not isinstance(self.turn, Side):
            raise InvalidPositionError(
                f"turn is Side.WHITE or Side.BLACK, got {self.turn!r}"
            )
        for side in Side:
            if self.bar[side] < 0 or self.off[side] < 0:
                raise InvalidPositionError(
                    f"{side.name.lower()} has a negative bar or tray count (B1)"
                )
            total = self.on_board(side) + self.bar[side] + self.off[side]
            if total != CHECKERS:
                raise InvalidPositionError(
                    f"{side.name.lower()} has {total} checkers, needs {CHECKERS} (B1): "
                    "count the points, the bar and the tray again"
                )

    # -- construction -------------------------------------------------
    @classmethod
    def _trusted(
        cls, points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int], turn: Side
    ) -> Position:
        """Build without validation: only for positions derived from valid ones."""
        p = _new(cls)
        _set(p, "points", points)
        _set(p, "bar", bar)
        _set(p, "off", off)
        _set(p, "turn", turn)
        return p

    @classmethod
    def start(cls, turn: Side = Side.WHITE) -> Position:
        """The starting position (B3)."""
        pts = [0] * 24
        for own, n in START_LAYOUT.items():
            pts[own - 1] += n
            pts[physical_point(Side.BLACK, own) - 1] -= n
        return cls(tuple(pts), (0, 0), (0, 0), turn)

    @classmethod
    def from_counts(
        cls,
        white: dict[int, int],
        black: dict[int, int],
        *,
        bar: tuple[int, int] = (0, 0),
        turn: Side = Side.WHITE,
    ) -> Position:
        """Build from each side's *own* numbering; missing checkers are borne off.

        >>> p = Position.from_counts({1: 15}, {1: 15})
        >>> p.count(Side.BLACK, 1), p.points[23]
        (15, -15)
        """
        pts = [0] * 24
        for side, layout in ((Side.WHITE, white), (Side.BLACK, black)):
            name = side.name.lower()
            placed = sum(layout.values()) + bar[side]
            if placed > CHECKERS:
                raise InvalidPositionError(
                    f"{name} has {placed} checkers on the points and the bar, "
                    f"at most {CHECKERS} (B1): count them again"
                )
            for own, n in layout.items():
                if not 1 <= own <= 24:
                    raise InvalidPositionError(f"point {own} is not 1-24 (B1)")
                if n < 0:
                    raise InvalidPositionError(
                        f"{name} has {n} checkers on its point {own}: counts are 0 or more (B1)"
                    )
                i = physical_point(side, own) - 1
                if n and pts[i] * side.sign < 0:
                    raise InvalidPositionError(
                        f"point {i + 1} holds checkers of both sides (B1)"
                    )
                pts[i] += side.sign * n
        off = tuple(
            CHECKERS - sum(layout.values()) - bar[s]
            for s, layout in ((0, white), (1, black))
        )
        return cls(tuple(pts), bar, (off[0], off[1]), turn)

    # -- queries --------------------------------------------------------
    def count(self, side: Side, own_point: int) -> int:
        """Checkers of ``side`` on its own point ``own_point`` (1-24)."""
        v = self.points[physical_point(side, own_point) - 1] * side.sign
        return v if v > 0 else 0

    def on_board(self, side: Side) -> int:
        s = side.sign
        return sum(v * s for v in self.points if v * s > 0)

    def pip_count(self, side: Side) -> int:
        """Pips ``side`` needs to bear everything off (bar counts 25)."""
        return 25 * self.bar[side] + sum(
            own * self.count(side, own) for own in range(1, 25)
        )

    def with_turn(self, turn: Side) -> Position:
        """The same checkers with ``turn`` on roll."""
        if not isinstance(turn, Side):
            raise InvalidPositionError(f"turn is Side.WHITE or Side.BLACK, got {turn!r}")
        return Position._trusted(self.points, self.bar, self.off, turn)

    def key(self) -> tuple[tuple[int, ...], tuple[int, int], tuple[int, int], int]:
        """A hashable key of the whole position (checkers and side on roll)."""
        return (self.points, self.bar, self.off, int(self.turn))

    def layout_key(self) -> tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]:
        """A hashable key of the checkers only (ignores whose turn it is)."""
        return (self.points, self.bar, self.off)
