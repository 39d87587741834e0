"""``tavli-pi demo --tavli --no-serve --out DIR``: the scripted tavli match through the whole pipeline
(rendered frames -> vision -> referee -> log and exports), RULES-TAVLI.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavli_pi.cli import main
from tavli_pi.record.export import load_record
from tavli_pi.record.store import MatchLog
from tavli_pi.record.tavli_text import parse_record, replay
from tavli_pi.referee.events import GameOver, IllegalPlay, PlayAccepted
from tavli_pi.rules.tavli_position import TavliPosition
from tavli_pi.rules.tavli_settings import Variant
from tavli_pi.sim.tavli_script import demo_tavli_match


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    out = tmp_path_factory.mktemp("demo_tavli")
    code = main(["demo", "--tavli", "--no-serve", "--out", str(out), "--quiet"])
    return code, out


def test_demo_tavli_meets_the_script_and_exits_0(demo: tuple[int, Path]) -> None:
    code, out = demo
    assert code == 0
    for name in ("table.sqlite", "match.mat", "match.sgf", "match.tavli.txt", "match.json"):
        assert (out / name).stat().st_size > 0, name


def test_demo_tavli_has_every_promised_moment(demo: tuple[int, Path]) -> None:
    _, out = demo
    with MatchLog.open(out / "table.sqlite", readonly=True) as log:
        events = [x.event for x in log.events()]
    plays = [e for e in events if isinstance(e, PlayAccepted)]
    pinned = [any(e.after.pinned) for e in plays if isinstance(e.after, TavliPosition)]
    assert True in pinned, "a pin (P3)"
    # a release: a play that frees a pinned checker
    assert any(isinstance(e.before, TavliPosition) and isinstance(e.after, TavliPosition)
               and sum(map(abs, e.before.pinned)) > sum(map(abs, e.after.pinned)) for e in plays), "a release (P4)"
    ills = [e for e in events if isinstance(e, IllegalPlay)]
    assert [e.rule for e in ills] == ["F3"] and ills[0].state.variant == "fevga"
    assert any(e.kind == "illegal_play_resolved" for e in events)
    overs = [e for e in events if isinstance(e, GameOver)]
    assert [(o.state.variant, o.result, o.points) for o in overs] == [
        ("portes", "gammon", 2), ("plakoto", "mother", 2), ("fevga", "mars", 2)]
    assert [o.rule for o in overs] == ["T3", "P6", "V5"]
    assert events[-1].kind == "match_over" and events[-1].state.score == (4, 2)
    assert any(e.kind == "action_refused" and e.rule == "V2" for e in events)


def test_demo_tavli_text_rebuilds_every_position(demo: tuple[int, Path]) -> None:
    _, out = demo
    rec = parse_record((out / "match.tavli.txt").read_text())
    assert [g.variant for g in rec.games] == [Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA]
    # the scripted truth: the board after every play, game by game
    truth: list[list[object]] = [[], [], []]
    game = -1
    last = None
    for m in demo_tavli_match():
        if m.note.startswith("game "):
            game += 1
            last = None
        key = m.position.layout_key()
        if not m.hand and key != last and game >= 0:
            truth[game].append(key)
            last = key
    for g, want in zip(rec.games, truth):
        got = [p.layout_key() for p in replay(g, rec.settings)]
        dedup = [k for i, k in enumerate(got) if i == 0 or k != got[i - 1]]
        assert dedup == [k for k in want if k in got][: len(dedup)] and set(want) >= set(got), g.variant
    data = json.loads((out / "match.json").read_text())
    assert data["score"] == {"white": 4, "black": 2} and data["finished"] and not data["notes"]


def test_demo_tavli_mat_holds_the_portes_game_alone(demo: tuple[int, Path]) -> None:
    _, out = demo
    rec = load_record(out / "table.sqlite")
    assert len(rec.games) == 1 and rec.games[0].points == 2 and rec.games[0].number == 1
    assert (out / "match.mat").read_text().count(" Game ") == 1


def test_export_command_writes_the_tavli_formats(demo: tuple[int, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _, out = demo
    db = str(out / "table.sqlite")
    assert main(["export", db, "--format", "tavli", "--out", str(tmp_path / "m.txt")]) == 0
    assert (tmp_path / "m.txt").read_text() == (out / "match.tavli.txt").read_text()
    assert main(["export", db, "--format", "json", "--out", str(tmp_path / "m.json")]) == 0
    assert json.loads((tmp_path / "m.json").read_text())["games"][1]["variant"] == "plakoto"
    assert main(["export", db, "--format", "mat", "--out", str(tmp_path / "m.mat")]) == 0


def test_export_of_a_portes_log_refuses_the_tavli_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tavli_pi.record.header import MatchHeader

    db = tmp_path / "p.sqlite"
    MatchLog.open(db, MatchHeader(players=("A", "B"))).close()
    code = main(["export", str(db), "--format", "tavli"])
    err = capsys.readouterr().err
    assert code != 0 and "Portes match" in err and err.count("\n") == 1
