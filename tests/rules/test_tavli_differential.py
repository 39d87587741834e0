"""The fast Plakoto/Fevga generator against the simple brute-force one (tests/rules/tavli_brute.py).

Pairs come from seeded random games played with random rule settings (every
value of plakoto.mother, fevga.first_checker, fevga.prime, fevga.block_check
occurs). The slow test checks 20,000 (position, roll) pairs per game; it is
marked ``slow`` and still runs in CI (31-33 s per game on the shared 2-core
machine, most of it in the brute-force generator).
"""

from __future__ import annotations

import pytest

from tavli_pi.rules.tavli_moves import legal_results
from tavli_pi.rules.tavli_position import TavliPosition, format_tavli_position
from tavli_pi.rules.tavli_settings import TavliSettings, Variant
from tests.rules.tavli_brute import brute_ends, random_games

GAMES = [Variant.PLAKOTO, Variant.FEVGA]


def _check(variant: Variant, pairs: list[tuple[TavliPosition, tuple[int, int], TavliSettings]]
           ) -> dict[str, int]:
    seen = {"pairs": 0, "pins": 0, "bear_off": 0, "no_play": 0, "game_end": 0, "settings": 0}
    settings = set()
    for pos, dice, st in pairs:
        fast = legal_results(variant, pos, dice, st)
        got = {format_tavli_position(r.position) for r in fast}
        want = brute_ends(variant, pos, dice, st)
        assert got == want, (
            f"{variant.value} {format_tavli_position(pos)} {dice} {st}: "
            f"fast only {sorted(got - want)}, brute only {sorted(want - got)}"
        )
        assert len(got) == len(fast), "one result per distinct end position"
        seen["pairs"] += 1
        seen["pins"] += any(m.pin for r in fast for m in r.play)
        seen["bear_off"] += any(m.dst == 0 for r in fast for m in r.play)
        seen["no_play"] += not fast
        seen["game_end"] += any(r.position.off[pos.turn] == 15 for r in fast)
        settings.add(st)
    seen["settings"] = len(settings)
    return seen


@pytest.mark.parametrize("variant", GAMES, ids=lambda v: v.value)
def test_fast_equals_brute_force_on_random_games(variant: Variant) -> None:
    seen = _check(variant, random_games(variant, 1500, seed=7))
    assert seen["bear_off"] > 10 and seen["game_end"] > 0 and seen["no_play"] > 0
    if variant is Variant.PLAKOTO:
        assert seen["pins"] > 50


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAMES, ids=lambda v: v.value)
def test_fast_equals_brute_force_on_20000_pairs(variant: Variant) -> None:
    seen = _check(variant, random_games(variant, 20_000, seed=2026))
    assert seen["pairs"] == 20_000
    assert seen["settings"] >= 8  # the settings vary from game to game
    assert seen["bear_off"] > 500 and seen["game_end"] > 20 and seen["no_play"] > 20
