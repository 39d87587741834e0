"""Board geometry in the canonical (warped, top-down) image.

The canonical image shows the playing field with the light player at the
bottom edge, plus a margin all round (for the trays and for dice thrown
outside the field). Field coordinates ``(u, v)`` run from 0 to 1 across the
field's width and height; ``Layout`` turns them into canonical pixels and
knows where each of the 24 points, the bar and both trays lie.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np

__all__ = [
    "Home",
    "Column",
    "Layout",
    "FIELD_WIDTH",
    "MARGIN_X",
    "MARGIN_Y",
    "DEFAULT_BAR",
    "point_columns",
]

Home = Literal["bottom-right", "bottom-left"]

#: Canonical width of the playing field in pixels (the height follows the aspect).
FIELD_WIDTH = 560
#: Margins around the field in the canonical image, as fractions of field width / height.
MARGIN_X = 0.16
MARGIN_Y = 0.06
#: Bar as (left, right) fractions of the field width when nothing better is known.
DEFAULT_BAR = (0.4675, 0.5325)


@dataclass(frozen=True)
class Column:
    """One point's strip: centre x, width, the edge its stack starts from (top/bottom)."""

    point: int  # 1..24, light numbering
    x: float
    width: float
    top: bool  # True: the point's base is the top edge of the field


def point_columns(
    x0: float, bar0: float, bar1: float, x1: float, home: Home
) -> list[tuple[int, float, float, bool]]:
    """(point, centre x, width, top) for the 24 points, field x-edges and bar in any unit.

    With the home bottom-right, point 1 is the bottom-right column, 1-6 run
    leftwards to the bar, 7-12 on to the left edge, 13-18 along the top from
    the left, 19-24 from the bar to the right. ``bottom-left`` mirrors this.
    """
    wl = (bar0 - x0) / 6.0
    wr = (x1 - bar1) / 6.0
    left = [(x0 + (i + 0.5) * wl, wl) for i in range(6)]  # left-most first
    right = [(bar1 + (i + 0.5) * wr, wr) for i in range(6)]
    bottom = left + right  # left to right, 12 columns
    out: list[tuple[int, float, float, bool]] = []
    for k in range(12):
        # k counts from the light player's home corner along the bottom edge
        x, w = bottom[11 - k] if home == "bottom-right" else bottom[k]
        out.append((k + 1, x, w, False))
    for k in range(12):
        # points 13..24 run along the top edge starting above point 12
        x, w = bottom[k] if home == "bottom-right" else bottom[11 - k]
        out.append((13 + k, x, w, True))
    return out


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of the canonical image for one calibration."""

    field_w: int
    field_h: int
    home: Home
    u0: float = 0.0  # refined left edge of the playing surface (field fraction)
    u1: float = 1.0  # refined right edge
    bar: tuple[float, float] = DEFAULT_BAR
    v0: float = 0.0
    v1: float = 1.0

    @property
    def mx(self) -> int:
        return int(round(MARGIN_X * self.field_w))

    @property
    def my(self) -> int:
        return int(round(MARGIN_Y * self.field_h))

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the canonical image."""
        return self.field_w + 2 * self.mx, self.field_h + 2 * self.my

    def to_px(self, u: float, v: float) -> tuple[float, float]:
        return self.mx + u * self.field_w, self.my + v * self.field_h

    def to_uv(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.mx) / self.field_w, (y - self.my) / self.field_h

    def field_corners(self) -> np.ndarray:
        """The field's corners in canonical px (float32, 4x2), in the order a calibration's corners are
        given: where each of them lands in the canonical view."""
        return np.asarray([self.to_px(0, 0), self.to_px(1, 0), self.to_px(1, 1), self.to_px(0, 1)], np.float32)

    @cached_property
    def columns(self) -> tuple[Column, ...]:
        """The 24 points' strips (``point_columns``), worked out once per layout (the layout is
        frozen; the set-up model's swapped-colour test asks for them thousands of times a frame)."""
        fw = self.field_w
        cols = point_columns(
            self.mx + self.u0 * fw,
            self.mx + self.bar[0] * fw,
            self.mx + self.bar[1] * fw,
            self.mx + self.u1 * fw,
            self.home,
        )
        return tuple(Column(p, x, w, top) for p, x, w, top in cols)

    @cached_property
    def pitch(self) -> float:
        """The spacing of a stack: about one checker diameter (the column width). Kept once
        worked out (the layout is frozen; the reader asks for it hundreds of times a frame)."""
        return float(np.mean([c.width for c in self.columns]))

    @property
    def top_y(self) -> float:
        return self.my + self.v0 * self.field_h

    @property
    def bottom_y(self) -> float:
        return self.my + self.v1 * self.field_h

    @property
    def bar_x(self) -> tuple[float, float]:
        return self.mx + self.bar[0] * self.field_w, self.mx + self.bar[1] * self.field_w

    def tray_rects(self) -> dict[str, tuple[int, int, int, int]]:
        """Canonical (x0, y0, x1, y1) of the light and dark trays beside the home side.

        The light tray is beside the light home board (bottom half), the dark
        tray beside the dark home board (top half), both on the home side.
        """
        w = self.pitch * 1.15
        gap = self.pitch * 0.12
        if self.home == "bottom-right":
            xa = self.mx + self.u1 * self.field_w + gap
        else:
            xa = self.mx + self.u0 * self.field_w - gap - w
        xa = max(0.0, xa)
        xb = min(float(self.size[0]), xa + w)
        mid = (self.top_y + self.bottom_y) / 2
        pad = self.pitch * 0.3
        return {
            "light": (int(xa), int(mid + pad), int(xb), int(self.bottom_y)),
            "dark": (int(xa), int(self.top_y), int(xb), int(mid - pad)),
        }

    def half_of(self, u: float, v: float) -> str:
        """Which half a field point lies in, from the light player's seat."""
        if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
            return "outside"
        if self.bar[0] <= u <= self.bar[1]:
            return "bar"
        return "left" if u < self.bar[0] else "right"
