"""Proof by the real reader: GNU Backgammon imports every exported file and finds
the same moves, positions, cube actions, game results and final score.

Compared move by move (gnubg's .mat importer accepts some illegal plays
silently, so "it imported" proves nothing): for every turn the dice, every hop
(mover's numbering, 25 = bar, 0 = off) and the gnubg Position ID of the
position before it, computed by tavli_pi.rules.ids from our own position.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tavli_pi.record.game_record import CubeAction, MatchRecord, Turn, build_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.mat import write_mat
from tavli_pi.record.sgf import write_sgf
from tavli_pi.record.synthetic import Choices, synthetic_match
from tavli_pi.rules.ids import position_id
from tavli_pi.rules.position import Side

from .gnubg_tool import gnubg_read

_SIDE = {"X": Side.WHITE, "O": Side.BLACK}  # gnubg player 0 ("X" in match()) is our White

# Busy players, so a few matches cover every kind of action.
_BUSY = Choices(double=0.08, take=0.6, resign=0.01, resign_accept=0.7, illegal=0.05)

CASES: list[tuple[int, MatchHeader]] = [
    (seed, MatchHeader(players=("Alice Ant", "Bob"), match_length=n, event="Greek Open",
                       round="R16", site="Athens", date="2024-05-01", time="14:30"))
    for seed, n in ((1, 3), (2, 5), (3, 7), (4, 9), (5, 11), (6, 1), (7, 5), (8, 7))
] + [
    (9, MatchHeader(players=("Carol", "Dave"), match_length=0, jacoby=True)),
    (10, MatchHeader(players=("Carol", "Dave"), match_length=0)),
]


def _compare(rec: MatchRecord, got: dict[str, Any], label: str, ordered: bool = True) -> Counter[str]:
    """``ordered=False``: gnubg sorts the hops of a play it imports; compare them as a multiset."""
    seen: Counter[str] = Counter()
    games = got["games"]
    assert len(games) == len(rec.games), label
    for g, gg in zip(rec.games, games):
        where = f"{label} game {g.number}"
        info = gg["info"]
        assert (info["score-X"], info["score-O"]) == g.score, where
        assert _SIDE[info["winner"]] is g.winner, where
        assert info["points-won"] == g.points, where
        assert bool(info.get("resigned")) == (g.result == "resign"), where
        ours = [a for a in g.actions if isinstance(a, (Turn, CubeAction))]
        theirs = [a for a in gg["game"] if a["action"] in ("move", "double", "take", "drop")]
        assert len(ours) == len(theirs), where
        for i, (a, t) in enumerate(zip(ours, theirs)):
            at = f"{where} action {i + 1}"
            assert _SIDE[t["player"]] is a.side, at
            if isinstance(a, Turn):
                assert t["action"] == "move", at
                assert tuple(t["dice"]) == a.dice, at
                hops = [tuple(m) for m in t.get("move", ())]
                ours_hops = [(m.src, m.dst) for m in a.play]
                if not ordered:
                    hops, ours_hops = sorted(hops), sorted(ours_hops)
                assert hops == ours_hops, at
                assert a.before is not None
                assert t["board"] == position_id(a.before), at
                seen["no_move" if not a.play else "move"] += 1
                seen["hit"] += any(m.hit for m in a.play)
                seen["bar"] += any(m.src == 25 for m in a.play)
                seen["off"] += any(m.dst == 0 for m in a.play)
            else:
                assert t["action"] == a.action, at
                seen[a.action] += 1
        seen[g.result] += 1
        seen["crawford"] += g.crawford
        if g.result == "resign":
            assert [a["action"] for a in gg["game"]][-1] == "resign", where
    return seen


def test_gnubg_reads_our_mat_and_sgf_move_by_move(tmp_path: Path) -> None:
    files: list[tuple[str, Path]] = []
    records = []
    for seed, header in CASES:
        rec = build_record(header, synthetic_match(seed, header, _BUSY))
        records.append(rec)
        files.append(("mat", write_mat(rec, tmp_path / f"m{seed}.mat")))
        files.append(("sgf", write_sgf(rec, tmp_path / f"m{seed}.sgf")))
    dumps = gnubg_read(files)
    seen: Counter[str] = Counter()
    for i, rec in enumerate(records):
        for fmt, got in zip(("mat", "sgf"), dumps[2 * i:2 * i + 2]):
            seen += _compare(rec, got, f"{files[2 * i][1].stem}.{fmt}")
            info = got["match-info"]
            assert (info["X"]["name"], info["O"]["name"]) == rec.header.players
            assert info["match-length"] == rec.header.match_length
            final = [0, 0]
            for gg in got["games"]:
                final[_SIDE[gg["info"]["winner"]]] += gg["info"]["points-won"]
            assert tuple(final) == rec.score
    # the matches really exercised everything the formats can say
    for what in ("move", "no_move", "hit", "bar", "off", "double", "take", "drop",
                 "resign", "single", "gammon", "crawford"):
        assert seen[what] > 0, f"no {what} in the test matches: change the seeds"
