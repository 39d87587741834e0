"""Canonical (top-down, unwarped) board geometry, in canonical pixels.

Proportions follow the overhead broadcast frames of the WTC 2022 board
(/work/shared/data/real/boards/wtc2022): a nearly square field, a narrow bar,
checkers almost as wide as a point, points ~42 % of the field height, a dark
frame, and a tray column beside the field (light tray at the bottom, dark
tray at the top, the cube's compartment between them). The tray column
stands on the light player's home side by default (``trays="home"``); the
WTC 2022 board has it on the other side (``trays="away"``). Real boards also
have tray columns on both sides (``"both"``: the checkers go to the home
side's, the other holds what players put there) or none at all (``"none"``:
borne-off checkers are piled on the table beside the home side's frame).

The bar's width varies from board to board (``bar``, canonical pixels; the
points keep their width, so a wider bar makes a wider field).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Layout", "layout", "TRAY_SIDES"]

PW = 54  # point width
BAR = 44  # bar width
FW = 12 * PW + BAR  # field width  (692)
FH = 648  # field height
R = 24  # checker radius (0.89 of a point width, as on the WTC board)
POINT_LEN = 272  # point (triangle) length
FRAME = 26  # frame around the field
TRAY = 70  # tray column width
TRAY_GAP = 12  # divider between the field and the tray column
OUTER = 16  # outer frame beyond the tray
MARGIN = 150  # table visible around the board
STRIPE = 8  # thickness of a checker standing in a tray
DIE = 24  # die edge
CUBE = 38  # cube edge
STACK_FIT = 5  # checkers that fit a point without overlapping


@dataclass(frozen=True)
class Layout:
    """Positions of everything on the canonical board for one ``home``."""

    home: str
    trays: str  # "home" or "away": which side the tray column stands on
    width: int  # canonical image size
    height: int
    fx0: int  # field's top-left corner
    fy0: int
    tray_x0: int  # tray column's inner rectangle (for trays="none": the table beside the frame)
    tray_x1: int
    bar: int = BAR  # bar width
    tray2_x0: int | None = None  # the second (empty) tray column, for trays="both"

    @property
    def fw(self) -> int:
        """Field width: twelve points and the bar."""
        return 12 * PW + self.bar

    @property
    def bar_u(self) -> tuple[float, float]:
        """The bar's extent in field ``u`` coordinates."""
        return (6 * PW / self.fw, (6 * PW + self.bar) / self.fw)

    # -- field coordinates ------------------------------------------------
    def uv_to_px(self, u: float, v: float) -> tuple[float, float]:
        return (self.fx0 + u * self.fw, self.fy0 + v * FH)

    def px_to_uv(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.fx0) / self.fw, (y - self.fy0) / FH)

    @property
    def field_corners(self) -> tuple[tuple[float, float], ...]:
        x0, y0 = self.fx0, self.fy0
        return ((x0, y0), (x0 + self.fw, y0), (x0 + self.fw, y0 + FH), (x0, y0 + FH))

    @property
    def bar_x(self) -> tuple[float, float]:
        x = self.fx0 + 6 * PW
        return (x, x + self.bar)

    @property
    def board_rect(self) -> tuple[int, int, int, int]:
        """Outer edge of the whole board (frame and tray columns)."""
        x0, x1 = self.fx0 - FRAME, self.fx0 + self.fw + FRAME
        for tx0 in self.tray_columns:
            x0, x1 = min(x0, tx0 - OUTER), max(x1, tx0 + TRAY + OUTER)
        return (x0, self.fy0 - FRAME, x1, self.fy0 + FH + FRAME)

    @property
    def tray_columns(self) -> tuple[int, ...]:
        """Left edges of the tray columns built into the board (0, 1 or 2)."""
        if self.trays == "none":
            return ()
        if self.tray2_x0 is not None:
            return (self.tray_x0, self.tray2_x0)
        return (self.tray_x0,)

    # -- points -------------------------------------------------------------
    def column(self, point: int) -> int:
        """Column 0-11 (left to right) of the light player's point 1-24."""
        col = 12 - point if point <= 12 else point - 13
        return 11 - col if self.home == "bottom-left" else col

    def point_x(self, point: int) -> float:
        col = self.column(point)
        return self.fx0 + col * PW + PW / 2 + (self.bar if col >= 6 else 0)

    def stack(self, point: int, n: int) -> list[tuple[float, float]]:
        """Centres of ``n`` checkers on ``point``, from the edge toward the middle."""
        x = self.point_x(point)
        bottom = point <= 12
        step = 2.0 * R if n <= STACK_FIT else (2.0 * R * (STACK_FIT - 1)) / (n - 1)
        out = []
        for k in range(n):
            d = R + 1 + k * step
            out.append((x, self.fy0 + FH - d if bottom else self.fy0 + d))
        return out

    def bar_stack(self, light: bool, n: int) -> list[tuple[float, float]]:
        """Light checkers on the bar's lower half, dark on its upper half."""
        x = self.fx0 + 6 * PW + self.bar / 2
        cy = self.fy0 + FH / 2
        room = FH / 2 - R - 2 * R - CUBE  # keep the owned cube's spot free
        step = 2.0 * R if n <= 3 else min(2.0 * R, room / max(n - 1, 1))
        sign = 1 if light else -1
        return [(x, cy + sign * (R + 4 + k * step)) for k in range(n)]

    # -- trays and cube ---------------------------------------------------
    def tray_box(self, light: bool) -> tuple[int, int, int, int]:
        """Inner rectangle of a tray: light's at the bottom, dark's at the top."""
        cube_h = CUBE + 40
        half = (FH - cube_h) // 2
        if light:
            return (self.tray_x0, self.fy0 + FH - half, self.tray_x1, self.fy0 + FH)
        return (self.tray_x0, self.fy0, self.tray_x1, self.fy0 + half)

    def tray_stripes(self, light: bool, n: int) -> list[tuple[float, float]]:
        """Centres of ``n`` checkers standing on edge, from the tray's far end."""
        x0, y0, x1, y1 = self.tray_box(light)
        cx = (x0 + x1) / 2
        room = (y1 - y0) - 6
        step = STRIPE + 1.0 if n * (STRIPE + 1) <= room else room / max(n, 1)
        if light:
            return [(cx, y1 - 3 - STRIPE / 2 - k * step) for k in range(n)]
        return [(cx, y0 + 3 + STRIPE / 2 + k * step) for k in range(n)]

    def table_pile(self, light: bool, n: int) -> list[tuple[float, float]]:
        """Centres of ``n`` checkers borne off onto the table (trays="none"): an
        overlapping row from the field's edge toward its middle, light's at the bottom."""
        x0, y0, x1, y1 = self.tray_box(light)
        cx = (x0 + x1) / 2
        room = (y1 - y0) - 2 * R - 4
        step = min(1.2 * R, room / max(n - 1, 1))
        if light:
            return [(cx, y1 - R - 2 - k * step) for k in range(n)]
        return [(cx, y0 + R + 2 + k * step) for k in range(n)]

    def cube_xy(self, place: str) -> tuple[float, float]:
        bx = self.fx0 + 6 * PW + self.bar / 2
        if place == "middle":
            return ((self.tray_x0 + self.tray_x1) / 2, self.fy0 + FH / 2)
        if place == "light":
            return (bx, self.fy0 + FH - CUBE / 2 - 6)
        return (bx, self.fy0 + CUBE / 2 + 6)


#: the tray designs ``layout`` builds
TRAY_SIDES = ("home", "away", "both", "none")


@lru_cache(maxsize=64)
def layout(home: str, trays: str = "home", bar: int = BAR) -> Layout:
    """The canonical layout for ``home`` ("bottom-right" or "bottom-left")
    with the tray column on the ``trays`` side ("home", "away", "both" or
    "none") and a bar ``bar`` canonical pixels wide."""
    fw = 12 * PW + bar
    side = TRAY_GAP + TRAY + OUTER  # wider side carries the tray column
    height = MARGIN + FRAME + FH + FRAME + MARGIN
    fy0 = MARGIN + FRAME
    if trays in ("home", "away"):
        width = MARGIN + side + fw + FRAME + MARGIN
        trays_left = (home == "bottom-right") == (trays == "away")
        if trays_left:
            fx0 = MARGIN + side
            tray_x0 = fx0 - TRAY_GAP - TRAY
        else:
            fx0 = MARGIN + FRAME
            tray_x0 = fx0 + fw + TRAY_GAP
        return Layout(home, trays, width, height, fx0, fy0, tray_x0, tray_x0 + TRAY, bar)
    home_left = home == "bottom-left"
    if trays == "both":
        width = MARGIN + side + fw + side + MARGIN
        fx0 = MARGIN + side
        left, right = fx0 - TRAY_GAP - TRAY, fx0 + fw + TRAY_GAP
        tray_x0, other = (left, right) if home_left else (right, left)
        return Layout(home, trays, width, height, fx0, fy0, tray_x0, tray_x0 + TRAY, bar, other)
    if trays == "none":
        # no tray: the checkers borne off lie on the table just beyond the frame
        width = MARGIN + FRAME + fw + FRAME + MARGIN
        fx0 = MARGIN + FRAME
        gap = FRAME + 16
        tray_x0 = fx0 - gap - TRAY if home_left else fx0 + fw + gap
        return Layout(home, trays, width, height, fx0, fy0, tray_x0, tray_x0 + TRAY, bar)
    raise ValueError(f"trays {trays!r} is not one of {TRAY_SIDES}")
