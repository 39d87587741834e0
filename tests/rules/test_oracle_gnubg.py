"""Differential test against the real gnubg 1.07 program (/usr/games/gnubg).

10,000 (position, roll) pairs from seeded random legal games; for each, the
set of resulting positions must equal the one gnubg's hint lists (M1-M7).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tavli_pi.rules.ids import position_id
from tavli_pi.rules.moves import legal_results
from tests.rules.gnubg_oracle import GNUBG, classify, gnubg_results, sample_pairs

N_PAIRS = 10_000


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_same_results_as_gnubg() -> None:
    if not GNUBG.exists():
        pytest.fail(f"{GNUBG} missing: run scripts/setup.sh (apt package gnubg)")
    pairs = sample_pairs(N_PAIRS, seed=7)
    requests = [(position_id(p), d[0], d[1]) for p, d in pairs]
    answers = gnubg_results(requests)
    tags: Counter[str] = Counter()
    mismatches = []
    for (pos, dice), (pid, _, _), theirs in zip(pairs, requests, answers):
        results = legal_results(pos, dice)
        tags.update(classify(pos, dice, results))
        ours = [position_id(r.position) for r in results]
        assert len(set(ours)) == len(ours), f"{pid} {dice}: duplicate results"
        if set(ours) != set(theirs):
            mismatches.append((pid, dice, sorted(set(ours) - set(theirs)), sorted(set(theirs) - set(ours))))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:3]}"
    # the sample really exercised every rule situation
    for tag in ("bar", "closed_board", "no_move", "hit", "bear_off", "bear_off_overshoot",
                "single_die", "higher_die", "partial_double"):
        assert tags[tag] > 0, f"no {tag} case in the sample: {dict(tags)}"
    print(dict(tags))
