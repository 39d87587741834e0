"""The tavli match record: text and JSON, re-imported to every position exactly."""

from __future__ import annotations

import json

import pytest

from tavli_pi.errors import FormatError
from tavli_pi.record.tavli_text import (
    FORMAT_LINE,
    format_record,
    parse_record,
    record_from_json,
    record_to_json,
    replay,
)
from tavli_pi.rules.games import GamePosition, format_game_position
from tavli_pi.rules.ids import parse_position
from tavli_pi.rules.tavli_settings import (
    BlockCheck,
    FirstChecker,
    MatchSettings,
    Mother,
    Prime,
    TavliSettings,
    Variant,
)
from tests.record.tavli_games import random_match


def _texts(positions: list[GamePosition], variant: Variant) -> list[str]:
    return [format_game_position(variant, p) for p in positions]


SETTINGS = [
    TavliSettings(),
    TavliSettings(Mother.TWO_POINTS, FirstChecker.IN_START_QUARTER, Prime.ALLOWED, BlockCheck.EVERY_MOVE),
    TavliSettings(Mother.OFF, FirstChecker.PAST_START_POINT, Prime.NOT_IN_FRONT_OF_ALL, BlockCheck.EVERY_MOVE),
]


@pytest.mark.parametrize("seed", range(12))
def test_text_reimport_rebuilds_every_position(seed: int) -> None:
    rec, positions = random_match(seed, SETTINGS[seed % 3])
    text = format_record(rec)
    back = parse_record(text)
    assert back == rec
    assert format_record(back) == text
    for g, seen in zip(back.games, positions):
        rebuilt = replay(g, back.settings)
        assert rebuilt == seen  # every position exactly, side on roll included


def test_the_text_reads_as_documented() -> None:
    rec, _ = random_match(3)
    text = format_record(rec)
    lines = text.splitlines()
    assert lines[0] == FORMAT_LINE
    assert lines[1].startswith("Match: 3 points, games portes plakoto fevga")
    assert lines[2] == "White: Anna" and lines[3] == "Black: Babis"
    assert "plakoto.mother=two-points-unless-own-mother" in lines[4]
    assert lines[6] == "Game 1: portes, score white 0 black 0"
    assert lines[7].startswith("Start: XGID=")
    assert "Game 2: plakoto" in text
    assert any(line.startswith("Result: ") for line in lines)


def test_many_random_matches_cover_all_three_games_and_pins() -> None:
    variants = set()
    reasons = set()
    pins = 0
    for seed in range(12, 24):
        rec, positions = random_match(seed, match=MatchSettings(match_length=5))
        back = parse_record(format_record(rec))
        for g, seen in zip(back.games, positions):
            variants.add(g.variant)
            reasons.add(g.result.reason if g.result else None)
            assert replay(g, back.settings) == seen
            if g.variant is Variant.PLAKOTO:
                pins += sum("*" in t.play for t in g.turns)
    assert variants == {Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA}
    assert pins > 0
    # the text carries every kind of ending: V5 single and mars, P6 mother win and draw, S1
    assert {"single", "gammon", "backgammon", "borne off", "mars", "mother", "mother draw"} <= reasons


def test_json_round_trip_with_positions() -> None:
    rec, positions = random_match(5)
    data = json.loads(json.dumps(record_to_json(rec)))
    assert data["format"] == "tavli-pi/tavli-record"
    first = data["games"][0]
    assert first["variant"] == "portes"
    assert [parse_position(t["position"]) for t in first["turns"]] == positions[0][1:]
    plakoto = data["games"][1]
    assert [t["position"] for t in plakoto["turns"]] == _texts(positions[1][1:], Variant.PLAKOTO)
    assert record_from_json(data) == rec
    won = [g for g in rec.games if g.result]
    total = sum(g.result.points for g in won if g.result and g.result.winner is not None)
    assert data["score"]["white"] + data["score"]["black"] == total


def test_a_changed_play_is_refused_with_its_line() -> None:
    rec, _ = random_match(1)
    lines = format_record(rec).splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.strip().startswith("3 "))
    head, _, _ = lines[i].partition(":")
    lines[i] = head + ": 24/1"
    with pytest.raises(FormatError, match=f"line {i + 1}"):
        parse_record("\n".join(lines))


@pytest.mark.parametrize("mutate,why", [
    (lambda t: t.replace(FORMAT_LINE, "# something else"), "line 1"),
    (lambda t: t.replace("Game 1: portes", "Game 1: chess"), "game header"),
    (lambda t: t.replace("Game 2:", "Game 3:"), "follows"),
    (lambda t: t.replace("score white 0 black 0", "score white 9 black 0", 1), "score"),
    (lambda t: t.replace("plakoto.mother=two-points-unless-own-mother", "plakoto.mother=never"), "header"),
])
def test_malformed_records_are_refused(mutate: object, why: str) -> None:
    rec, _ = random_match(2)
    text = format_record(rec)
    with pytest.raises(FormatError, match=why):
        parse_record(mutate(text))  # type: ignore[operator]
