"""Perft-style data: tests/data/*.plays lines ``position_id d1 d2 count``.

The counts were produced by gnubg 1.07 (``python -m tests.rules.gnubg_oracle``),
not by this code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.rules.ids import position_from_id
from tavli_pi.rules.moves import legal_results

DATA = Path(__file__).resolve().parent.parent / "data"


def _cases() -> list[tuple[str, str, int, int, int]]:
    out = []
    for path in sorted(DATA.glob("*.plays")):
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                pid, d1, d2, n = line.split()
                out.append((path.name, pid, int(d1), int(d2), int(n)))
    return out


CASES = _cases()


def test_data_present() -> None:
    assert len(CASES) >= 400


@pytest.mark.parametrize("name,pid,d1,d2,count", CASES, ids=[f"{c[1]}-{c[2]}{c[3]}" for c in CASES])
def test_perft_count(name: str, pid: str, d1: int, d2: int, count: int) -> None:
    assert len(legal_results(position_from_id(pid), (d1, d2))) == count
