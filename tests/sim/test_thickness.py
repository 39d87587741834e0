"""Thick checkers (``Build.thickness``): short cylinders seen from the scene's camera (issue 9, item 6).

A camera leaning over the board sees each checker's top face moved away from it by the parallax of
the checker's height and the side band facing it; a nearer checker hides what stands behind it.
A third of the real-like tables are drawn so, from a stream of their own: every other table is
drawn as before.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tavli_pi.errors import ConfigError
from tavli_pi.sim import _layout as L
from tavli_pi.sim import _draw, datasets
from tavli_pi.sim._boards import DESIGNS
from tavli_pi.sim.render import Rendered, _thick_checkers, render
from tavli_pi.sim.scene import Build, CameraPose, CubeSpec, Scene

# the camera leans over the light player's (bottom) edge: the top edge is the far one
POSE = CameraPose(tilt_deg=30.0, height=1.1)


def _scene(dark: dict[int, int], light: dict[int, int] | None = None, thickness: float = 0.25) -> Scene:
    lt = tuple((light or {}).get(p, 0) for p in range(1, 25))
    dk = tuple(dark.get(p, 0) for p in range(1, 25))
    return Scene(light=lt, dark=dk, cube=CubeSpec(1, "none"), pose=POSE, build=Build(thickness=thickness))


def _canon(r: Rendered) -> np.ndarray:
    """The rendered image warped back onto the canonical board."""
    assert r.truth.homography is not None and r.truth.layout is not None
    return cv2.warpPerspective(r.image, np.linalg.inv(r.truth.homography), (r.truth.layout.width, r.truth.layout.height))


def _extent(canon: np.ndarray, empty: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """The top and bottom (canonical y, in radii) of what a checker at (x, y) changes on the empty board,
    down its middle."""
    x0, x1, y0 = int(x - 0.3 * L.R), int(x + 0.3 * L.R), int(y - 2 * L.R)
    diff = np.abs(canon[y0 : y0 + 4 * L.R, x0:x1].astype(np.int32) - empty[y0 : y0 + 4 * L.R, x0:x1]).max(axis=2)
    rows = np.nonzero((diff > 30).any(axis=1))[0]
    return (float(rows.min()) + y0) / L.R, (float(rows.max()) + y0) / L.R


def test_a_thick_checker_shows_its_top_face_moved_away_from_the_camera_and_its_side_band() -> None:
    d = DESIGNS["tournament"]
    lay = L.layout("bottom-right", "home", L.BAR)
    (xt, yt), (xb, yb) = lay.stack(19, 1)[0], lay.stack(5, 1)[0]  # a far-edge and a near-edge checker (red points)
    empty = _canon(render(_scene({}), 0)).astype(np.int32)
    thick, flat = (_canon(render(_scene({19: 1, 5: 1}, thickness=t), 0)) for t in (0.25, 0.0))
    moved = []
    for x, y in ((xt, yt), (xb, yb)):
        (top_t, foot_t), (top_f, foot_f) = _extent(thick, empty, x, y), _extent(flat, empty, x, y)
        assert abs(foot_t - foot_f) < 0.1  # it stands where a flat checker lies
        moved.append(top_t - top_f)
    # the camera leans over the bottom edge: both faces move up the board, away from it; the far edge's
    # (towards its base) by more, being farther from the camera's foot
    assert moved[0] < -0.25 and -0.25 < moved[1] < -0.05, moved
    # the side band, the body's colour shaded, shows between the face and the camera (below it), not above
    lt = _canon(render(_scene({}, {19: 1, 5: 1}), 0)), _canon(render(_scene({}, {19: 1, 5: 1}, thickness=0.0), 0))
    shades = [np.array(_draw._mix(d.light_body, (0, 0, 0), k)) for k in _draw.SIDE_SHADE]

    def band_px(img: np.ndarray, x: float, y0: float, y1: float) -> int:
        win = img[int(y0) : int(y1), int(x - 0.5 * L.R) : int(x + 0.5 * L.R)].astype(np.int32)
        return int(sum((np.abs(win - c).max(axis=2) < 8).sum() for c in shades))

    got = [(band_px(lt[0], x, y, y + 1.2 * L.R), band_px(lt[1], x, y, y + 1.2 * L.R), band_px(lt[0], x, y - 1.2 * L.R, y))
           for x, y in ((xt, yt), (xb, yb))]
    (below_t, below_f, above_t), (near_t, near_f, _) = got
    assert below_t > 4 * max(below_f, above_t, 10), got  # the far edge's checker, its face moved most
    assert near_t > 2 * near_f, got


def test_a_nearer_checker_hides_the_one_behind_it_whatever_order_they_come_in() -> None:
    # point 20 (far edge) with two checkers: its base checker is the farther from the camera
    lay = L.layout("bottom-right", "home", L.BAR)
    scene = _scene({20: 2})
    (x0, y0), (x1, y1) = lay.stack(20, 2)
    far, near = (x0, y0, True), (x1, y1, False)

    def drawn(standing: list[tuple[float, float, bool]]) -> np.ndarray:
        canvas = np.full((lay.height, lay.width, 3), 90, np.uint8)
        _thick_checkers(canvas, [[c] for c in standing], scene, lay, DESIGNS["tournament"])
        return canvas.astype(np.int32)

    empty, near_only, far_only = drawn([]), drawn([near]), drawn([far])
    inside = cv2.erode((np.abs(near_only - empty).max(axis=2) > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    behind = inside & (np.abs(far_only - empty).max(axis=2) > 0)
    assert behind.sum() > 20  # the far checker's face reaches in behind the near one's side band
    for order in ([far, near], [near, far]):
        assert np.array_equal(drawn(order)[behind], near_only[behind])  # and is hidden there


def test_a_squeezed_stack_lies_shingled_from_its_base_as_on_the_flat_board() -> None:
    # a near-edge stack of 7: its checkers overlap, each lying over the one before it from the base
    # (as the flat board draws it), though the one before stands nearer the camera
    lay = L.layout("bottom-right", "home", L.BAR)
    scene = _scene({5: 7})
    stack = [(x, y, k < 3) for k, (x, y) in enumerate(lay.stack(5, 7))]

    def drawn(stacks: list[list[tuple[float, float, bool]]]) -> np.ndarray:
        canvas = np.full((lay.height, lay.width, 3), 90, np.uint8)
        _thick_checkers(canvas, stacks, scene, lay, DESIGNS["tournament"])
        return canvas.astype(np.int32)

    def changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.abs(a - b).max(axis=2) > 0

    empty = drawn([])
    shadow = empty.astype(np.uint8)
    _draw.checker_shadow(shadow, *stack[3][:2])
    # checker 3's own pixels (not its shadow), where checker 2 lies too and no later checker does
    upper = drawn([[stack[3]]])
    own = cv2.erode((changed(upper, empty) & changed(upper, shadow.astype(np.int32))).astype(np.uint8),
                    np.ones((3, 3), np.uint8)) > 0
    later = changed(drawn([stack[4:]]), empty)
    both = own & changed(drawn([[stack[2]]]), empty) & ~later
    assert both.sum() > 50
    assert np.abs(drawn([stack]) - upper).max(axis=2)[both].max() <= 16  # (anti-aliased edges blend a little)


def test_a_thickness_beyond_half_a_diameter_is_refused() -> None:
    with pytest.raises(ConfigError, match="thickness"):
        Build(thickness=0.6)


def test_a_third_of_real_like_tables_are_thick_and_every_other_table_is_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    def scenes() -> list[Scene]:
        tables = [{k: v for k, v in kw.items() if k != "die_size"} for kw in datasets.reallike_game_tables(60, 0)]
        return datasets.reallike_scenes(60, 0) + [Scene(light=(0,) * 24, dark=(0,) * 24, **kw) for kw in tables]

    thick = scenes()
    monkeypatch.setattr(datasets, "THICK_SHARE", 0.0)
    flat = scenes()
    n = 0
    for a, b in zip(thick, flat):
        assert b.build.thickness == 0.0
        if a.build.thickness == 0.0:
            assert a == b  # the same scene, so the same pixels
        else:
            n += 1
            assert datasets.THICKNESS[0] <= a.build.thickness <= datasets.THICKNESS[1]
            assert dataclasses.replace(a, build=dataclasses.replace(a.build, thickness=0.0)) == b
    assert 0.2 * len(thick) < n < 0.5 * len(thick)
