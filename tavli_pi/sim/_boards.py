"""Board designs and the cached drawing of an empty board (no checkers).

Colours are BGR. The tournament design imitates the WTC 2022 overhead board:
cream field, alternating red and black points, black frame and bar, white and
black checkers with a pale rim, black dice with white pips, a red cube.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.sim import _layout as L

__all__ = ["Design", "DESIGNS", "empty_board"]

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


@lru_cache(maxsize=12)
def empty_board(board: str, home: str, trays: str = "home") -> np.ndarray:
    """The canonical empty board (read-only: copy before drawing on it)."""
    d = DESIGNS[board]
    lay = L.layout(home, trays)
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

    # tray column: two trays and the cube compartment
    tx0, tx1 = lay.tray_x0, lay.tray_x1
    cv2.rectangle(img, (tx0, lay.fy0), (tx1, lay.fy0 + L.FH), d.tray, -1)
    for light in (True, False):
        x0, y0, x1, y1 = lay.tray_box(light)
        cv2.rectangle(img, (x0, y0), (x1, y1), _shade(d.tray, 0.7), 2, cv2.LINE_AA)
    cv2.rectangle(
        img, (tx0, lay.fy0), (tx1, lay.fy0 + L.FH), _shade(d.frame, 0.6), 2, cv2.LINE_AA
    )

    # playing field
    fx0, fy0 = lay.fx0, lay.fy0
    field = np.empty((L.FH, L.FW, 3), np.uint8)
    field[:] = d.field
    if d.grain:
        field = _textured(field, d.grain * 0.6, 23)
    img[fy0 : fy0 + L.FH, fx0 : fx0 + L.FW] = field
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
    # hinges on the bar (they show on the broadcast board)
    for yy in (0.2, 0.8):
        y = int(fy0 + L.FH * yy)
        cv2.rectangle(img, (int(bxa) + 8, y - 22), (int(bxb) - 8, y + 22), (168, 170, 172), -1)
        cv2.rectangle(img, (int(bxa) + 8, y - 22), (int(bxb) - 8, y + 22), (110, 112, 114), 1)
    # inner shadow of the frame on the field
    cv2.rectangle(img, (fx0, fy0), (fx0 + L.FW, fy0 + L.FH), _shade(d.frame, 0.5), 2, cv2.LINE_AA)
    img.setflags(write=False)
    return img


def _shade(c: BGR, k: float) -> BGR:
    return (min(int(c[0] * k + 4), 255), min(int(c[1] * k + 4), 255), min(int(c[2] * k + 4), 255))
