"""Is the board still the one the referee knows? (DESIGN.md, "rules-constrained reading")

The referee judges a play against the position before the roll. That is only
sound while the referee has followed every turn: if vision missed a roll, the
board carries turns the referee never judged, and judging the next play
against the stale position would call a legal play "illegal" (the worst
failure this product can have). So before any illegal verdict the referee
asks :func:`one_play_reason`: can the observed end be *one* play of the mover,
legal or not, from the position before the roll? If not, the referee has lost
track of the board: it says so (``board_out_of_sync``), never "illegal".

What one play (legal or illegal) can do, and nothing else:

- the opponent's checkers are unchanged, except blots hit and sent to the bar
  (only a point holding exactly one opponent checker can lose it);
- the mover's checkers never go to the bar, and borne-off checkers never
  come back;
- at most ``moves + 1`` of the mover's checkers leave their spot (``moves`` = 2,
  or 4 with doubles; one more for a checker nudged by mistake);
- the mover's pip count drops by at most the dice total plus one die (6): an
  illegal play may miscount or use a wrong die, not play a second roll; it may
  move a checker backwards, by at most the dice total.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from tavli_pi.rules.moves import legal_results, wrong_points
from tavli_pi.rules.position import Position, Side

__all__ = ["one_play_reason", "broken_rule", "moved_sides", "turn_after", "differing_points", "PIP_SLACK"]

#: Pips a (mis)play may move beyond the dice total and still be one play: one die.
PIP_SLACK = 6


def _own_spots(pos: Position, side: Side) -> list[int]:
    """``side``'s checkers: [0] off, [1..24] its own points, [25] bar."""
    return [pos.off[side]] + [pos.count(side, p) for p in range(1, 25)] + [pos.bar[side]]


def _hit_only(before: Position, after: Position, side: Side) -> tuple[bool, int]:
    """Did ``side``'s checkers change only by blots being hit? (and how many were)."""
    b, a = _own_spots(before, side), _own_spots(after, side)
    hits = 0
    for p in range(1, 25):
        if a[p] == b[p]:
            continue
        if b[p] == 1 and a[p] == 0:
            hits += 1
            continue
        return False, 0
    if a[0] != b[0] or a[25] != b[25] + hits:
        return False, 0
    return True, hits


def one_play_reason(before: Position, observed: Position, dice: tuple[int, int]) -> str:
    """"" when ``observed`` can be the end of one play (legal or not) of ``before.turn``
    with ``dice``; otherwise why it cannot (the referee lost track of the board)."""
    mover = before.turn
    opp = mover.other
    moves = 4 if dice[0] == dice[1] else 2
    total = sum(dice) * (2 if dice[0] == dice[1] else 1)
    ok, hits = _hit_only(before, observed, opp)
    if not ok:
        return f"{opp.name.capitalize()}'s checkers moved, not only blots sent to the bar"
    if hits > moves:
        return f"{hits} blots hit by one roll"
    b, a = _own_spots(before, mover), _own_spots(observed, mover)
    if a[25] > b[25]:
        return f"{mover.name.capitalize()} has more checkers on the bar than before"
    if a[0] < b[0]:
        return f"{mover.name.capitalize()} has fewer checkers borne off than before"
    left = sum(max(0, b[p] - a[p]) for p in range(1, 26))
    if left > moves + 1:
        return f"{left} of {mover.name.capitalize()}'s checkers moved: more than one roll moves"
    pips = before.pip_count(mover) - observed.pip_count(mover)
    if pips > total + PIP_SLACK:
        return f"{mover.name.capitalize()} moved {pips} pips with {dice[0]}-{dice[1]}"
    if pips < -total:
        return f"{mover.name.capitalize()}'s checkers went {-pips} pips backwards"
    return ""


def broken_rule(before: Position, observed: Position, dice: tuple[int, int]) -> str:
    """The movement rule (RULES.md) an illegal end of one play most likely broke.

    M4: checkers moved while one stayed on the bar; M6: bore off with checkers
    outside the home board; M1: a checker went backwards, or moved further than
    the dice; M5: fewer pips played than a legal play uses (a die left unplayed);
    M2: the right distance but not a legal play (a blocked landing point).
    """
    mover = before.turn
    b, a = _own_spots(before, mover), _own_spots(observed, mover)
    if b[25] and a[25] and any(a[p] < b[p] for p in range(1, 25)):
        return "M4"
    if a[0] > b[0] and (b[25] or any(b[p] for p in range(7, 25))):
        return "M6"
    departed = [q for q in range(1, 26) if a[q] < b[q]]
    if any(all(q <= p for q in departed) for p in range(1, 25) if a[p] > b[p]):
        return "M1"  # a checker arrived where no departed checker lay behind it: backwards
    pips = before.pip_count(mover) - observed.pip_count(mover)
    legal = [before.pip_count(mover) - r.position.pip_count(mover) for r in legal_results(before, dice)] or [0]
    if pips < 0 or pips > max(legal):
        return "M1"
    if pips < max(legal):
        return "M5"
    return "M2"


def moved_sides(known: Position, observed: Position) -> tuple[Side, ...]:
    """The sides whose checkers changed otherwise than by being hit."""
    return tuple(s for s in Side if not _hit_only(known, observed, s)[0])


def turn_after(known: Position, observed: Position, *, roll_seen: bool) -> Side:
    """Who is most likely on roll with ``observed`` on the board.

    ``known.turn`` is the side that was to play from ``known``. After a judged
    roll (``roll_seen``) its turn is over. Otherwise: if exactly one side moved,
    the other is on roll; if both (or neither) moved, ``known.turn`` is on roll
    again. The referee also accepts the first roll after an adoption from
    either side (the half the dice land in says who rolled), so a wrong guess
    costs nothing.
    """
    if roll_seen:
        return known.turn.other
    moved = moved_sides(known, observed)
    if len(moved) == 1:
        return moved[0].other
    return known.turn


def differing_points(known: Position, observed: Position) -> tuple[int, ...]:
    """White-numbered spots where the two positions differ: 1-24, 0 = bar, 25 = trays."""
    return wrong_points(observed, known)
