"""Draw what was read over the photograph (``tavli-pi read --annotate OUT.png``).

The field outline and the bar, each point's base with the count read there
(L = light, D = dark, with its confidence when below 0.9), the trays with
their counts and where each came from (tray / implied / unknown), every die
with its value or why it has none, and a banner for a hand over the board or
any problem found with the picture.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.trays import tray_rects_both_sides

__all__ = ["annotate"]

_GREEN = (60, 220, 60)
_RED = (40, 40, 255)
_YELLOW = (0, 230, 255)
_CYAN = (255, 220, 0)


def _text(img: np.ndarray, text: str, xy: tuple[float, float], colour: tuple[int, int, int], scale: float) -> None:
    org = (int(xy[0]), int(xy[1]))
    th = max(1, int(round(2 * scale)))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), th + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, th, cv2.LINE_AA)


def annotate(image: np.ndarray, cal: Calibration, obs: Observation) -> np.ndarray:
    """A copy of ``image`` with the reading drawn over it."""
    out = image.copy()
    lay = cal.layout
    scale = max(0.35, min(1.2, max(image.shape[:2]) / 1800))

    def poly(pts: list[tuple[float, float]], colour: tuple[int, int, int], th: int = 2) -> None:
        q = cal.to_image(np.asarray(pts, np.float32)).round().astype(np.int32)
        cv2.polylines(out, [q.reshape(-1, 1, 2)], True, colour, th, cv2.LINE_AA)

    ty, by = lay.top_y, lay.bottom_y
    x0, x1 = lay.to_px(lay.u0, 0)[0], lay.to_px(lay.u1, 0)[0]
    poly([(x0, ty), (x1, ty), (x1, by), (x0, by)], _GREEN, 2)
    b0, b1 = lay.bar_x
    poly([(b0, ty), (b1, ty), (b1, by), (b0, by)], _GREEN, 1)
    light, dark = obs.best_counts()
    for col in lay.columns:
        base = ty if col.top else by
        tip = base + (1 if col.top else -1) * 0.4 * (by - ty)
        poly([(col.x - col.width / 2, base), (col.x, tip), (col.x + col.width / 2, base)], (150, 150, 150), 1)
        ev = obs.points[col.point - 1]
        n_l, n_d = light[col.point - 1], dark[col.point - 1]
        if col.point - 1 in obs.hidden:
            label, conf = "hand", 1.0  # under a hand: reported unknown (vision/under_hand.py)
        elif n_l and n_d:
            label, conf = f"?{n_l}/{n_d}", min(ev.light.confidence, ev.dark.confidence)
        elif n_l:
            label, conf = f"L{n_l}", ev.light.confidence
        elif n_d:
            label, conf = f"D{n_d}", ev.dark.confidence
        else:
            label, conf = "0", min(ev.light.confidence, ev.dark.confidence)
        if conf < 0.9:
            label += f" {conf:.1f}"
        ly = base + (1 if col.top else -1) * 0.47 * (by - ty)
        p = cal.to_image(np.asarray([[col.x - col.width * 0.45, ly]], np.float32))[0]
        ink = _YELLOW if conf >= 0.9 else _RED
        _text(out, f"{col.point}", cal.to_image(np.asarray([[col.x - col.width * 0.3,
              base - (1 if col.top else -1) * 4]], np.float32))[0], (200, 200, 200), scale * 0.6)
        _text(out, label, p, ink, scale * 0.7)
    bl, bd = obs.bar.light.best, obs.bar.dark.best
    pm = cal.to_image(np.asarray([[(b0 + b1) / 2 - 10, (ty + by) / 2]], np.float32))[0]
    _text(out, f"bar L{'?' if 24 in obs.hidden else bl} D{'?' if 25 in obs.hidden else bd}", pm, _CYAN, scale * 0.7)
    home = tray_rects_both_sides(lay)[0]
    for k, side in enumerate(("light", "dark")):
        xa, ya, xb, yb = home[side]
        poly([(xa, ya), (xb, ya), (xb, yb), (xa, yb)], _CYAN, 1)
        tray = obs.off.light if side == "light" else obs.off.dark
        src = obs.off_source[k]
        label = f"off {side[0].upper()}{'?' if src == 'unknown' else tray.best} ({src})"
        p = cal.to_image(np.asarray([[xa, (ya + yb) / 2]], np.float32))[0]
        _text(out, label, p, _CYAN, scale * 0.6)
    for d in obs.dice:
        r = max(6.0, d.size_px * 0.8)
        c = (int(d.xy[0]), int(d.xy[1]))
        if d.value and not d.note:
            what = f"die {d.value}" + ("" if d.flat else " cocked") + ("" if d.value_confidence >= 0.6 else f" {d.value_confidence:.1f}")
            ink = _GREEN if d.flat else _YELLOW
        else:
            what = d.note or ("tumbling" if d.moving else "die ?")
            ink = _RED
        cv2.circle(out, c, int(r), ink, 2, cv2.LINE_AA)
        _text(out, what, (c[0] + r + 2, c[1]), ink, scale * 0.6)
    lines = []
    if obs.hand:
        lines.append("HAND over the board")
    lines += list(obs.problems)
    lines.append(f"confidence {obs.confidence:.2f}")
    step = 34 * scale * 0.7
    for i, line in enumerate(lines):
        _text(out, line, (10, step * (i + 1)), _RED if i < len(lines) - 1 else _YELLOW, scale * 0.6)
    return out
