"""What vision saw in one frame, in physical terms. It knows no rules.

Points are numbered from the *light* player's view (point 1 is the light
side's deepest home point). "Light" and "dark" are the two checker colours by
brightness; which of them is White is the referee's business (config).
Die halves are also from the light player's seat: ``"right"`` is the half on
the light player's right hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "MAX_COUNT",
    "CountEvidence",
    "SpotEvidence",
    "DieReading",
    "CubeReading",
    "Observation",
    "certain",
]

#: Counts 0..MAX_COUNT are represented in every likelihood vector.
MAX_COUNT = 15

Half = Literal["left", "right", "bar", "outside"]
CubePlace = Literal["middle", "light", "dark", "none"]


@dataclass(frozen=True, slots=True)
class CountEvidence:
    """Probabilities for 0..15 checkers of one colour on one spot (sum 1)."""

    probs: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.probs) != MAX_COUNT + 1:
            raise ValueError(f"count evidence needs {MAX_COUNT + 1} probabilities")

    @property
    def best(self) -> int:
        """The likeliest count (the first of equals). ``max`` of the values then ``index`` of it:
        the same index as an argmax by key (both keep the first of equals, and ``index`` finds
        the very object ``max`` kept), at a third of the cost -- the reader asks ~500 times a frame."""
        return self.probs.index(max(self.probs))

    @property
    def confidence(self) -> float:
        return self.probs[self.best]

    def p(self, n: int) -> float:
        return self.probs[n] if 0 <= n <= MAX_COUNT else 0.0


def certain(n: int) -> CountEvidence:
    """Evidence that is sure of ``n`` checkers (for tests and the simulator)."""
    return CountEvidence(tuple(1.0 if i == n else 0.0 for i in range(MAX_COUNT + 1)))


@dataclass(frozen=True, slots=True)
class SpotEvidence:
    """Evidence for both colours on one spot (a point, the bar, a tray)."""

    light: CountEvidence
    dark: CountEvidence


@dataclass(frozen=True, slots=True)
class DieReading:
    xy: tuple[float, float]
    value: int
    value_confidence: float
    flat: bool
    on_checker: bool
    half: Half
    moving: bool = False
    #: why no value was given ("" when read): e.g. "too small to read (9 px, need 12)"
    note: str = ""
    #: the die's side in image pixels (0 when not measured)
    size_px: float = 0.0
    #: an outline was measured round the die, round its face or round its pips, and showed how it lies.
    #: False: the body ran into something of its colour (a black die on a black point), or the outline
    #: looks flat with a side face's pips beside the face, so a die turning over or leaning may look as
    #: flat as one at rest; a still photo shows no motion either, and reports it no surer than
    #: ``dice_face.UNSEEN_LIE``
    lie_seen: bool = True
    #: its measured side counts towards the size the table's dice show (``dice_table_size.DieSizes``).
    #: False for a die kept with no face read (``dice_vet``: its face read at no confidence, kept for
    #: standing out from the learnt board): a body the search could not read is no measure of the
    #: table's dice (kept in, it moved the size a small six's faces were read against: stop 60); nor
    #: does it take the face a die read there on the last frame (``dice_kept``: clip s11j640 game 9)
    sizes_table: bool = True


@dataclass(frozen=True, slots=True)
class CubeReading:
    value: int
    place: CubePlace
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class Observation:
    """One frame's reading.

    ``points[i]`` is the light player's point ``i + 1``. ``off.light`` counts
    the light checkers in the light tray, ``off.dark`` the dark ones in theirs.
    """

    points: tuple[SpotEvidence, ...]
    bar: SpotEvidence
    off: SpotEvidence
    dice: tuple[DieReading, ...] = ()
    cube: CubeReading | None = None
    hand: bool = False
    motion: bool = False
    confidence: float = 1.0
    frame_index: int = 0
    #: where each tray count comes from (light, dark): "tray" (read there and agreeing with
    #: conservation, 15 = board + bar + off), "implied" (the tray could not be read or
    #: disagreed: the count is 15 - board - bar), "unknown" (neither can be trusted)
    off_source: tuple[str, str] = ("tray", "tray")
    #: what was found wrong with the picture or the board (one line each, for the user)
    problems: tuple[str, ...] = ()
    extras: dict[str, float] = field(default_factory=dict, compare=False)
    #: per point (light numbering) the pinned checker at the base of a two-colour stack (Plakoto, P3):
    #: +1 a light checker under dark ones, -1 a dark one under light ones, 0 none; () when not read
    pinned: tuple[int, ...] = ()
    #: the spots a hand hides, reported unknown (``under_hand``): 0-23 the points (light numbering),
    #: 24 the bar's light checkers, 25 its dark ones
    hidden: tuple[int, ...] = ()

    def best_counts(self) -> tuple[list[int], list[int]]:
        """Best-guess light and dark counts per point (index 0 = point 1)."""
        return (
            [s.light.best for s in self.points],
            [s.dark.best for s in self.points],
        )

    def placed(self) -> tuple[int, int]:
        """Light's and dark's best counts on the points, the bar and off together (15 each where the
        reading accounts for every checker, B1)."""
        light, dark = self.best_counts()
        return (sum(light) + self.bar.light.best + self.off.light.best,
                sum(dark) + self.bar.dark.best + self.off.dark.best)
