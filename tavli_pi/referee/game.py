"""The game being refereed: what the referee asks the rules, per game of a tavli match.

The referee's turn cycle, etiquette (E-rules) and rules-constrained reading
are the same in Portes, Plakoto and Fevga; only the questions it puts to the
rules differ. A :class:`GameRules` answers them: the set-up, the legal ends
of a turn (:func:`tavli_pi.rules.games.legal_ends`), the judgement of an
illegal end, the game's end and points (:func:`~tavli_pi.rules.games.game_result`),
the per-spot checker counts of a position (a Plakoto point may hold both
colours: a pinned checker under the pinner's, P3) and the reverse.

:class:`PortesRules` calls exactly the Portes functions the referee always
called, so Portes refereeing is unchanged. :class:`TavliRules` serves
Plakoto and Fevga. Both are plain objects (a referee snapshot pickles them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavli_pi.errors import InvalidPositionError
from tavli_pi.referee.evidence import SPOTS, counts_to_position, spot_counts
from tavli_pi.rules import moves as portes
from tavli_pi.rules import tavli_moves as tavli
from tavli_pi.rules.games import End, GamePosition, GameResult, game_result, legal_ends
from tavli_pi.rules.position import CHECKERS, Position, Side
from tavli_pi.rules.scoring import game_winner
from tavli_pi.rules.tavli_position import TavliPosition, own_to_physical
from tavli_pi.rules.tavli_scoring import mother_pinned
from tavli_pi.rules.tavli_settings import MatchSettings, TavliSettings, Variant

__all__ = ["GameRules", "PortesRules", "TavliRules", "rules_for", "PIP_SLACK"]

#: Pips a (mis)play may move beyond the dice total and still be one play: one die.
PIP_SLACK = 6


class GameRules:
    """The rules questions of one game (Portes here; see :class:`TavliRules`)."""

    variant = Variant.PORTES
    cube = True  # the doubling cube is in play (never in Plakoto or Fevga: V2)

    def start(self, turn: Side = Side.WHITE) -> GamePosition:
        return Position.start(turn)

    def ends(self, pos: GamePosition, dice: tuple[int, int]) -> tuple[End, ...]:
        """The legal ends of the turn; empty when no play is legal (E7, V8)."""
        assert isinstance(pos, Position)
        return tuple(End(portes.format_play(r.plays[0]), r.position) for r in portes.legal_results(pos, dice))

    def end_turn(self, pos: GamePosition) -> GamePosition:
        assert isinstance(pos, Position)
        return portes.end_turn(pos)

    def finished(self, pos: GamePosition) -> bool:
        """The game is over on this position (S1; V5, P6)."""
        assert isinstance(pos, Position)
        return game_winner(pos) is not None

    def nearest(self, pos: GamePosition, dice: tuple[int, int], observed: GamePosition
                ) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The nearest legal plays (text) to an illegal end and the points where it is wrong."""
        assert isinstance(pos, Position) and isinstance(observed, Position)
        j = portes.judge(pos, dice, observed)
        return tuple(portes.format_play(r.plays[0]) or "(no move)" for _, r in j.nearest), j.wrong_points

    def broken_rule(self, before: GamePosition, observed: GamePosition, dice: tuple[int, int]) -> str:
        from tavli_pi.referee.sync import broken_rule

        assert isinstance(before, Position) and isinstance(observed, Position)
        return broken_rule(before, observed, dice)

    def one_play_reason(self, before: GamePosition, observed: GamePosition, dice: tuple[int, int]) -> str:
        from tavli_pi.referee.sync import one_play_reason

        assert isinstance(before, Position) and isinstance(observed, Position)
        return one_play_reason(before, observed, dice)

    def spot_counts(self, pos: GamePosition, light_is_white: bool = True) -> tuple[np.ndarray, np.ndarray]:
        assert isinstance(pos, Position)
        return spot_counts(pos, light_is_white)

    def counts_to_position(self, light: Sequence[int], dark: Sequence[int], turn: Side,
                           light_is_white: bool = True, hints: Sequence[GamePosition] = ()) -> GamePosition | None:
        return counts_to_position(light, dark, turn, light_is_white)

    def differing_points(self, known: GamePosition, observed: GamePosition) -> tuple[int, ...]:
        assert isinstance(known, Position) and isinstance(observed, Position)
        return portes.wrong_points(observed, known)


class PortesRules(GameRules):
    """Portes as a game of a tavli match: no cube (T3)."""

    def __init__(self, *, cube: bool = True) -> None:
        self.cube = cube


def _light_numbering(phys: np.ndarray, light_is_white: bool) -> np.ndarray:
    # light point i+1 is White's point i+1, or (dark is White) White's point 24-i
    return phys if light_is_white else phys[::-1]


class TavliRules(GameRules):
    """Plakoto or Fevga (RULES-TAVLI.md), with its rule settings."""

    cube = False

    def __init__(self, variant: Variant, settings: TavliSettings | None = None,
                 match: MatchSettings | None = None) -> None:
        if variant is Variant.PORTES:
            raise ValueError("TavliRules is for Plakoto and Fevga; Portes is PortesRules")
        self.variant = variant
        self.settings = settings or TavliSettings()
        self.match = match or MatchSettings()

    def start(self, turn: Side = Side.WHITE) -> GamePosition:
        return TavliPosition.start(self.variant, turn)

    def _pos(self, pos: GamePosition) -> TavliPosition:
        if not isinstance(pos, TavliPosition):
            raise InvalidPositionError(f"a {self.variant.value} position is a TavliPosition")
        return pos

    def ends(self, pos: GamePosition, dice: tuple[int, int]) -> tuple[End, ...]:
        return tuple(
            End(tavli.format_tavli_play(r.play), r.position)
            for r in tavli.legal_results(self.variant, self._pos(pos), dice, self.settings)
        )

    def end_turn(self, pos: GamePosition) -> GamePosition:
        return tavli.end_turn(self._pos(pos))

    def result(self, pos: GamePosition) -> GameResult | None:
        return game_result(self.variant, pos, self.settings, self.match)

    def finished(self, pos: GamePosition) -> bool:
        return self.result(pos) is not None

    def nearest(self, pos: GamePosition, dice: tuple[int, int], observed: GamePosition
                ) -> tuple[tuple[str, ...], tuple[int, ...]]:
        j = tavli.judge(self.variant, self._pos(pos), dice, self._pos(observed), self.settings)
        return tuple(tavli.format_tavli_play(r.play) or "(no move)" for _, r in j.nearest), j.wrong_points

    def _own(self, pos: TavliPosition, side: Side) -> list[int]:
        """``side``'s checkers: [0] off, [1..24] its own points (pinned ones included)."""
        return [pos.off[side]] + [pos.count(side, p, self.variant) for p in range(1, 25)]

    def one_play_reason(self, before: GamePosition, observed: GamePosition, dice: tuple[int, int]) -> str:
        """"" when ``observed`` can be the end of one play (legal or not) of the mover; else why not.

        Nothing is ever hit (V2): the opponent's checkers never move; only the
        colour order on a point changes when the mover pins (P3) or leaves.
        """
        b, o = self._pos(before), self._pos(observed)
        mover = b.turn
        opp = mover.other
        if self._own(b, opp) != self._own(o, opp):
            return f"{opp.title}'s checkers moved (nothing is ever hit in {self.variant.value}, V2)"
        moves = 4 if dice[0] == dice[1] else 2
        bm, am = self._own(b, mover), self._own(o, mover)
        if am[0] < bm[0]:
            return f"{mover.title} has fewer checkers borne off than before"
        left = sum(max(0, bm[p] - am[p]) for p in range(1, 25))
        if left > moves + 1:
            return f"{left} of {mover.title}'s checkers moved: more than one roll moves"
        total = sum(dice) * (2 if dice[0] == dice[1] else 1)
        pips = b.pip_count(mover, self.variant) - o.pip_count(mover, self.variant)
        if pips > total + PIP_SLACK:
            return f"{mover.title} moved {pips} pips with {dice[0]}-{dice[1]}"
        if pips < -total:
            return f"{mover.title}'s checkers went {-pips} pips backwards"
        return ""

    def broken_rule(self, before: GamePosition, observed: GamePosition, dice: tuple[int, int]) -> str:
        """The rule (RULES-TAVLI.md) an illegal end of one play most likely broke.

        P4: a pinned checker moved; P5: bore off with a checker pinned; V4/M6:
        bore off with checkers outside the home board; F2/P2: landed on a
        closed point; F3: a second checker left the 24-point before the first
        was through; F4/F5: a forbidden block; M1: backwards or too far; V7/M5:
        a die left unplayed; else M2.
        """
        b, o = self._pos(before), self._pos(observed)
        v = self.variant
        mover = b.turn
        sign = 1 if mover is Side.WHITE else -1
        bm, am = self._own(b, mover), self._own(o, mover)
        pinned_before = [p for p in range(1, 25) if b.pinned[own_to_physical(v, mover, p) - 1] == sign]
        for p in pinned_before:
            if am[p] < bm[p] and b.pinned[own_to_physical(v, mover, p) - 1] != o.pinned[own_to_physical(v, mover, p) - 1]:
                return "P4"
        if am[0] > bm[0]:
            if v is Variant.PLAKOTO and pinned_before:
                return "P5"
            if any(bm[p] for p in range(7, 25)):
                return "M6"
        opp = mover.other
        for p in range(1, 25):
            if am[p] > bm[p]:
                phys = own_to_physical(v, mover, p)
                theirs = b.count_physical(opp, phys)
                if (v is Variant.FEVGA and theirs >= 1) or (v is Variant.PLAKOTO and (
                        theirs >= 2 or b.pinned[phys - 1] == sign)):
                    return "F2" if v is Variant.FEVGA else "P2"
        if v is Variant.FEVGA:
            if bm[24] - am[24] >= 2 and bm[24] == CHECKERS:
                through = self.settings.first_checker.through
                if not any(am[p] for p in range(1, through + 1)) and sum(am[1:24]) - sum(bm[1:24]) >= 2:
                    return "F3"
            if tavli.breaks_blocks(o, mover, self.settings):
                quarter = all(am[p] for p in range(19, 25))
                return "F4" if quarter else "F5"
        pips = b.pip_count(mover, v) - o.pip_count(mover, v)
        legal = [b.pip_count(mover, v) - self._pos(e.position).pip_count(mover, v)
                 for e in self.ends(b, dice)] or [0]
        if pips < 0 or pips > max(legal):
            return "M1"
        if pips < max(legal):
            return "V7"
        return "M2"

    def spot_counts(self, pos: GamePosition, light_is_white: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """(light, dark) counts per spot in the light player's numbering; a pinned checker counts
        for its colour on its point (P3); the bar is always empty (V2)."""
        p = self._pos(pos)
        w = np.array([p.stack(i)[0] for i in range(1, 25)], dtype=np.int64)
        b = np.array([p.stack(i)[1] for i in range(1, 25)], dtype=np.int64)
        light = np.zeros(SPOTS, dtype=np.int64)
        dark = np.zeros(SPOTS, dtype=np.int64)
        lw, dw = (w, b) if light_is_white else (b, w)
        light[:24] = _light_numbering(lw, light_is_white)
        dark[:24] = _light_numbering(dw, light_is_white)
        ls = Side.WHITE if light_is_white else Side.BLACK
        light[25], dark[25] = p.off[ls], p.off[ls.other]
        return light, dark

    def counts_to_position(self, light: Sequence[int], dark: Sequence[int], turn: Side,
                           light_is_white: bool = True, hints: Sequence[GamePosition] = ()) -> GamePosition | None:
        """The position of a per-spot reading, or None when it is none (not 15 + 15, a
        checker on the bar, two colours on a Fevga point, a Plakoto point with both
        colours where neither is one pinned checker, P3).

        One checker of each colour on a point: which is pinned is taken from the
        first of ``hints`` (the position before the play, then the best legal
        end) that says it: the same two checkers there, or one lone checker
        there (it was there first, so it is the one at the bottom, P3); without
        one it is no position (ask again)."""
        if sum(int(x) for x in light) != CHECKERS or sum(int(x) for x in dark) != CHECKERS:
            return None
        if int(light[24]) or int(dark[24]):
            return None
        ls = Side.WHITE if light_is_white else Side.BLACK
        wl = [int(x) for x in light[:24]]
        dl = [int(x) for x in dark[:24]]
        if not light_is_white:
            wl, dl = dl[::-1], wl[::-1]  # now White's and Black's counts on White's points
        pts: list[int] = []
        pinned: list[int] = []
        for i in range(24):
            wc, bc = wl[i], dl[i]
            if wc and bc:
                if self.variant is Variant.FEVGA:
                    return None
                if wc == 1 and bc == 1:
                    pin = _pin_hint(i, hints)
                    if pin == 0:
                        return None
                elif wc == 1:
                    pin = 1
                elif bc == 1:
                    pin = -1
                else:
                    return None
                pinned.append(pin)
                pts.append(-bc if pin == 1 else wc)  # the checkers on top of the pinned one
            else:
                pinned.append(0)
                pts.append(wc - bc)
        off = [0, 0]
        off[ls], off[ls.other] = int(light[25]), int(dark[25])
        try:
            return TavliPosition(tuple(pts), tuple(pinned), (off[0], off[1]), turn)
        except InvalidPositionError:
            return None

    def differing_points(self, known: GamePosition, observed: GamePosition) -> tuple[int, ...]:
        return tavli.wrong_points(self._pos(observed), self._pos(known))

    def mother_note(self, pos: GamePosition) -> str:
        """A line about a pinned mother that has not (yet) ended the game (P6), else ""."""
        p = self._pos(pos)
        if self.variant is not Variant.PLAKOTO:
            return ""
        for side in Side:
            if mother_pinned(p, side):
                return f"{side.title}'s mother is pinned (P6)"
        return ""


def _pin_hint(i: int, hints: Sequence[GamePosition]) -> int:
    """Which colour is pinned on White's point ``i + 1`` holding one checker of each (P3), from the hints."""
    for h in hints:
        if not isinstance(h, TavliPosition):
            continue
        w, b, pin = h.stack(i + 1)
        if pin:
            return pin  # a pinned checker stays at the bottom until its point is free (P4)
        if (w, b) == (1, 0):
            return 1  # White's lone checker was there first: it is the pinned one
        if (w, b) == (0, 1):
            return -1
    return 0


def rules_for(variant: Variant, settings: TavliSettings | None = None,
              match: MatchSettings | None = None, *, cube: bool = True) -> GameRules:
    """The rules of ``variant``; a Portes game of a tavli match has no cube (T3)."""
    if variant is Variant.PORTES:
        return PortesRules(cube=cube)
    return TavliRules(variant, settings, match)
