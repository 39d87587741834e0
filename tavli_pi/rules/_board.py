"""The mover's-view flat board used by the move generator (private).

``b[0]`` mover's tray, ``b[1..24]`` the mover's own points (positive = mover,
negative = opponent), ``b[25]`` the mover's bar, ``b[26]`` the opponent's bar.
"""

from __future__ import annotations

from operator import neg

from tavli_pi.rules.position import Position, Side

__all__ = ["BAR", "OPP_BAR", "to_own", "from_own", "furthest", "far_below"]

BAR = 25
OPP_BAR = 26


def to_own(pos: Position) -> list[int]:
    """The flat mover's-view board of ``pos`` for ``pos.turn``."""
    bar = pos.bar
    if pos.turn is Side.WHITE:
        return [pos.off[0], *pos.points, bar[0], bar[1]]
    return [pos.off[1], *map(neg, reversed(pos.points)), bar[1], bar[0]]


_new = object.__new__
_set = object.__setattr__


def from_own(b: list[int], turn: Side, opp_off: int) -> Position:
    """Build the Position for a (valid) mover's-view board, skipping validation."""
    p: Position = _new(Position)
    if turn is Side.WHITE:
        _set(p, "points", tuple(b[1:25]))
        _set(p, "bar", (b[25], b[26]))
        _set(p, "off", (b[0], opp_off))
    else:
        _set(p, "points", tuple([-x for x in b[24:0:-1]]))
        _set(p, "bar", (b[26], b[25]))
        _set(p, "off", (opp_off, b[0]))
    _set(p, "turn", turn)
    return p


def furthest(b: list[int]) -> int:
    """The mover's highest occupied slot (25 = bar), 0 when all are off."""
    for s in range(25, 0, -1):
        if b[s] > 0:
            return s
    return 0


def far_below(b: list[int], s: int) -> int:
    """The highest occupied slot below ``s``."""
    for p in range(s - 1, 0, -1):
        if b[p] > 0:
            return p
    return 0
