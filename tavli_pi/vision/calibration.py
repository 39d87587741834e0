"""Calibration: where the playing field is in the image, and what it looks like.

A calibration holds the four field corners in the image (top-left, top-right,
bottom-right, bottom-left, with the light player at the bottom edge), which
side the light home board is on (B4), the refined edges of the playing
surface and the bar, and the two checker colours. It comes from printed ArUco
markers, from corners given by hand, or (when it works) from the board's own
outline, and is saved as JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.layout import DEFAULT_BAR, FIELD_WIDTH, Home, Layout

__all__ = [
    "Calibration",
    "parse_corners",
    "check_corners",
    "order_corners",
    "MARKER_DICT",
    "MARKER_IDS",
    "find_marker_corners",
    "DEFAULT_LIGHT",
    "DEFAULT_DARK",
    "TRAY_SIDES",
]

DEFAULT_LIGHT = (225.0, 228.0, 230.0)
DEFAULT_DARK = (35.0, 35.0, 38.0)
#: what ``Calibration.trays`` may hold ("": not learnt, both sides are read)
TRAY_SIDES = ("", "left", "right", "both", "none")
#: ArUco dictionary of the printed markers; ids 0-3 mark the field corners TL, TR, BR, BL.
MARKER_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)


def parse_corners(text: str) -> np.ndarray:
    """Parse ``"x,y x,y x,y x,y"`` into a 4x2 float32 array."""
    parts = text.replace(";", " ").split()
    try:
        pts = [tuple(float(v) for v in p.split(",")) for p in parts]
    except ValueError as exc:
        raise CalibrationError(
            f'bad --corners {text!r}: give four "x,y" pairs separated by spaces '
            '(top-left, top-right, bottom-right, bottom-left)'
        ) from exc
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise CalibrationError(
            f'bad --corners {text!r}: need exactly four "x,y" pairs '
            "(top-left, top-right, bottom-right, bottom-left of the playing field)"
        )
    return np.asarray(pts, np.float32)


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Sort four points into TL, TR, BR, BL (by the image axes)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    s = pts.sum(axis=1)
    d = pts[:, 0] - pts[:, 1]
    return np.asarray(
        [pts[np.argmin(s)], pts[np.argmax(d)], pts[np.argmax(s)], pts[np.argmin(d)]], np.float32
    )


def check_corners(corners: np.ndarray, shape: tuple[int, ...]) -> None:
    """Raise CalibrationError unless the corners form a plausible convex field in the image."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    h, w = shape[:2]
    tol = 0.05 * max(w, h)
    if np.any(c[:, 0] < -tol) or np.any(c[:, 0] > w + tol) or np.any(c[:, 1] < -tol) or np.any(
        c[:, 1] > h + tol
    ):
        raise CalibrationError(
            f"corners {c.tolist()} lie outside the {w}x{h} image; give pixel coordinates"
        )
    cross = []
    for i in range(4):
        a, b, d = c[i], c[(i + 1) % 4], c[(i + 2) % 4]
        cross.append((b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]))
    if not (all(x > 0 for x in cross) or all(x < 0 for x in cross)):
        raise CalibrationError(
            "corners do not form a convex quadrilateral: give them in the order "
            "top-left, top-right, bottom-right, bottom-left"
        )
    if cross[0] < 0:
        raise CalibrationError(
            "corners run counter-clockwise: give them as top-left, top-right, bottom-right, bottom-left"
        )
    area = 0.5 * abs(sum(c[i, 0] * c[(i + 1) % 4, 1] - c[(i + 1) % 4, 0] * c[i, 1] for i in range(4)))
    if area < 0.02 * w * h:
        raise CalibrationError(
            f"the corners enclose only {area:.0f} px^2: the field must fill more of the image"
        )


def find_marker_corners(image: np.ndarray) -> np.ndarray:
    """Field corners from the four printed ArUco markers (ids 0-3 = TL, TR, BR, BL).

    Each marker lies just outside its field corner; the marker corner nearest
    the centre of all four markers is taken as the field corner, so it does not
    matter which way up a marker was stuck down.
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICT), params)
    found, ids, _ = detector.detectMarkers(gray)
    by_id: dict[int, np.ndarray] = {}
    if ids is not None:
        for quad, mid in zip(found, ids.ravel()):
            if int(mid) in MARKER_IDS:
                by_id[int(mid)] = np.asarray(quad, np.float32).reshape(4, 2)
    missing = [i for i in MARKER_IDS if i not in by_id]
    if missing:
        raise CalibrationError(
            f"markers {missing} not found (found {sorted(by_id)}): print them with "
            "`tavli-pi markers`, check they are in view and lit, or give --corners"
        )
    centre = np.mean([q.mean(axis=0) for q in by_id.values()], axis=0)
    out = []
    for i in MARKER_IDS:
        q = by_id[i]
        out.append(q[np.argmin(np.linalg.norm(q - centre, axis=1))])
    return np.asarray(out, np.float32)


@dataclass(frozen=True)
class Calibration:
    """Everything vision needs to know about one table set-up."""

    corners: np.ndarray  # 4x2 float32, image px: TL, TR, BR, BL (light player at the bottom)
    home: Home = "bottom-right"
    light_bgr: tuple[float, float, float] = DEFAULT_LIGHT
    dark_bgr: tuple[float, float, float] = DEFAULT_DARK
    u0: float = 0.0
    u1: float = 1.0
    bar: tuple[float, float] = DEFAULT_BAR
    v0: float = 0.0
    v1: float = 1.0
    aspect: float = field(default=0.0)  # field height / width; 0 = from the corners
    source: str = "corners"
    field_bgr: tuple[float, float, float] | None = None  # the bare playing surface
    skin: str = ""  # where the clear board is skin-coloured (vision.hands.encode_mask)
    checker_r: float = 0.455  # checker radius as a fraction of the point width (refined)
    clear: str = ""  # the clear board at quarter scale (vision.stored_image.encode_image), for hands on wood
    #: the board as learnt at set-up (vision.background.encode_background): the empty field,
    #: trays and anything printed on them, against which dice and hands must stand out
    background: str = ""
    #: which sides of the field have trays, learnt at set-up (``vision.tray_sides``): "left", "right",
    #: "both" or "none" (canonical view); "" when not learnt (both sides are read)
    trays: str = ""
    #: log(1 + the largest hue distance of the start checkers from the checker colours), learnt at
    #: set-up (``vision.foreign``); 0 when not learnt
    checker_hue: float = 0.0
    #: the position the board was learnt from (``setup.learn_board``: the start position at
    #: set-up, or any position known to the app); None when nothing was learnt from a known position
    position: KnownBoard | None = None
    #: what that position left unseen and was therefore not learnt (e.g. a tray holding checkers:
    #: its empty look), one sentence each
    unseen: tuple[str, ...] = ()
    #: where a die lay on the frame the board was learnt from (``setup.learn_board``): discs (x, y, r,
    #: canonical px) where the learnt board is not known -- the die is in it. A die lying there later
    #: does not stand out from the learnt board; a still photo read with this calibration vets it as a
    #: photo with no learnt board would (``dice_vet``). Nothing is painted out of the background: a
    #: mark of the board's own read as a die at set-up stays part of it.
    setup_dice: tuple[tuple[float, float, float], ...] = ()
    #: those dice were the roll in play (a game in progress joined with its roll lying: the app's
    #: ``learn_as_read``): a stream too vets dice there as with no learnt board, or the roll would
    #: vanish into it (a "die" read at set-up is as often the board's own lettering, and stays part of it)
    roll_lying: bool = False
    #: how far the first checkers of the top and the bottom edge sit from where the geometry puts
    #: them, in checker radii (negative: nearer the edge; a camera in front sees the near edge's
    #: checkers' thickness), learnt at set-up from the position's first checkers (vision/overhang.py);
    #: None when not learnt (a photo then measures its own)
    overhang: tuple[float, float] | None = None
    #: how clearly a first checker rings in its slot on this board, light and dark (the median over the
    #: points the learnt position fills with that colour, ``doubt.learnt_rings``): a board whose checkers
    #: of a colour ring faintly on its points even where they are known to stand keeps its readings'
    #: ``doubt.seating`` to that; None when not learnt (``doubt.RING`` then)
    first_ring: tuple[float, float] | None = None
    #: each slot's ring logit (``spot_slots.slot_logits``: 26 spots x ``spot_slots.SLOTS``, clipped to +-10) on
    #: the frame the board was learnt from: a stack that rang faintly there (a dark checker on a dark
    #: point) and has not changed since is read against that, not against how a checker rings on
    #: other boards (``setup_slots.setup_slot_features``); None when not learnt
    taught_ring: tuple[tuple[float, ...], ...] | None = None

    def __post_init__(self) -> None:
        c = np.asarray(self.corners, np.float32).reshape(4, 2)
        object.__setattr__(self, "corners", c)
        if self.home not in ("bottom-right", "bottom-left"):
            raise CalibrationError(f"home must be bottom-right or bottom-left, not {self.home!r}")
        if self.trays not in TRAY_SIDES:
            raise CalibrationError(f"trays must be one of {', '.join(map(repr, TRAY_SIDES))}, not {self.trays!r}")
        if self.taught_ring is not None and (len(self.taught_ring) != 26
                                             or len({len(row) for row in self.taught_ring}) != 1):
            raise CalibrationError("taught_ring must hold one row of slots for each of the 26 spots, all as long; "
                                   "recalibrate at set-up")
        if self.aspect <= 0:
            top = np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])
            side = np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])
            if top <= 0:
                raise CalibrationError("degenerate corners: the field has no width")
            object.__setattr__(self, "aspect", float(side / top))

    # -- geometry -----------------------------------------------------------------------
    @cached_property
    def layout(self) -> Layout:
        """The canonical view's geometry (made once a calibration: the fields are frozen, and the
        layout keeps what it works out, such as its pitch)."""
        fw = FIELD_WIDTH
        fh = int(round(fw * min(max(self.aspect, 0.3), 2.0)))
        return Layout(fw, fh, self.home, self.u0, self.u1, self.bar, self.v0, self.v1)

    @cached_property
    def homography(self) -> np.ndarray:
        """Image -> canonical pixels (made once a calibration: the fields are frozen; read-only)."""
        hom = cv2.getPerspectiveTransform(self.corners, self.layout.field_corners())
        hom.setflags(write=False)
        return hom

    @cached_property
    def _inverse(self) -> np.ndarray:
        """Canonical -> image pixels (``homography`` inverted once; a frame maps ~14 boxes back)."""
        inv = np.linalg.inv(self.homography)
        inv.setflags(write=False)
        return inv

    def warp(self, image: np.ndarray) -> np.ndarray:
        w, h = self.layout.size
        return cv2.warpPerspective(image, self.homography, (w, h), flags=cv2.INTER_LINEAR)

    def warp_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """Fixed-point ``cv2.remap`` maps doing what ``warp`` does (make once, reuse per frame).

        ``cv2.remap(image, *maps, cv2.INTER_LINEAR)`` is about 1.5x faster than
        warpPerspective (no projective division per pixel); pixels agree within
        a few grey levels (coordinates rounded to 1/32 px either way).
        """
        w, h = self.layout.size
        inv = self._inverse
        xx, yy = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        den = inv[2, 0] * xx + inv[2, 1] * yy + inv[2, 2]
        mx = ((inv[0, 0] * xx + inv[0, 1] * yy + inv[0, 2]) / den).astype(np.float32)
        my = ((inv[1, 0] * xx + inv[1, 1] * yy + inv[1, 2]) / den).astype(np.float32)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        return m1, m2

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        """Canonical pixels (N x 2) -> image pixels."""
        p = cv2.perspectiveTransform(
            np.asarray(pts, np.float32).reshape(-1, 1, 2), self._inverse
        )
        return np.asarray(p.reshape(-1, 2))

    def to_canonical(self, pts: np.ndarray) -> np.ndarray:
        p = cv2.perspectiveTransform(
            np.asarray(pts, np.float32).reshape(-1, 1, 2), self.homography
        )
        return np.asarray(p.reshape(-1, 2))

    # -- persistence ----------------------------------------------------------------------
    @property
    def backgrounds(self) -> tuple[tuple[float, float, float], ...]:
        return (self.field_bgr,) if self.field_bgr else ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "corners": [[float(x), float(y)] for x, y in self.corners],
            "home": self.home,
            "light_bgr": list(self.light_bgr),
            "dark_bgr": list(self.dark_bgr),
            "u0": self.u0,
            "u1": self.u1,
            "bar": list(self.bar),
            "v0": self.v0,
            "v1": self.v1,
            "aspect": self.aspect,
            "source": self.source,
            "skin": self.skin,
            "field_bgr": list(self.field_bgr) if self.field_bgr else None,
            "checker_r": self.checker_r,
            "clear": self.clear,
            "background": self.background,
            "trays": self.trays,
            "checker_hue": self.checker_hue,
            "position": self.position.to_dict() if self.position is not None else None,
            "unseen": list(self.unseen),
            "setup_dice": [list(d) for d in self.setup_dice],
            "roll_lying": self.roll_lying,
            "overhang": list(self.overhang) if self.overhang is not None else None,
            "first_ring": list(self.first_ring) if self.first_ring is not None else None,
            "taught_ring": [list(r) for r in self.taught_ring] if self.taught_ring is not None else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Calibration:
        try:
            return cls(
                corners=np.asarray(d["corners"], np.float32),
                home=d.get("home", "bottom-right"),
                light_bgr=tuple(float(v) for v in d.get("light_bgr", DEFAULT_LIGHT)),  # type: ignore[arg-type]
                dark_bgr=tuple(float(v) for v in d.get("dark_bgr", DEFAULT_DARK)),  # type: ignore[arg-type]
                u0=float(d.get("u0", 0.0)),
                u1=float(d.get("u1", 1.0)),
                bar=tuple(float(v) for v in d.get("bar", DEFAULT_BAR)),  # type: ignore[arg-type]
                v0=float(d.get("v0", 0.0)),
                v1=float(d.get("v1", 1.0)),
                aspect=float(d.get("aspect", 0.0)),
                source=str(d.get("source", "file")),
                skin=str(d.get("skin", "")),
                field_bgr=tuple(float(v) for v in d["field_bgr"]) if d.get("field_bgr") else None,  # type: ignore[arg-type]
                checker_r=float(d.get("checker_r", 0.455)),
                clear=str(d.get("clear", "")),
                background=str(d.get("background", "")),
                trays=str(d.get("trays", "")),
                checker_hue=float(d.get("checker_hue", 0.0)),
                # a file learnt at set-up before the position was kept learnt the start position
                position=(KnownBoard.from_dict(d["position"]) if d.get("position")
                          else KnownBoard.start() if d.get("source") == "setup" else None),
                unseen=tuple(str(u) for u in d.get("unseen", ())),
                setup_dice=tuple((float(x), float(y), float(r)) for x, y, r in d.get("setup_dice", ())),
                roll_lying=bool(d.get("roll_lying", False)),
                overhang=(float(d["overhang"][0]), float(d["overhang"][1])) if d.get("overhang") else None,
                first_ring=(float(d["first_ring"][0]), float(d["first_ring"][1])) if d.get("first_ring") else None,
                taught_ring=(tuple(tuple(float(v) for v in row) for row in d["taught_ring"])
                             if d.get("taught_ring") else None),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(
                f"calibration data is malformed ({exc}); recalibrate with `tavli-pi read IMAGE "
                "--corners ... --save-calibration FILE`"
            ) from exc

    def save(self, path: str | Path) -> None:
        """Write the calibration as JSON, whole or not at all (a full disk leaves no empty file)."""
        from tavli_pi.files import write_atomic

        write_atomic(path, json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise CalibrationError(
                f"cannot read calibration {path}: {exc.strerror}; give the file written by "
                "`tavli-pi read IMAGE --corners ... --save-calibration FILE`"
            ) from exc
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"calibration {path} is not JSON ({exc}); recalibrate") from exc
        if not isinstance(data, dict):
            raise CalibrationError(f"calibration {path} is not a JSON object; recalibrate")
        return cls.from_dict(data)

    @property
    def learnt(self) -> bool:
        """Whether the board was learnt from a known position (its checkers, pitch, background)."""
        return self.position is not None and bool(self.background)

    @property
    def learnt_from(self) -> KnownBoard:
        """The position the board's looks were learnt from: ``position``, or the start position for a
        calibration that names none (one learnt at set-up before the position was kept)."""
        return self.position if self.position is not None else KnownBoard.start()

    @property
    def trays_learnt(self) -> tuple[bool, bool]:
        """(light, dark): whether that tray's empty look was learnt with the board (it held no
        checker in the position the board was learnt from)."""
        if not self.background:
            return False, False
        if self.position is None:
            return True, True
        light, dark = self.position.off
        return light == 0, dark == 0

    def with_(self, **kw: Any) -> Calibration:
        return replace(self, **kw)

    def unlearnt(self) -> Calibration:
        """This calibration with nothing learnt from a known position (``setup.learn_board``): the
        field, the geometry and the colours as they were, the board's background, trays and rings
        forgotten. A board learnt as a position it did not show is learnt again from this.

        Kept: what any calibration sees of the clear board whatever it shows, which ``refine`` records
        before anything is learnt (and ``learn_board`` takes again from the frame it learns from): the
        skin-prone grid (``skin``) and the clear board's look (``clear``). Forgotten with the rest, a
        reader has nothing to tell a skin-coloured (wooden) board from an arm by, and a 640 px beech
        board read a hand on every frame after it was forgotten -- so it was never learnt again and
        nothing more was judged (stop 55, a game joined again)."""
        return replace(self, background="", trays="", checker_hue=0.0, position=None,
                       unseen=(), setup_dice=(), roll_lying=False, overhang=None, first_ring=None, taught_ring=None)
