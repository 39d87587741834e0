"""The tavli match (T1-T4), the settings (RULES-TAVLI.md keys) and the one API over three games."""

from __future__ import annotations

import pytest

from tavli_pi.errors import ConfigError, IllegalActionError, InvalidPositionError
from tavli_pi.rules.games import (
    End,
    format_game_position,
    game_result,
    judge_end,
    legal_ends,
    parse_game_position,
    start_position,
)
from tavli_pi.rules.ids import parse_position
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.tavli_position import TavliPosition
from tavli_pi.rules.tavli_settings import (
    BlockCheck,
    MatchSettings,
    Mother,
    TavliSettings,
    Variant,
    match_settings_from_mapping,
    parse_variant,
    settings_from_mapping,
)

W, B = Side.WHITE, Side.BLACK


def test_T1_match_to_the_agreed_points() -> None:
    m = TavliMatch(MatchSettings(match_length=3))
    m = m.after_game(W, 2).after_game(B, 1)
    assert not m.over and m.score == (2, 1)
    m = m.after_game(W, 1)
    assert m.over and m.winner is W
    with pytest.raises(IllegalActionError, match="T1"):
        m.after_game(B, 1)
    assert TavliMatch().settings.match_length == 5  # the default


def test_T2_rotation() -> None:
    m = TavliMatch(MatchSettings(match_length=7))
    seen = []
    for _ in range(6):
        seen.append(m.variant)
        m = m.after_game(W if len(seen) % 2 else B, 1)
    assert seen == [Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA] * 2
    only = TavliMatch(MatchSettings(games=(Variant.FEVGA, Variant.PLAKOTO)))
    assert [only.variant, only.after_game(W, 1).variant] == [Variant.FEVGA, Variant.PLAKOTO]


def test_T3_no_cube_and_portes_backgammon_counts_two() -> None:
    assert TavliMatch.cube_allowed is False
    # a Portes backgammon inside the match: 2 points by default (T3), 3 when set
    pos = Position.from_counts({}, {24: 15})  # White borne off, Black all in White's home
    assert game_result(Variant.PORTES, pos) == game_result(Variant.PORTES, pos, match=MatchSettings())
    r = game_result(Variant.PORTES, pos)
    assert r and r.winner is W and r.points == 2 and r.reason == "backgammon"
    r3 = game_result(Variant.PORTES, pos, match=MatchSettings(portes_backgammon=3))
    assert r3 and r3.points == 3
    with pytest.raises(IllegalActionError):
        TavliMatch().after_game(W, 3)  # 3 points only where a Portes backgammon counts 3
    assert TavliMatch(MatchSettings(portes_backgammon=3)).after_game(W, 3).score == (3, 0)


def test_T4_no_crawford() -> None:
    m = TavliMatch(MatchSettings(match_length=3)).after_game(W, 2)
    assert m.crawford is False and m.cube_allowed is False  # at 2-away-1: nothing changes


def test_a_draw_scores_nothing_and_opens_with_one_die() -> None:
    m = TavliMatch().after_game(W, 1).after_game(None, 0)
    assert m.score == (1, 0) and m.starter is None and m.game_number == 3
    with pytest.raises(IllegalActionError):
        TavliMatch().after_game(None, 2)


def test_settings_keys_and_values() -> None:
    s = settings_from_mapping({"plakoto.mother": "off", "fevga.block_check": "every-move"})
    assert s.mother is Mother.OFF and s.block_check is BlockCheck.EVERY_MOVE
    assert settings_from_mapping({}) == TavliSettings()
    assert settings_from_mapping(s.as_mapping()) == s
    with pytest.raises(ConfigError, match="unknown setting 'fevga.speed'"):
        settings_from_mapping({"fevga.speed": "fast"})
    with pytest.raises(ConfigError, match="fevga.prime cannot be 'sometimes'.*allowed"):
        settings_from_mapping({"fevga.prime": "sometimes"})
    m = match_settings_from_mapping({"tavli.match_length": 7, "tavli.games": ["fevga", "portes"],
                                     "tavli.winner_starts": False, "tavli.portes_backgammon": 3})
    assert m == MatchSettings(7, (Variant.FEVGA, Variant.PORTES), False, 3)
    for bad in ({"tavli.match_length": 0}, {"tavli.games": ["chess"]}, {"tavli.winner_starts": "y"},
                {"tavli.portes_backgammon": 4}, {"tavli.cube": True}):
        with pytest.raises(ConfigError):
            match_settings_from_mapping(bad)
    for key in ("plakoto.cube", "tavli.cube"):
        with pytest.raises(ConfigError, match="V2"):
            (settings_from_mapping if key.startswith("plakoto") else match_settings_from_mapping)({key: True})
    with pytest.raises(ConfigError, match="portes, plakoto or fevga"):
        parse_variant("narde")


def test_one_api_over_the_three_games() -> None:
    for v in Variant:
        start = start_position(v)
        ends = legal_ends(v, start, (6, 5))
        assert ends and all(isinstance(e, End) and e.moves for e in ends)
        j = judge_end(v, start, (6, 5), ends[0].position)
        assert j.legal and j.end == ends[0]
        j = judge_end(v, start, (6, 5), start)
        assert not j.legal and j.nearest and j.wrong_points
        assert game_result(v, start) is None
        text = format_game_position(v, start)
        assert parse_game_position(v, text) == start or v is Variant.PORTES
    assert parse_game_position(Variant.PORTES, "4HPwATDgc/ABMA") == parse_position("4HPwATDgc/ABMA")
    # V8 / E7 the same way: one unchanged entry
    shut = TavliPosition.from_stacks({24: "w15", 18: "b2", 19: "b2", 1: "b11"})
    assert legal_ends(Variant.PLAKOTO, shut, (6, 5)) == (End("", shut),)
    with pytest.raises(InvalidPositionError):
        legal_ends(Variant.PORTES, shut, (6, 5))
    with pytest.raises(InvalidPositionError):
        legal_ends(Variant.FEVGA, Position.start(), (6, 5))
    # a mother win through the one API
    p = TavliPosition.from_stacks({1: "b1w1", 6: "w14", 20: "b14"})
    r = game_result(Variant.PLAKOTO, p)
    assert r and r.winner is W and r.points == 2 and r.reason == "mother"
    assert game_result(Variant.PLAKOTO, p, TavliSettings(mother=Mother.OFF)) is None
