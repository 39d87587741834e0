"""The reader marks the counts it inferred (``Observation.inferred``): those a reading that did not
add up to 15 (B1) was changed to by ``conserve.balanced_board``."""

from __future__ import annotations

from tavli_pi.vision.conserve import balanced_board
from tavli_pi.vision.observation import CountEvidence, Observation, SpotEvidence, certain
from tavli_pi.vision.reader import inferred_counts


def _two(a: int, pa: float, b: int) -> CountEvidence:
    p = [0.0] * 16
    p[a], p[b] = pa, 1.0 - pa
    return CountEvidence(tuple(p))


LIGHT, DARK = {6: 5, 8: 3, 13: 5, 24: 2}, {1: 2, 12: 5, 17: 3, 19: 5}
BAR = SpotEvidence(certain(0), certain(0))


def _start() -> list[SpotEvidence]:
    return [SpotEvidence(certain(LIGHT.get(p, 0)), certain(DARK.get(p, 0))) for p in range(1, 25)]


def test_the_counts_a_balanced_board_changed_are_marked_inferred() -> None:
    points = _start()
    points[2] = SpotEvidence(_two(1, 0.6, 0), certain(0))  # a print read as a light checker on point 3
    points[18] = SpotEvidence(certain(0), _two(4, 0.6, 5))  # five dark on point 19 read as four
    bar = SpotEvidence(certain(0), certain(0))
    tray = SpotEvidence(_two(0, 0.97, 1), _two(0, 0.97, 1))
    got, got_bar = balanced_board(points, bar, tray)
    assert inferred_counts((*points, bar), (*got, got_bar)) == ((2, "light"), (18, "dark"))


def test_a_reading_that_adds_up_has_nothing_inferred() -> None:
    points = _start()
    points[9] = SpotEvidence(certain(0), _two(0, 0.55, 1))
    tray = SpotEvidence(_two(0, 0.9, 1), _two(0, 0.9, 1))
    got, bar = balanced_board(points, BAR, tray)
    assert inferred_counts((*points, BAR), (*got, bar)) == ()
    assert Observation(tuple(points), BAR, tray).inferred == ()
