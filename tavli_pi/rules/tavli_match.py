"""The tavli match (T1-T4, V3): games in rotation to an agreed number of points.

A pure state object: the score, the games played, who won the last one. Games
rotate through ``MatchSettings.games`` (T2, default Portes, Plakoto, Fevga);
the match ends when a side reaches ``match_length`` (T1). There is no cube in
any game of the match (V2, T3) and no Crawford rule (T4). The winner of the
previous game starts the next by rolling both dice (V3,
``tavli.winner_starts``); the first game, a game after a draw (P6), or every
game with ``winner_starts`` off, opens with the one-die roll.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tavli_pi.errors import IllegalActionError
from tavli_pi.rules.position import Side
from tavli_pi.rules.tavli_settings import MatchSettings, Variant

__all__ = ["TavliMatch", "GameEntry"]


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One finished game of the match: its variant, winner (None = draw) and points."""

    variant: Variant
    winner: Side | None
    points: int


@dataclass(frozen=True, slots=True)
class TavliMatch:
    """Score and history of a tavli match.

    >>> m = TavliMatch(MatchSettings(match_length=3))
    >>> m.variant.value, m.starter
    ('portes', None)
    >>> m = m.after_game(Side.BLACK, 2)
    >>> m.variant.value, m.score, m.starter
    ('plakoto', (0, 2), <Side.BLACK: 1>)
    """

    settings: MatchSettings = MatchSettings()
    score: tuple[int, int] = (0, 0)
    history: tuple[GameEntry, ...] = ()

    #: T3/V2: no cube in any game of a tavli match; T4: no Crawford rule
    cube_allowed = False
    crawford = False

    @property
    def game_number(self) -> int:
        """The number (1-based) of the game being played or next to play."""
        return len(self.history) + 1

    @property
    def variant(self) -> Variant:
        """The game to play now (T2 rotation)."""
        games = self.settings.games
        return games[len(self.history) % len(games)]

    @property
    def winner(self) -> Side | None:
        """The side that reached the match length (T1), or None."""
        for side in Side:
            if self.score[side] >= self.settings.match_length:
                return side
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def starter(self) -> Side | None:
        """Who starts the next game by rolling both dice (V3), or None for the opening roll."""
        if not self.settings.winner_starts or not self.history:
            return None
        return self.history[-1].winner

    def after_game(self, winner: Side | None, points: int) -> TavliMatch:
        """The match after the current game ended: ``winner`` None for a P6 draw (0 points)."""
        if self.over:
            raise IllegalActionError(
                f"the match to {self.settings.match_length} is over (T1): start a new match"
            )
        if winner is None:
            if points != 0:
                raise IllegalActionError("a drawn game (P6) is worth 0 points to each side")
        elif points not in (1, 2, 3) or (points == 3 and (
                self.variant is not Variant.PORTES or self.settings.portes_backgammon != 3)):
            raise IllegalActionError(
                f"a {self.variant.value} game is worth 1 or 2 points (V5, P6, T3), got {points}"
            )
        score = list(self.score)
        if winner is not None:
            score[winner] += points
        return replace(
            self,
            score=(score[0], score[1]),
            history=self.history + (GameEntry(self.variant, winner, points),),
        )
