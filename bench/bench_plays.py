"""Benchmark: legal-play generation per (position, roll), timed the same way for every generator.

A fixed corpus of (position, roll) pairs from seeded random games (the same
sampler as the gnubg differential test) goes through every generator:
  * tavli_pi.rules.moves.legal_results (pure Python): one ``PlayResult`` per
    distinct end position, its ``Position`` built; a second line also reads
    every result's ``plays`` (the ``Move`` tuples are built when first read),
  * gnubg's C move generator via the PyPI ``gnubg`` bindings
    (``gnubg.findbestmoves``): one play per distinct end position, each scored
    by the 0-ply network. Its first call on a board is the *cold, scoring* run;
    repeats hit gnubg's evaluation cache, so the best of the repeats is its
    generator with cached scores (*warm*: the closest the bindings come to the
    generator alone; they expose no bare move generator),
  * gym-backgammon's ``Backgammon.get_valid_plays`` (pure Python, PyPI; bench
    only): it returns *plays* (every move order), so it is compared twice: raw
    (beside ours with ``plays`` read) and with its plays applied and reduced
    to distinct end positions (beside ours, like for like).

Timing, identical for all (issue 12): the generators run interleaved pair by
pair, so a burst of load from other jobs hits all of them alike; each gets
1 + ``--repeat`` calls per pair with ``time.perf_counter`` and the garbage
collector off (as ``timeit``): the first call is *cold* (first time this
board is seen), the best of the rest *warm*. Then the GC-on cost of keeping
results: one pass over the corpus keeping every result, GC on against off.

Then ``plays --jsonl`` against the gnubg bindings doing the same job on the
same lines (parse, generate, write each play's text and end Position ID as
JSON): process CPU time, first pass and best of ``--repeat``; the answers are
compared as sets. Then Plakoto and Fevga per pair (tavli_moves.legal_results).

Run: .venv/bin/python bench/bench_plays.py [N] [--repeat R] [--lines L]
"""

from __future__ import annotations

import argparse
import gc
import inspect
import io
import json
import os
import subprocess
import tempfile
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
    line = f"{name:<46} median {med:7.1f} us   mean {mean:7.1f} us"
    if ours is not None:
        om, oa = statistics.median(ours) * 1e6, statistics.mean(ours) * 1e6
        line += f"   ({label}: median {med / om:4.2f}x, mean {mean / oa:4.2f}x)"
    print(line)


def per_game(n: int, repeat: int, portes: list[float]) -> None:
    """Plakoto and Fevga legal-play time per (position, roll), beside Portes (same protocol, warm)."""
    print(f"per game, {n} pairs from seeded random games of each game (seed 12345), "
          f"default settings, best of {repeat} after a first call, GC off:")
    report("  Portes  moves.legal_results", portes, None)
    for variant in (Variant.PLAKOTO, Variant.FEVGA):
        pairs = random_games(variant, n + WARM_UP, seed=12345, vary=False)
        for p, d, st in pairs[n:]:
            tavli_moves.legal_results(variant, p, d, st)
        clock = time.perf_counter
        ts: list[float] = []
        results = 0
        gc.disable()
        try:
            for p, d, st in pairs[:n]:
                tavli_moves.legal_results(variant, p, d, st)
                t_best = float("inf")
                for _ in range(repeat):
                    t = clock()
                    rs = tavli_moves.legal_results(variant, p, d, st)
                    t = clock() - t
                    if t < t_best:
                        t_best = t
                ts.append(t_best)
                results += len(rs)
        finally:
            gc.enable()
        name = f"  {variant.value.capitalize():<7} tavli_moves.legal_results"
        report(name, ts, portes, "vs Portes")
        print(f"  {'':<44} ({results / n:.1f} distinct results per pair on average)")


def gym_distinct(mod: ModuleType, pos: Position, dice: tuple[int, int]) -> set[Layout]:
    """gym-backgammon's plays applied, reduced to distinct end positions (like ours)."""
    player = mod.WHITE if pos.turn is Side.WHITE else mod.BLACK
    roll = (-dice[0], -dice[1]) if player == mod.WHITE else dice
    g = _gym_game(mod, pos)
    out = set()
    for play in g.get_valid_plays(player, roll):
        h = _gym_game(mod, pos)
        h.execute_play(player, play)
        out.add(_gym_layout(mod, h))
    return out


def time_interleaved(calls: list[Calls], timed: int, repeat: int) -> tuple[list[list[float]], list[list[float]]]:
    """Per generator: cold (first call) and warm (best of ``repeat`` more) seconds per pair; GC off."""
    clock = time.perf_counter
    cold: list[list[float]] = [[] for _ in calls]
    warm: list[list[float]] = [[] for _ in calls]
    gc.collect()
    gc.disable()
    try:
        for i in range(timed):
            for g, gen in enumerate(calls):
                c = gen[i]
                t = clock()
                c()
                cold[g].append(clock() - t)
                t_best = float("inf")
                for _ in range(repeat):
                    t = clock()
                    c()
                    t = clock() - t
                    if t < t_best:
                        t_best = t
                warm[g].append(t_best)
    finally:
        gc.enable()
    return cold, warm


def gc_cost(names: list[str], calls: list[Calls], timed: int) -> None:
    """One pass keeping every result: GC on against GC off, per pair (the cost of a long-lived heap)."""
    print(f"keeping every result over one pass of {timed} pairs (a fresh list per run), GC on vs off, us per pair:")
    for name, gen in zip(names, calls):
        per: dict[bool, float] = {}
        for on in (False, True, False, True):
            kept: list[object] = []
            gc.collect()
            if on:
                gc.enable()
            else:
                gc.disable()
            t = time.perf_counter()
            for c in gen[:timed]:
                kept.append(c())
            t = time.perf_counter() - t
            gc.enable()
            per[on] = min(per.get(on, float("inf")), t / timed)
            del kept
        print(f"  {name:<44} GC off {per[False] * 1e6:7.1f}   GC on {per[True] * 1e6:7.1f}   "
              f"cost of GC {1e6 * (per[True] - per[False]):7.1f}")


def gnubg_apply(board: tuple[tuple[int, ...], tuple[int, ...]],
                mv: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A gnubg move tuple applied to a gnubg board, for the end Position ID.

    gnubg's board: (opponent, mover), each own points 1..24 then the bar; move tuples are 1-based
    (25 bar, 0 off); a bear-off ends the bindings' tuple (off is 0, read as its end): "(5,)" for 5/off.
    The same source runs in-process and in :data:`GNUBG_JSONL_SCRIPT`'s own process.
    """
    opp, me = list(board[0]), list(board[1])
    for i in range(0, len(mv), 2):
        s = mv[i]
        t = mv[i + 1] if i + 1 < len(mv) else 0
        me[s - 1] -= 1
        if t > 0:
            me[t - 1] += 1
            if opp[24 - t] == 1:
                opp[24 - t] = 0
                opp[24] += 1
    return tuple(opp), tuple(me)


def gnubg_jsonl(lines: list[str]) -> Callable[[io.StringIO], None] | str:
    """The gnubg bindings doing ``plays --jsonl``'s job: each play's text and end Position ID, as JSON."""
    try:
        import gnubg
    except Exception as exc:  # pragma: no cover - environment dependent
        return f"PyPI gnubg bindings not importable: {exc}"
    ci = gnubg.cubeinfo()
    ec = gnubg.evalcontext()

    def run(out: io.StringIO) -> None:
        for n, line in enumerate(lines, 1):
            req = json.loads(line)
            try:
                b = gnubg.positionfromid(req["position"])
                d = req["dice"]
                plays = [{"moves": gnubg.movetupletostring(m["move"], b),
                          "position": gnubg.positionid(gnubg_apply(b, m["move"]))}
                         for m in gnubg.findbestmoves(b, ci, ec, (d[0], d[1]))]
                ans: dict[str, Any] = {"position": req["position"], "dice": d, "plays": plays}
            except Exception as exc:
                ans = {"error": str(exc), "line": n}
            out.write(json.dumps(ans, separators=(",", ":")) + "\n")

    return run


#: the gnubg bindings' side of ``plays --jsonl`` as its own process (the same job as :func:`gnubg_jsonl`)
GNUBG_JSONL_SCRIPT = """
import json, sys
import gnubg
ci, ec = gnubg.cubeinfo(), gnubg.evalcontext()
APPLY_SOURCE
for n, line in enumerate(sys.stdin, 1):
    req = json.loads(line)
    try:
        b = gnubg.positionfromid(req["position"])
        d = req["dice"]
        plays = [{"moves": gnubg.movetupletostring(m["move"], b), "position": gnubg.positionid(gnubg_apply(b, m["move"]))}
                 for m in gnubg.findbestmoves(b, ci, ec, (d[0], d[1]))]
        ans = {"position": req["position"], "dice": d, "plays": plays}
    except Exception as exc:
        ans = {"error": str(exc), "line": n}
    sys.stdout.write(json.dumps(ans, separators=(",", ":")) + "\\n")
    sys.stdout.flush()
""".replace("APPLY_SOURCE\n", inspect.getsource(gnubg_apply))


def _process_cpu(cmd: list[str], stdin_path: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one process reading ``stdin_path``."""
    with open(stdin_path, "rb") as f:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=f, stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[0]} failed")
    return wall, ru.ru_utime + ru.ru_stime


def jsonl_processes(lines: list[str], repeat: int) -> None:
    """Whole processes, as a user runs them: ``tavli-pi plays --jsonl`` against a Python script on the bindings."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "lines.jsonl")
        src.write_text("".join(lines))
        entry = str(Path(sys.executable).with_name("tavli-pi"))
        ours = [_process_cpu([entry, "plays", "--jsonl"], src) for _ in range(repeat)]
        theirs = [_process_cpu([sys.executable, "-c", GNUBG_JSONL_SCRIPT], src) for _ in range(repeat)]
    o, g = min(c for _, c in ours), min(c for _, c in theirs)
    print(f"  whole processes (start-up included), best of {repeat}: tavli-pi plays --jsonl {o:.3f} s CPU "
          f"({min(w for w, _ in ours):.3f} s wall); python + gnubg bindings {g:.3f} s CPU "
          f"({min(w for w, _ in theirs):.3f} s wall); ours / gnubg {o / g:.2f}x")


def jsonl_vs_gnubg(pairs: list[Pair], repeat: int) -> None:
    """``plays --jsonl`` (in-process, CPU) against the gnubg bindings on the same lines."""
    from tavli_pi.commands.plays import _run_jsonl
    from tavli_pi.rules.ids import position_id

    lines = [json.dumps({"position": position_id(p), "dice": [d[0], d[1]]}) + "\n" for p, d in pairs]
    theirs = gnubg_jsonl(lines)
    print(f"plays --jsonl on {len(lines)} lines (gnubg Position IDs, seed 999), process CPU, "
          f"first pass and best of {repeat}:")
    outs: dict[str, str] = {}

    def measure(name: str, f: Callable[[io.StringIO], None]) -> tuple[float, float]:
        ts = []
        for _ in range(1 + repeat):
            out = io.StringIO()
            t = time.process_time()
            f(out)
            ts.append(time.process_time() - t)
            outs[name] = out.getvalue()
        return ts[0], min(ts[1:])

    ours = measure("ours", lambda out: _run_jsonl(io.StringIO("".join(lines)), out))
    print(f"  {'tavli_pi plays --jsonl (in process)':<44} first {ours[0]:6.3f} s   best {ours[1]:6.3f} s"
          f"   ({1e6 * ours[1] / len(lines):.0f} us a line)")
    if isinstance(theirs, str):
        print(f"  gnubg bindings not run: {theirs}")
        return
    gn = measure("gnubg", theirs)
    print(f"  {'gnubg bindings, same job (cold, then warm)':<44} first {gn[0]:6.3f} s   best {gn[1]:6.3f} s"
          f"   ({1e6 * gn[1] / len(lines):.0f} us a line)")
    print(f"  ours / gnubg: {ours[0] / gn[0]:.2f}x first pass (gnubg scoring cold), {ours[1] / gn[1]:.2f}x best "
          f"(gnubg's cache warm); aim <= 2x")
    same = sum(
        {(x["moves"], x["position"]) for x in json.loads(a).get("plays", [])}
        == {(x["moves"], x["position"]) for x in json.loads(b).get("plays", [])}
        for a, b in zip(outs["ours"].splitlines(), outs["gnubg"].splitlines())
    )
    print(f"  same plays (text and end Position ID, as sets) on {same} of {len(lines)} lines; the others "
          "bear off, where the bindings' move tuple stops at the first 'off' (so their text and position are wrong)")
    jsonl_processes(lines, repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=5000, help="corpus size (pairs)")
    ap.add_argument("--repeat", type=int, default=3, help="warm timings per pair and generator; best kept")
    ap.add_argument("--lines", type=int, default=2000, help="lines for the plays --jsonl comparison")
    args = ap.parse_args()
    timed = args.n
    # the corpus, then 200 warm-up pairs from other games (not timed)
    pairs = sample_pairs(timed, seed=12345) + sample_pairs(WARM_UP, seed=54321)
    print(f"corpus: {timed} (position, roll) pairs from seeded random games (seed 12345), "
          f"after {WARM_UP} warm-up pairs (seed 54321); interleaved; per pair and generator one cold call "
          f"then best of {args.repeat} (warm), perf_counter, GC off")
    names = ["ours: legal_results (distinct positions)", "ours: same, every result's .plays read"]
    calls: list[Calls] = [[partial(legal_results, p, d) for p, d in pairs],
                          [partial(with_plays, p, d) for p, d in pairs]]
    notes: list[str] = []
    made = gnubg_c(pairs)
    if isinstance(made, str):
        print(f"{'gnubg C findbestmoves':<46} not run: {made}")
    else:
        names.append("gnubg C findbestmoves (distinct positions)")
        calls.append(made)
    gym = gym_backgammon(pairs)
    if isinstance(gym, str):
        print(f"{'gym-backgammon get_valid_plays':<46} not run: {gym}")
    else:
        gcalls, note = gym
        notes.append(note)
        mod = _gym_module()
        assert not isinstance(mod, str)
        names += ["gym-backgammon get_valid_plays (plays)", "gym-backgammon, distinct positions"]
        calls += [gcalls, [partial(gym_distinct, mod, p, d) for p, d in pairs]]
    for gen in calls:  # warm-up on other boards (gnubg's cache never sees the timed boards)
        for c in gen[timed:]:
            c()
    cold, warm = time_interleaved(calls, timed, args.repeat)
    idx = {name: i for i, name in enumerate(names)}
    ours, ours_plays = 0, 1
    print("warm (best of the repeats):")
    for g, name in enumerate(names):
        base = ours_plays if "(plays)" in name or ".plays" in name else ours
        report("  " + name, warm[g], None if g == base else warm[base])
    print("cold (first call on the board):")
    for g, name in enumerate(names):
        base = ours_plays if "(plays)" in name or ".plays" in name else ours
        report("  " + name, cold[g], None if g == base else cold[base])
    if "gnubg C findbestmoves (distinct positions)" in idx:
        gi = idx["gnubg C findbestmoves (distinct positions)"]
        print(f"gnubg warm / cold (the scoring share): median "
              f"{statistics.median(warm[gi]) / statistics.median(cold[gi]):.2f}; ours / gnubg warm: median "
              f"{statistics.median(warm[ours]) / statistics.median(warm[gi]):.2f}x, mean "
              f"{statistics.mean(warm[ours]) / statistics.mean(warm[gi]):.2f}x")
    for note in notes:
        print(note)
    gc_cost(names, calls, timed)
    jsonl_vs_gnubg(sample_pairs(args.lines, seed=999), args.repeat)  # boards gnubg's cache has not seen
    per_game(timed, args.repeat, warm[ours])
    print(f"{'pygammon':<46} not run: no move generator API; Game validates one "
          "move at a time through input/output callbacks")
    print(f"{'nard-backgammon':<46} not run: implements Long Nardy (different "
          "movement rules, no hitting), not comparable")


if __name__ == "__main__":
    main()
