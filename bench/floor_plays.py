"""How close can pure Python come to gnubg's warm C generator? The cost of only *building* the results.

For each (position, roll) pair of the bench_plays corpus, the distinct end
positions are generated once; then timed, per pair (best of R, GC off, as
bench_plays): (a) building just those results' objects the way the generator
does (a 24-tuple copy, a ``Position`` and a result through slot descriptors,
one dict store each), (b) the whole ``legal_results`` call. (a) is a floor no
pure-Python generator returning ``Position`` objects can beat; gnubg's warm
``findbestmoves`` on the same pairs is printed beside it.

Run: .venv/bin/python bench/floor_plays.py [N] [--repeat R]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tavli_pi.rules.moves import _POS_SET, _RES_SET, _LazyResult, legal_results  # noqa: E402
from tavli_pi.rules.position import Position  # noqa: E402
from tests.rules.gnubg_oracle import sample_pairs  # noqa: E402


def build_only(items: list[tuple[list[int], tuple[int, int], tuple[int, int], object]]) -> dict[int, object]:
    set_points, set_bar, set_off, set_turn = _POS_SET
    set_position, set_codes = _RES_SET
    new = object.__new__
    out: dict[int, object] = {}
    k = 0
    for pl, bar, off, turn in items:
        q = pl.copy()
        p = new(Position)
        set_points(p, tuple(q))
        set_bar(p, bar)
        set_off(p, off)
        set_turn(p, turn)
        r = new(_LazyResult)
        set_position(r, p)
        set_codes(r, (0, 0))
        out[k] = r
        k += 1
    return out


def best(f: object, arg: object, repeat: int) -> float:
    clock = time.perf_counter
    t_best = float("inf")
    for _ in range(repeat):
        t = clock()
        f(arg)  # type: ignore[operator]
        t = clock() - t
        t_best = min(t_best, t)
    return t_best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=4)
    args = ap.parse_args()
    pairs = sample_pairs(args.n, seed=12345)
    try:
        import gnubg

        from tavli_pi.rules.ids import position_id

        ci, ec = gnubg.cubeinfo(), gnubg.evalcontext()
        boards = [gnubg.positionfromid(position_id(p)) for p, _ in pairs]
    except Exception:  # pragma: no cover - environment dependent
        gnubg = None
    floor, whole, theirs, counts = [], [], [], []
    gc.disable()
    try:
        for i, (p, d) in enumerate(pairs):
            rs = legal_results(p, d)
            items = [(list(r.position.points), r.position.bar, r.position.off, r.position.turn) for r in rs]
            counts.append(len(rs))
            floor.append(best(build_only, items, args.repeat))
            whole.append(best(lambda a: legal_results(*a), (p, d), args.repeat))
            if gnubg is not None:
                b = boards[i]
                gnubg.findbestmoves(b, ci, ec, d)  # fill its cache: warm
                theirs.append(best(lambda a: gnubg.findbestmoves(*a), (b, ci, ec, d), args.repeat))
    finally:
        gc.enable()

    def show(name: str, ts: list[float]) -> None:
        print(f"  {name:<52} median {statistics.median(ts) * 1e6:6.1f} us   mean {statistics.mean(ts) * 1e6:6.1f} us")

    print(f"{args.n} pairs of the bench_plays corpus (seed 12345), best of {args.repeat}, GC off; "
          f"{statistics.mean(counts):.1f} distinct results per pair")
    show("only building the results (tuple, Position, result)", floor)
    show("ours: legal_results", whole)
    if theirs:
        show("gnubg C findbestmoves, cache warm", theirs)


if __name__ == "__main__":
    main()
