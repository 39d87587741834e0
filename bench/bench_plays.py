"""Benchmark: legal-play generation per (position, roll).

A fixed corpus of (position, roll) pairs from seeded random games (the same
sampler as the gnubg differential test) goes through:
  * tavli_pi.rules.moves.legal_results (pure Python): one ``PlayResult`` per
    distinct resulting position, its ``Position`` built (``plays`` are built
    from the stored raw moves when first read; a second line reads them all),
  * gnubg's C move generator + 0-ply scoring via the PyPI ``gnubg`` bindings
    (``gnubg.findbestmoves``), if importable,
  * pure-Python generators from PyPI, if installed (bench only, not project
    dependencies): gym-backgammon's ``Backgammon.get_valid_plays``; pygammon and
    nard-backgammon are reported with the reason they cannot be run.

Fairness: the generators run interleaved, pair by pair (ours, gnubg, gym, then
the next pair), so a burst of load from other jobs on the shared machine hits
all of them alike; each pair is timed ``--repeat`` times per generator and the
best time kept (the usual ``timeit`` practice: the minimum is the run with the
least interference). gnubg is timed once per pair (first call after warm-up
on other boards): it caches evaluations, so a repeat on the same board would
time its cache. Before timing, gym-backgammon's plays are applied to the
board and the set of resulting positions compared with ours on every pair.

Then, per game, the same timing for Plakoto and Fevga (tavli_pi.rules.tavli_moves.
legal_results, default settings) on N (position, roll) pairs from seeded random
games of that game (tests/rules/tavli_brute.random_games), beside Portes.

Run: .venv/bin/python bench/bench_plays.py [N] [--repeat R]
"""

from __future__ import annotations

import argparse
from functools import partial
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tavli_pi.rules.moves import legal_results  # noqa: E402
from tavli_pi.rules.position import Position, Side  # noqa: E402
from tavli_pi.rules import tavli_moves  # noqa: E402
from tavli_pi.rules.tavli_settings import Variant  # noqa: E402
from tests.rules.gnubg_oracle import sample_pairs  # noqa: E402
from tests.rules.tavli_brute import random_games  # noqa: E402

Pair = tuple[Position, tuple[int, int]]
Layout = tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]
#: a generator under test: a zero-argument call per corpus pair
Calls = list[Callable[[], object]]
WARM_UP = 200


def with_plays(pos: Position, dice: tuple[int, int]) -> list[object]:
    """Ours with the lazily built ``Move`` tuples of every result materialized."""
    return [r.plays for r in legal_results(pos, dice)]


def gnubg_c(pairs: list[Pair]) -> Calls | str:
    try:
        import gnubg  # type: ignore[import-untyped]  # PyPI bindings
    except Exception as exc:  # pragma: no cover - environment dependent
        return f"PyPI gnubg bindings not importable: {exc}"
    from tavli_pi.rules.ids import position_id

    ci = gnubg.cubeinfo()
    ec = gnubg.evalcontext()  # 0 plies, cubeless
    calls: Calls = []
    for p, d in pairs:
        board = gnubg.positionfromid(position_id(p))
        calls.append(partial(gnubg.findbestmoves, board, ci, ec, d))
    return calls


def _gym_module() -> ModuleType | str:
    spec = importlib.util.find_spec("gym_backgammon")
    if spec is None or spec.submodule_search_locations is None:
        return "gym-backgammon not installed (.venv/bin/pip install gym-backgammon)"
    path = Path(list(spec.submodule_search_locations)[0], "envs", "backgammon.py")
    # load the rules module alone: the package __init__ imports the old `gym`
    mspec = importlib.util.spec_from_file_location("gym_bg_rules", path)
    assert mspec is not None and mspec.loader is not None
    mod = importlib.util.module_from_spec(mspec)
    mspec.loader.exec_module(mod)
    return mod


def _gym_game(mod: ModuleType, pos: Position) -> Any:
    g = mod.Backgammon()
    # gym-backgammon: board[i] = (count, player) for White's point i + 1; WHITE moves 23 -> 0
    g.board = [(abs(v), (mod.WHITE if v > 0 else mod.BLACK) if v else None) for v in pos.points]
    g.bar = [pos.bar[0], pos.bar[1]]
    g.off = [pos.off[0], pos.off[1]]
    g.players_positions = g.get_players_positions()
    return g


def _gym_layout(mod: ModuleType, g: Any) -> Layout:
    pts = tuple(n if who == mod.WHITE else -n for n, who in g.board)
    return pts, (g.bar[0], g.bar[1]), (g.off[0], g.off[1])


def gym_backgammon(pairs: list[Pair]) -> tuple[Calls, str] | str:
    """Calls, and the result of the output-equivalence check against ours."""
    mod = _gym_module()
    if isinstance(mod, str):
        return mod
    calls: Calls = []
    agree = 0
    first_diff = ""
    for pos, dice in pairs:
        player = mod.WHITE if pos.turn is Side.WHITE else mod.BLACK
        roll = (-dice[0], -dice[1]) if player == mod.WHITE else dice
        g = _gym_game(mod, pos)
        calls.append(partial(g.get_valid_plays, player, roll))
        # equivalence: the positions gym's plays reach == our distinct results
        theirs = set()
        for play in g.get_valid_plays(player, roll):
            h = _gym_game(mod, pos)
            h.execute_play(player, play)
            theirs.add(_gym_layout(mod, h))
        ours = {r.position.layout_key() for r in legal_results(pos, dice)}
        if not ours:
            ours = set()  # no legal move: gym lists no play either
        if ours == theirs:
            agree += 1
        elif not first_diff:
            first_diff = f"; first difference at {pos.key()} {dice}"
    return calls, f"gym-backgammon reached the same result set as ours on {agree} of {len(pairs)} pairs{first_diff}"


def report(name: str, ts: list[float], ours: list[float] | None, label: str = "theirs / ours") -> None:
    med = statistics.median(ts) * 1e6
    mean = statistics.mean(ts) * 1e6
    line = f"{name:<40} median {med:7.1f} us   mean {mean:7.1f} us"
    if ours is not None:
        om, oa = statistics.median(ours) * 1e6, statistics.mean(ours) * 1e6
        line += f"   ({label}: median {med / om:4.2f}x, mean {mean / oa:4.2f}x)"
    print(line)


def per_game(n: int, repeat: int, portes: list[float]) -> None:
    """Plakoto and Fevga legal-play time per (position, roll), beside Portes."""
    print(f"per game, {n} pairs from seeded random games of each game (seed 12345), "
          f"default settings, best of {repeat} per pair:")
    report("  Portes  moves.legal_results", portes, None)
    for variant in (Variant.PLAKOTO, Variant.FEVGA):
        pairs = random_games(variant, n + WARM_UP, seed=12345, vary=False)
        for p, d, st in pairs[n:]:
            tavli_moves.legal_results(variant, p, d, st)
        clock = time.perf_counter
        ts: list[float] = []
        results = 0
        for p, d, st in pairs[:n]:
            t_best = float("inf")
            for _ in range(repeat):
                t = clock()
                rs = tavli_moves.legal_results(variant, p, d, st)
                t = clock() - t
                if t < t_best:
                    t_best = t
            ts.append(t_best)
            results += len(rs)
        name = f"  {variant.value.capitalize():<7} tavli_moves.legal_results"
        report(name, ts, portes, "vs Portes")
        print(f"  {'':<38} ({results / n:.1f} distinct results per pair on average)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=5000, help="corpus size (pairs)")
    ap.add_argument("--repeat", type=int, default=3, help="timings per pair and generator; best kept")
    args = ap.parse_args()
    timed = args.n
    # the corpus, then 200 warm-up pairs from other games (not timed)
    pairs = sample_pairs(timed, seed=12345) + sample_pairs(WARM_UP, seed=54321)
    print(f"corpus: {timed} (position, roll) pairs from seeded random games (seed 12345), "
          f"after {WARM_UP} warm-up pairs (seed 54321); "
          f"interleaved, best of {args.repeat} per pair (gnubg: 1)")
    names = ["tavli_pi legal_results (pure Python)", "  same, then every result's .plays read"]
    calls: list[Calls] = [[partial(legal_results, p, d) for p, d in pairs],
                          [partial(with_plays, p, d) for p, d in pairs]]
    repeats = [args.repeat, args.repeat]
    notes: list[str] = []
    for name, factory in (("gnubg C findbestmoves (PyPI bindings)", gnubg_c),
                          ("gym-backgammon get_valid_plays", gym_backgammon)):
        try:
            made = factory(pairs)
        except Exception as exc:
            print(f"{name:<40} failed: {type(exc).__name__}: {exc}")
            continue
        if isinstance(made, str):
            print(f"{name:<40} not run: {made}")
            continue
        if isinstance(made, tuple):
            made, note = made
            notes.append(note)
        names.append(name)
        calls.append(made)
        repeats.append(1 if name.startswith("gnubg") else args.repeat)
    for gen in calls:
        for c in gen[timed:]:
            c()
    clock = time.perf_counter
    best: list[list[float]] = [[] for _ in calls]
    for i in range(timed):
        for g, gen in enumerate(calls):
            c = gen[i]
            t_best = float("inf")
            for _ in range(repeats[g]):
                t = clock()
                c()
                t = clock() - t
                if t < t_best:
                    t_best = t
            best[g].append(t_best)
    for g, name in enumerate(names):
        report(name, best[g], None if g == 0 else best[0])
    for note in notes:
        print(note)
    per_game(timed, args.repeat, best[0])
    print(f"{'pygammon':<40} not run: no move generator API; Game validates one "
          "move at a time through input/output callbacks")
    print(f"{'nard-backgammon':<40} not run: implements Long Nardy (different "
          "movement rules, no hitting), not comparable")


if __name__ == "__main__":
    main()
