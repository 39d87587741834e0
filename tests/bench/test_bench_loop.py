"""bench/bench_loop.py's real-like stream: the app's frame loop over a real-like referee game's frames
yields its frames, classed by the read each took, and the figures the demo gets (issue 12)."""

from __future__ import annotations

import re

import pytest

from bench.bench_loop import at_fps, reallike_loop, report
from bench.bench_reallike import game_plans, game_script


def test_at_15_fps_every_other_moment_shows_twice_its_inputs_once() -> None:
    _, plant = game_plans(4, 0, 8)[3]
    moments = game_script(3, 0, 8, plant)[:6]
    assert at_fps(moments, 10) == moments
    fifteen = at_fps(moments, 15)
    assert len(fifteen) == 9
    for m in (1, 3, 5):  # the odd moments, then their second frame
        first, again = fifteen[m + (m - 1) // 2], fifteen[m + (m - 1) // 2 + 1]
        assert first is moments[m]
        assert again.position == moments[m].position and again.dice == moments[m].dice
        assert again.inputs == () and again.expect == ()


def test_a_real_like_game_through_the_loop_gives_the_demo_s_figures(capsys: pytest.CaptureFixture[str]) -> None:
    # game 103: a 640 px JPEG camera; its first 6 moments, as bench_reallike.py --games plays them
    timed = reallike_loop(103, 10, True, moments=6)
    assert timed.calls == 6
    kinds = timed.kinds
    assert sum(len(v) for v in kinds.values()) == 6
    assert set(kinds) <= {"set-up", "calibration", "full", "changed", "unchanged"}
    assert len(kinds["calibration"]) == 1  # the app calibrated itself from [camera] corners
    assert kinds.get("changed") or kinds.get("unchanged")  # frames read after calibration
    assert 0 < timed.cpu(after_setup=True) < timed.cpu()
    assert timed.kept is not None
    report(timed, 10, True, timed.calls / 10)
    out = capsys.readouterr().out
    assert re.search(r"10 fps, incremental on : 6 frames, CPU [\d.]+ s = [\d.]+ CPU-s per s of video", out)
    assert re.search(r"from calibration on \(that call left out\): [\d.]+ CPU-s per s", out)
    assert re.search(r"the gate found \d+ of \d+ frames read unchanged", out)


def test_a_peer_run_passes_on_every_option_but_its_own() -> None:
    from bench.bench_loop import _passed_on

    assert _passed_on(["--quick", "--peer", "../base", "--rounds", "3", "--reallike", "100,103"]) == [
        "--quick", "--reallike", "100,103"]
    assert _passed_on(["--peer=../base", "--no-demo", "--json", "x.json", "--tree", "t", "--moments=5"]) == [
        "--no-demo", "--moments=5"]


def test_a_peer_run_prints_each_figure_per_run_and_the_ratio_of_the_medians() -> None:
    from bench.bench_loop import peer_table

    got = {"this": [{"demo: changed": 40.0, "only here": 1.0}, {"demo: changed": 50.0}],
           "peer": [{"demo: changed": 80.0}, {"demo: changed": 100.0}]}
    table = peer_table(got, {"this": [5.0, 6.0], "peer": [5.5, 6.5]})
    rows = table.splitlines()
    assert rows[2] == "| load at start | 5.0, 6.0 | 5.5, 6.5 | | |"
    assert rows[3] == "| demo: changed | 40.000, 50.000 | 80.000, 100.000 | 45.000 / 90.000 | 0.500 |"
    assert len(rows) == 4  # a figure missing from a run is left out
