"""Lettering is not a die (issue 9): in a single photo (no background learnt) an upside-down
printed "B" -- two holes in a yellow body -- was read as a two at 0.91; a two's pips lie on
its body's diagonal, the letter's do not (``dice_face.TURNED``)."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.datasets import reallike_scenes
from tavli_pi.sim.render import render
from tavli_pi.vision.calibrate import calibrate_image
from tavli_pi.vision.reader import BoardReader


def test_an_upside_down_printed_b_is_not_a_sure_two() -> None:
    scene = reallike_scenes(54, 0)[53]  # "CLUB" upside down on a rosewood field
    assert any(p.text == "CLUB" for p in scene.build.prints)
    r = render(scene, 53)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in r.truth.corners)
    cal = calibrate_image(r.image, corners, r.truth.home)  # as ``read --corners --home`` calibrates one photo
    obs = BoardReader(cal).read(r.image)
    b = (413, 322)  # the B of CLUB in the picture
    near = [d for d in obs.dice if np.hypot(d.xy[0] - b[0], d.xy[1] - b[1]) < 15]
    assert near, "the letter is still found (a candidate), so the test can tell its confidence"
    assert all(d.value_confidence < 0.9 for d in near)
