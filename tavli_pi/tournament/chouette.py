"""Chouette: one box against a team led by a captain (H1-H4).

Pure like the rules: the dice of the seating roll come in as arguments.

- H1 ``Chouette.from_rolls``: everyone rolls one die; highest is the box, the
  next the captain, the rest in order of their roll. Ties reroll among the
  tied players (pass the rerolls as further rounds).
- H2 ``ChouetteGame.team_doubles`` needs every active member's consent; the
  box takes or passes against each member. ``ChouetteGame.box_doubles``: each
  member decides alone; those who pass pay their stake and drop out.
- H3 ``Chouette.after_game``: rotation.
- H4 each member has their own cube against the box, and ``ChouetteResult``
  settles the box with each member separately.

Choices where H1-H4 are silent (documented here, tested): a captain who drops
out hands the captaincy to the next active member for the rest of the game;
if the team then wins, that acting captain becomes the box. If every member
drops, the box has won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tavli_pi.errors import ConfigError, IllegalActionError
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.position import Side
from tavli_pi.rules.scoring import GameValue, points_won
from tavli_pi.rules.settings import Settings

__all__ = ["Chouette", "ChouetteGame", "ChouetteResult", "ChouetteSession", "seat_order"]


def seat_order(rounds: Sequence[Mapping[str, int]]) -> tuple[str, ...]:
    """Order players by their roll of one die, highest first (H1).

    ``rounds[0]`` holds everyone's die; each later round holds the rerolls of
    the players still tied. Raises ``IllegalActionError`` naming who must
    reroll when a tie is left.

    >>> seat_order([{"a": 3, "b": 5, "c": 3}, {"a": 2, "c": 6}])
    ('b', 'c', 'a')
    """
    if not rounds:
        raise IllegalActionError("everyone rolls one die to sit down (H1)")
    return _order(tuple(rounds[0]), rounds)


def _order(players: tuple[str, ...], rounds: Sequence[Mapping[str, int]]) -> tuple[str, ...]:
    if len(players) <= 1:
        return players
    if not rounds:
        raise IllegalActionError(
            f"{', '.join(sorted(players))} tied: they roll again (H1)"
        )
    roll = rounds[0]
    missing = [p for p in players if p not in roll]
    if missing:
        raise IllegalActionError(f"{', '.join(missing)} must roll one die too (H1)")
    for p in players:
        if not 1 <= roll[p] <= 6:
            raise IllegalActionError(f"{p} rolled {roll[p]}: a die shows 1-6 (H1)")
    out: list[str] = []
    for value in sorted({roll[p] for p in players}, reverse=True):
        group = tuple(p for p in players if roll[p] == value)
        out.extend(_order(group, rounds[1:]))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Chouette:
    """The seating: the box and the team in order, ``team[0]`` the captain."""

    box: str
    team: tuple[str, ...]

    def __post_init__(self) -> None:
        everyone = (self.box, *self.team)
        if len(self.team) < 2:
            raise ConfigError("a chouette needs three or more players (H1)")
        if len(set(everyone)) != len(everyone):
            raise ConfigError(f"every player sits once in a chouette, got {everyone}")

    @classmethod
    def from_rolls(cls, *rounds: Mapping[str, int]) -> Chouette:
        """Seat everyone by their roll of one die (H1); rerolls as later rounds."""
        order = seat_order(rounds)
        return cls(order[0], order[1:])

    @property
    def captain(self) -> str:
        return self.team[0]

    @property
    def players(self) -> tuple[str, ...]:
        return (self.box, *self.team)

    def start_game(self, *, box_side: Side = Side.WHITE) -> ChouetteGame:
        """A new game: every member has a centred cube against the box (H4)."""
        return ChouetteGame(
            self.box, box_side, self.team, tuple(CubeState() for _ in self.team)
        )

    def after_game(self, box_won: bool, *, captain: str | None = None) -> Chouette:
        """Rotate after a game (H3).

        Box wins: it stays, the captain goes to the end of the team, the next
        member becomes captain. Team wins: the captain (``captain``, the one
        who finished the game as captain, default ``team[0]``) becomes the box
        and the box goes to the end of the team.
        """
        if box_won:
            return Chouette(self.box, (*self.team[1:], self.team[0]))
        new_box = captain or self.team[0]
        if new_box not in self.team:
            raise ConfigError(f"{new_box!r} is not on the team {self.team} (H3)")
        rest = tuple(p for p in self.team if p != new_box)
        return Chouette(new_box, (*rest, self.box))


@dataclass(frozen=True, slots=True)
class ChouetteResult:
    """A finished chouette game: each player's net amount (sums to zero, H4)."""

    box_won: bool
    captain: str | None  # who finished as captain; None if every member dropped
    settlement: tuple[tuple[str, int], ...]

    def amount(self, player: str) -> int:
        return dict(self.settlement).get(player, 0)


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """One game: the active members, each with their own cube (H4).

    A member's cube is from the board's view: ``owner == box_side`` is owned
    by the box, ``owner == box_side.other`` by that member. ``dropped`` keeps
    each member who passed a box double with the stake they paid (H2), and
    ``passed_by_box`` each member whose double the box passed with what the
    box paid.
    """

    box: str
    box_side: Side
    members: tuple[str, ...]
    cubes: tuple[CubeState, ...]
    dropped: tuple[tuple[str, int], ...] = ()
    passed_by_box: tuple[tuple[str, int], ...] = ()
    max_cube: int = 64

    def __post_init__(self) -> None:
        if len(self.members) != len(self.cubes):
            raise ConfigError("one cube per team member (H4)")

    @property
    def team_side(self) -> Side:
        return self.box_side.other

    @property
    def captain(self) -> str | None:
        """The acting captain: the first active member (None when all dropped)."""
        return self.members[0] if self.members else None

    @property
    def is_over(self) -> bool:
        """True when no member is left (everyone passed or was passed)."""
        return not self.members

    def cube_of(self, member: str) -> CubeState:
        try:
            return self.cubes[self.members.index(member)]
        except ValueError:
            raise ConfigError(f"{member!r} is not an active team member ({self.members})") from None

    def team_can_double(self) -> bool:
        """Every active member may double their own cube (C2, C4): H2 needs all."""
        return bool(self.members) and all(
            c.can_double(self.team_side, max_cube=self.max_cube) for c in self.cubes
        )

    def box_can_double(self) -> tuple[str, ...]:
        """The members whose cube the box may double now (C2, C4)."""
        return tuple(
            m for m, c in zip(self.members, self.cubes)
            if c.can_double(self.box_side, max_cube=self.max_cube)
        )

    def team_doubles(
        self, consent: Mapping[str, bool], box_takes: bool | Mapping[str, bool]
    ) -> ChouetteGame:
        """The team doubles the box: only unanimously (H2).

        ``box_takes``: the box's answer to every member, or per member (H4: it
        settles with each separately). A member whose double the box passes
        wins that cube's value and leaves the game.
        """
        refusing = [m for m in self.members if not consent.get(m, False)]
        if refusing:
            raise IllegalActionError(
                f"the team doubles only unanimously (H2): {', '.join(refusing)} did not agree"
            )
        if not self.team_can_double():
            raise IllegalActionError(
                "the team cannot double: some member's cube is owned by the box "
                f"or at {self.max_cube} (C2, C4, H2)"
            )
        members: list[str] = []
        cubes: list[CubeState] = []
        paid = list(self.passed_by_box)
        for m, c in zip(self.members, self.cubes):
            take = box_takes if isinstance(box_takes, bool) else box_takes.get(m)
            if take is None:
                raise IllegalActionError(f"the box must take or pass {m}'s double (H2, C3)")
            if take:
                members.append(m)
                cubes.append(c.doubled(self.box_side, max_cube=self.max_cube))
            else:
                paid.append((m, c.value))
        return ChouetteGame(
            self.box, self.box_side, tuple(members), tuple(cubes),
            self.dropped, tuple(paid), self.max_cube,
        )

    def box_doubles(self, takes: Mapping[str, bool]) -> ChouetteGame:
        """The box doubles every member it may (H2): each takes or passes alone.

        Those who pass pay their current stake and drop out; those who take
        own their cube at twice the value.
        """
        doubled = self.box_can_double()
        if not doubled:
            raise IllegalActionError(
                "the box cannot double: every member owns their cube or it is at "
                f"{self.max_cube} (C2, C4)"
            )
        members: list[str] = []
        cubes: list[CubeState] = []
        dropped = list(self.dropped)
        for m, c in zip(self.members, self.cubes):
            if m not in doubled:
                members.append(m)
                cubes.append(c)
                continue
            if m not in takes:
                raise IllegalActionError(f"{m} must take or pass the box's double alone (H2)")
            if takes[m]:
                members.append(m)
                cubes.append(c.doubled(self.team_side, max_cube=self.max_cube))
            else:
                dropped.append((m, c.value))
        return ChouetteGame(
            self.box, self.box_side, tuple(members), tuple(cubes),
            tuple(dropped), self.passed_by_box, self.max_cube,
        )

    def finish(
        self,
        box_won: bool,
        value: GameValue = GameValue.SINGLE,
        *,
        settings: Settings = Settings(),
    ) -> ChouetteResult:
        """Settle the game (H4): the box against each member, cube by cube.

        ``box_won``/``value`` describe how the board game ended for the
        members still in; earlier passes are settled as recorded.
        """
        if self.is_over and not box_won and not self.passed_by_box:
            raise IllegalActionError("every member dropped out: the box has won (H2)")
        book: dict[str, int] = {self.box: 0}
        for m, stake in self.dropped:
            book[m] = book.get(m, 0) - stake
            book[self.box] += stake
        for m, stake in self.passed_by_box:
            book[m] = book.get(m, 0) + stake
            book[self.box] -= stake
        for m, c in zip(self.members, self.cubes):
            pts = points_won(value, c, settings=settings)
            sign = -1 if box_won else 1
            book[m] = book.get(m, 0) + sign * pts
            book[self.box] -= sign * pts
        return ChouetteResult(box_won, self.captain, tuple(book.items()))


@dataclass(frozen=True, slots=True)
class ChouetteSession:
    """The seating plus running per-player totals over games (H3, H4)."""

    chouette: Chouette
    totals: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if not self.totals:
            object.__setattr__(self, "totals", tuple((p, 0) for p in self.chouette.players))

    def total(self, player: str) -> int:
        return dict(self.totals)[player]

    def after(self, result: ChouetteResult) -> ChouetteSession:
        """Add a game's settlement to the totals and rotate the seats (H3)."""
        book = dict(self.totals)
        for player, amount in result.settlement:
            book[player] = book.get(player, 0) + amount
        return ChouetteSession(
            self.chouette.after_game(result.box_won, captain=result.captain),
            tuple(book.items()),
        )
