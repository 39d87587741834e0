"""A money session between two players: running totals over games (C5, E1).

Pure like the rules: dice, positions and outcomes come in as arguments. The
money settings (Jacoby, beavers, automatic doubles) come from ``Settings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavli_pi.errors import ConfigError
from tavli_pi.rules.cube import CubeState, automatic_double
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import GameValue, Outcome, Resignation, outcome_borne_off
from tavli_pi.rules.settings import Settings

__all__ = ["MoneySession"]


@dataclass(frozen=True, slots=True)
class MoneySession:
    """Two named players, the money settings and what each has won so far.

    ``seats`` says who plays White and who plays Black in the current game
    (players may change sides between games: pass ``seats`` to ``after``).
    ``balances`` is each player's net result in points, summing to zero.

    >>> s = MoneySession(("ann", "bob"))
    >>> s = s.after(Resignation(Side.BLACK).accepted(CubeState(2, Side.BLACK)))
    >>> s.balance("ann"), s.balance("bob")
    (2, -2)
    """

    seats: tuple[str, str]
    settings: Settings = Settings()
    balances: tuple[tuple[str, int], ...] = ()
    outcomes: tuple[Outcome, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.seats[0] == self.seats[1]:
            raise ConfigError(f"a money session needs two different players, got {self.seats}")
        if not self.balances:
            object.__setattr__(self, "balances", tuple((p, 0) for p in self.seats))

    # -- queries --------------------------------------------------------
    def balance(self, player: str) -> int:
        for name, amount in self.balances:
            if name == player:
                return amount
        raise ConfigError(f"{player!r} has not played in this session; players: {self.players}")

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.balances)

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def player(self, side: Side) -> str:
        return self.seats[side]

    # -- game helpers (money rules) --------------------------------------------
    def opening_cube(self, ties: int) -> CubeState:
        """The cube after ``ties`` tied opening rolls (E1 automatic doubles, C5)."""
        cube = CubeState()
        for n in range(ties):
            cube = automatic_double(cube, n, self.settings)
        return cube

    def can_beaver(self, taker: Side, cube: CubeState) -> bool:
        """May ``taker`` beaver a double of ``cube`` (C5)?"""
        return cube.can_beaver(taker, settings=self.settings)

    def borne_off(self, pos: Position, cube: CubeState) -> Outcome:
        """The outcome of a game ended by bearing off, with Jacoby if set (S1, C5)."""
        return outcome_borne_off(pos, cube, settings=self.settings)

    def resigned(self, by: Side, level: GameValue, cube: CubeState) -> Outcome:
        """The outcome of an accepted resignation (S4)."""
        return Resignation(by, level).accepted(cube, settings=self.settings)

    # -- transitions ----------------------------------------------------------
    def after(self, outcome: Outcome, *, seats: tuple[str, str] | None = None) -> MoneySession:
        """Settle one game: the winner's player gains ``outcome.points`` from the loser's.

        ``seats``: who played (White, Black) in that game, if not ``self.seats``;
        it becomes the session's seating for the next game.
        """
        seated = seats or self.seats
        if seated[0] == seated[1]:
            raise ConfigError(f"two different players must be seated, got {seated}")
        winner, loser = seated[outcome.winner], seated[outcome.winner.other]
        book = dict(self.balances)
        book[winner] = book.get(winner, 0) + outcome.points
        book[loser] = book.get(loser, 0) - outcome.points
        return MoneySession(seated, self.settings, tuple(book.items()), (*self.outcomes, outcome))
