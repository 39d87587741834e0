"""What the simulator draws: a physical board state plus camera and lighting.

Everything here is a small frozen value. Counts are in the *light* player's
numbering (``light[i]`` and ``dark[i]`` are the checkers on the light player's
point ``i + 1``), exactly as vision reports them in an ``Observation``.

Die and hand positions are in playing-field coordinates: ``u`` runs from the
field's left edge (0) to its right edge (1) and ``v`` from its top edge (0) to
its bottom edge (1), as seen in the canonical, unwarped board with the light
player sitting at the bottom edge. Values outside ``[0, 1]`` lie outside the
field (on the frame, in the trays, off the board).

>>> s = scene_from_position(Position.start())
>>> s.light[5], s.dark[23 - 5], sum(s.light) + s.bar[0] + s.off[0]
(5, 5, 15)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

from tavli_pi.rules.tavli_position import TavliPosition
from tavli_pi.errors import ConfigError
from tavli_pi.rules.position import Position, Side
from tavli_pi.sim import _layout as L

__all__ = [
    "DiePose",
    "CubePlace",
    "HandSide",
    "Home",
    "TraySide",
    "BOARDS",
    "REAL_BOARDS",
    "ALL_BOARDS",
    "HandKind",
    "Print",
    "Build",
    "Prop",
    "Overlay",
    "DieSpec",
    "CubeSpec",
    "HandSpec",
    "CameraPose",
    "Look",
    "Scene",
    "scene_from_position",
]

DiePose = Literal["flat", "cocked", "leaning", "on_checker"]
CubePlace = Literal["middle", "light", "dark", "none"]
HandSide = Literal["bottom", "top", "left", "right"]
Home = Literal["bottom-right", "bottom-left"]
TraySide = Literal["home", "away", "both", "none"]
HandKind = Literal["hand", "arm", "sleeve"]
BGR = tuple[int, int, int]

#: The board designs of the easy and hard sets (``Look.board`` accepts these and ``REAL_BOARDS``).
BOARDS: tuple[str, ...] = ("tournament", "wood", "green")
#: Designs after the real boards in ../shared/data/real/boards (the real-like set).
REAL_BOARDS: tuple[str, ...] = ("metal", "pinetti", "rosewood", "beech", "club")
ALL_BOARDS: tuple[str, ...] = BOARDS + REAL_BOARDS

_DIE_POSES = ("flat", "cocked", "leaning", "on_checker")
_CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One die: its top value, centre (field u, v), rotation and how it lies.

    ``pose``: ``"flat"`` on the playing surface; ``"cocked"`` tilted on an
    edge (a slanted top and part of a side face show); ``"leaning"`` against
    a checker or the frame (more tilted); ``"on_checker"`` lying on top of a
    checker. ``motion_blur`` > 0 (pixels) means the die is still tumbling.
    ``tilt_deg`` (added field) overrides the default tilt of a cocked or
    leaning die. ``size`` (added field) scales the die's edge (1.0 = 24
    canonical px, 0.44 of a point's width; tournament dice are smaller).
    """

    value: int
    u: float
    v: float
    angle: float = 0.0
    pose: DiePose = "flat"
    motion_blur: float = 0.0
    tilt_deg: float | None = None
    size: float = 1.0

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ConfigError(f"a die shows 1-6, got {self.value}: fix the DieSpec value")
        if self.pose not in _DIE_POSES:
            raise ConfigError(f"die pose {self.pose!r} is not one of {_DIE_POSES}")
        if self.motion_blur < 0:
            raise ConfigError("motion_blur is a length in pixels and cannot be negative")
        if not 0.2 <= self.size <= 2.0:
            raise ConfigError(f"die size {self.size} is outside 0.2-2.0 (1.0 = the default die)")


@dataclass(frozen=True, slots=True)
class CubeSpec:
    """The doubling cube: the value on its top face (1 shows 64) and where it lies."""

    value: int = 1
    place: CubePlace = "middle"

    def __post_init__(self) -> None:
        if self.value not in _CUBE_VALUES:
            raise ConfigError(f"a cube shows one of {_CUBE_VALUES}, got {self.value}")
        if self.place not in ("middle", "light", "dark", "none"):
            raise ConfigError(f"cube place {self.place!r} is not middle, light, dark or none")


@dataclass(frozen=True, slots=True)
class HandSpec:
    """A hand reaching in from one side of the board to field point (u, v).

    ``size`` is the palm's width as a fraction of the field's width (0.1-0.3
    looks like a real hand). Added fields: ``kind`` ``"hand"`` (a palm and
    fingers on a short bare forearm), ``"arm"`` (a long bare forearm across
    the board), ``"sleeve"`` (a sleeve down to the wrist, only the hand
    bare); ``sleeve`` and ``skin`` colours (None: the defaults).
    """

    u: float
    v: float
    size: float = 0.18
    from_side: HandSide = "bottom"
    kind: HandKind = "hand"
    sleeve: BGR | None = None
    skin: BGR | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("hand", "arm", "sleeve"):
            raise ConfigError(f"hand kind {self.kind!r} is not hand, arm or sleeve")


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Where the camera looks from.

    ``tilt_deg``: angle between the optical axis and the board's normal;
    ``rotation_deg``: rotation of the board in the image; ``height``: 1.0
    frames the field at 82 % of the image height, 1.2 is farther (smaller);
    ``shift``: offset of the board in the image, in fractions of the width and
    height. ``tilt_dir_deg`` (added field): which way the camera leans
    (0 = the light player's edge comes nearer).
    """

    tilt_deg: float = 0.0
    rotation_deg: float = 0.0
    height: float = 1.0
    shift: tuple[float, float] = (0.0, 0.0)
    tilt_dir_deg: float = 0.0

    def __post_init__(self) -> None:
        if self.height <= 0.2:
            raise ConfigError(f"camera height {self.height} is too low: use 0.5-2.0")
        if not 0.0 <= self.tilt_deg < 60.0:
            raise ConfigError(f"camera tilt {self.tilt_deg} deg is outside 0-60")


@dataclass(frozen=True, slots=True)
class Look:
    """Board design and photographic conditions (all effects 0 = off).

    ``light_gradient`` 0-1: uneven light across the frame; ``glare`` 0-1: a
    bright reflection spot; ``noise``: sensor noise sigma in grey levels;
    ``blur``: gaussian blur sigma in pixels; ``jpeg_quality``: re-encode.
    """

    board: str = "tournament"
    light_gradient: float = 0.0
    glare: float = 0.0
    noise: float = 0.0
    blur: float = 0.0
    jpeg_quality: int | None = None

    def __post_init__(self) -> None:
        if self.board not in ALL_BOARDS:
            raise ConfigError(f"unknown board design {self.board!r}: use one of {ALL_BOARDS}")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ConfigError("jpeg_quality must be 1-100 (or None for no re-encode)")


@dataclass(frozen=True, slots=True)
class Print:
    """Lettering or a logo printed or engraved on the board, under the checkers.

    ``(u, v)``: its centre in field coordinates (outside 0-1: on the frame);
    ``size``: its height as a fraction of the field height; ``colour``: None
    for an engraving (a darker shade of the surface under it). A ``"logo"``
    is a ring round a die-like square of dots (as tournament logos are);
    ``"text"`` is ``text`` in capitals.
    """

    kind: Literal["text", "logo"]
    u: float
    v: float
    text: str = ""
    size: float = 0.06
    colour: BGR | None = None
    angle: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("text", "logo"):
            raise ConfigError(f"print kind {self.kind!r} is not text or logo")
        if self.kind == "text" and not self.text:
            raise ConfigError("a text print needs its text")


@dataclass(frozen=True, slots=True)
class Build:
    """How the board is built (real boards differ): the bar's width in
    canonical pixels (points are 54 wide; 30-220), the trays' lining colour
    (``insert``; None = bare tray), and what is printed on the field."""

    bar: int = L.BAR
    insert: BGR | None = None
    prints: tuple[Print, ...] = ()
    #: the checkers' thickness as a fraction of their diameter; 0: drawn flat in the board plane,
    #: > 0: short cylinders seen from the scene's camera (top face moved by its height's parallax,
    #: the side band showing; ``render``)
    thickness: float = 0.0

    def __post_init__(self) -> None:
        if not 20 <= self.bar <= 240:
            raise ConfigError(f"bar width {self.bar} is outside 20-240 canonical px")
        if not 0.0 <= self.thickness <= 0.5:
            raise ConfigError(f"checker thickness {self.thickness} is outside 0-0.5 of a diameter")


PropKind = Literal["cup", "pencil", "pad", "clock"]


@dataclass(frozen=True, slots=True)
class Prop:
    """Something else on the table: a dice cup (upright, seen from above), a
    pencil, a score pad or a game clock, centred at field ``(u, v)`` (outside
    0-1: on the frame, in a tray or on the table). ``size`` scales it; a cup of
    size 1 is 1.5 checkers across."""

    kind: PropKind
    u: float
    v: float
    size: float = 1.0
    colour: BGR = (28, 26, 24)
    angle: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("cup", "pencil", "pad", "clock"):
            raise ConfigError(f"prop kind {self.kind!r} is not cup, pencil, pad or clock")


@dataclass(frozen=True, slots=True)
class Overlay:
    """Something over the picture, not on the board: a broadcast ``"band"``
    (a semi-transparent strip with lettering), a broadcast ``"panel"`` (opaque,
    with lines of ``text`` split at "|" and die-like logos showing 1 and 3), a
    lamp ``"shadow"`` (a soft-edged darker patch). The box is in fractions of
    the image (x0, y0, x1, y1); ``alpha`` is the band's opacity or the
    shadow's darkening (a panel is always opaque)."""

    kind: Literal["band", "shadow", "panel"]
    box: tuple[float, float, float, float]
    alpha: float = 0.4
    colour: BGR = (60, 30, 20)
    text: str = ""
    angle: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("band", "shadow", "panel"):
            raise ConfigError(f"overlay kind {self.kind!r} is not band, panel or shadow")
        if not 0.0 <= self.alpha <= 1.0:
            raise ConfigError(f"overlay alpha {self.alpha} is outside 0-1")


def _counts(name: str, values: tuple[int, ...]) -> None:
    if len(values) != 24:
        raise ConfigError(f"Scene.{name} needs 24 counts (points 1-24), got {len(values)}")
    if any(n < 0 for n in values):
        raise ConfigError(f"Scene.{name} has a negative count")


@dataclass(frozen=True, slots=True)
class Scene:
    """One physical moment at the table, plus how the camera sees it."""

    light: tuple[int, ...]
    dark: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    dice: tuple[DieSpec, ...] = ()
    cube: CubeSpec | None = field(default_factory=CubeSpec)
    hand: HandSpec | None = None
    home: Home = "bottom-right"
    pose: CameraPose = field(default_factory=CameraPose)
    look: Look = field(default_factory=Look)
    width: int = 1280
    height: int = 720
    trays: TraySide = "home"  # added field: the tray column's side ("away" = as on the WTC 2022 board)
    build: Build = field(default_factory=Build)  # added fields (the real-like set)
    props: tuple[Prop, ...] = ()
    overlays: tuple[Overlay, ...] = ()
    #: per point (light numbering): +1 the base checker is a light one pinned under dark ones, -1 the
    #: reverse (Plakoto, RULES-TAVLI.md P3), 0 none; () no pins anywhere
    pinned: tuple[int, ...] = ()

    def digest(self) -> str:
        """A short digest of everything the scene draws (its fields' repr): a rendered frame cached
        under it is stale once the scene changes (a new field such as ``Build.thickness``)."""
        return hashlib.sha1(repr(self).encode()).hexdigest()[:12]

    def __post_init__(self) -> None:
        _counts("light", self.light)
        _counts("dark", self.dark)
        if min(self.bar) < 0 or min(self.off) < 0:
            raise ConfigError("Scene.bar and Scene.off hold counts and cannot be negative")
        if self.pinned and (len(self.pinned) != 24 or any(
                p and (self.light[i] if p == 1 else self.dark[i]) != 1 or p and not (self.dark[i] if p == 1 else self.light[i])
                for i, p in enumerate(self.pinned))):
            raise ConfigError("Scene.pinned needs 24 entries; a pin is one checker under at least one of the "
                              "other colour (P3)")
        if self.trays not in L.TRAY_SIDES:
            raise ConfigError(f"trays {self.trays!r} is not one of {L.TRAY_SIDES}")
        if self.home not in ("bottom-right", "bottom-left"):
            raise ConfigError(f"home {self.home!r} is not bottom-right or bottom-left")
        if self.width < 160 or self.height < 120:
            raise ConfigError(f"frame size {self.width}x{self.height} is too small (>= 160x120)")

    def totals(self) -> tuple[int, int]:
        """Light and dark checkers in the scene (points + bar + trays)."""
        return (
            sum(self.light) + self.bar[0] + self.off[0],
            sum(self.dark) + self.bar[1] + self.off[1],
        )


def scene_from_position(
    pos: Position | TavliPosition, light_is_white: bool = True, **kw: Any
) -> Scene:
    """The Scene showing ``pos``; ``kw`` sets any other Scene field.

    White's numbering (B2) is the light player's numbering when
    ``light_is_white``; otherwise the light player is Black and White's
    point ``p`` is the light player's ``25 - p``. A Plakoto/Fevga position
    (:class:`TavliPosition`) may hold pinned checkers (P3): drawn at the base.
    """
    if isinstance(pos, TavliPosition):
        wt = tuple(pos.stack(p)[0] for p in range(1, 25))
        bk = tuple(pos.stack(p)[1] for p in range(1, 25))
        pins = tuple(pos.pinned)
        if light_is_white:
            return Scene(light=wt, dark=bk, off=(pos.off[0], pos.off[1]), pinned=pins, **kw)
        return Scene(light=bk[::-1], dark=wt[::-1], off=(pos.off[1], pos.off[0]),
                     pinned=tuple(-p for p in pins[::-1]), **kw)
    white = tuple(max(n, 0) for n in pos.points)
    black = tuple(max(-n, 0) for n in pos.points)
    w, b = int(Side.WHITE), int(Side.BLACK)
    if light_is_white:
        light, dark = white, black
        bar = (pos.bar[w], pos.bar[b])
        off = (pos.off[w], pos.off[b])
    else:
        light, dark = black[::-1], white[::-1]
        bar = (pos.bar[b], pos.bar[w])
        off = (pos.off[b], pos.off[w])
    return Scene(light=light, dark=dark, bar=bar, off=off, **kw)
