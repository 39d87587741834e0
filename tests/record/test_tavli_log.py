"""A tavli match refereed into the SQLite log, exported as the tavli text/JSON record and .mat of its
Portes games; re-importing the text rebuilds every position exactly (issue 13, item 6)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tavli_pi.errors import RecordError
from tavli_pi.record.export import export_all, load_record, load_tavli_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.store import MatchLog
from tavli_pi.record.tavli_log import parse_rules_text, rules_text
from tavli_pi.record.tavli_text import parse_record, record_from_json, replay
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.games import GamePosition
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.tavli_settings import MatchSettings, TavliSettings, Variant

from tests.referee.synth import Table
from tests.referee.tavli_games import MatchRun, play_tavli_match


def _refereed_match(tmp: Path, seed: int, length: int = 3) -> tuple[Path, MatchRun]:
    match = MatchSettings(match_length=length)
    settings = TavliSettings()
    ref = Referee(RefereeSettings(), tavli=TavliMatch(match), tavli_settings=settings)
    t = Table(ref, rng=random.Random(seed))
    run = play_tavli_match(t, random.Random(seed), settings=settings)
    assert run.illegal_calls == 0 and run.wrong_accepts == 0
    assert ref.phase == "match_over"
    db = tmp / "table.sqlite"
    header = MatchHeader(players=("Ann", "Bob"), match_length=length, crawford=False, game="tavli",
                         rules=rules_text(match, settings))
    with MatchLog.open(db, header) as log:
        for e in t.events:
            log.append(e)
    return db, run


def _keys(positions: list[GamePosition] | list[object]) -> list[object]:
    return [p.layout_key() for p in positions]  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_text_export_of_a_refereed_match_rebuilds_every_position(tmp_path: Path, seed: int) -> None:
    db, run = _refereed_match(tmp_path, seed)
    rec = load_tavli_record(db)
    assert not rec.notes and rec.finished
    text = (export_all(db, tmp_path)["tavli"]).read_text()
    back = parse_record(text)
    assert [g.variant for g in back.games] == [v for v, _ in run.games]
    assert [g.variant for g in back.games][:3] == [Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA][:len(run.games)]
    for g, (variant, truth) in zip(back.games, run.games):
        assert _keys(replay(g, back.settings)) == _keys(truth), variant
        assert g.result is not None
    data = json.loads((tmp_path / "match.json").read_text())
    again = record_from_json(data)
    assert again.games == back.games
    final = TavliMatch(back.match)
    for g in back.games:
        assert g.result is not None
        final = final.after_game(g.result.winner, g.result.points)
    assert final.over and data["score"] == {"white": final.score[0], "black": final.score[1]}


def test_mat_holds_the_portes_games_alone(tmp_path: Path) -> None:
    db, run = _refereed_match(tmp_path, 4, length=5)
    rec = load_record(db)
    portes = [v for v, _ in run.games if v is Variant.PORTES]
    assert len(rec.games) == len(portes) >= 1
    assert [g.number for g in rec.games] == list(range(1, len(portes) + 1))
    mat = (tmp_path / "match.mat").read_text() if (tmp_path / "match.mat").exists() else \
        export_all(db, tmp_path)["mat"].read_text()
    assert mat.count(" Game ") == len(portes)


def test_a_portes_log_refuses_the_tavli_formats(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite"
    MatchLog.open(db, MatchHeader(players=("A", "B"))).close()
    with pytest.raises(RecordError, match="Portes match"):
        load_tavli_record(db)


def test_rules_text_round_trip() -> None:
    m = MatchSettings(match_length=7, games=(Variant.PLAKOTO, Variant.FEVGA), winner_starts=False)
    s = TavliSettings()
    assert parse_rules_text(rules_text(m, s)) == (m, s)
    with pytest.raises(RecordError, match="cannot be read"):
        parse_rules_text("tavli.match_length=x")
