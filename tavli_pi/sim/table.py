"""Scripted moments -> Scenes to render: the table as the camera sees it.

Dice lie in the middle band of their half (away from the checkers), at one of
two places per half; tumbling dice are motion-blurred; a hand reaches in from
the bottom over the board while checkers move. Everything else (the look, the
camera pose) comes from ``scene_kw``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from tavli_pi.sim.scene import DieSpec, HandSpec, Scene, scene_from_position
from tavli_pi.sim.script import Moment, ScriptDie

__all__ = ["die_spec", "scene_of", "scenes_of", "DIE_PLACES", "HAND"]

#: (u, v) of the two die places in each half (playing-field coordinates).
DIE_PLACES: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "right": ((0.70, 0.47), (0.82, 0.53)),
    "left": ((0.18, 0.47), (0.30, 0.53)),
    "bar": ((0.50, 0.40), (0.50, 0.60)),
    "outside": ((1.06, 0.30), (1.06, 0.70)),
}


def die_spec(d: ScriptDie, tilt: int = 0, size: float = 1.0) -> DieSpec:
    u, v = DIE_PLACES[d.half][d.slot % 2]
    angle = (17.0 * d.value + 23.0 * d.slot + tilt) % 90.0
    if d.moving:
        return DieSpec(d.value, u - 0.04, v + 0.03, angle, "flat", motion_blur=18.0, size=size)
    return DieSpec(d.value, u, v, angle, d.pose, size=size)


#: the hand a moment with ``hand`` shows unless a scene asks for another
HAND = HandSpec(0.5, 0.78, 0.2, "bottom")


def scene_of(m: Moment, *, light_is_white: bool = True, hand: HandSpec = HAND, die_size: float = 1.0,
             **scene_kw: Any) -> Scene:
    """The Scene of moment ``m``: ``hand`` is the hand shown when the moment has one (a
    bare arm or a sleeve for real-like tables), ``die_size`` scales the dice."""
    dice = tuple(die_spec(d, size=die_size) for d in m.dice)
    return scene_from_position(m.position, light_is_white, dice=dice, hand=hand if m.hand else None, **scene_kw)


def scenes_of(moments: Iterable[Moment], *, light_is_white: bool = True, **scene_kw: Any) -> Iterator[Scene]:
    for m in moments:
        yield scene_of(m, light_is_white=light_is_white, **scene_kw)
