"""sim.spot_score: the per-spot error split into wrong values and counts reported unknown."""

from __future__ import annotations

from tavli_pi.sim.spot_score import confidently_wrong, no_value, score_spots, verdict
from tavli_pi.vision.conserve import UNKNOWN, conserved_off
from tavli_pi.vision.doubt import temper
from tavli_pi.vision.observation import CountEvidence, Observation, SpotEvidence, certain

EMPTY = SpotEvidence(certain(0), certain(0))


def _leaning(n: int, p: float) -> CountEvidence:
    """``n`` at probability ``p``, the rest spread over the other counts."""
    rest = (1.0 - p) / 15
    return CountEvidence(tuple(p if i == n else rest for i in range(16)))


def test_a_tray_the_reader_could_not_settle_is_an_unknown_not_a_wrong_value() -> None:
    # the reader's own unknown: a hand over the board, a tray (no learnt empty look) reading 2 that
    # disagrees with the 3 the board implies -- conserved_off gives no value
    points = [SpotEvidence(certain(12), certain(15))] + [EMPTY] * 23
    off, source = conserved_off(points, EMPTY, SpotEvidence(certain(2), certain(0)), hand=True)
    assert source[0] == "unknown" and no_value(off.light)
    assert verdict(off, 3, 0) == "unknown"
    assert not confidently_wrong(off, 3, 0)
    # tempering (a hand: no count is sure) keeps an unknown unknown
    assert verdict(temper(off), 3, 0) == "unknown"
    # the first of equals is 0: an empty tray reported unknown is right, as the combined figure had it
    assert verdict(off, 0, 0) == "right"


def test_a_value_given_is_a_wrong_value_even_beside_an_unknown() -> None:
    assert verdict(SpotEvidence(UNKNOWN, _leaning(1, 0.5)), 3, 0) == "wrong"
    # a tempered count still gives a value: a point under a hand read short is a wrong value
    hidden = temper(SpotEvidence(certain(0), _leaning(2, 0.97)))
    assert not no_value(hidden.dark)
    assert verdict(hidden, 0, 4) == "wrong"
    assert not confidently_wrong(hidden, 0, 4)


def test_confidently_wrong_and_the_cap_at_fifteen() -> None:
    assert confidently_wrong(SpotEvidence(_leaning(2, 0.95), certain(0)), 3, 0)
    assert not confidently_wrong(SpotEvidence(_leaning(2, 0.85), certain(0)), 3, 0)
    assert verdict(SpotEvidence(certain(15), certain(0)), 16, 0) == "right"


def test_a_frame_scored_spot_by_spot() -> None:
    points = [EMPTY] * 24
    points[3] = SpotEvidence(certain(0), _leaning(1, 0.6))  # a phantom dark checker
    obs = Observation(points=tuple(points), bar=EMPTY, off=SpotEvidence(UNKNOWN, certain(0)),
                      off_source=("unknown", "tray"))
    scores = score_spots(obs, (0,) * 24, (0,) * 24, (0, 0), (4, 0))
    assert len(scores) == 26
    assert [(s.index, s.where, s.verdict) for s in scores if s.wrong] == [(3, "point", "wrong"),
                                                                         (25, "trays", "unknown")]
    assert scores[24].where == "bar" and scores[24].verdict == "right"
