"""A deliberately simple second generator of Plakoto / Fevga plays, for the tests only.

It shares no code with tavli_pi.rules.tavli_moves: the board is a tuple of
stacks (a string of colours, bottom first) in White's numbering, each side's
route is written out as a list of points, and every order of every die is
tried by plain recursion (a visited set only keeps the run time sane). The
rules are transcribed from RULES-TAVLI.md one by one.

Also: random games played with the fast generator, as a sampler of
(position, roll, settings) triples.
"""

from __future__ import annotations

import random
from functools import cache

from tavli_pi.rules.position import Side
from tavli_pi.rules.tavli_moves import end_turn, legal_results
from tavli_pi.rules.tavli_position import TavliPosition, format_tavli_position
from tavli_pi.rules.tavli_scoring import game_over
from tavli_pi.rules.tavli_settings import (
    BlockCheck,
    FirstChecker,
    Mother,
    Prime,
    TavliSettings,
    Variant,
)

W, B = "w", "b"
#: index 1-24: White's point -> its stack, bottom first ("bww": a black checker pinned under two white)
Board = tuple[str, ...]


@cache
def route(variant: Variant, colour: str) -> tuple[int, ...]:
    """White-numbered points from the side's own 24-point down to its own 1-point."""
    if colour == W:
        return tuple(range(24, 0, -1))
    if variant is Variant.PLAKOTO:
        return tuple(range(1, 25))
    return tuple(range(12, 0, -1)) + tuple(range(24, 12, -1))  # Fevga: Black starts on White's 12


@cache
def own(variant: Variant, colour: str, point: int) -> int:
    return 24 - route(variant, colour).index(point)


def other(c: str) -> str:
    return B if c == W else W


def to_board(pos: TavliPosition) -> tuple[Board, dict[str, int], str]:
    board = [""]
    toks = format_tavli_position(pos).split()
    for tok in toks[:24]:
        stack = ""
        j = 0
        while j < len(tok) and tok != "-":
            c = tok[j]
            k = j + 1
            while k < len(tok) and tok[k].isdigit():
                k += 1
            stack += c * int(tok[j + 1:k])
            j = k
        board.append(stack)
    return tuple(board), {W: int(toks[24]), B: int(toks[25])}, toks[26][0]


@cache
def stack_token(st: str) -> str:
    """A stack in the notation: "" -> "-", "www" -> "w3", "bww" -> "b1w2"."""
    if not st:
        return "-"
    if len(set(st)) == 1:
        return f"{st[0]}{len(st)}"
    return f"{st[0]}1{st[1]}{len(st) - 1}"


def to_text(board: Board, off: dict[str, int], turn: str) -> str:
    toks = [stack_token(board[p]) for p in range(1, 25)]
    return " ".join(toks + [str(off[W]), str(off[B]), "white" if turn == "w" else "black"])


def mine_on(board: Board, c: str, p: int) -> int:
    return board[p].count(c)


def is_pinned_at(board: Board, c: str, p: int) -> bool:
    st = board[p]
    return len(st) >= 2 and st[0] == c and st[-1] != c


def can_move(variant: Variant, board: Board, off: dict[str, int], c: str, p: int, d: int,
             st: TavliSettings) -> bool:
    stack = board[p]
    if not stack or stack[-1] != c:
        return False  # none of ours on top (a pinned checker cannot move, P4)
    path = route(variant, c)
    i = path.index(p)
    if variant is Variant.FEVGA and own(variant, c, p) == 24:
        on24 = mine_on(board, c, p)
        if on24 < 15 and 15 - on24 == 1:  # F3
            runner = [q for q in range(1, 25) if q != p and mine_on(board, c, q)]
            limit = 11 if st.first_checker is FirstChecker.PAST_START_POINT else 12
            if own(variant, c, runner[0]) > limit:
                return False
    j = i + d
    if j < 24:
        dest = board[path[j]]
        if not dest or dest[-1] == c:
            return True
        if variant is Variant.PLAKOTO and dest == other(c):
            return True  # lands on a lone checker and pins it (P3)
        return False
    # bearing off (V4, M6, P5)
    for q in range(1, 25):
        if mine_on(board, c, q) and own(variant, c, q) > 6:
            return False
        if is_pinned_at(board, c, q):
            return False
    if j == 24:
        return True
    return not any(mine_on(board, c, path[k]) for k in range(i))


def do_move(variant: Variant, board: Board, off: dict[str, int], c: str, p: int, d: int
            ) -> tuple[Board, dict[str, int]]:
    nb = list(board)
    no = dict(off)
    nb[p] = nb[p][:-1]  # the top checker leaves (a checker it pinned is free again)
    path = route(variant, c)
    j = path.index(p) + d
    if j >= 24:
        no[c] += 1
    else:
        nb[path[j]] += c  # on top (pins a lone opposing checker, P3)
    return tuple(nb), no


@cache
def prime_block(variant: Variant, c: str, q: int) -> tuple[int, ...]:
    """White-numbered points of the opponent's own points q..q+5 (F5)."""
    r = route(variant, other(c))
    return tuple(r[24 - y] for y in range(q, q + 6))


def f4_f5_broken(variant: Variant, board: Board, off: dict[str, int], c: str,
                 st: TavliSettings) -> bool:
    if variant is not Variant.FEVGA:
        return False
    held = {q for q in range(1, 25) if c in board[q]}
    mine = route(variant, c)
    if all(mine[24 - x] in held for x in range(19, 25)):
        return True  # F4: all six points of the own starting quarter 19-24
    if st.prime is Prime.ALLOWED:
        return False
    o = other(c)
    if off[o] > 0:
        return False  # F5 only while the opponent has borne off none
    theirs = route(variant, o)
    lowest = min(24 - theirs.index(q) for q in range(1, 25) if o in board[q])
    for q in range(1, 20):
        if q + 5 < lowest and all(p in held for p in prime_block(variant, c, q)):
            return True  # F5: six in a row in front of every opposing checker
    return False


def decided(variant: Variant, board: Board, off: dict[str, int], st: TavliSettings) -> bool:
    """The game is over (V5, P6), judged on the position alone."""
    if off[W] == 15 or off[B] == 15:
        return True
    if variant is not Variant.PLAKOTO or st.mother is Mother.OFF:
        return False
    w24, b24 = route(variant, W)[0], route(variant, B)[0]
    w_m = is_pinned_at(board, W, w24)
    b_m = is_pinned_at(board, B, b24)
    if w_m and b_m:
        return True
    if st.mother is Mother.TWO_POINTS:
        return w_m or b_m
    if b_m:  # White pinned Black's mother: over unless White has a free checker on its own 24
        return not (board[w24] and board[w24][-1] == W)
    if w_m:
        return not (board[b24] and board[b24][-1] == B)
    return False


def brute_ends(variant: Variant, pos: TavliPosition, dice: tuple[int, int],
               st: TavliSettings) -> set[str]:
    """Every legal end position (notation, turn unchanged) by plain search; empty for V8."""
    board, off, turn = to_board(pos)
    c = turn
    all_dice = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    n_all = len(all_dice)
    # (board, off white, off black, dice used, first die, ended the game)
    found: set[tuple[Board, int, int, int, int, bool]] = set()
    seen: set[tuple[object, ...]] = set()

    def rec(bd: Board, of: dict[str, int], left: list[int], first: int) -> None:
        key = (bd, of[W], of[B], tuple(sorted(left)), first)
        if key in seen:
            return
        seen.add(key)
        used = n_all - len(left)
        if used and decided(variant, bd, of, st):
            found.add((bd, of[W], of[B], n_all, first, True))  # V6: the game ended, the rest is void
            return
        if used and st.block_check is BlockCheck.EVERY_MOVE and f4_f5_broken(variant, bd, of, c, st):
            return
        found.add((bd, of[W], of[B], used, first, False))
        for die in sorted(set(left)):
            rest = list(left)
            rest.remove(die)
            for p in range(1, 25):
                if can_move(variant, bd, of, c, p, die, st):
                    nb, no = do_move(variant, bd, of, c, p, die)
                    rec(nb, no, rest, first or die)

    rec(board, off, all_dice, 0)
    best: list[tuple[Board, int, int, int, int, bool]] = []
    most = 0
    for n in range(n_all, 0, -1):  # V7: the most dice, among plays passing F4/F5 at their end (F6)
        best = [f for f in found if f[3] == n and (
            f[5] or not f4_f5_broken(variant, f[0], {W: f[1], B: f[2]}, c, st))]
        if best:
            most = n
            break
    if not best:
        return set()
    if most == 1 and n_all == 2 and dice[0] != dice[1]:
        big = max(dice)  # V7: one die of a non-double: the larger where possible
        if any(f[4] == big for f in best):
            best = [f for f in best if f[4] == big]
    return {to_text(f[0], {W: f[1], B: f[2]}, turn) for f in best}


def random_settings(rng: random.Random) -> TavliSettings:
    return TavliSettings(
        rng.choice(list(Mother)), rng.choice(list(FirstChecker)),
        rng.choice(list(Prime)), rng.choice(list(BlockCheck)),
    )


def random_games(variant: Variant, n_pairs: int, seed: int, *, vary: bool = True
                 ) -> list[tuple[TavliPosition, tuple[int, int], TavliSettings]]:
    """(position, roll, settings) from random games played with the fast generator.

    ``vary``: each game takes random settings (else the defaults).
    """
    rng = random.Random(seed)
    out: list[tuple[TavliPosition, tuple[int, int], TavliSettings]] = []
    while len(out) < n_pairs:
        st = random_settings(rng) if vary else TavliSettings()
        pos = TavliPosition.start(variant, rng.choice([Side.WHITE, Side.BLACK]))
        for _ in range(400):
            if game_over(variant, pos, st) is not None:
                break
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((pos, dice, st))
            rs = legal_results(variant, pos, dice, st)
            if rs:
                pos = rng.choice(rs).position
            pos = end_turn(pos)
            if len(out) >= n_pairs:
                break
    return out
