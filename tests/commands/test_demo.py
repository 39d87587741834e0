"""``tavli-pi demo --no-serve --out DIR``: the whole pipeline on rendered frames (a few games' worth)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.cli import main
from tavli_pi.record.store import MatchLog


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    out = tmp_path_factory.mktemp("demo")
    code = main(["demo", "--no-serve", "--out", str(out), "--quiet"])
    return code, out


def test_demo_writes_the_log_and_its_exports(demo: tuple[int, Path]) -> None:
    _, out = demo
    for name in ("table.sqlite", "match.mat", "match.sgf"):
        assert (out / name).stat().st_size > 0, name
    log = MatchLog.open(out / "table.sqlite")
    try:
        kinds = [x.event.kind for x in log.events()]
    finally:
        log.close()
    assert kinds[:2] == ["setup_checked", "game_started"]
    # every scripted decision reached the referee through the app's input queue
    assert kinds.count("action_refused") + kinds.count("cube_offered") + kinds.count("resigned") >= 3


def test_demo_meets_the_script_and_exits_0(demo: tuple[int, Path]) -> None:
    code, _ = demo
    assert code == 0
