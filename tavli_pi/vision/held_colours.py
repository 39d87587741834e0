"""The two checker colours at a slot the learnt position filled: read against that very checker.

``lighting.slot_colours`` gives a slot the board's two checker colours scaled by the light there,
interpolated between the points' first checkers as the set-up view shows them. Where the light
changes within a stack -- the field's raised edge shades the first checker of a top-row point and
not the second -- the interpolation is wrong along the stack: on real-like table 16 (seed 0, a
low-contrast pinetti pair) point 17's first dark checker measured 102 grey levels and its second and
third 180, against a pair scaled to 165 (light) and 104 (dark) there; the two were read light, the
point 3 light at 0.44, and the board 18 light and 12 dark (B1) -- on a frame of the very position
the board was learnt from.

A slot the learnt position filled was seen at set-up holding a checker of known colour: the set-up
view there (in this frame's light: ``SetupView.gain``) is that colour's own look at that place,
whatever lies there now. The other colour's look there is the slot's other colour scaled, channel by
channel, as the held colour's own look stands to the pair's (one light falls on both), no brighter
than a pixel can be. Where the set-up view there is far from the held colour as lit (brightness out
of ``LIGHT_RANGE`` of it: no checker's look, a die or a hand at set-up), the pair is kept.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.lighting import LIGHT_RANGE

__all__ = ["held_pair"]

#: the brightest a channel reads (uint8 frames): a light checker's look scaled up stops there
PIXEL_MAX = 255.0


def held_pair(light: np.ndarray | tuple[float, float, float], dark: np.ndarray | tuple[float, float, float],
              blur: np.ndarray | float, learnt: np.ndarray, held: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The light and dark checker's colours at each slot ((C, K, 3) float32) and their ``blur``
    ((C, K), ``checkers.p_light``'s), from the pair as lit there (``lighting.slot_colours``:
    ``light``, ``dark`` (C, K, 3) or one BGR each, ``blur`` (C, K) or one for all), the set-up
    view's colour at each slot in this frame's light (``learnt``, (C, K, 3)) and the colour the
    learnt position put in each slot (``held`` (C, K): +1 light, -1 dark, 0 none). A held slot
    whose set-up look is its colour's takes that look, the other colour scaled as it stands to the
    pair; the blur stays (the other colour's look there is inferred by the same light, not seen)."""
    shape = learnt.shape
    lt = np.broadcast_to(np.asarray(light, np.float32), shape).astype(np.float32)
    dk = np.broadcast_to(np.asarray(dark, np.float32), shape).astype(np.float32)
    bl = np.broadcast_to(np.asarray(blur, np.float32), shape[:-1]).astype(np.float32)
    is_light = (held > 0)[..., None]
    own = np.where(is_light, lt, dk)
    other = np.where(is_light, dk, lt)
    share = learnt.mean(axis=-1) / np.maximum(own.mean(axis=-1), 1.0)
    use = (held != 0) & (share >= LIGHT_RANGE[0]) & (share <= LIGHT_RANGE[1])
    scale = np.clip(learnt / np.maximum(own, 1.0), LIGHT_RANGE[0], LIGHT_RANGE[1])
    other_here = np.minimum(other * scale, PIXEL_MAX)
    mine = use[..., None]
    new_lt = np.where(mine, np.where(is_light, learnt, other_here), lt).astype(np.float32)
    new_dk = np.where(mine, np.where(is_light, other_here, learnt), dk).astype(np.float32)
    return new_lt, new_dk, bl
