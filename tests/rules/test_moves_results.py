"""PlayResult values from legal_results: lazy plays that behave like plain ones."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from tavli_pi.rules.moves import Move, PlayResult, apply_play, legal_results
from tavli_pi.rules.position import Position
from tests.rules.gnubg_oracle import sample_pairs


def test_generated_results_equal_plain_ones() -> None:
    pos = Position.start()
    for r in legal_results(pos, (3, 1)):
        plain = PlayResult(r.position, r.plays)
        assert r == plain and plain == r and hash(r) == hash(plain)
        assert isinstance(r, PlayResult)
        assert [f.name for f in dataclasses.fields(r)] == ["position", "plays"]
        assert repr(r) == repr(plain)
        for c in (copy.copy(r), copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
            assert c == r and type(c) is PlayResult
        assert dataclasses.replace(r, plays=r.plays[:1]).plays == r.plays[:1]
        assert dataclasses.replace(r) == r
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.plays = ()  # type: ignore[misc]


def test_plays_are_built_once_and_kept() -> None:
    r = legal_results(Position.start(), (6, 5))[0]
    first = r.plays
    assert r.plays is first
    assert first[0] == (Move(24, 18), Move(18, 13)) or first[0] == (Move(24, 19), Move(19, 13))


def test_results_distinct_and_from_the_mover_only() -> None:
    for pos, dice in sample_pairs(300, seed=5):
        results = legal_results(pos, dice)
        keys = [r.position.key() for r in results]
        assert len(set(keys)) == len(keys)
        for r in results:
            assert r.position.turn is pos.turn
            # the fast constructor gives positions equal to validated ones
            assert apply_play(pos, r.plays[0]) == r.position
            assert r.position == Position(r.position.points, r.position.bar, r.position.off, pos.turn)
            for play in r.plays:
                assert all(isinstance(m, Move) for m in play)
                # hits: one per blot, on the first checker to land there
                hit_points = [m.dst for m in play if m.hit]
                assert len(hit_points) == len(set(hit_points))
                assert r.position.bar[pos.turn.other] - pos.bar[pos.turn.other] == len(hit_points)
