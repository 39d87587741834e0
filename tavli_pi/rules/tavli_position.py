"""The Plakoto / Fevga position and its notation (RULES-TAVLI.md, "Positions").

Physical numbering is White's in every game (White's home is 1-6).
``points[i]`` is the signed count of the checkers *on top* of White's point
``i + 1`` (positive White, negative Black) and ``pinned[i]`` the pinned
checker under them: ``+1`` a White checker pinned under Black's, ``-1`` a
Black checker pinned under White's, ``0`` none (P3: at most one per point,
at the bottom). There is no bar (V2).

Each side's own numbering (:func:`own_to_physical`): White's own point is the
physical one. Black's own point ``p`` is White's ``25 - p`` in Plakoto (the
sides move in opposite directions, P1) and White's ``p - 12`` (``p + 12``
below 13) in Fevga (both go the same way round; Black's 24 is White's 12, F1).

The notation writes the 24 points bottom-up (``b1w3`` one Black checker
pinned under three White ones, ``w2``, ``-`` empty), then White's and
Black's borne-off counts, then the side to move, all separated by spaces::

    b15 - - - - - - - - - - - - - - - - - - - - - - w15 0 0 white
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli_pi.errors import InvalidPositionError
from tavli_pi.rules.position import CHECKERS, Side
from tavli_pi.rules.tavli_settings import Variant

__all__ = [
    "TavliPosition",
    "own_to_physical",
    "physical_to_own",
    "parse_tavli_position",
    "format_tavli_position",
]

_new = object.__new__
_set = object.__setattr__


def own_to_physical(variant: Variant, side: Side, own: int) -> int:
    """A side's own point (1-24) in White's numbering (P1, F1)."""
    if side is Side.WHITE:
        return own
    if variant is Variant.FEVGA:
        return own - 12 if own > 12 else own + 12
    return 25 - own


def physical_to_own(variant: Variant, side: Side, phys: int) -> int:
    """White's point ``phys`` (1-24) in ``side``'s own numbering."""
    if side is Side.WHITE:
        return phys
    if variant is Variant.FEVGA:
        return phys + 12 if phys <= 12 else phys - 12
    return 25 - phys


@dataclass(frozen=True, slots=True)
class TavliPosition:
    """24 points with pins, the trays and the side on roll (no bar, V2).

    >>> TavliPosition.start(Variant.PLAKOTO).count(Side.BLACK, 24, Variant.PLAKOTO)
    15
    """

    points: tuple[int, ...]
    pinned: tuple[int, ...] = (0,) * 24
    off: tuple[int, int] = (0, 0)
    turn: Side = Side.WHITE

    def __post_init__(self) -> None:
        if len(self.points) != 24 or len(self.pinned) != 24:
            raise InvalidPositionError(
                f"a position needs 24 points, got {len(self.points)} (V1)"
            )
        if len(self.off) != 2 or min(self.off) < 0:
            raise InvalidPositionError(f"off is a (white, black) pair of counts >= 0, got {self.off!r} (V1)")
        if not isinstance(self.turn, Side):
            raise InvalidPositionError(f"turn is Side.WHITE or Side.BLACK, got {self.turn!r}")
        for i, (v, p) in enumerate(zip(self.points, self.pinned)):
            if p not in (-1, 0, 1):
                raise InvalidPositionError(
                    f"point {i + 1}: a point holds at most one pinned checker (P3), got {p!r}"
                )
            if p and v * p >= 0:
                raise InvalidPositionError(
                    f"point {i + 1}: a pinned checker lies under the other side's checkers (P3)"
                )
        for side in Side:
            total = self.on_board(side) + self.off[side]
            if total != CHECKERS:
                raise InvalidPositionError(
                    f"{side.name.lower()} has {total} checkers, needs {CHECKERS} (V1): "
                    "count the points and the tray again"
                )

    @classmethod
    def _trusted(
        cls, points: tuple[int, ...], pinned: tuple[int, ...], off: tuple[int, int], turn: Side
    ) -> TavliPosition:
        """Build without validation: only for positions derived from valid ones."""
        p = _new(cls)
        _set(p, "points", points)
        _set(p, "pinned", pinned)
        _set(p, "off", off)
        _set(p, "turn", turn)
        return p

    @classmethod
    def start(cls, variant: Variant, turn: Side = Side.WHITE) -> TavliPosition:
        """All 15 of each side on its own 24-point (P1, F1)."""
        if variant is Variant.PORTES:
            raise InvalidPositionError("Portes positions are gnubg positions: use Position.start()")
        pts = [0] * 24
        pts[own_to_physical(variant, Side.WHITE, 24) - 1] = CHECKERS
        pts[own_to_physical(variant, Side.BLACK, 24) - 1] = -CHECKERS
        return cls(tuple(pts), (0,) * 24, (0, 0), turn)

    @classmethod
    def from_stacks(
        cls, stacks: dict[int, str], off: tuple[int, int] = (0, 0), turn: Side = Side.WHITE
    ) -> TavliPosition:
        """From White-numbered point -> point token (``{1: "b1w3", 24: "w14"}``)."""
        toks = ["-"] * 24
        for p, tok in stacks.items():
            if not 1 <= p <= 24:
                raise InvalidPositionError(f"point {p} is not 1-24 (V1)")
            toks[p - 1] = tok
        name = "white" if turn is Side.WHITE else "black"
        return parse_tavli_position(" ".join([*toks, str(off[0]), str(off[1]), name]))

    # -- queries --------------------------------------------------------
    def stack(self, phys: int) -> tuple[int, int, int]:
        """(white, black, pinned) on White's point ``phys``."""
        v = self.points[phys - 1]
        p = self.pinned[phys - 1]
        w = (v if v > 0 else 0) + (1 if p == 1 else 0)
        b = (-v if v < 0 else 0) + (1 if p == -1 else 0)
        return w, b, p

    def count_physical(self, side: Side, phys: int) -> int:
        """Checkers of ``side`` (free or pinned) on White's point ``phys``."""
        return self.stack(phys)[side]

    def count(self, side: Side, own: int, variant: Variant) -> int:
        """Checkers of ``side`` on its own point ``own`` (pinned ones included)."""
        return self.count_physical(side, own_to_physical(variant, side, own))

    def on_board(self, side: Side) -> int:
        return sum(self.stack(p)[side] for p in range(1, 25))

    def pinned_side(self, phys: int) -> Side | None:
        """The side whose checker is pinned on White's point ``phys``, if any."""
        p = self.pinned[phys - 1]
        return None if p == 0 else Side.WHITE if p == 1 else Side.BLACK

    def with_turn(self, turn: Side) -> TavliPosition:
        return TavliPosition._trusted(self.points, self.pinned, self.off, turn)

    def layout_key(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, int]]:
        """A hashable key of the checkers only (ignores whose turn it is)."""
        return (self.points, self.pinned, self.off)

    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, int], int]:
        return (self.points, self.pinned, self.off, int(self.turn))

    def pip_count(self, side: Side, variant: Variant) -> int:
        """Pips ``side`` needs to bear everything off."""
        return sum(
            own * self.count(side, own, variant) for own in range(1, 25)
        )

    def __str__(self) -> str:
        return format_tavli_position(self)


# -- notation ----------------------------------------------------------------
_COLOUR = {"w": Side.WHITE, "b": Side.BLACK}


def _point_token(tok: str, i: int) -> tuple[int, int]:
    """A point token as (signed top count, pinned)."""
    where = f"point {i + 1} token {tok!r}"
    if tok == "-":
        return 0, 0
    parts: list[tuple[str, int]] = []
    j = 0
    while j < len(tok):
        c = tok[j]
        if c not in _COLOUR:
            raise InvalidPositionError(
                f"{where}: expected '-' or w/b followed by a count, e.g. w3 or b1w3"
            )
        k = j + 1
        while k < len(tok) and tok[k].isdigit():
            k += 1
        if k == j + 1:
            raise InvalidPositionError(f"{where}: expected a count after {c!r}, e.g. {c}2")
        n = int(tok[j + 1:k])
        if n < 1:
            raise InvalidPositionError(f"{where}: a count is 1 or more; write '-' for an empty point")
        parts.append((c, n))
        j = k
    if len(parts) == 1:
        c, n = parts[0]
        return (n if c == "w" else -n), 0
    if len(parts) == 2:
        (c1, n1), (c2, n2) = parts
        if c1 == c2:
            raise InvalidPositionError(
                f"{where}: the checkers above a pinned one are the other colour (P3): write e.g. b1w3"
            )
        if n1 != 1:
            raise InvalidPositionError(
                f"{where}: a point holds at most one pinned checker (P3): the bottom count must be 1"
            )
        return (n2 if c2 == "w" else -n2), (1 if c1 == "w" else -1)
    raise InvalidPositionError(
        f"{where}: at most two colours bottom-up (a pinned checker under the pinner's, P3), e.g. b1w3"
    )


def parse_tavli_position(text: str, variant: Variant | None = None) -> TavliPosition:
    """Parse the RULES-TAVLI.md notation (24 points, two tray counts, side to move).

    With ``variant`` FEVGA a pinned checker is refused (F2).

    >>> p = parse_tavli_position("b15 " + "- " * 22 + "w15 0 0 white")
    >>> format_tavli_position(p) == "b15 " + "- " * 22 + "w15 0 0 white"
    True
    """
    toks = text.split()
    if len(toks) != 27:
        raise InvalidPositionError(
            f"a tavli position has 27 tokens (24 points, white off, black off, side to move), "
            f"got {len(toks)}: e.g. 'b15 {'- ' * 22}w15 0 0 white'"
        )
    pts: list[int] = []
    pins: list[int] = []
    for i, tok in enumerate(toks[:24]):
        v, p = _point_token(tok.lower(), i)
        if p and variant is Variant.FEVGA:
            raise InvalidPositionError(
                f"point {i + 1} token {tok!r}: Fevga has no pinning (F2): never two colours on a point"
            )
        pts.append(v)
        pins.append(p)
    off: list[int] = []
    for name, tok in (("white", toks[24]), ("black", toks[25])):
        if not tok.isdigit() or int(tok) > CHECKERS:
            raise InvalidPositionError(
                f"{name} off token {tok!r}: expected a count of borne-off checkers 0-15"
            )
        off.append(int(tok))
    side = toks[26].lower()
    if side not in ("white", "black"):
        raise InvalidPositionError(f"side to move token {toks[26]!r}: expected white or black")
    return TavliPosition(
        tuple(pts), tuple(pins), (off[0], off[1]), Side.WHITE if side == "white" else Side.BLACK
    )


def _format_point(v: int, p: int) -> str:
    top = f"w{v}" if v > 0 else f"b{-v}" if v < 0 else "-"
    if p == 1:
        return "w1" + top
    if p == -1:
        return "b1" + top
    return top


def format_tavli_position(pos: TavliPosition) -> str:
    """The RULES-TAVLI.md notation of ``pos``."""
    pts = " ".join(_format_point(v, p) for v, p in zip(pos.points, pos.pinned))
    side = "white" if pos.turn is Side.WHITE else "black"
    return f"{pts} {pos.off[0]} {pos.off[1]} {side}"
