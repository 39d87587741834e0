"""Which sides of the field have trays: learnt from the set-up frame.

Boards differ: a tray column beside the home board, one on the other side,
one on each side, or none at all (the borne-off checkers then lie on the
table beside the board). At set-up both trays are empty (B3), so the frame
shows the board as built. Beside the field the board reaches only as far as
its frame where there is no tray, and a tray column further: a tray holds
checkers standing on edge, so it is at least a checker's diameter wide.

Across each side, the set-up frame's colour per column (the median over the
field's height, so a cube, a cup or a prop covering part of it does not
count) is compared with the table beyond the board (``FAR`` point widths out).
The board reaches as far as the last column that differs from the table by
more than ``SHARE`` of the side's largest difference (this board's own
board-to-table contrast) and more than the table's own noise. A side whose
board reaches past the tray's reading columns (a checker's diameter beyond the
field, plus the gap before the tray) has a tray; one whose board ends sooner
has none. Where the table beyond is out of the picture nothing can be told,
and the side keeps its tray (as before anything was learnt).

``Calibration.trays`` holds the answer: ``""`` (not learnt: read both sides),
``"left"``, ``"right"``, ``"both"`` or ``"none"`` (sides of the canonical view,
where the light player sits at the bottom).
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration

__all__ = ["FAR", "SHARE", "learn_tray_sides", "side_reach", "home_side", "sides_read"]

#: the table is looked at from this many point widths beyond the field's edge to ``FAR + 0.5``
FAR = 2.6
#: a column is still board where it differs from the table by this share of the side's largest difference
SHARE = 0.3
#: ... and by this many times the table's own spread (plus a grey level floor, ``NOISE_FLOOR``)
NOISE_X = 4.0
NOISE_FLOOR = 6.0
#: the gap between the field's edge and a tray's reading columns, in point widths (layout.tray_rects)
GAP = 0.12


def side_reach(frame: np.ndarray, cal: Calibration) -> tuple[float | None, float | None]:
    """How far (point widths) the board reaches beyond the field's left and right edges in the
    set-up ``frame``; None where the table beyond is not in the picture."""
    lay = cal.layout
    p = lay.pitch
    extra = int(np.ceil((FAR + 0.6) * p))
    w, h = lay.size
    shift = np.asarray([[1.0, 0.0, extra], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    hom = shift @ cal.homography
    y0 = int(lay.top_y + 0.05 * (lay.bottom_y - lay.top_y))
    y1 = int(lay.bottom_y - 0.05 * (lay.bottom_y - lay.top_y))
    size = (w + 2 * extra, h)
    band = cv2.warpPerspective(frame, hom, size, flags=cv2.INTER_AREA)[y0:y1].astype(np.float32)
    inside = cv2.warpPerspective(np.full(frame.shape[:2], 255, np.uint8), hom, size, flags=cv2.INTER_NEAREST)[y0:y1]
    prof = np.median(band, axis=0)  # (columns, 3)
    seen = (inside > 0).mean(axis=0)
    left = lay.mx + lay.u0 * lay.field_w + extra
    right = lay.mx + lay.u1 * lay.field_w + extra
    out: list[float | None] = []
    for edge, sign in ((left, -1.0), (right, 1.0)):
        d = np.arange(int((FAR + 0.5) * p) + 1, dtype=np.float64)
        x = np.clip(np.round(edge + sign * d).astype(int), 0, len(prof) - 1)
        far = d >= FAR * p
        if seen[x].min() < 0.98:  # the table beyond (or the board) runs out of the picture
            out.append(None)
            continue
        table = np.median(prof[x[far]], axis=0)
        dist = np.linalg.norm(prof[x] - table, axis=1)
        noise = float(np.median(dist[far]))
        near = dist[~far]
        thresh = max(SHARE * float(near.max()), NOISE_X * noise + NOISE_FLOOR)
        board = np.flatnonzero(near > thresh)
        out.append(float(d[board[-1]]) / p if len(board) else 0.0)
    return out[0], out[1]


def learn_tray_sides(frame: np.ndarray, cal: Calibration) -> str:
    """``"left"``, ``"right"``, ``"both"`` or ``"none"``: the sides where the board reaches far enough
    beyond the field to hold a tray (a side that cannot be told keeps its tray)."""
    need = GAP + 2.0 * cal.checker_r  # the gap, then a checker's diameter standing on edge
    left, right = side_reach(frame, cal)
    has = [r is None or r >= need for r in (left, right)]
    return {(True, True): "both", (True, False): "left", (False, True): "right", (False, False): "none"}[
        (has[0], has[1])]


def home_side(cal: Calibration) -> str:
    """The canonical side of the light player's home board (and the home trays)."""
    return "right" if cal.home == "bottom-right" else "left"


def sides_read(cal: Calibration) -> tuple[bool, bool]:
    """(read the home side's trays, read the other side's): both when nothing was learnt."""
    t = cal.trays
    if t in ("", "both"):
        return True, True
    if t == "none":
        return False, False
    home = t == home_side(cal)
    return home, not home
