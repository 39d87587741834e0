"""Board designs and the cached drawing of an empty board (no checkers).

Colours are BGR. The tournament design imitates the WTC 2022 overhead board:
cream field, alternating red and black points, black frame and bar, white and
black checkers with a pale rim, black dice with white pips, a red cube.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from tavli_pi.sim import _layout as L

if TYPE_CHECKING:
    from tavli_pi.sim.scene import Build, Print

__all__ = ["Design", "DESIGNS", "empty_board", "print_mask", "print_box"]

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Design:
    name: str
    field: BGR
    point_a: BGR  # odd columns from the left on the top edge
    point_b: BGR
    frame: BGR
    bar: BGR
    tray: BGR
    table: BGR
    light_body: BGR
    light_rim: BGR
    dark_body: BGR
    dark_rim: BGR
    die_body: BGR
    die_pip: BGR
    cube_body: BGR
    cube_text: BGR
    grain: float = 0.0  # wood grain strength on field and frame
    checker: str = "plain"  # checker finish: "plain", "metal" (a bright metal rim), "pearl" (mother of pearl)
    field_grain: float | None = None  # grain on the field (None: 0.6 x grain)


DESIGNS: dict[str, Design] = {
    "tournament": Design(
        name="tournament",
        field=(214, 232, 238),
        point_a=(38, 30, 196),
        point_b=(28, 26, 26),
        frame=(34, 32, 32),
        bar=(30, 28, 28),
        tray=(44, 42, 42),
        table=(120, 72, 40),
        light_body=(236, 238, 238),
        light_rim=(176, 180, 182),
        dark_body=(22, 22, 24),
        dark_rim=(190, 192, 196),
        die_body=(24, 24, 26),
        die_pip=(240, 240, 240),
        cube_body=(40, 36, 190),
        cube_text=(240, 240, 245),
    ),
    "wood": Design(
        name="wood",
        field=(118, 170, 212),
        point_a=(34, 58, 96),
        point_b=(170, 214, 236),
        frame=(30, 62, 110),
        bar=(28, 58, 104),
        tray=(36, 72, 120),
        table=(90, 96, 100),
        light_body=(226, 234, 240),
        light_rim=(180, 192, 204),
        dark_body=(40, 150, 204),
        dark_rim=(24, 110, 160),
        die_body=(235, 238, 240),
        die_pip=(30, 30, 30),
        cube_body=(220, 226, 230),
        cube_text=(30, 30, 30),
        grain=14.0,
    ),
    "green": Design(
        name="green",
        field=(70, 120, 40),
        point_a=(200, 226, 232),
        point_b=(40, 40, 130),
        frame=(30, 40, 46),
        bar=(28, 36, 40),
        tray=(40, 60, 40),
        table=(150, 150, 150),
        light_body=(210, 236, 246),
        light_rim=(150, 190, 210),
        dark_body=(36, 30, 110),
        dark_rim=(60, 60, 170),
        die_body=(40, 40, 200),
        die_pip=(245, 245, 245),
        cube_body=(240, 240, 240),
        cube_text=(20, 20, 20),
    ),
    # -- after the real boards in ../shared/data/real/boards/more -----------------------
    # cream/red/black board, white and black checkers with metal rims (bcv-hough-test3)
    "metal": Design(
        name="metal",
        field=(196, 222, 232),
        point_a=(44, 40, 170),
        point_b=(32, 30, 30),
        frame=(26, 26, 30),
        bar=(30, 30, 34),
        tray=(38, 38, 42),
        table=(70, 80, 96),
        light_body=(228, 232, 234),
        light_rim=(205, 208, 212),
        dark_body=(30, 30, 32),
        dark_rim=(196, 200, 204),
        die_body=(236, 238, 240),
        die_pip=(28, 28, 28),
        cube_body=(235, 235, 235),
        cube_text=(30, 30, 30),
        checker="metal",
    ),
    # navy Pinetti board: ivory and taupe points, walnut frame, white and grey pearl (bcv-template3)
    "pinetti": Design(
        name="pinetti",
        field=(72, 44, 40),
        point_a=(200, 222, 232),
        point_b=(112, 128, 142),
        frame=(52, 82, 120),
        bar=(66, 44, 40),
        tray=(46, 74, 110),
        table=(236, 238, 240),
        light_body=(222, 230, 234),
        light_rim=(196, 204, 210),
        dark_body=(162, 166, 168),
        dark_rim=(138, 142, 146),
        die_body=(26, 26, 28),
        die_pip=(236, 236, 236),
        cube_body=(236, 236, 236),
        cube_text=(30, 30, 30),
        grain=10.0,
        checker="pearl",
        field_grain=0.0,
    ),
    # rosewood product photo: pearl and black checkers (bcv-template... rosewood)
    "rosewood": Design(
        name="rosewood",
        field=(44, 58, 102),
        point_a=(150, 192, 222),
        point_b=(30, 28, 30),
        frame=(30, 42, 88),
        bar=(28, 40, 84),
        tray=(34, 48, 94),
        table=(228, 230, 232),
        light_body=(220, 226, 230),
        light_rim=(190, 198, 204),
        dark_body=(28, 28, 30),
        dark_rim=(58, 58, 62),
        die_body=(232, 234, 236),
        die_pip=(24, 24, 24),
        cube_body=(232, 234, 236),
        cube_text=(24, 24, 24),
        grain=16.0,
        checker="pearl",
    ),
    # beech board with a leather field, white and black points, white tray linings (bcv-template2)
    "beech": Design(
        name="beech",
        field=(72, 88, 104),
        point_a=(236, 236, 238),
        point_b=(34, 30, 30),
        frame=(120, 176, 218),
        bar=(112, 168, 212),
        tray=(116, 170, 212),
        table=(70, 100, 70),
        light_body=(178, 214, 236),
        light_rim=(140, 180, 210),
        dark_body=(48, 40, 60),
        dark_rim=(34, 30, 44),
        die_body=(238, 238, 240),
        die_pip=(30, 30, 30),
        cube_body=(238, 238, 240),
        cube_text=(30, 30, 30),
        grain=12.0,
        field_grain=3.0,
    ),
    # a club board: green field, cream and brick points, white and red checkers
    "club": Design(
        name="club",
        field=(52, 96, 36),
        point_a=(196, 222, 232),
        point_b=(52, 60, 150),
        frame=(24, 34, 52),
        bar=(24, 34, 52),
        tray=(30, 46, 30),
        table=(160, 140, 120),
        light_body=(232, 236, 238),
        light_rim=(190, 196, 200),
        dark_body=(40, 38, 170),
        dark_rim=(30, 28, 120),
        die_body=(238, 238, 240),
        die_pip=(26, 26, 26),
        cube_body=(238, 238, 240),
        cube_text=(26, 26, 26),
    ),
}


def _grain(h: int, w: int, strength: float, seed: int) -> np.ndarray:
    """Horizontal wood grain as an additive float map."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, 1.0, (h, 1)).astype(np.float32)
    rows = np.asarray(cv2.GaussianBlur(noise, (1, 0), sigmaX=0.1, sigmaY=2.0))
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    wave = np.sin(ys * 0.21 + 3.0 * np.sin(xs * 0.004 + ys * 0.01)).astype(np.float32)
    g = rows * 0.6 + wave * 0.5
    return (g * strength).astype(np.float32)


def _textured(img: np.ndarray, strength: float, seed: int) -> np.ndarray:
    h, w = img.shape[:2]
    g = _grain(h, w, strength, seed)
    out = img.astype(np.float32) + g[:, :, None]
    res: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return res


@lru_cache(maxsize=24)
def empty_board(board: str, home: str, trays: str = "home", build: Build | None = None) -> np.ndarray:
    """The canonical empty board (read-only: copy before drawing on it).

    ``build`` (a ``scene.Build``; None = the default) sets the bar's width,
    the tray linings and what is printed on the field."""
    d = DESIGNS[board]
    bar = L.BAR if build is None else build.bar
    lay = L.layout(home, trays, bar)
    img = np.empty((lay.height, lay.width, 3), np.uint8)
    img[:] = d.table  # plain, so it meets the warp's constant border seamlessly

    bx0, by0, bx1, by1 = lay.board_rect
    # board's drop shadow on the table
    sh = img[by0 + 6 : by1 + 10, bx0 + 6 : bx1 + 10]
    sh[:] = (sh.astype(np.float32) * 0.55).astype(np.uint8)
    frame = np.empty((by1 - by0, bx1 - bx0, 3), np.uint8)
    frame[:] = d.frame
    if d.grain:
        frame = _textured(frame, d.grain, 11)
    img[by0:by1, bx0:bx1] = frame
    # a lighter bevel line along the outer edge
    cv2.rectangle(img, (bx0, by0), (bx1 - 1, by1 - 1), _shade(d.frame, 1.5), 2, cv2.LINE_AA)

    # tray columns: two trays and the cube compartment each
    insert = None if build is None else build.insert
    for tx0 in lay.tray_columns:
        tx1 = tx0 + L.TRAY
        shift = tx0 - lay.tray_x0
        cv2.rectangle(img, (tx0, lay.fy0), (tx1, lay.fy0 + L.FH), d.tray, -1)
        for light in (True, False):
            x0, y0, x1, y1 = lay.tray_box(light)
            if insert is not None:
                cv2.rectangle(img, (x0 + shift + 6, y0 + 8), (x1 + shift - 6, y1 - 8), insert, -1)
            cv2.rectangle(img, (x0 + shift, y0), (x1 + shift, y1), _shade(d.tray, 0.7), 2, cv2.LINE_AA)
        cv2.rectangle(
            img, (tx0, lay.fy0), (tx1, lay.fy0 + L.FH), _shade(d.frame, 0.6), 2, cv2.LINE_AA
        )

    # playing field
    fx0, fy0 = lay.fx0, lay.fy0
    fw = lay.fw
    field = np.empty((L.FH, fw, 3), np.uint8)
    field[:] = d.field
    fg = d.grain * 0.6 if d.field_grain is None else d.field_grain
    if fg:
        field = _textured(field, fg, 23)
    img[fy0 : fy0 + L.FH, fx0 : fx0 + fw] = field
    for point in range(1, 25):
        x = lay.point_x(point)
        col = lay.column(point)
        bottom = point <= 12
        colour = d.point_a if (col % 2 == 0) != bottom else d.point_b
        base = fy0 + L.FH if bottom else fy0
        tip = base - L.POINT_LEN if bottom else base + L.POINT_LEN
        half = L.PW / 2 - 5
        pts = np.array([[x - half, base], [x + half, base], [x, tip]], np.float64)
        cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32), colour, cv2.LINE_AA, 4)
    bxa, bxb = lay.bar_x
    img[fy0 : fy0 + L.FH, int(bxa) : int(bxb)] = d.bar
    # hinges on the bar (they show on the broadcast board), 28 px wide at most
    hx = (int(bxa) + int(bxb)) // 2
    hw = min(14, max((int(bxb) - int(bxa)) // 2 - 3, 4))
    for yy in (0.2, 0.8):
        y = int(fy0 + L.FH * yy)
        cv2.rectangle(img, (hx - hw, y - 22), (hx + hw, y + 22), (168, 170, 172), -1)
        cv2.rectangle(img, (hx - hw, y - 22), (hx + hw, y + 22), (110, 112, 114), 1)
    if build is not None:
        for pr in build.prints:
            _print(img, lay, pr)
    # inner shadow of the frame on the field
    cv2.rectangle(img, (fx0, fy0), (fx0 + fw, fy0 + L.FH), _shade(d.frame, 0.5), 2, cv2.LINE_AA)
    img.setflags(write=False)
    return img


def print_mask(pr: Print) -> np.ndarray:
    """The print's ink as a float mask (0-1), unrotated, centred in its array."""
    hpx = max(int(round(pr.size * L.FH)), 8)
    if pr.kind == "text":
        font = cv2.FONT_HERSHEY_DUPLEX
        scale = hpx / 22.0
        thick = max(int(round(hpx / 10)), 1)
        (tw, th), base = cv2.getTextSize(pr.text, font, scale, thick)
        m = np.zeros((th + base + 8, tw + 8), np.uint8)
        cv2.putText(m, pr.text, (4, th + 4), font, scale, 255, thick, cv2.LINE_AA)
    else:
        m = np.zeros((hpx + 4, hpx + 4), np.uint8)
        c = (hpx + 4) / 2
        cv2.circle(m, (int(c), int(c)), hpx // 2, 255, max(hpx // 14, 1), cv2.LINE_AA)
        s = hpx * 0.42
        q = np.array([[c - s / 2, c - s / 2], [c + s / 2, c - s / 2], [c + s / 2, c + s / 2], [c - s / 2, c + s / 2]])
        cv2.polylines(m, [np.round(q).astype(np.int32)], True, 255, max(hpx // 24, 1), cv2.LINE_AA)
        for a, b in ((-1, -1), (0, 0), (1, 1)):  # a die's three: logos of backgammon clubs show dice
            cv2.circle(m, (int(c + a * s * 0.27), int(c + b * s * 0.27)), max(int(s * 0.09), 1), 255, -1, cv2.LINE_AA)
    out: np.ndarray = m.astype(np.float32) / 255.0
    return out


def print_box(lay: L.Layout, pr: Print) -> tuple[float, float, float, float]:
    """The print's extent on the canonical board (x0, y0, x1, y1), rotation included."""
    m = print_mask(pr)
    h, w = m.shape
    cx, cy = lay.uv_to_px(pr.u, pr.v)
    a = math.radians(pr.angle)
    hw = (abs(math.cos(a)) * w + abs(math.sin(a)) * h) / 2
    hh = (abs(math.sin(a)) * w + abs(math.cos(a)) * h) / 2
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def _print(img: np.ndarray, lay: L.Layout, pr: Print) -> None:
    """Print or engrave ``pr`` onto the board image."""
    m = print_mask(pr)
    h, w = m.shape
    side = int(math.ceil(math.hypot(h, w))) + 2
    big = np.zeros((side, side), np.float32)
    oy, ox = (side - h) // 2, (side - w) // 2
    big[oy : oy + h, ox : ox + w] = m
    rot = cv2.getRotationMatrix2D((side / 2, side / 2), pr.angle, 1.0)
    big = np.asarray(cv2.warpAffine(big, rot, (side, side), flags=cv2.INTER_LINEAR), np.float32)
    cx, cy = lay.uv_to_px(pr.u, pr.v)
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    H, W = img.shape[:2]
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + side, W), min(y0 + side, H)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    a = big[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0, None] * 0.9
    roi = img[ay0:ay1, ax0:ax1].astype(np.float32)
    ink = roi * 0.55 if pr.colour is None else np.array(pr.colour, np.float32)[None, None, :]
    img[ay0:ay1, ax0:ax1] = np.clip(roi * (1 - a) + ink * a, 0, 255).astype(np.uint8)


def _shade(c: BGR, k: float) -> BGR:
    return (min(int(c[0] * k + 4), 255), min(int(c[1] * k + 4), 255), min(int(c[2] * k + 4), 255))
