"""Benchmark: legal-play generation per (position, roll).

A fixed corpus of (position, roll) pairs from seeded random games (the same
sampler as the gnubg differential test) goes through:
  * tavli_pi.rules.moves.legal_results (pure Python, distinct results + plays),
  * gnubg's C move generator + 0-ply scoring via the PyPI ``gnubg`` bindings
    (``gnubg.findbestmoves``), if importable,
  * pure-Python generators from PyPI, if installed (bench only, not project
    dependencies): gym-backgammon's ``Backgammon.get_valid_plays``; pygammon and
    nard-backgammon are reported with the reason they cannot be run.

Run: .venv/bin/python bench/bench_plays.py [N]
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tavli_pi.rules.moves import legal_results  # noqa: E402
from tavli_pi.rules.position import Position, Side  # noqa: E402
from tests.rules.gnubg_oracle import sample_pairs  # noqa: E402

Pair = tuple[Position, tuple[int, int]]


def timeit(fn: Callable[[Any, tuple[int, int]], object], items: list[tuple[Any, tuple[int, int]]]) -> list[float]:
    out = []
    clock = time.perf_counter
    for x, dice in items:
        t = clock()
        fn(x, dice)
        out.append(clock() - t)
    return out


def report(name: str, ts: list[float], base: list[float] | None) -> dict[str, float]:
    med = statistics.median(ts) * 1e6
    mean = statistics.mean(ts) * 1e6
    line = f"{name:<44} median {med:8.1f} us   mean {mean:8.1f} us"
    if base is not None:
        line += f"   (ours / theirs: median {statistics.median(base) * 1e6 / med:5.2f}x, mean {statistics.mean(base) * 1e6 / mean:5.2f}x)"
    print(line)
    return {"median": med, "mean": mean}


def gnubg_c(pairs: list[Pair]) -> Callable[[], list[float]] | str:
    try:
        import gnubg  # PyPI bindings
    except Exception as exc:  # pragma: no cover - environment dependent
        return f"PyPI gnubg bindings not importable: {exc}"
    from tavli_pi.rules.ids import position_id

    ci = gnubg.cubeinfo()
    ec = gnubg.evalcontext()  # 0 plies, cubeless
    boards = [(gnubg.positionfromid(position_id(p)), d) for p, d in pairs]

    def run() -> list[float]:
        return timeit(lambda b, d: gnubg.findbestmoves(b, ci, ec, d), boards)

    return run


def gym_backgammon(pairs: list[Pair]) -> Callable[[], list[float]] | str:
    spec = importlib.util.find_spec("gym_backgammon")
    if spec is None or spec.submodule_search_locations is None:
        return "gym-backgammon not installed (.venv/bin/pip install gym-backgammon)"
    path = Path(list(spec.submodule_search_locations)[0], "envs", "backgammon.py")
    # load the rules module alone: the package __init__ imports the old `gym`
    mspec = importlib.util.spec_from_file_location("gym_bg_rules", path)
    assert mspec is not None and mspec.loader is not None
    mod = importlib.util.module_from_spec(mspec)
    mspec.loader.exec_module(mod)
    games = []
    for pos, dice in pairs:
        g = mod.Backgammon()
        # gym-backgammon: board[i] = (count, player); WHITE moves 23 -> 0
        g.board = [(abs(v), (mod.WHITE if v > 0 else mod.BLACK) if v else None) for v in pos.points]
        g.bar = [pos.bar[0], pos.bar[1]]
        g.off = [pos.off[0], pos.off[1]]
        g.players_positions = g.get_players_positions()
        player = mod.WHITE if pos.turn is Side.WHITE else mod.BLACK
        roll = (-dice[0], -dice[1]) if player == mod.WHITE else dice
        games.append(((g, player), roll))

    def run() -> list[float]:
        return timeit(lambda gp, r: gp[0].get_valid_plays(gp[1], r), games)

    return run


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    pairs = sample_pairs(n, seed=12345)
    print(f"corpus: {len(pairs)} (position, roll) pairs from seeded random games (seed 12345)")
    for p, d in pairs[:200]:  # warm up
        legal_results(p, d)
    ours = timeit(legal_results, pairs)
    report("tavli_pi legal_results (pure Python)", ours, None)
    for name, factory in (("gnubg C findbestmoves (PyPI bindings)", gnubg_c),
                          ("gym-backgammon get_valid_plays", gym_backgammon)):
        try:
            runner = factory(pairs)
            if isinstance(runner, str):
                print(f"{name:<44} not run: {runner}")
                continue
            report(name, runner(), ours)
        except Exception as exc:
            print(f"{name:<44} failed: {type(exc).__name__}: {exc}")
    print(f"{'pygammon':<44} not run: no move generator API; Game validates one "
          "move at a time through input/output callbacks")
    print(f"{'nard-backgammon':<44} not run: implements Long Nardy (different "
          "movement rules, no hitting), not comparable")


if __name__ == "__main__":
    main()
