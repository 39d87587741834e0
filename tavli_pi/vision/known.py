"""A position known to the app, in vision's physical terms: what a board can be learnt from.

The reader learns a board from one frame of a position it knows (``setup.learn_board``): the
start position at set-up (B3), a game in progress the players confirmed or the referee adopted,
or a position given with a photo (``tavli-pi read --position``). ``KnownBoard`` holds such a
position as vision sees it: the count of light and of dark checkers on each of the 24 points in
the light player's numbering, on the bar and in the trays (15 a colour, B1). It knows no rules:
the app turns a referee position into one with ``referee.game.spot_counts``, ``read`` with
``rules.ids.parse_position``.

From it the learning knows which slots of each point's chain held a checker in the frame it
learnt from (``slots``: the board under them was never seen), where those checkers stood
(``discs``), and where the frame disagreed with it (``differences``).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any

import numpy as np

from tavli_pi.errors import CalibrationError

__all__ = ["DARK_HOME", "KnownBoard", "LIGHT_HOME", "ROW", "CHECKERS", "START_LIGHT", "START_DARK", "outside_home"]

#: checkers a colour (B1)
CHECKERS = 15
#: checkers that lie in a row from a point's edge, each fully visible; a taller stack is
#: squeezed into about the same length (each checker overlapping the last), so its first ROW
#: slots are covered and the rest of the point is seen
ROW = 5
#: the spots of a board: the 24 points, then the bar and the trays ("off")
SPOTS = 26
#: B3 in the light player's numbering: light's own points, and dark's (own q = light 25 - q).
START_LIGHT: dict[int, int] = {24: 2, 13: 5, 8: 3, 6: 5}
START_DARK: dict[int, int] = {25 - q: n for q, n in START_LIGHT.items()}


#: the home boards (spots, light numbering: points 1-24 at 0-23, the bar 24), where a side's checkers all are
#: before it bears off: light's points 1-6, dark's 19-24 (Portes and Plakoto)
LIGHT_HOME, DARK_HOME = slice(0, 6), slice(18, 24)


def outside_home(counts: Sequence[int], *, light: bool) -> int:
    """How many of a colour's checkers (``counts``: points 1-24 in light numbering, bar, off) lie outside
    its home board: points 7-24 and the bar for light, 1-18 and the bar for dark."""
    return int(sum(int(n) for n in counts[:25])) - int(sum(int(n) for n in counts[LIGHT_HOME if light else DARK_HOME]))


@dataclass(frozen=True)
class KnownBoard:
    """Light and dark checker counts per spot: points 1-24 (light numbering), bar, off."""

    light: tuple[int, ...]
    dark: tuple[int, ...]

    def __post_init__(self) -> None:
        for name, counts in (("light", self.light), ("dark", self.dark)):
            if len(counts) != SPOTS or any(int(n) < 0 for n in counts):
                raise CalibrationError(f"a known board needs {SPOTS} non-negative {name} counts "
                                       "(points 1-24, bar, off)")
            if sum(counts) != CHECKERS:
                raise CalibrationError(f"the known board has {sum(counts)} {name} checkers, needs {CHECKERS} (B1): "
                                       "count the points, the bar and the trays again")

    @classmethod
    def of_counts(cls, light: Any, dark: Any) -> KnownBoard:
        """From two sequences of 26 counts (points 1-24, bar, off), e.g. ``game.spot_counts``'s."""
        return cls(tuple(int(n) for n in light), tuple(int(n) for n in dark))

    @classmethod
    def start(cls) -> KnownBoard:
        """The start position (B3): light on 24, 13, 8 and 6; dark on the points facing them."""
        light = [0] * SPOTS
        dark = [0] * SPOTS
        for counts, start in ((light, START_LIGHT), (dark, START_DARK)):
            for p, n in start.items():
                counts[p - 1] = n
        return cls(tuple(light), tuple(dark))

    @property
    def is_start(self) -> bool:
        return self == KnownBoard.start()

    @property
    def bar(self) -> tuple[int, int]:
        return self.light[24], self.dark[24]

    @property
    def off(self) -> tuple[int, int]:
        return self.light[25], self.dark[25]

    def name(self) -> str:
        return "the start position (B3)" if self.is_start else "the known position"

    @property
    def could_be_played(self) -> bool:
        """Whether the board could stand in a game: a side with checkers borne off has all its others in its
        home board (points 1-6 for light, 19-24 for dark, light numbering; none on the bar), as bearing off
        asks (e.g. the USBGF rules: a player bears off once all fifteen of their checkers are in their home
        board)."""
        return not (self.light[25] and outside_home(self.light, light=True)) \
            and not (self.dark[25] and outside_home(self.dark, light=False))

    def slots(self, depth: int) -> np.ndarray:
        """(26, depth) bool: the chain slots the board fills (the 24 points, then the bar's lower
        half -- light -- and upper half -- dark): a point's first min(n, ROW) slots (a stack
        taller than ROW is squeezed into them)."""
        out = np.zeros((26, depth), bool)
        for i in range(24):
            n = self.light[i] + self.dark[i]
            out[i, : min(n, ROW)] = True
        out[24, : min(self.light[24], depth)] = True
        out[25, : min(self.dark[24], depth)] = True
        return out

    def differences(self, light: list[int], dark: list[int], bar: tuple[int, int],
                    off: tuple[int, int]) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
        """(spot, known (light, dark), read (light, dark)) where a reading differs; spots "1".."24",
        "bar", "off"."""
        out = [(str(i + 1), (self.light[i], self.dark[i]), (light[i], dark[i]))
               for i in range(24) if (light[i], dark[i]) != (self.light[i], self.dark[i])]
        for name, want, got in (("bar", self.bar, bar), ("off", self.off, off)):
            if got != want:
                out.append((name, want, got))
        return out

    # -- persistence (the calibration file; the shape of ``read --json``'s counts) ------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "light": {str(i + 1): n for i, n in enumerate(self.light[:24]) if n},
            "dark": {str(i + 1): n for i, n in enumerate(self.dark[:24]) if n},
            "bar": {"light": self.light[24], "dark": self.dark[24]},
            "off": {"light": self.light[25], "dark": self.dark[25]},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> KnownBoard:
        try:
            light = [0] * SPOTS
            dark = [0] * SPOTS
            for counts, key in ((light, "light"), (dark, "dark")):
                for p, n in d[key].items():
                    if not 1 <= int(p) <= 24:
                        raise ValueError(f"point {p} is not 1-24")
                    counts[int(p) - 1] = int(n)
                counts[24] = int(d["bar"][key])
                counts[25] = int(d["off"][key])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CalibrationError(f"the calibration's known position is malformed ({exc}); calibrate again") from exc
        return cls(tuple(light), tuple(dark))
