"""A reading's spots scored against the truth (issue 9's per-spot error), an unknown apart.

A spot is a point, the bar or the trays, both colours. Its reading is wrong when a colour's
likeliest count is not the true one (more than 15 counts as 15, ``MAX_COUNT``): that is the
combined figure every stop has quoted. A wrong spot is then one of two kinds:

- ``"unknown"``: every colour read wrong was reported unknown -- its evidence is flat, every count
  equally likely (``conserve.UNKNOWN``: a tray neither witness could settle, a tray under a hand
  that disagrees with the board); its "likeliest" count is only the first of equals, no value;
- ``"wrong"``: a value was given that is not the truth (a wrong value), the kind to cut.

An unknown whose first-of-equals count happens to be the truth (an empty tray) is scored right,
as before, so ``wrong values + unknowns`` is the combined figure. A spot is *confidently* wrong
when a colour given a wrong value has it at ``CONFIDENT`` or more (an unknown never is).

>>> from tavli_pi.vision.observation import SpotEvidence, certain
>>> from tavli_pi.vision.conserve import UNKNOWN
>>> verdict(SpotEvidence(certain(2), certain(0)), 2, 0), verdict(SpotEvidence(UNKNOWN, certain(0)), 3, 0)
('right', 'unknown')
>>> verdict(SpotEvidence(UNKNOWN, certain(1)), 3, 0)
'wrong'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, Observation, SpotEvidence

__all__ = ["CONFIDENT", "Verdict", "SpotScore", "no_value", "verdict", "confidently_wrong", "score_spots"]

#: a count read at this confidence or more is a sure one
CONFIDENT = 0.9
#: probabilities this close count as equal (flat evidence)
_FLAT = 1e-9

Verdict = Literal["right", "unknown", "wrong"]


def no_value(e: CountEvidence) -> bool:
    """Whether ``e`` reports the count unknown: every count equally likely."""
    return max(e.probs) - min(e.probs) <= _FLAT


def _misread(ev: SpotEvidence, light: int, dark: int) -> list[CountEvidence]:
    return [e for e, n in ((ev.light, light), (ev.dark, dark)) if e.best != min(n, MAX_COUNT)]


def verdict(ev: SpotEvidence, light: int, dark: int) -> Verdict:
    """``ev`` read where ``light`` and ``dark`` checkers stand: right, an unknown or a wrong value."""
    bad = _misread(ev, light, dark)
    if not bad:
        return "right"
    return "unknown" if all(no_value(e) for e in bad) else "wrong"


def confidently_wrong(ev: SpotEvidence, light: int, dark: int) -> bool:
    """Whether a colour of ``ev`` is given a wrong value at ``CONFIDENT`` or more."""
    return any(e.confidence >= CONFIDENT and not no_value(e) for e in _misread(ev, light, dark))


@dataclass(frozen=True, slots=True)
class SpotScore:
    """One spot of a frame scored: ``where`` is "point", "bar" or "trays"; ``index`` 0-23 for a
    point (the light player's point ``index + 1``), 24 the bar, 25 the trays."""

    index: int
    where: str
    verdict: Verdict
    confident: bool  # confidently wrong

    @property
    def wrong(self) -> bool:
        """Wrong in the combined figure (a wrong value or an unknown)."""
        return self.verdict != "right"


def score_spots(obs: Observation, light: tuple[int, ...], dark: tuple[int, ...], bar: tuple[int, int],
                off: tuple[int, int]) -> list[SpotScore]:
    """The 26 spots of ``obs`` scored against the true counts (``sim.render.Truth``'s fields)."""
    spots = [(obs.points[i], light[i], dark[i], "point") for i in range(24)]
    spots += [(obs.bar, bar[0], bar[1], "bar"), (obs.off, off[0], off[1], "trays")]
    return [SpotScore(i, where, verdict(ev, nl, nd), confidently_wrong(ev, nl, nd))
            for i, (ev, nl, nd, where) in enumerate(spots)]
