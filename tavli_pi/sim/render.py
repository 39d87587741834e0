"""Render a Scene to a camera frame plus its exact ground truth.

The board is drawn top-down on a cached canonical image (``_layout`` gives
the geometry, ``_boards`` the empty board), the checkers, dice, cube and hand
go on top, then a homography from the ``CameraPose`` warps it into the
camera's view and the ``Look``'s photographic effects are applied. All
randomness is seeded, so the same ``(scene, seed, noise_seed)`` always gives
the same pixels. Each object draws from its own stream (die k, the cube, the
hand, the light), so adding a die does not move the glare or re-roll another
die's side faces; ``noise_seed`` alone changes the sensor noise, which is how
``SimCamera`` makes a still scene look like live video.

>>> from tavli_pi.rules.position import Position
>>> from tavli_pi.sim.scene import scene_from_position
>>> r = render(scene_from_position(Position.start()), seed=1)
>>> r.image.shape, r.truth.light[5], len(r.truth.corners)
((720, 1280, 3), 5, 4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from tavli_pi.sim import _draw, _layout as L, _photo
from tavli_pi.sim._boards import DESIGNS, Design, empty_board, print_box
from tavli_pi.sim._dice import draw_die, footprint, side_values
from tavli_pi.sim._pose import camera_centre, homography, project
from tavli_pi.sim.scene import DieSpec, Overlay, Scene
from tavli_pi.vision.observation import (
    MAX_COUNT,
    CubeReading,
    DieReading,
    Observation,
    SpotEvidence,
    certain,
)

__all__ = ["TruthDie", "TruthProp", "TruthPrint", "Truth", "Rendered", "render", "die_half", "BAR_U"]

Half = Literal["left", "right", "bar", "outside"]

#: The bar's extent in field ``u`` coordinates.
BAR_U: tuple[float, float] = (6 * L.PW / L.FW, (6 * L.PW + L.BAR) / L.FW)

_COCKED_TILT = (18.0, 30.0)
_LEANING_TILT = (36.0, 52.0)


@dataclass(frozen=True, slots=True)
class TruthDie:
    """Where a die really is in the image and how it lies."""

    xy: tuple[float, float]
    value: int
    flat: bool
    on_checker: bool
    half: Half
    moving: bool = False
    size_px: float = 0.0  # the die's edge in image pixels (added field)


Where = Literal["field", "frame", "tray", "table"]


@dataclass(frozen=True, slots=True)
class TruthProp:
    """A prop (dice cup, pencil, pad, clock) in the image: its centre, the
    radius in image px of a circle that holds it, and what it lies on."""

    kind: str
    xy: tuple[float, float]
    radius_px: float
    where: Where


@dataclass(frozen=True, slots=True)
class TruthPrint:
    """Lettering or a logo on the board: its kind and its box in the image
    (x0, y0, x1, y1, the projected canonical box's bounds). Never a die."""

    kind: str
    text: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Truth:
    """Exact ground truth of one rendered frame (counts as in the Scene)."""

    corners: np.ndarray  # 4x2 float32: field TL, TR, BR, BL in image px
    light: tuple[int, ...]
    dark: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    dice: tuple[TruthDie, ...]
    cube_place: str
    cube_value: int
    hand: bool
    motion: bool
    home: str = "bottom-right"
    trays: str = "home"
    homography: np.ndarray | None = None  # canonical px -> image px (3x3)
    # -- added fields (the real-like set) ------------------------------------------
    bar_u: tuple[float, float] = BAR_U  # the bar's extent in field u
    layout: L.Layout | None = None  # the canonical board's geometry (points, trays)
    props: tuple[TruthProp, ...] = ()
    prints: tuple[TruthPrint, ...] = ()
    hand_kind: str = ""  # "", "hand", "arm" or "sleeve"
    overlays: tuple[str, ...] = ()  # kinds of the overlays over the picture
    size: tuple[int, int] = (0, 0)  # image width, height

    def to_image(self, pts: np.ndarray | list[tuple[float, float]]) -> np.ndarray:
        """Canonical-board pixels (``layout`` coordinates: ``point_x``, ``stack``,
        ``tray_box``...) to image pixels, (N, 2)."""
        if self.homography is None:
            raise ValueError("this truth has no homography")
        return project(self.homography, np.asarray(pts, np.float64))
    pinned: tuple[int, ...] = ()  # as Scene.pinned

    def to_observation(self, frame_index: int = 0) -> Observation:
        """What a perfect vision would report for this frame (certain counts)."""
        def spot(a: int, b: int) -> SpotEvidence:
            return SpotEvidence(certain(min(a, MAX_COUNT)), certain(min(b, MAX_COUNT)))

        dice = tuple(
            DieReading(d.xy, d.value, 1.0, d.flat, d.on_checker, d.half, d.moving) for d in self.dice
        )
        cube = None
        if self.cube_place != "none":
            cube = CubeReading(self.cube_value, self.cube_place)  # type: ignore[arg-type]
        return Observation(
            points=tuple(spot(a, b) for a, b in zip(self.light, self.dark)),
            bar=spot(*self.bar),
            off=spot(*self.off),
            dice=dice,
            cube=cube,
            hand=self.hand,
            motion=self.motion,
            frame_index=frame_index,
            pinned=tuple(self.pinned) or (0,) * 24,
        )


@dataclass(frozen=True, slots=True)
class Rendered:
    image: np.ndarray
    truth: Truth


def die_half(u: float, v: float, bar_u: tuple[float, float] = BAR_U) -> Half:
    """Which half a die centred at field (u, v) lies in, from the light player's seat."""
    if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
        return "outside"
    if bar_u[0] <= u <= bar_u[1]:
        return "bar"
    return "left" if u < bar_u[0] else "right"


def render(scene: Scene, seed: int = 0, noise_seed: int | None = None) -> Rendered:
    """Draw ``scene`` as the camera would see it; deterministic in the seeds.

    ``seed`` fixes everything random about the scene (dice side faces and
    tilts, cube angle, hand, light and glare); ``noise_seed`` (default
    ``seed``) fixes the sensor noise only.
    """
    seed = int(seed)
    def stream(*key: int) -> np.random.Generator:
        return np.random.default_rng([seed & 0xFFFFFFFF, *key])
    lay = L.layout(scene.home, scene.trays, scene.build.bar)
    d = DESIGNS[scene.look.board]
    canvas = empty_board(scene.look.board, scene.home, scene.trays, scene.build).copy()
    st = d.checker

    stacks: list[list[tuple[float, float, bool]]] = []  # each point's and bar half's checkers: x, y, light
    for point in range(1, 25):
        nl, nd = scene.light[point - 1], scene.dark[point - 1]
        if nl + nd == 0:
            continue
        pin = scene.pinned[point - 1] if scene.pinned else 0
        # a pinned checker lies at the base, the pinner's on top (P3); else light first
        stacks.append([(x, y, (k == 0) if pin == 1 else (k > 0) if pin == -1 else k < nl)
                       for k, (x, y) in enumerate(lay.stack(point, nl + nd))])
    for light, n in ((True, scene.bar[0]), (False, scene.bar[1])):
        stacks.append([(x, y, light) for x, y in lay.bar_stack(light, n)])
    if scene.build.thickness <= 0.0:
        for x, y, light in (c for stack in stacks for c in stack):
            _draw.checker(canvas, x, y, d.light_body if light else d.dark_body, d.light_rim if light else d.dark_rim, st)
    else:
        _thick_checkers(canvas, stacks, scene, lay, d)
    for light, n in ((True, scene.off[0]), (False, scene.off[1])):
        if scene.trays == "none":
            for x, y in lay.table_pile(light, n):
                _draw.pile(canvas, x, y, d.light_body if light else d.dark_body, d.light_rim if light else d.dark_rim, st)
            continue
        for x, y in lay.tray_stripes(light, n):
            _draw.stripe(canvas, x, y, d.light_body if light else d.dark_body, d.light_rim if light else d.dark_rim)

    cube_place, cube_value = "none", 0
    if scene.cube is not None and scene.cube.place != "none":
        cube_place, cube_value = scene.cube.place, scene.cube.value
        cx, cy = lay.cube_xy(cube_place)
        _draw.cube(canvas, cx, cy, cube_value, d, angle=float(stream(2).uniform(-6, 6)))

    h = homography(scene.pose, lay, scene.width, scene.height)
    px_per_canon = _local_scale(h, lay)
    truth_dice = []
    for k, spec in enumerate(scene.dice):
        _die(canvas, spec, lay, d, stream(1, k), px_per_canon)
        x, y = lay.uv_to_px(spec.u, spec.v)
        xy = project(h, np.array([[x, y]]))[0]
        edge = L.DIE * spec.size * (1.08 if spec.pose == "on_checker" else 1.0)
        ends = project(h, np.array([[x - edge / 2, y], [x + edge / 2, y], [x, y - edge / 2], [x, y + edge / 2]]))
        size_px = float(np.sqrt(np.hypot(*(ends[1] - ends[0])) * np.hypot(*(ends[3] - ends[2]))))
        truth_dice.append(TruthDie(
            xy=(float(xy[0]), float(xy[1])),
            value=spec.value,
            flat=spec.pose == "flat" and spec.motion_blur == 0,
            on_checker=spec.pose in ("leaning", "on_checker"),
            half=die_half(spec.u, spec.v, lay.bar_u),
            moving=spec.motion_blur > 0,
            size_px=size_px,
        ))
    truth_props = []
    for pr in scene.props:
        x, y = lay.uv_to_px(pr.u, pr.v)
        _draw.prop(canvas, pr.kind, x, y, pr.size, pr.colour, pr.angle)
        rad = _draw.prop_radius(pr.kind, pr.size)
        pts = project(h, np.array([[x, y], [x + rad, y], [x, y + rad]]))
        r_px = float(max(np.hypot(*(pts[1] - pts[0])), np.hypot(*(pts[2] - pts[0]))))
        truth_props.append(TruthProp(pr.kind, (float(pts[0, 0]), float(pts[0, 1])), r_px, _where(lay, x, y)))
    truth_prints = []
    for pt in scene.build.prints:
        bx0, by0, bx1, by1 = print_box(lay, pt)
        q = project(h, np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]]))
        truth_prints.append(TruthPrint(pt.kind, pt.text, (float(q[:, 0].min()), float(q[:, 1].min()),
                                                            float(q[:, 0].max()), float(q[:, 1].max()))))

    image = cv2.warpPerspective(
        canvas, h, (scene.width, scene.height), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT, borderValue=d.table,
    )
    if scene.hand is not None:
        _hand(image, scene, lay, h, px_per_canon, stream(3))
    for ov in scene.overlays:
        if ov.kind == "shadow":
            image = _photo.shadow(image, ov.box, ov.alpha, ov.angle)
    look = scene.look
    if look.light_gradient > 0 or look.glare > 0:
        image = _photo.lighting(image, look.light_gradient, look.glare, stream(4))
    for ov in scene.overlays:
        if ov.kind == "band":
            image = _photo.band(image, ov.box, ov.alpha, ov.colour, ov.text)
        elif ov.kind == "panel":
            image = _photo.panel(image, ov.box, ov.colour, ov.text)
    image = _photo.gaussian_blur(image, look.blur)
    ns = seed if noise_seed is None else int(noise_seed)
    image = _photo.noise(image, look.noise, np.random.default_rng([ns & 0xFFFFFFFF, 5]))
    image = _photo.jpeg(image, look.jpeg_quality)

    corners = project(h, np.array(lay.field_corners)).astype(np.float32)
    truth = Truth(
        corners=corners,
        light=tuple(scene.light),
        dark=tuple(scene.dark),
        bar=scene.bar,
        off=scene.off,
        dice=tuple(truth_dice),
        cube_place=cube_place,
        cube_value=cube_value,
        hand=scene.hand is not None,
        motion=any(t.moving for t in truth_dice),
        home=scene.home,
        trays=scene.trays,
        homography=h,
        bar_u=lay.bar_u,
        layout=lay,
        props=tuple(truth_props),
        prints=tuple(truth_prints),
        hand_kind="" if scene.hand is None else scene.hand.kind,
        overlays=tuple(o.kind for o in scene.overlays),
        size=(scene.width, scene.height),
        pinned=tuple(scene.pinned),
    )
    return Rendered(image=image, truth=truth)


def _thick_checkers(canvas: np.ndarray, stacks: list[list[tuple[float, float, bool]]], scene: Scene, lay: L.Layout,
                    d: Design) -> None:
    """The checkers (each stack's x, y, light from its base) as cylinders ``scene.build.thickness`` of a
    diameter thick, seen from the scene's camera (the pinhole of ``homography``, ``camera_centre``).
    Everything is drawn where the camera's ray meets the board plane, so the canvas's warp shows it as
    the camera does: a top face ``z`` above the board is the foot disc scaled by ``hc / (hc - z)`` about
    the camera's foot point (a plane parallel to the board maps to it by that homothety); the side band
    is the hull of foot and top. The shadows go down first, then the checkers farthest from the camera's
    foot point first, so a nearer checker hides what it stands in front of -- except a squeezed stack's
    checkers, which overlap (``Layout.stack``): they lie shingled as the flat board draws them, each over
    the one before it from the base, and are drawn in that order, the stack placed by its farthest one."""
    fx, fy, hc = camera_centre(scene.pose, lay, scene.width, scene.height)
    z = scene.build.thickness * 2.0 * L.R
    s = hc / (hc - z)

    def far(c: tuple[float, float, bool]) -> float:
        return (c[0] - fx) ** 2 + (c[1] - fy) ** 2

    groups: list[list[tuple[float, float, bool]]] = []
    for stack in stacks:
        squeezed = any(math.hypot(a[0] - b[0], a[1] - b[1]) < 2.0 * L.R - 0.5 for a, b in zip(stack, stack[1:]))
        groups += [stack] if squeezed else [[c] for c in stack]
    for x, y, _ in (c for g in groups for c in g):
        _draw.checker_shadow(canvas, x, y)
    for g in sorted((g for g in groups if g), key=lambda g: -max(far(c) for c in g)):
        for x, y, light in g:
            tx, ty = fx + (x - fx) * s, fy + (y - fy) * s
            _draw.cylinder(canvas, x, y, tx, ty, L.R * s, d.light_body if light else d.dark_body,
                           d.light_rim if light else d.dark_rim, d.checker)


def _hand(image: np.ndarray, scene: Scene, lay: L.Layout, h: np.ndarray, px_per_canon: float, rng: np.random.Generator) -> None:
    assert scene.hand is not None
    spec = scene.hand
    hx, hy = lay.uv_to_px(spec.u, spec.v)
    jitter = float(rng.uniform(-0.3, 0.3)) * spec.size * lay.fw
    reach = 2.0 * L.FH
    start = {
        "bottom": (hx + jitter, hy + reach),
        "top": (hx + jitter, hy - reach),
        "left": (hx - reach, hy + jitter),
        "right": (hx + reach, hy + jitter),
    }[spec.from_side]
    p = project(h, np.array([[hx, hy], start]))
    _draw.hand(image, float(p[0, 0]), float(p[0, 1]), spec.size * lay.fw * px_per_canon, float(p[1, 0]), float(p[1, 1]),
               spec.kind, spec.sleeve, spec.skin)


def _where(lay: L.Layout, x: float, y: float) -> Where:
    """What the canonical point (x, y) lies on: the field, a tray, the frame or the table."""
    u, v = lay.px_to_uv(x, y)
    if 0.0 <= u <= 1.0 and 0.0 <= v <= 1.0:
        return "field"
    if lay.trays != "none":
        for tx0 in lay.tray_columns:
            if tx0 <= x <= tx0 + L.TRAY and lay.fy0 <= y <= lay.fy0 + L.FH:
                return "tray"
    bx0, by0, bx1, by1 = lay.board_rect
    return "frame" if bx0 <= x <= bx1 and by0 <= y <= by1 else "table"


def _local_scale(h: np.ndarray, lay: L.Layout) -> float:
    cx, cy = lay.uv_to_px(0.5, 0.5)
    p = project(h, np.array([[cx, cy], [cx + 100.0, cy]]))
    return float(np.hypot(*(p[1] - p[0]))) / 100.0


def _die(
    canvas: np.ndarray, spec: DieSpec, lay: L.Layout, d: Design, rng: np.random.Generator, px_per_canon: float
) -> None:
    x, y = lay.uv_to_px(spec.u, spec.v)
    sides = side_values(spec.value, rng)
    tilt, scale, shadow = 0.0, spec.size, 3.0 * spec.size
    if spec.pose == "cocked":
        tilt = spec.tilt_deg if spec.tilt_deg is not None else float(rng.uniform(*_COCKED_TILT))
    elif spec.pose == "leaning":
        tilt = spec.tilt_deg if spec.tilt_deg is not None else float(rng.uniform(*_LEANING_TILT))
        shadow = 5.0
    elif spec.pose == "on_checker":
        scale, shadow = 1.08 * spec.size, 7.0
    if spec.motion_blur > 0 and spec.pose == "flat":
        tilt = float(rng.uniform(10.0, 40.0))  # a tumbling die is never square to the board
    if spec.motion_blur <= 0:
        draw_die(canvas, x, y, spec.value, spec.angle, tilt, sides, d.die_body, d.die_pip, scale, shadow)
    else:
        _blurred_die(canvas, x, y, spec, tilt, sides, d, scale, shadow, spec.motion_blur / px_per_canon, rng)


def _blurred_die(
    canvas: np.ndarray, x: float, y: float, spec: DieSpec, tilt: float, sides: tuple[int, int, int, int],
    d: Design, scale: float, shadow: float, length: float, rng: np.random.Generator,
) -> None:
    """A tumbling die: drawn into a patch, smeared along a random direction, blended back."""
    m = int(L.DIE * scale + length + 12)
    H, W = canvas.shape[:2]
    x0, y0 = max(int(x) - m, 0), max(int(y) - m, 0)
    x1, y1 = min(int(x) + m, W), min(int(y) + m, H)
    if x1 <= x0 or y1 <= y0:
        return
    roi = canvas[y0:y1, x0:x1]
    patch = roi.copy()
    draw_die(patch, x - x0, y - y0, spec.value, spec.angle, tilt, sides, d.die_body, d.die_pip, scale, shadow)
    mask = np.zeros(patch.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(footprint(x - x0, y - y0, spec.angle, scale * 1.2)).astype(np.int32), 1.0)
    k = _photo.motion_kernel(length, float(rng.uniform(0, 180)))
    patch = cv2.filter2D(patch, -1, k, borderType=cv2.BORDER_REPLICATE)
    alpha = cv2.filter2D(mask, -1, k)[:, :, None]
    roi[:] = (patch * alpha + roi * (1.0 - alpha)).astype(np.uint8)
