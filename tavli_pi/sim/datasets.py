"""Seeded random scenes and renders for tests and benchmarks.

``easy_set``: straight-on camera, mild light and noise, the tournament board,
at most 5 checkers a point, two flat dice lying in the open middle band.
``hard_set``: tilted, rotated, farther camera; glare, noise, blur and JPEG;
all three board designs; stacks of 6-15; up to four dice in every pose and
place (cocked, leaning, on a checker, on the bar, outside, tumbling); the
cube anywhere; a hand over the board one time in three.
``reallike_set``: tables as varied as real ones (issue 9; see the section
below): designs after the real boards, bar widths, tray designs, cups,
lettering, overlays, shadows, 640x360 frames, small dice, arms and sleeves.
``reallike_setup`` gives the same table at set-up, to calibrate on.

Every checker layout has 15 checkers per colour on points, bar and trays,
and no point holds both colours. Same ``(n, seed)``, same list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from tavli_pi.sim import _layout as L
from tavli_pi.sim.render import BAR_U, Rendered, render
from tavli_pi.sim.scene import (
    BOARDS,
    REAL_BOARDS,
    Build,
    CameraPose,
    CubeSpec,
    DieSpec,
    HandSpec,
    Look,
    Overlay,
    Print,
    Prop,
    Scene,
)

T = TypeVar("T")

__all__ = [
    "POSE_LIMITS",
    "random_layout",
    "random_pose",
    "easy_scenes",
    "hard_scenes",
    "easy_set",
    "hard_set",
    "SMALL_DIE_PX",
    "reallike_table",
    "reallike_scenes",
    "reallike_set",
    "reallike_setup",
    "reallike_game_tables",
]

#: The camera poses ``hard_set`` draws from (and that keep the field in view
#: at 1280x720: tests check every corner stays inside the image).
POSE_LIMITS: dict[str, tuple[float, float]] = {
    "tilt_deg": (0.0, 20.0),
    "rotation_deg": (-8.0, 8.0),
    "height": (1.1, 1.35),
    "shift": (-0.03, 0.03),
}

Layout = tuple[tuple[int, ...], tuple[int, ...], tuple[int, int], tuple[int, int]]


def _spread(rng: np.random.Generator, total: int, slots: list[int], cap: int) -> dict[int, int]:
    """Distribute ``total`` checkers over some of ``slots`` (each 1..cap)."""
    if total == 0:
        return {}
    k_min = -(-total // cap)
    k = int(rng.integers(k_min, min(len(slots), max(k_min, 8), total) + 1))
    chosen = [int(p) for p in rng.choice(slots, size=k, replace=False)]
    counts = {p: 1 for p in chosen}
    for _ in range(total - k):
        room = [p for p in chosen if counts[p] < cap]
        counts[room[int(rng.integers(0, len(room)))]] += 1
    return counts


def random_layout(
    rng: np.random.Generator, cap: int = 5, max_bar: int = 1, max_off: int = 4, min_cap: int = 1
) -> Layout:
    """Random legal-ish checkers: 15 a colour, on points (1..cap each), bar and trays.

    ``min_cap`` > 1 makes one point of each colour hold at least that many
    (for tall stacks).
    """
    counts: list[dict[int, int]] = []
    bar, off = [0, 0], [0, 0]
    free = list(range(1, 25))
    for c in range(2):
        bar[c] = int(rng.integers(0, max_bar + 1))
        off[c] = min(int(rng.integers(0, max_off + 1)), 15 - bar[c] - min_cap)
        left = 15 - bar[c] - off[c]
        tall: dict[int, int] = {}
        if min_cap > 1 and left >= min_cap:
            p = int(free[int(rng.integers(0, len(free)))])
            n = int(rng.integers(min_cap, min(cap, left) + 1))
            tall = {p: n}
            left -= n
            free.remove(p)
        spread = _spread(rng, left, free, min(cap, 5) if min_cap > 1 else cap)
        spread.update(tall)
        for p in spread:
            if p in free:
                free.remove(p)
        counts.append(spread)
    light = tuple(counts[0].get(p, 0) for p in range(1, 25))
    dark = tuple(counts[1].get(p, 0) for p in range(1, 25))
    return light, dark, (bar[0], bar[1]), (off[0], off[1])


def random_pose(rng: np.random.Generator) -> CameraPose:
    lim = POSE_LIMITS
    return CameraPose(
        tilt_deg=float(rng.uniform(*lim["tilt_deg"])),
        rotation_deg=float(rng.uniform(*lim["rotation_deg"])),
        height=float(rng.uniform(*lim["height"])),
        shift=(float(rng.uniform(*lim["shift"])), float(rng.uniform(*lim["shift"]))),
        tilt_dir_deg=float(rng.uniform(0.0, 360.0)),
    )


def _open_spot(rng: np.random.Generator, half: str, taken: list[tuple[float, float]]) -> tuple[float, float]:
    """A die centre in the open middle band of one half, clear of other dice."""
    for _ in range(50):
        if half == "left":
            u = float(rng.uniform(0.06, BAR_U[0] - 0.06))
        else:
            u = float(rng.uniform(BAR_U[1] + 0.06, 0.94))
        v = float(rng.uniform(0.43, 0.57))
        if _clear(u, v, taken):
            return u, v
    return u, v


def _clear(u: float, v: float, taken: list[tuple[float, float]]) -> bool:
    """True when a die at (u, v) would not touch the dice already placed."""
    return all((u - a) ** 2 + ((v - b) * L.FH / L.FW) ** 2 > 0.06**2 for a, b in taken)


def _checker_uv(scene_light: tuple[int, ...], scene_dark: tuple[int, ...], home: str, rng: np.random.Generator) -> tuple[float, float] | None:
    """Field (u, v) of the outermost checker of a random occupied point."""
    lay = L.layout(home)
    occupied = [p for p in range(1, 25) if scene_light[p - 1] + scene_dark[p - 1] > 0]
    if not occupied:
        return None
    p = occupied[int(rng.integers(0, len(occupied)))]
    x, y = lay.stack(p, scene_light[p - 1] + scene_dark[p - 1])[-1]
    return lay.px_to_uv(x, y)


def easy_scenes(n: int, seed: int = 0) -> list[Scene]:
    rng = np.random.default_rng([seed, 1])
    out = []
    for _ in range(n):
        light, dark, bar, off = random_layout(rng, cap=5)
        dice: tuple[DieSpec, ...] = ()
        if rng.random() < 0.8:
            half = "left" if rng.random() < 0.5 else "right"
            taken: list[tuple[float, float]] = []
            specs = []
            for _ in range(2):
                u, v = _open_spot(rng, half, taken)
                taken.append((u, v))
                specs.append(DieSpec(int(rng.integers(1, 7)), u, v, angle=float(rng.uniform(-45, 45))))
            dice = tuple(specs)
        out.append(
            Scene(
                light=light, dark=dark, bar=bar, off=off, dice=dice,
                cube=CubeSpec(1, "middle"),
                home="bottom-right" if rng.random() < 0.8 else "bottom-left",
                pose=CameraPose(
                    tilt_deg=float(rng.uniform(0, 3)),
                    rotation_deg=float(rng.uniform(-1.5, 1.5)),
                    height=float(rng.uniform(1.0, 1.1)),
                    tilt_dir_deg=float(rng.uniform(0, 360)),
                ),
                look=Look(
                    board="tournament",
                    light_gradient=float(rng.uniform(0, 0.15)),
                    noise=float(rng.uniform(0, 2.5)),
                ),
            )
        )
    return out


def _hard_die(rng: np.random.Generator, light: tuple[int, ...], dark: tuple[int, ...], home: str, taken: list[tuple[float, float]]) -> DieSpec:
    value = int(rng.integers(1, 7))
    angle = float(rng.uniform(0, 360))
    kind = rng.choice(["flat", "flat", "cocked", "leaning", "on_checker", "bar", "outside", "tumbling"])
    pose = "flat"
    blur = 0.0
    u, v = _open_spot(rng, "left" if rng.random() < 0.5 else "right", taken)
    if kind == "cocked":
        pose = "cocked"
    elif kind in ("leaning", "on_checker"):
        spot = _checker_uv(light, dark, home, rng)
        if spot is not None:
            pose = str(kind)
            du = L.R / L.FW * (1.25 if kind == "leaning" else 0.0)
            u, v = spot[0] + du * (1 if rng.random() < 0.5 else -1), spot[1]
    elif kind in ("bar", "outside"):
        for _ in range(30):
            if kind == "bar":
                u = float(rng.uniform(BAR_U[0] + 0.01, BAR_U[1] - 0.01))
                v = float(rng.uniform(0.3, 0.7))
            else:
                u = float(rng.choice([rng.uniform(-0.12, -0.03), rng.uniform(1.03, 1.12)]))
                v = float(rng.uniform(0.1, 0.9))
            if _clear(u, v, taken):
                break
    elif kind == "tumbling":
        blur = float(rng.uniform(6, 30))
    taken.append((u, v))
    return DieSpec(value, u, v, angle=angle, pose=pose, motion_blur=blur)  # type: ignore[arg-type]


def hard_scenes(n: int, seed: int = 0) -> list[Scene]:
    rng = np.random.default_rng([seed, 2])
    out = []
    for _ in range(n):
        light, dark, bar, off = random_layout(rng, cap=15, max_bar=3, max_off=8, min_cap=6)
        home = "bottom-right" if rng.random() < 0.6 else "bottom-left"
        taken: list[tuple[float, float]] = []
        dice = tuple(_hard_die(rng, light, dark, home, taken) for _ in range(int(rng.integers(0, 5))))
        hand = None
        if rng.random() < 0.33:
            hand = HandSpec(
                u=float(rng.uniform(0.1, 0.9)), v=float(rng.uniform(0.1, 0.9)),
                size=float(rng.uniform(0.12, 0.25)),
                from_side=str(rng.choice(["bottom", "top", "left", "right"])),  # type: ignore[arg-type]
            )
        place = str(rng.choice(["middle", "light", "dark", "none"]))
        out.append(
            Scene(
                light=light, dark=dark, bar=bar, off=off, dice=dice,
                cube=CubeSpec(int(rng.choice([1, 2, 4, 8, 16, 32, 64])), place),  # type: ignore[arg-type]
                hand=hand, home=home,  # type: ignore[arg-type]
                pose=random_pose(rng),
                look=Look(
                    board=str(rng.choice(list(BOARDS))),
                    light_gradient=float(rng.uniform(0, 0.6)),
                    glare=float(rng.uniform(0, 0.5)) if rng.random() < 0.5 else 0.0,
                    noise=float(rng.uniform(0, 8)),
                    blur=float(rng.uniform(0, 1.5)),
                    jpeg_quality=int(rng.integers(35, 96)) if rng.random() < 0.6 else None,
                ),
            )
        )
    return out


def easy_set(n: int, seed: int = 0) -> list[Rendered]:
    """``n`` rendered easy scenes (seeded)."""
    return [render(s, seed * 100003 + i) for i, s in enumerate(easy_scenes(n, seed))]


def hard_set(n: int, seed: int = 0) -> list[Rendered]:
    """``n`` rendered hard scenes (seeded)."""
    return [render(s, seed * 100003 + i) for i, s in enumerate(hard_scenes(n, seed))]


# -- the real-like set (issue 9) -----------------------------------------------------------
#
# Tables as varied as the real ones in ../shared/data/real/boards: the five
# designs after those boards (and the three older ones) with narrow to very
# wide bars, trays on the home side, the other side, both sides or none (the
# borne-off checkers then lie on the table), tray linings, dice cups in trays
# and on the field, pencils, score pads and clocks, lettering and logos
# printed on the field, broadcast bands and lamp shadows over the picture,
# 640x360 and 1280x720 frames, the light player at the bottom or the top of
# the picture, small dice (8-12 px) as well as normal ones, and hands, bare
# arms and sleeves over the board.

_BAR_WIDTHS = ((28, 40), (40, 60), (70, 120), (130, 200))  # narrow, usual, wide, very wide
_INSERTS = ((26, 26, 28), (232, 234, 236), (40, 82, 34), (40, 40, 140))
_WORDS = ("BACKGAMMON", "TAVLI", "WTC 2022", "PINETTI", "CLUB", "1 2 3", "MONTE CARLO", "XG")
_INKS = ((60, 170, 214), (236, 236, 236), (24, 24, 24))
_BANDS = ("WORLD TEAM CHAMPIONSHIPS 2022", "YOKOTA 1   MEZINI 0", "LIVE", "MATCH TO 11", "QLASH")
_PANELS = ("YOKOTA|WORLD TEAM|CHAMPIONSHIPS|2022|MEZINI", "MATCH TO 11|SCORE 3 - 1", "LIVE|QLASH|TAVLI CUP")
_SLEEVES = ((150, 150, 152), (170, 140, 230), (90, 50, 40), (230, 232, 234), (40, 40, 44))
_SKINS = ((118, 150, 205), (96, 128, 180), (70, 96, 140), (150, 180, 226))
_CUPS = ((28, 26, 24), (30, 50, 90), (40, 40, 150), (24, 70, 30))

#: a die edge below this many pixels is "small" in the real-like set's figures
SMALL_DIE_PX = 13.0


#: the share of real-like tables whose checkers are drawn thick (``Build.thickness``), and how thick
#: (a fraction of the diameter: tournament checkers are about a fifth of their diameter thick)
THICK_SHARE = 1.0 / 3.0
THICKNESS = (0.15, 0.25)


def _side_stream(rng: np.random.Generator, key: int) -> np.random.Generator:
    """A generator seeded by ``rng``'s present state and ``key``, leaving ``rng`` untouched: what it
    draws changes nothing else ``rng`` draws."""
    st = rng.bit_generator.state["state"]
    return np.random.default_rng([int(st["state"]), int(st["inc"]), key])


def _choice(rng: np.random.Generator, items: Sequence[T]) -> T:
    return items[int(rng.integers(0, len(items)))]


def _reallike_build(rng: np.random.Generator, bar: int) -> Build:
    bu = (6 * L.PW / (12 * L.PW + bar), (6 * L.PW + bar) / (12 * L.PW + bar))
    prints: list[Print] = []
    for _ in range(int(rng.integers(0, 4))):
        where = rng.random()
        ink = None if rng.random() < 0.5 else _choice(rng, _INKS)
        if where < 0.55:  # the open middle band of a half, where dice lie too
            left = rng.random() < 0.5
            u = float(rng.uniform(0.1, bu[0] - 0.1) if left else rng.uniform(bu[1] + 0.1, 0.9))
            v = float(rng.uniform(0.42, 0.58))
            if rng.random() < 0.5:
                prints.append(Print("logo", u, v, size=float(rng.uniform(0.06, 0.16)), colour=ink,
                                    angle=float(rng.uniform(-20, 20))))
            else:
                prints.append(Print("text", u, v, _choice(rng, _WORDS), float(rng.uniform(0.03, 0.06)), ink,
                                    float(rng.choice([0.0, 180.0])) + float(rng.uniform(-5, 5))))
        elif where < 0.8 and bar >= 60:  # along a wide bar
            prints.append(Print("text", (bu[0] + bu[1]) / 2, float(rng.uniform(0.3, 0.7)), _choice(rng, _WORDS),
                                float(rng.uniform(0.03, 0.05)), ink, 90.0))
        else:  # on the frame
            v = float(rng.choice([-0.02, 1.02]))
            prints.append(Print("text", float(rng.uniform(0.2, 0.8)), v, _choice(rng, _WORDS), 0.025, ink))
    insert = _choice(rng, _INSERTS) if rng.random() < 0.5 else None
    return Build(bar=bar, insert=insert, prints=tuple(prints))


def _tray_uv(lay: L.Layout, column: int, light: bool) -> tuple[float, float]:
    """Field (u, v) of the middle of one tray of a tray column."""
    x0, y0, x1, y1 = lay.tray_box(light)
    shift = column - lay.tray_x0
    return lay.px_to_uv((x0 + x1) / 2 + shift, (y0 + y1) / 2)


def _tray_props(rng: np.random.Generator, lay: L.Layout, off: tuple[int, int]) -> list[Prop]:
    """A dice cup or a pencil in a home tray that holds no checker."""
    props: list[Prop] = []
    if lay.trays == "none":
        return props
    for light, n in ((True, off[0]), (False, off[1])):
        if n == 0 and rng.random() < 0.3:
            u, v = _tray_uv(lay, lay.tray_x0, light)
            kind = "cup" if rng.random() < 0.7 else "pencil"
            props.append(Prop(kind, u, v, float(rng.uniform(0.8, 0.95)) if kind == "cup" else 0.45,  # type: ignore[arg-type]
                              _choice(rng, _CUPS), 90.0))
    return props


def _static_props(rng: np.random.Generator, lay: L.Layout) -> list[Prop]:
    """Props off the field and out of the home trays: a dice cup in the spare tray
    column, a clock or a score pad on the table beyond the board."""
    props: list[Prop] = []
    if lay.tray2_x0 is not None and rng.random() < 0.7:
        u, v = _tray_uv(lay, lay.tray2_x0, rng.random() < 0.5)
        props.append(Prop("cup", u, v, float(rng.uniform(0.8, 0.95)), _choice(rng, _CUPS)))
    if rng.random() < 0.35:  # a clock or a pad on the table beyond the board's top or bottom edge
        kind = "clock" if rng.random() < 0.6 else "pad"
        v = float(rng.choice([-0.16, 1.16]))
        props.append(Prop(kind, float(rng.uniform(0.25, 0.75)), v, float(rng.uniform(0.8, 1.1)),  # type: ignore[arg-type]
                          (40, 30, 30), float(rng.uniform(-10, 10))))
    return props


def reallike_table(rng: np.random.Generator) -> dict[str, Any]:
    """``Scene`` keyword arguments for one random real-like table (no checkers, dice or hand):
    ``look``, ``build``, ``trays``, ``home``, ``pose``, ``width``, ``height``, ``overlays``,
    ``props`` (off the field only, so any position can be played on it), ``cube``."""
    board = _choice(rng, REAL_BOARDS) if rng.random() < 0.75 else _choice(rng, BOARDS)
    lo, hi = _BAR_WIDTHS[int(rng.choice(4, p=[0.2, 0.35, 0.3, 0.15]))]
    bar = int(rng.integers(lo, hi + 1))
    trays = str(rng.choice(list(L.TRAY_SIDES), p=[0.3, 0.25, 0.3, 0.15]))
    home = "bottom-right" if rng.random() < 0.6 else "bottom-left"
    small = rng.random() < 0.4
    width, height = (640, 360) if small else (1280, 720)
    flip = 180.0 if rng.random() < 0.25 else 0.0  # the light player at the top of the picture
    pose = CameraPose(
        tilt_deg=float(rng.uniform(0.0, 22.0)),
        rotation_deg=flip + float(rng.uniform(-8.0, 8.0)),
        height=float(rng.uniform(1.08, 1.35)),
        shift=(float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03))),
        tilt_dir_deg=float(rng.uniform(0.0, 360.0)),
    )
    look = Look(
        board=board,
        light_gradient=float(rng.uniform(0, 0.5)),
        glare=float(rng.uniform(0, 0.35)) if rng.random() < 0.4 else 0.0,
        noise=float(rng.uniform(0, 5)),
        blur=float(rng.uniform(0, 1.0)),
        jpeg_quality=int(rng.integers(45, 96)) if rng.random() < 0.6 else None,
    )
    overlays: list[Overlay] = []
    if rng.random() < 0.4:  # a broadcast band across part of the picture
        y0 = float(rng.uniform(0.05, 0.85))
        x0 = float(rng.uniform(0.0, 0.5))
        overlays.append(Overlay("band", (x0, y0, min(x0 + float(rng.uniform(0.3, 0.7)), 1.0), y0 + float(rng.uniform(0.05, 0.1))),
                                float(rng.uniform(0.3, 0.6)), _choice(rng, ((90, 40, 20), (20, 20, 20), (40, 20, 120))),
                                _choice(rng, _BANDS)))
    if rng.random() < 0.35:  # a lamp's shadow
        x0, y0 = float(rng.uniform(-0.2, 0.7)), float(rng.uniform(-0.2, 0.7))
        overlays.append(Overlay("shadow", (x0, y0, x0 + float(rng.uniform(0.3, 0.7)), y0 + float(rng.uniform(0.3, 0.7))),
                                float(rng.uniform(0.2, 0.5)), angle=float(rng.uniform(0, 180))))
    lay = L.layout(home, trays, bar)
    if rng.random() < 0.3:  # an opaque broadcast panel on the table beside the board, never over it
        from tavli_pi.sim._pose import homography, project

        bx0, by0, bx1, by1 = lay.board_rect
        q = project(homography(pose, lay, width, height), np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]]))
        left, right = float(q[:, 0].min()) / width, float(q[:, 0].max()) / width
        room = max(left, 1.0 - right)
        if room > 0.1:
            pw = min(room - 0.02, 0.22)
            x0 = 0.005 if left >= 1.0 - right else 1.0 - pw - 0.005
            overlays.append(Overlay("panel", (x0, 0.1, x0 + pw, 0.9), 1.0, _choice(rng, ((60, 60, 60), (90, 40, 20))),
                                    _choice(rng, _PANELS)))
    place = str(rng.choice(["middle", "light", "dark", "none"], p=[0.5, 0.15, 0.15, 0.2]))
    build = _reallike_build(rng, bar)
    thick = _side_stream(rng, 28)  # its own stream: every table drawn flat is as it was before
    if thick.random() < THICK_SHARE:
        build = replace(build, thickness=float(thick.uniform(*THICKNESS)))
    return {
        "look": look, "build": build, "trays": trays, "home": home, "pose": pose,
        "width": width, "height": height, "overlays": tuple(overlays),
        "props": tuple(_static_props(rng, lay)),
        "cube": CubeSpec(int(rng.choice([1, 2, 4])), place),  # type: ignore[arg-type]
    }


def _discs(scene_light: tuple[int, ...], scene_dark: tuple[int, ...], bar: tuple[int, int],
           lay: L.Layout) -> list[tuple[float, float, float]]:
    """Canonical discs (x, y, r) of every checker on the points and the bar."""
    out = []
    for p in range(1, 25):
        n = scene_light[p - 1] + scene_dark[p - 1]
        out += [(x, y, float(L.R)) for x, y in lay.stack(p, n)]
    for light, n in ((True, bar[0]), (False, bar[1])):
        out += [(x, y, float(L.R)) for x, y in lay.bar_stack(light, n)]
    return out


def _free(x: float, y: float, r: float, discs: list[tuple[float, float, float]]) -> bool:
    return all((x - a) ** 2 + (y - b) ** 2 > (r + c + 3) ** 2 for a, b, c in discs)


def _die_size(rng: np.random.Generator, width: int) -> float:
    """A die's size: in 640x360 frames dice of 8-12 px; in 1280x720 frames small
    (tournament) dice of 10-16 px half the time, else 15-21 px."""
    if width < 1000:
        return float(rng.uniform(0.95, 1.3))
    return float(rng.uniform(0.55, 0.8)) if rng.random() < 0.5 else float(rng.uniform(0.8, 1.05))


def _reallike_dice(rng: np.random.Generator, lay: L.Layout, discs: list[tuple[float, float, float]],
                   width: int) -> list[DieSpec]:
    size = _die_size(rng, width)
    n = int(rng.choice([0, 1, 2, 2, 2, 3]))
    left = rng.random() < 0.5
    bu = lay.bar_u
    out: list[DieSpec] = []
    for k in range(n):
        moving = k == 2 or (n == 2 and rng.random() < 0.08)
        r = L.DIE * size * 0.75
        for _ in range(60):
            if rng.random() < 0.8:  # in a half, anywhere clear of checkers
                u = float(rng.uniform(0.04, bu[0] - 0.04) if left else rng.uniform(bu[1] + 0.04, 0.96))
                v = float(rng.uniform(0.2, 0.8))
            else:
                u, v = float(rng.uniform(bu[0], bu[1])), float(rng.uniform(0.3, 0.7))
            x, y = lay.uv_to_px(u, v)
            if _free(x, y, r, discs):
                break
        else:
            continue
        discs.append((x, y, r))
        pose = "cocked" if rng.random() < 0.1 else "flat"
        out.append(DieSpec(int(rng.integers(1, 7)), u, v, float(rng.uniform(0, 90)), pose,  # type: ignore[arg-type]
                           motion_blur=float(rng.uniform(6, 20)) if moving else 0.0, size=size))
    return out


def _field_cup(rng: np.random.Generator, lay: L.Layout, discs: list[tuple[float, float, float]]) -> Prop | None:
    """A dice cup standing on the field (often by a stack or at a point's base), on no checker or die."""
    size = float(rng.uniform(0.8, 1.0))
    r = 1.5 * L.R * size
    for _ in range(80):
        if rng.random() < 0.6:  # at the base of a point, by the frame
            p = int(rng.integers(1, 25))
            x = lay.point_x(p)
            y = lay.fy0 + L.FH - r - 2 if p <= 12 else lay.fy0 + r + 2
        else:
            x, y = lay.uv_to_px(float(rng.uniform(0.05, 0.95)), float(rng.uniform(0.3, 0.7)))
        if _free(x, y, r, discs):
            discs.append((x, y, r))
            u, v = lay.px_to_uv(x, y)
            return Prop("cup", u, v, size, _choice(rng, _CUPS))
    return None


def _reallike_hand(rng: np.random.Generator) -> HandSpec:
    kind = str(rng.choice(["hand", "arm", "sleeve"]))
    if rng.random() < 0.3:  # at the field's edge
        side = str(rng.choice(["bottom", "top", "left", "right"]))
        u, v = {"bottom": (float(rng.uniform(0.2, 0.8)), 0.96), "top": (float(rng.uniform(0.2, 0.8)), 0.04),
                "left": (0.04, float(rng.uniform(0.2, 0.8))), "right": (0.96, float(rng.uniform(0.2, 0.8)))}[side]
    else:
        side = str(rng.choice(["bottom", "top", "left", "right"]))
        u, v = float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.15, 0.85))
    return HandSpec(u, v, float(rng.uniform(0.12, 0.22)), side, kind,  # type: ignore[arg-type]
                    _choice(rng, _SLEEVES), _choice(rng, _SKINS))


def reallike_scenes(n: int, seed: int = 0) -> list[Scene]:
    """``n`` real-like scenes (seeded): a random table (``reallike_table``), 15 checkers a
    colour on points (stacks up to 15), bar and trays (or, one time in twenty, none at all), 0-3 dice of 8-24 px, a dice cup on
    the field one time in four, a hand, bare arm or sleeve one time in four."""
    rng = np.random.default_rng([seed, 3])
    out = []
    for _ in range(n):
        kw = reallike_table(rng)
        tall = rng.random() < 0.4
        light, dark, bar, off = random_layout(rng, cap=15 if tall else 6, max_bar=2, max_off=6, min_cap=6 if tall else 1)
        if rng.random() < 0.05:  # an empty board (as the beech photo in boards/more): nothing anywhere
            light, dark, bar, off = (0,) * 24, (0,) * 24, (0, 0), (0, 0)
        lay = L.layout(kw["home"], kw["trays"], kw["build"].bar)
        discs = _discs(light, dark, bar, lay)
        cube: CubeSpec = kw["cube"]
        if cube.place in ("light", "dark"):
            cx, cy = lay.cube_xy(cube.place)
            discs.append((cx, cy, L.CUBE * 0.75))
        dice = _reallike_dice(rng, lay, discs, kw["width"])
        props = list(kw["props"])
        if rng.random() < 0.25:
            cup = _field_cup(rng, lay, discs)
            if cup is not None:
                props.append(cup)
        props += _tray_props(rng, lay, off)
        hand = _reallike_hand(rng) if rng.random() < 0.25 else None
        kw["props"] = tuple(props)
        out.append(Scene(light=light, dark=dark, bar=bar, off=off, dice=tuple(dice), hand=hand, **kw))
    return out


def reallike_set(n: int, seed: int = 0) -> list[Rendered]:
    """``n`` rendered real-like scenes (seeded)."""
    return [render(s, seed * 100003 + i) for i, s in enumerate(reallike_scenes(n, seed))]


def reallike_game_tables(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` real-like tables to play games on: ``scene_of`` keyword arguments (``Scene``
    fields as ``reallike_table`` gives them, plus the ``hand`` the game's moments show, a
    hand, bare arm or sleeve, and the ``die_size``). Props stay off the field and out of
    the home trays, since any position may be played on these tables. Seeded."""
    rng = np.random.default_rng([seed, 4])
    out = []
    for _ in range(n):
        kw = reallike_table(rng)
        kw["cube"] = CubeSpec(1, "middle")
        h = _reallike_hand(rng)
        kw["hand"] = HandSpec(0.5, 0.78, 0.2, "bottom", h.kind, h.sleeve, h.skin)
        kw["die_size"] = min(_die_size(rng, kw["width"]), 1.0 if kw["width"] > 1000 else 1.3)
        out.append(kw)
    return out


def reallike_setup(scene: Scene, known: Layout | None = None) -> Scene:
    """The same table at set-up: the start position (light is White), no dice, no hand, the
    cube in the middle, only the props off the field (what the app sees when it calibrates).
    ``known``: the same table showing this position instead (light, dark, bar, off; a game
    joined in progress), as clear."""
    from tavli_pi.rules.position import Position
    from tavli_pi.sim.scene import scene_from_position

    lay = L.layout(scene.home, scene.trays, scene.build.bar)
    props = tuple(p for p in scene.props if not (0.0 <= p.u <= 1.0 and 0.0 <= p.v <= 1.0)
                  and not _in_home_tray(lay, p))
    if known is None:
        start = scene_from_position(Position.start())
        known = (start.light, start.dark, (0, 0), (0, 0))
    light, dark, bar, off = known
    return replace(scene, light=light, dark=dark, bar=bar, off=off, dice=(), hand=None,
                   props=props, cube=CubeSpec(1, "middle"))


def _in_home_tray(lay: L.Layout, p: Prop) -> bool:
    x, _ = lay.uv_to_px(p.u, p.v)
    return lay.trays != "none" and lay.tray_x0 <= x <= lay.tray_x1
