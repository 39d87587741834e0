"""How often a game in progress tells the light player's seat, and how often wrongly (vision/seat.py).

``seat.seat_of`` takes the seat in which both colours' pip counts are lower by ``seat.MARGIN``.
Checked on every position (after the second play) of simulated games of two kinds of play -- random
plays (hit checkers start again over and over: the hard case) and plays for safety (fewest blots,
most points made: nearer a real game) -- and on the labelled real frames, as labelled and turned
round: decided (a seat taken), wrong (the other seat taken).

    .venv/bin/python bench/bench_seat.py [--games 150]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.referee.evidence import spot_counts  # noqa: E402
from tavli_pi.rules.moves import Play, apply_play, legal_plays  # noqa: E402
from tavli_pi.rules.position import Position, Side  # noqa: E402
from tavli_pi.vision.seat import MARGIN, seat_of, turned_numbers  # noqa: E402

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "real"


def _safe(pos: Position, plays: list[Play], rng: random.Random) -> Play:
    side = pos.turn

    def score(p: Play) -> float:
        n = apply_play(pos, p)
        pts = [n.count(side, q) for q in range(1, 25)]
        return -3 * pts.count(1) + 0.5 * sum(c >= 2 for c in pts) + rng.random()
    return max(plays, key=score)


def _turned(light: list[int], dark: list[int]) -> tuple[list[int], list[int]]:
    back = turned_numbers() - 1
    tl, td = [0] * 24, [0] * 24
    for p in range(24):
        tl[back[p]], td[back[p]] = light[p], dark[p]
    return tl, td


def simulated(games: int, policy: str, seed: int = 1) -> tuple[int, int, int]:
    rng = random.Random(seed)
    n = decided = wrong = 0
    for g in range(games):
        pos = Position.start(Side.WHITE if g % 2 else Side.BLACK)
        for t in range(120):
            plays = list(legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6))))
            if plays:
                pos = apply_play(pos, rng.choice(plays) if policy == "random" else _safe(pos, plays, rng))
            if min(pos.on_board(Side.WHITE), pos.on_board(Side.BLACK)) == 0:
                break
            pos = pos.with_turn(pos.turn.other)
            if t < 2:
                continue
            la, da = spot_counts(pos, True)
            light, dark = [int(x) for x in la[:24]], [int(x) for x in da[:24]]
            for counts, truth in (((light, dark), "picture"), (_turned(light, dark), "turned")):
                s = seat_of(*counts)
                n += 1
                decided += s is not None
                wrong += s is not None and s != truth
    return n, decided, wrong


def real() -> tuple[int, int, int, list[str]]:
    from tests.vision._eval import real_frames

    n = decided = wrong = 0
    lines = []
    for f in real_frames(REAL):
        if f.truth is None:
            continue
        light = [f.truth[0].get(p, 0) for p in range(1, 25)]
        dark = [f.truth[1].get(p, 0) for p in range(1, 25)]
        for counts, truth in (((light, dark), "picture"), (_turned(light, dark), "turned")):
            s = seat_of(*counts)
            n += 1
            decided += s is not None
            wrong += s is not None and s != truth
            lines.append(f"  {f.name} {truth}: {s or 'not told'}")
    return n, decided, wrong, lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=150)
    a = ap.parse_args()
    print(f"seat told by the play, margin {MARGIN} pips a colour")
    for policy in ("random", "safe"):
        n, d, w = simulated(a.games, policy)
        print(f"  simulated, {policy} plays, {a.games} games: {n} readings (as played and turned round); "
              f"decided {d} ({100 * d / n:.1f} %), wrong {w} ({100 * w / max(d, 1):.2f} % of decided)")
    n, d, w, lines = real()
    print(f"  real labelled frames (as labelled and turned round): {n} readings; decided {d}, wrong {w}")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
