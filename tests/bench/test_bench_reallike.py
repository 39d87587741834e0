"""bench/bench_reallike.py's ``--only``: the games it names, ranges included (issue 9's runs)."""

from __future__ import annotations

import pytest

from bench.bench_reallike import game_list


def test_only_takes_indices_and_ranges() -> None:
    assert game_list("3, 100-102,130") == frozenset({3, 100, 101, 102, 130})
    assert game_list("") == frozenset()


@pytest.mark.parametrize("bad", ["100-", "a", "119-100", "1-2-3"])
def test_only_refuses_what_is_no_game_with_what_to_write(bad: str) -> None:
    with pytest.raises(SystemExit, match="range like 100-119"):
        game_list(bad)
