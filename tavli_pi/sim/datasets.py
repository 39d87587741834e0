"""Seeded random scenes and renders for tests and benchmarks.

``easy_set``: straight-on camera, mild light and noise, the tournament board,
at most 5 checkers a point, two flat dice lying in the open middle band.
``hard_set``: tilted, rotated, farther camera; glare, noise, blur and JPEG;
all three board designs; stacks of 6-15; up to four dice in every pose and
place (cocked, leaning, on a checker, on the bar, outside, tumbling); the
cube anywhere; a hand over the board one time in three.

Every checker layout has 15 checkers per colour on points, bar and trays,
and no point holds both colours. Same ``(n, seed)``, same list.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.sim import _layout as L
from tavli_pi.sim.render import BAR_U, Rendered, render
from tavli_pi.sim.scene import (
    BOARDS,
    CameraPose,
    CubeSpec,
    DieSpec,
    HandSpec,
    Look,
    Scene,
)

__all__ = [
    "POSE_LIMITS",
    "random_layout",
    "random_pose",
    "easy_scenes",
    "hard_scenes",
    "easy_set",
    "hard_set",
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
