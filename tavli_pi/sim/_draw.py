"""Drawing checkers, tray stripes, the cube and a hand on the canonical board."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tavli_pi.sim import _layout as L
from tavli_pi.sim._boards import BGR, Design

__all__ = ["checker", "checker_shadow", "cylinder", "pile", "stripe", "cube", "hand", "prop", "prop_radius", "SHIFT"]

SHIFT = 4  # fixed-point bits for sub-pixel drawing
_ONE = 1 << SHIFT


def _p(x: float, y: float) -> tuple[int, int]:
    return (int(round(x * _ONE)), int(round(y * _ONE)))


def _r(r: float) -> int:
    return int(round(r * _ONE))


def _mix(a: BGR, b: BGR, t: float) -> BGR:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


def checker(
    img: np.ndarray, x: float, y: float, body: BGR, rim: BGR, style: str = "plain",
    r: float = L.R, shadow: bool = True,
) -> None:
    """A checker seen from above: shadow, rim, body, groove ring, highlight.

    ``style`` ``"metal"``: a bright metal band round the body with a dark
    seam inside it and a specular glint; ``"pearl"``: a mother-of-pearl body
    (iridescent swirls, seeded by the checker's position so a still board
    stays still). ``r``: the face's radius (a thick checker's top face seen
    from the camera, ``cylinder``); ``shadow`` False: no shadow (drawn at the foot)."""
    aa = cv2.LINE_AA
    if shadow:
        checker_shadow(img, x, y, r)
    cv2.circle(img, _p(x, y), _r(r), rim, -1, aa, SHIFT)
    if style == "metal":
        cv2.circle(img, _p(x, y), _r(r - 1.0), _mix(rim, (255, 255, 255), 0.5), 1, aa, SHIFT)
        cv2.circle(img, _p(x, y), _r(r - 4.5), (40, 40, 42), -1, aa, SHIFT)
        cv2.circle(img, _p(x, y), _r(r - 5.5), body, -1, aa, SHIFT)
        cv2.ellipse(img, _p(x, y), (_r(r - 2), _r(r - 2)), 0, 200, 250, (252, 252, 252), 2, aa, SHIFT)
        cv2.circle(img, _p(x, y), _r(r * 0.55), _mix(body, rim, 0.3), 1, aa, SHIFT)
        return
    cv2.circle(img, _p(x, y), _r(r - 3.5), body, -1, aa, SHIFT)
    if style == "pearl":
        _pearl(img, x, y, r - 3.5, body)
        return
    groove = _mix(body, rim, 0.45)
    cv2.circle(img, _p(x, y), _r(r * 0.72), groove, 1, aa, SHIFT)
    hi = _mix(body, (255, 255, 255), 0.18)
    cv2.ellipse(img, _p(x - r * 0.25, y - r * 0.3), (_r(r * 0.35), _r(r * 0.18)), -35, 0, 360, hi, -1, aa, SHIFT)


def checker_shadow(img: np.ndarray, x: float, y: float, r: float = L.R) -> None:
    """The shadow a checker of radius ``r`` standing at (x, y) casts on the board."""
    cv2.circle(img, _p(x + 2.5, y + 3), _r(r), (20, 20, 20), -1, cv2.LINE_AA, SHIFT)


def cylinder(
    img: np.ndarray, x: float, y: float, tx: float, ty: float, tr: float, body: BGR, rim: BGR,
    style: str = "plain",
) -> None:
    """A thick checker standing at (x, y), drawn where the camera's rays meet the board plane
    (the canvas is warped to the image by the board plane's homography, so this is what the
    camera sees): its top face is the disc (tx, ty, tr) (the foot disc pushed away from the
    camera's foot point by the parallax of its height, ``render``); the side band between foot
    and top face, the convex hull of the two discs, is the body's colour a little darker, darker
    again towards the foot (as on the WTC 2022 board: a white checker's face ~200, its side ~188,
    a black one's 22 and 12-15); then the face (``checker``, no shadow)."""
    a = np.linspace(0.0, 2.0 * math.pi, 64, endpoint=False)
    ring = np.column_stack([np.cos(a), np.sin(a)])
    pts = np.vstack([ring * L.R + (x, y), ring * tr + (tx, ty)]).astype(np.float32)
    hull = cv2.convexHull(pts).reshape(-1, 2)
    cv2.fillConvexPoly(img, _fix(hull), _mix(body, (0, 0, 0), SIDE_SHADE[0]), cv2.LINE_AA, SHIFT)
    mid = np.vstack([ring * L.R + (x, y), ring * (L.R + tr) / 2 + ((x + tx) / 2, (y + ty) / 2)]).astype(np.float32)
    low = cv2.convexHull(mid).reshape(-1, 2)
    cv2.fillConvexPoly(img, _fix(low), _mix(body, (0, 0, 0), SIDE_SHADE[1]), cv2.LINE_AA, SHIFT)
    checker(img, tx, ty, body, rim, style, r=tr, shadow=False)


#: how much darker than its body a thick checker's side band is: its upper half, its lower half
SIDE_SHADE = (0.08, 0.16)


def _pearl(img: np.ndarray, x: float, y: float, r: float, body: BGR) -> None:
    """Mother-of-pearl swirls inside a checker's body."""
    rng = np.random.default_rng([int(x * 8) & 0xFFFF, int(y * 8) & 0xFFFF, 77])
    m = int(r) + 2
    x0, y0 = int(x) - m, int(y) - m
    H, W = img.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + 2 * m > W or y0 + 2 * m > H:
        return
    roi = img[y0 : y0 + 2 * m, x0 : x0 + 2 * m]
    layer = roi.copy()
    for _ in range(7):
        cx, cy = float(rng.uniform(-r * 0.7, r * 0.7)), float(rng.uniform(-r * 0.7, r * 0.7))
        tint = tuple(int(np.clip(c + rng.uniform(-14, 12), 0, 255)) for c in body)
        ax, ay = float(rng.uniform(r * 0.2, r * 0.6)), float(rng.uniform(r * 0.1, r * 0.3))
        cv2.ellipse(layer, _p(cx + m + x - int(x), cy + m + y - int(y)), (_r(ax), _r(ay)),
                    float(rng.uniform(0, 180)), 0, 360, tint, -1, cv2.LINE_AA, SHIFT)
    layer = cv2.GaussianBlur(layer, (0, 0), 1.6)
    disc = np.zeros(roi.shape[:2], np.uint8)
    cv2.circle(disc, _p(m + x - int(x), m + y - int(y)), _r(r - 0.5), 255, -1, cv2.LINE_AA, SHIFT)
    a = (disc.astype(np.float32) / 255.0)[:, :, None]
    roi[:] = (layer * a + roi * (1 - a)).astype(np.uint8)


def pile(img: np.ndarray, x: float, y: float, body: BGR, rim: BGR, style: str = "plain") -> None:
    """A borne-off checker lying in a pile on the table (boards without trays)."""
    checker(img, x, y, body, rim, style)


def stripe(img: np.ndarray, x: float, y: float, body: BGR, rim: BGR) -> None:
    """A checker standing on edge in a tray: a thin rounded bar."""
    w = L.R - 3
    h = L.STRIPE / 2
    cv2.rectangle(img, _p(x - w, y - h), _p(x + w, y + h), rim, -1, cv2.LINE_AA, SHIFT)
    cv2.rectangle(img, _p(x - w + 2, y - h + 1.5), _p(x + w - 2, y + h - 2), body, -1, cv2.LINE_AA, SHIFT)


def cube(img: np.ndarray, x: float, y: float, value: int, d: Design, angle: float = 0.0) -> None:
    """The doubling cube from above with its number (1 shows 64)."""
    s = L.CUBE
    box = cv2.boxPoints(((x + 3, y + 4), (s, s), angle))
    cv2.fillConvexPoly(img, _fix(box), (20, 20, 20), cv2.LINE_AA, SHIFT)
    box = cv2.boxPoints(((x, y), (s, s), angle))
    cv2.fillConvexPoly(img, _fix(box), _mix(d.cube_body, (0, 0, 0), 0.3), cv2.LINE_AA, SHIFT)
    inner = cv2.boxPoints(((x, y), (s - 5, s - 5), angle))
    cv2.fillConvexPoly(img, _fix(inner), d.cube_body, cv2.LINE_AA, SHIFT)
    text = str(64 if value == 1 else value)
    scale = 0.75 if len(text) == 1 else 0.6
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    org = (int(round(x - tw / 2)), int(round(y + th / 2)))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, d.cube_text, 2, cv2.LINE_AA)


def _fix(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts, np.float64) * _ONE).astype(np.int32)


_SKIN = (118, 150, 205)
_SKIN_DARK = (84, 112, 168)
_SLEEVE = (90, 60, 50)


def hand(
    img: np.ndarray, hx: float, hy: float, size_px: float, sx: float, sy: float,
    kind: str = "hand", sleeve: BGR | None = None, skin: BGR | None = None,
) -> None:
    """An arm reaching from (sx, sy) (anywhere off the board) to a palm at (hx, hy).

    Drawn in image space (the hand is above the board, not on its plane); the
    arm is extended past the image edge so it never ends in mid-air. ``kind``
    ``"arm"``: bare skin far up the arm; ``"sleeve"``: a sleeve to the wrist.
    """
    sk = _SKIN if skin is None else skin
    sk_dark = _SKIN_DARK if skin is None else _mix(skin, (0, 0, 0), 0.28)
    sl = _SLEEVE if sleeve is None else sleeve
    bare = {"hand": 2.2, "arm": 5.0, "sleeve": 0.55}.get(kind, 2.2)
    ang0 = math.atan2(sy - hy, sx - hx)
    far = 4.0 * (img.shape[0] + img.shape[1])
    sx, sy = hx + math.cos(ang0) * far, hy + math.sin(ang0) * far
    ang = math.atan2(hy - sy, hx - sx)
    dx, dy = math.cos(ang), math.sin(ang)
    nx, ny = -dy, dx
    arm_w = size_px * 0.7
    # shadow of the arm on the board
    off = size_px * 0.12
    mask = np.zeros(img.shape[:2], np.uint8)
    _capsule(mask, sx + off, sy + off, hx + off, hy + off, arm_w, (255, 255, 255))
    cv2.ellipse(mask, _p(hx + off, hy + off), (_r(size_px * 0.6), _r(size_px * 0.5)), math.degrees(ang), 0, 360, 255, -1, cv2.LINE_AA, SHIFT)
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw and bh:
        roi = img[by : by + bh, bx : bx + bw]
        m = mask[by : by + bh, bx : bx + bw]
        dark = cv2.multiply(roi, cv2.merge([m, m, m]), scale=0.45 / 255.0)
        roi[:] = cv2.subtract(roi, dark)
    # forearm (skin) up to a sleeve about two palm lengths behind the wrist
    wx, wy = hx - dx * size_px * bare, hy - dy * size_px * bare
    _capsule(img, sx, sy, hx, hy, arm_w, sk_dark)
    _capsule(img, sx, sy, hx, hy, arm_w * 0.86, sk)
    if kind == "sleeve":  # a loose sleeve with a fold line along it
        _capsule(img, sx, sy, wx, wy, arm_w * 1.45, _mix(sl, (0, 0, 0), 0.25))
        _capsule(img, sx, sy, wx, wy, arm_w * 1.3, sl)
        _capsule(img, sx + nx * arm_w * 0.3, sy + ny * arm_w * 0.3, wx + nx * arm_w * 0.3, wy + ny * arm_w * 0.3,
                 max(arm_w * 0.08, 1.0), _mix(sl, (0, 0, 0), 0.2))
    else:
        _capsule(img, sx, sy, wx, wy, arm_w * 1.25, sl)
    cv2.ellipse(img, _p(hx, hy), (_r(size_px * 0.55), _r(size_px * 0.45)), math.degrees(ang), 0, 360, sk_dark, -1, cv2.LINE_AA, SHIFT)
    cv2.ellipse(img, _p(hx, hy), (_r(size_px * 0.5), _r(size_px * 0.4)), math.degrees(ang), 0, 360, sk, -1, cv2.LINE_AA, SHIFT)
    for k, spread in enumerate((-0.33, -0.11, 0.11, 0.33)):
        base_x = hx + dx * size_px * 0.35 + nx * spread * size_px
        base_y = hy + dy * size_px * 0.35 + ny * spread * size_px
        length = size_px * (0.55 + (0.12 if k in (1, 2) else 0.0))
        tip_x = base_x + (dx + nx * spread * 0.4) * length
        tip_y = base_y + (dy + ny * spread * 0.4) * length
        _capsule(img, base_x, base_y, tip_x, tip_y, size_px * 0.13, sk_dark)
        _capsule(img, base_x, base_y, tip_x, tip_y, size_px * 0.105, sk)
    # thumb
    tb_x = hx + nx * size_px * 0.45
    tb_y = hy + ny * size_px * 0.45
    _capsule(img, tb_x, tb_y, tb_x + (nx * 0.7 + dx * 0.5) * size_px * 0.5, tb_y + (ny * 0.7 + dy * 0.5) * size_px * 0.5, size_px * 0.12, sk)


def _capsule(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, width: float, colour: BGR) -> None:
    thick = max(int(round(width)), 1)
    cv2.line(img, (int(x0), int(y0)), (int(x1), int(y1)), colour, thick, cv2.LINE_AA)


def prop_radius(kind: str, size: float) -> float:
    """Radius (canonical px) of a circle that holds a prop whole."""
    return {"cup": 1.5 * L.R, "pencil": 72.0, "pad": 56.0, "clock": 58.0}[kind] * size


def prop(img: np.ndarray, kind: str, x: float, y: float, size: float, colour: BGR, angle: float) -> None:
    """A dice cup (upright, from above), a pencil, a score pad or a game clock."""
    aa = cv2.LINE_AA
    if kind == "cup":
        r = 1.5 * L.R * size
        cv2.circle(img, _p(x + 4, y + 5), _r(r), (16, 16, 16), -1, aa, SHIFT)
        cv2.circle(img, _p(x, y), _r(r), _mix(colour, (255, 255, 255), 0.25), -1, aa, SHIFT)
        cv2.circle(img, _p(x, y), _r(r - 3), colour, -1, aa, SHIFT)
        cv2.circle(img, _p(x, y), _r(r * 0.8), _mix(colour, (0, 0, 0), 0.45), -1, aa, SHIFT)  # the opening
        cv2.circle(img, _p(x, y), _r(r * 0.8), _mix(colour, (255, 255, 255), 0.15), 1, aa, SHIFT)
        return
    if kind == "pencil":
        length, w = 140 * size, 7 * size
        box = cv2.boxPoints(((x, y), (length, w), angle))
        cv2.fillConvexPoly(img, _fix(box + np.array([2.0, 3.0])), (20, 20, 20), aa, SHIFT)
        cv2.fillConvexPoly(img, _fix(box), (40, 190, 236), aa, SHIFT)
        a = math.radians(angle)
        tip = (x + math.cos(a) * length / 2, y + math.sin(a) * length / 2)
        cv2.circle(img, _p(*tip), _r(w * 0.45), (60, 60, 60), -1, aa, SHIFT)
        return
    if kind == "pad":
        box = cv2.boxPoints(((x, y), (72 * size, 92 * size), angle))
        cv2.fillConvexPoly(img, _fix(box + np.array([2.0, 3.0])), (30, 30, 30), aa, SHIFT)
        cv2.fillConvexPoly(img, _fix(box), (238, 240, 242), aa, SHIFT)
        a = math.radians(angle)
        ux, uy = math.cos(a), math.sin(a)
        for k in range(-3, 4):  # ruled lines and a few pencilled scores
            oy = k * 11 * size
            p0 = (x - ux * 30 * size - uy * oy, y - uy * 30 * size + ux * oy)
            p1 = (x + ux * 30 * size - uy * oy, y + uy * 30 * size + ux * oy)
            cv2.line(img, _p(*p0), _p(*p1), (200, 170, 150), 1, aa, SHIFT)
        cv2.putText(img, "3 1", (int(x - 20 * size), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * size, (70, 70, 70), 1, aa)
        return
    if kind == "clock":
        box = cv2.boxPoints(((x, y), (100 * size, 60 * size), angle))
        cv2.fillConvexPoly(img, _fix(box + np.array([3.0, 4.0])), (16, 16, 16), aa, SHIFT)
        cv2.fillConvexPoly(img, _fix(box), colour, aa, SHIFT)
        inner = cv2.boxPoints(((x, y + 6 * size), (84 * size, 26 * size), angle))
        cv2.fillConvexPoly(img, _fix(inner), (150, 190, 180), aa, SHIFT)
        cv2.putText(img, "0:24 9", (int(x - 38 * size), int(y + 14 * size)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.55 * size, (30, 30, 30), 1, aa)
        for k in (-1, 1):  # the two buttons
            cv2.circle(img, _p(x + k * 28 * size, y - 20 * size), _r(6 * size), (40, 40, 190), -1, aa, SHIFT)
        return
    raise ValueError(f"unknown prop {kind!r}")
