"""The end of a Plakoto or Fevga game and its points (V5, V6, P6).

A game ends when a side has borne off all 15 (V4, V5: 1 point, 2 for a mars
when the loser has borne off none) or, in Plakoto, when a pinned mother
decides it (P6, setting ``plakoto.mother``): 2 points, or a draw (0 each).
Judged on the position alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tavli_pi.rules.position import CHECKERS, Side
from tavli_pi.rules.tavli_position import TavliPosition, own_to_physical
from tavli_pi.rules.tavli_settings import Mother, TavliSettings, Variant

__all__ = ["EndReason", "GameOver", "game_over", "mother_pinned"]

_DEFAULT = TavliSettings()


class EndReason(Enum):
    """Why a game ended."""

    BORNE_OFF = "borne off"  # V5
    MOTHER = "mother"  # P6: a pinned mother decided the game
    MOTHER_DRAW = "mother draw"  # P6: both mothers pinned


@dataclass(frozen=True, slots=True)
class GameOver:
    """A finished game: ``winner`` None for a draw (P6), ``points`` to the winner."""

    winner: Side | None
    points: int
    reason: EndReason

    @property
    def mars(self) -> bool:
        """A gammon: 2 points by bearing off while the loser has borne off none (V5)."""
        return self.reason is EndReason.BORNE_OFF and self.points == 2


def mother_pinned(pos: TavliPosition, side: Side) -> bool:
    """Whether ``side``'s checker lies pinned on its own 24-point (P6, Plakoto)."""
    phys = own_to_physical(Variant.PLAKOTO, side, 24)
    return pos.pinned[phys - 1] == (1 if side is Side.WHITE else -1)


def _free_on_own_24(pos: TavliPosition, side: Side) -> bool:
    phys = own_to_physical(Variant.PLAKOTO, side, 24)
    return pos.points[phys - 1] * side.sign > 0


def game_over(
    variant: Variant, pos: TavliPosition, settings: TavliSettings = _DEFAULT
) -> GameOver | None:
    """The end of the game in ``pos``, or None while it goes on (V5, P6).

    >>> game_over(Variant.FEVGA, TavliPosition.start(Variant.FEVGA)) is None
    True
    """
    for side in Side:
        if pos.off[side] == CHECKERS:
            mars = pos.off[side.other] == 0
            return GameOver(side, 2 if mars else 1, EndReason.BORNE_OFF)
    if variant is not Variant.PLAKOTO or settings.mother is Mother.OFF:
        return None
    w = mother_pinned(pos, Side.WHITE)
    b = mother_pinned(pos, Side.BLACK)
    if w and b:
        return GameOver(None, 0, EndReason.MOTHER_DRAW)
    if not w and not b:
        return None
    loser = Side.WHITE if w else Side.BLACK
    pinner = loser.other
    if settings.mother is Mother.TWO_POINTS_UNLESS_OWN_MOTHER and _free_on_own_24(pos, pinner):
        return None  # play goes on until the pinner's own 24-point empties
    return GameOver(pinner, 2, EndReason.MOTHER)
