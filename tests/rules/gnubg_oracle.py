"""The real gnubg program as an oracle for legal plays, plus a seeded game sampler.

``gnubg_results(requests)`` starts ONE ``gnubg -t -q -r -p script.py`` process;
the script (run inside gnubg's embedded Python) reads ``position_id d1 d2``
lines and writes, per line, the Position IDs (from the mover's view) of every
play ``gnubg.hint`` lists at 0 plies: one per distinct resulting position. The
resulting board is built from ``gnubg.parsemove`` of gnubg's own move text.

``sample_pairs(n, seed)`` draws (position, dice) from seeded random games that
our generator plays (a mix of uniform and hit-happy "blitz" choices, so that
bar entries, closed boards, bear-offs and single-die plays all occur).

Run ``python -m tests.rules.gnubg_oracle`` to regenerate tests/data/*.plays.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from tavli_pi.rules.ids import position_id
from tavli_pi.rules.moves import PlayResult, end_turn, legal_results
from tavli_pi.rules.position import Position, Side

__all__ = ["GNUBG", "gnubg_plays", "gnubg_results", "sample_pairs", "classify", "DATA"]

GNUBG = Path("/usr/games/gnubg")
DATA = Path(__file__).resolve().parent.parent / "data"

# Runs inside gnubg. Board tuples: [0] = player not on roll, [1] = on roll,
# index 0..23 = own points 1..24, 24 = bar (gnubg's Python API).
_SCRIPT = r'''
import os, gnubg
gnubg.command("set display off")
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
# measured on the 2-core box: 1 thread waits ~10 ms per hint for its worker,
# 2 threads ~3 ms (1000 requests: 10.1 s vs 3.3 s).
gnubg.command("set threads 2")
gnubg.command("new game")
# hint at plain 0-ply cubeless evaluation: ~4 ms per request instead of ~45.
for c in ("set evaluation chequerplay type evaluation",
          "set evaluation chequerplay evaluation plies 0",
          "set evaluation chequerplay evaluation cubeful off",
          "set evaluation chequerplay evaluation prune on"):
    gnubg.command(c)
src = open(os.environ["TAVLI_ORACLE_IN"])
dst = open(os.environ["TAVLI_ORACLE_OUT"], "w")
for line in src:
    pid, d1, d2 = line.split()
    gnubg.command("set board " + pid)
    gnubg.command("set dice %s %s" % (d1, d2))
    board = gnubg.board()
    try:
        hint = gnubg.hint(100000)
        plays = [h["move"] for h in hint["hint"]]
    except Exception as exc:  # gnubg raises when there is no legal move
        plays = []
    items = []
    for text in plays:
        opp = list(board[0])
        me = list(board[1])
        for a, z in gnubg.parsemove(text):
            me[a - 1] -= 1
            if z > 0:
                me[z - 1] += 1
                if opp[24 - z] == 1:
                    opp[24 - z] = 0
                    opp[24] += 1
        items.append(text + "|" + gnubg.positionid((opp, me)))
    dst.write("\t".join(items) + "\n")
dst.close()
'''


def gnubg_plays(requests: list[tuple[str, int, int]], timeout: float = 600) -> list[list[tuple[str, str]]]:
    """For each (position id, d1, d2): gnubg's (move text, resulting position id) pairs, in its order."""
    with tempfile.TemporaryDirectory(prefix="tavli-gnubg-") as tmp:
        script = Path(tmp, "oracle.py")
        script.write_text(_SCRIPT)
        inp = Path(tmp, "in.txt")
        out = Path(tmp, "out.txt")
        inp.write_text("".join(f"{p} {a} {b}\n" for p, a, b in requests))
        env = dict(os.environ, TAVLI_ORACLE_IN=str(inp), TAVLI_ORACLE_OUT=str(out))
        proc = subprocess.run(
            [str(GNUBG), "-t", "-q", "-r", "-p", str(script)],
            env=env, cwd=tmp, capture_output=True, text=True, timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        lines = out.read_text().splitlines() if out.exists() else []
        if len(lines) != len(requests):
            raise RuntimeError(
                f"gnubg answered {len(lines)} of {len(requests)} requests "
                f"(exit {proc.returncode}): {proc.stderr[-2000:]}"
            )
    answers: list[list[tuple[str, str]]] = []
    for ln in lines:
        pairs = (item.rsplit("|", 1) for item in ln.split("\t") if item)
        answers.append([(text, pid) for text, pid in pairs])
    return answers


def gnubg_results(requests: list[tuple[str, int, int]], timeout: float = 600) -> list[list[str]]:
    """For each (position id, d1, d2): the result IDs gnubg lists, in its order."""
    return [[pid for _, pid in plays] for plays in gnubg_plays(requests, timeout)]


def _blitz_score(r: PlayResult, mover: Side) -> int:
    p = r.position
    opp = mover.other
    made = sum(1 for own in range(1, 7) if p.count(mover, own) >= 2)
    return 10 * p.bar[opp] + made


def sample_pairs(n: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """``n`` (position, dice) pairs from seeded random legal games."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < n:
        pos = Position.start(rng.choice([Side.WHITE, Side.BLACK]))
        blitzer = rng.choice([None, Side.WHITE, Side.BLACK])
        for _ in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((pos, dice))
            if len(out) >= n:
                break
            results = legal_results(pos, dice)
            if results:
                if pos.turn is blitzer and rng.random() < 0.8:
                    best = max(_blitz_score(r, pos.turn) for r in results)
                    pick = rng.choice([r for r in results if _blitz_score(r, pos.turn) == best])
                else:
                    pick = rng.choice(results)
                pos = pick.position
            if pos.off[pos.turn] == 15:
                break
            pos = end_turn(pos)
    return out


def classify(pos: Position, dice: tuple[int, int], results: tuple[PlayResult, ...]) -> set[str]:
    """Which rule situations a (position, dice) exercises."""
    tags: set[str] = set()
    me, opp = pos.turn, pos.turn.other
    if pos.bar[me]:
        tags.add("bar")
        if all(pos.count(opp, own) >= 2 for own in range(1, 7)):
            tags.add("closed_board")
    if not results:
        tags.add("no_move")
    if any(m.dst == 0 for r in results for m in r.plays[0]):
        tags.add("bear_off")
    if any(m.dst == 0 and m.src < max(dice) for r in results for m in r.plays[0]) and (
        dice[0] == dice[1] or True
    ):
        tags.add("bear_off_overshoot")
    if results and dice[0] != dice[1] and len(results[0].plays[0]) == 1:
        tags.add("single_die")
        if all(m.src - max(m.dst, 0) >= max(dice) or m.dst == 0 for r in results for m in r.plays[0]):
            tags.add("higher_die")
    if results and dice[0] == dice[1] and len(results[0].plays[0]) < 4:
        tags.add("partial_double")
    if any(m.hit for r in results for m in r.plays[0]):
        tags.add("hit")
    return tags


def _write_perft(path: Path, n: int, seed: int) -> None:  # pragma: no cover - maintenance
    pairs = sample_pairs(n * 20, seed)
    rng = random.Random(seed)
    # keep a spread of situations: every tag at least a few times
    chosen: list[tuple[Position, tuple[int, int]]] = []
    per_tag: Counter[str] = Counter()
    for pos, dice in pairs:
        tags = classify(pos, dice, legal_results(pos, dice)) or {"plain"}
        if any(per_tag[t] < n // 8 for t in tags) or rng.random() < 0.02:
            chosen.append((pos, dice))
            per_tag.update(tags)
        if len(chosen) >= n:
            break
    reqs = [(position_id(p), d[0], d[1]) for p, d in chosen]
    answers = gnubg_results(reqs)
    with path.open("w") as fh:
        fh.write("# position_id d1 d2 expected_count  (counts from gnubg 1.07 hint, 0 plies)\n")
        for (pid, a, b), ids in zip(reqs, answers):
            fh.write(f"{pid} {a} {b} {len(set(ids))}\n")
    print(path, len(reqs), dict(per_tag))


if __name__ == "__main__":  # pragma: no cover
    _write_perft(DATA / "random.plays", 400, 2024)
