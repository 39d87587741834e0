"""The real-like simulator (issue 9): each new feature draws what its ground truth says.

Bar widths, tray designs (home, away, both, none; linings), dice cups, printed
lettering and logos, broadcast bands and lamp shadows, 640x360 frames, metal and
pearl checkers, arms and sleeves, small dice; and the real-like set built from them
(deterministic by seed, complete ground truth).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tavli_pi.errors import ConfigError
from tavli_pi.rules.position import Position
from tavli_pi.sim import _layout as L
from tavli_pi.sim._boards import DESIGNS, empty_board
from tavli_pi.sim.camera import open_sim_camera
from tavli_pi.sim.datasets import (
    SMALL_DIE_PX,
    reallike_game_tables,
    reallike_scenes,
    reallike_set,
    reallike_setup,
)
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import (
    ALL_BOARDS,
    BOARDS,
    REAL_BOARDS,
    Build,
    DieSpec,
    HandSpec,
    Look,
    Overlay,
    Print,
    Prop,
    Scene,
    scene_from_position,
)
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scene_of
from tests.sim.helpers import canon_to_image

EMPTY = (0,) * 24


def _empty(**kw: object) -> Scene:
    kw.setdefault("cube", None)
    return Scene(light=EMPTY, dark=EMPTY, **kw)  # type: ignore[arg-type]


def _grey(img: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))


# -- the existing designs are untouched ---------------------------------------------------

@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("trays", ["home", "away"])
def test_the_default_build_draws_the_board_as_before(board: str, trays: str) -> None:
    """The old call (no build) and the default Build draw the same pixels, so the easy,
    hard and demo sets (which never set a build) render as they always did."""
    for home in ("bottom-right", "bottom-left"):
        assert np.array_equal(empty_board(board, home, trays), empty_board(board, home, trays, Build()))
    assert L.layout("bottom-right", trays) == L.layout("bottom-right", trays, L.BAR)
    assert L.layout("bottom-right").fw == L.FW


def test_new_designs_are_not_in_the_old_sets_list() -> None:
    assert BOARDS == ("tournament", "wood", "green")  # the hard set draws designs from this
    assert set(REAL_BOARDS) <= set(DESIGNS) and set(ALL_BOARDS) == set(DESIGNS)


# -- bar widths ------------------------------------------------------------------------

@pytest.mark.parametrize("bar", [28, 44, 120, 200])
def test_bar_width_moves_the_points_consistently(bar: int) -> None:
    lay = L.layout("bottom-right", "home", bar)
    assert lay.fw == 12 * L.PW + bar
    # within a half the points keep their pitch; across the bar the gap is the bar
    xs = [lay.point_x(p) for p in range(13, 25)]  # columns 0..11 left to right
    gaps = np.diff(xs)
    assert np.allclose(np.delete(gaps, 5), L.PW) and gaps[5] == pytest.approx(L.PW + bar)
    assert lay.bar_x[1] - lay.bar_x[0] == bar
    bu = lay.bar_u
    assert lay.uv_to_px(bu[0], 0)[0] == pytest.approx(lay.bar_x[0])
    assert lay.uv_to_px(bu[1], 0)[0] == pytest.approx(lay.bar_x[1])
    # drawn: checkers on both points beside the bar, bar colour between them
    light = [0] * 24
    light[6], light[5] = 2, 2  # points 7 and 6: either side of the bar (home bottom-right)
    r = render(Scene(light=tuple(light), dark=EMPTY, off=(11, 15), cube=None, build=Build(bar=bar)), 1)
    assert r.truth.bar_u == pytest.approx(bu) and r.truth.layout == lay
    g = _grey(r.image)
    for p in (6, 7):
        x, y = lay.stack(p, 1)[0]
        gx, gy = canon_to_image(r.truth, x, y)
        assert g[gy, gx] > 200, (p, bar)  # a white checker where the truth says
    bx, by = canon_to_image(r.truth, sum(lay.bar_x) / 2, lay.fy0 + L.FH * 0.65)
    assert g[by, bx] < 60  # the black bar
    # the field's corners in the image are as wide as the field with this bar
    c = r.truth.corners
    assert np.linalg.norm(c[1] - c[0]) / np.linalg.norm(c[3] - c[0]) == pytest.approx(lay.fw / L.FH, rel=0.02)


def test_build_rejects_an_impossible_bar() -> None:
    with pytest.raises(ConfigError, match="bar width"):
        Build(bar=5)


# -- tray designs -------------------------------------------------------------------------

@pytest.mark.parametrize("home", ["bottom-right", "bottom-left"])
def test_trays_on_both_sides(home: str) -> None:
    lay = L.layout(home, "both")
    assert lay.tray2_x0 is not None and len(lay.tray_columns) == 2
    assert (lay.tray_x0 > lay.fx0) == (home == "bottom-right")  # checkers go to the home side
    assert (lay.tray2_x0 > lay.fx0) != (lay.tray_x0 > lay.fx0)
    r = render(_empty(home=home, trays="both", off=(4, 0)), 0)
    g = _grey(r.image)
    for x, y in lay.tray_stripes(True, 4):
        gx, gy = canon_to_image(r.truth, x, y)
        assert g[gy, gx] > 180
    # the other column is a bare tray (the tournament tray's dark wood)
    x0, y0, x1, y1 = lay.tray_box(True)
    gx, gy = canon_to_image(r.truth, (x0 + x1) / 2 + lay.tray2_x0 - lay.tray_x0, y1 - 10)
    assert g[gy, gx] < 80


def test_no_trays_piles_the_borne_off_checkers_on_the_table() -> None:
    lay = L.layout("bottom-right", "none")
    assert lay.tray_columns == ()
    bx0, by0, bx1, by1 = lay.board_rect
    assert lay.tray_x0 > bx1  # beyond the frame, on the table
    r = render(_empty(trays="none", off=(3, 2), look=Look(board="wood")), 0)
    d = DESIGNS["wood"]
    for light, n in ((True, 3), (False, 2)):
        body = np.array(d.light_body if light else d.dark_body, float)
        for x, y in lay.table_pile(light, n):
            gx, gy = canon_to_image(r.truth, x, y)
            assert np.abs(r.image[gy, gx].astype(float) - body).max() < 30
    assert r.truth.off == (3, 2) and r.truth.trays == "none"


def test_tray_lining_fills_the_trays() -> None:
    lined = empty_board("tournament", "bottom-right", "home", Build(insert=(240, 240, 240)))
    lay = L.layout("bottom-right")
    x0, y0, x1, y1 = lay.tray_box(False)
    assert lined[(y0 + y1) // 2, (x0 + x1) // 2].min() == 240
    assert empty_board("tournament", "bottom-right")[(y0 + y1) // 2, (x0 + x1) // 2].max() < 80


# -- props: dice cups and the rest ----------------------------------------------------------

def test_a_cup_on_the_field_is_drawn_where_the_truth_says_and_is_no_die() -> None:
    cup = Prop("cup", 0.25, 0.5, 1.0, (30, 50, 90))
    r = render(_empty(props=(cup,)), 0)
    plain = render(_empty(), 0)
    assert r.truth.dice == () and len(r.truth.props) == 1
    t = r.truth.props[0]
    assert t.kind == "cup" and t.where == "field"
    x, y = (int(round(v)) for v in t.xy)
    diff = cv2.absdiff(plain.image, r.image).max(axis=2)
    assert diff[y - 5 : y + 5, x - 5 : x + 5].min() > 40  # the cup is there
    ys, xs = np.nonzero(diff > 30)
    far = np.hypot(xs - t.xy[0], ys - t.xy[1]) > t.radius_px + 12  # (its shadow reaches a little further)
    assert not far.any()  # nothing else changed


@pytest.mark.parametrize("seed", [0, 1])
def test_cups_in_the_set_cover_no_checker_or_die(seed: int) -> None:
    scenes = [s for s in reallike_scenes(60, seed) if any(p.kind == "cup" and 0 <= p.u <= 1 and 0 <= p.v <= 1
                                                          for p in s.props)]
    assert len(scenes) >= 5
    for s in scenes:
        lay = L.layout(s.home, s.trays, s.build.bar)
        discs = [(x, y, float(L.R)) for p in range(1, 25) for x, y in lay.stack(p, s.light[p - 1] + s.dark[p - 1])]
        discs += [(x, y, float(L.R)) for light, n in ((True, s.bar[0]), (False, s.bar[1]))
                  for x, y in lay.bar_stack(light, n)]
        discs += [(*lay.uv_to_px(d.u, d.v), L.DIE * d.size * 0.75) for d in s.dice]
        for p in s.props:
            if p.kind != "cup" or not (0 <= p.u <= 1 and 0 <= p.v <= 1):
                continue
            cx, cy = lay.uv_to_px(p.u, p.v)
            r = 1.5 * L.R * p.size
            assert all(np.hypot(cx - x, cy - y) >= r + rr for x, y, rr in discs)


def test_props_in_trays_and_on_the_table_say_where_they_are() -> None:
    lay = L.layout("bottom-right", "both")
    assert lay.tray2_x0 is not None
    x0, y0, x1, y1 = lay.tray_box(True)
    u, v = lay.px_to_uv((x0 + x1) / 2 + lay.tray2_x0 - lay.tray_x0, (y0 + y1) / 2)
    r = render(_empty(trays="both", props=(Prop("cup", u, v, 0.9), Prop("clock", 0.5, 1.16))), 0)
    assert [(p.kind, p.where) for p in r.truth.props] == [("cup", "tray"), ("clock", "table")]
    assert r.truth.dice == ()


# -- prints: lettering and logos ------------------------------------------------------------

def test_lettering_and_logos_are_drawn_and_never_dice() -> None:
    prints = (Print("logo", 0.25, 0.5, size=0.12), Print("text", 0.75, 0.5, "BACKGAMMON", 0.05, (60, 170, 214)))
    r = render(_empty(build=Build(prints=prints)), 0)
    plain = render(_empty(), 0)
    assert r.truth.dice == () and [p.kind for p in r.truth.prints] == ["logo", "text"]
    diff = cv2.absdiff(plain.image, r.image).max(axis=2) > 25
    for p in r.truth.prints:
        x0, y0, x1, y1 = (int(round(v)) for v in p.box)
        inside = diff[y0:y1 + 1, x0:x1 + 1]
        assert inside.mean() > 0.03  # ink within the box
        diff[max(y0 - 2, 0):y1 + 3, max(x0 - 2, 0):x1 + 3] = False
    assert not diff.any()  # and nowhere else


def test_print_validation() -> None:
    with pytest.raises(ConfigError, match="text"):
        Print("text", 0.5, 0.5)
    with pytest.raises(ConfigError, match="print kind"):
        Print("sticker", 0.5, 0.5, "A")  # type: ignore[arg-type]


# -- overlays: broadcast bands and lamp shadows ----------------------------------------------

def test_band_and_shadow_change_only_their_box() -> None:
    base = scene_from_position(Position.start())
    plain = render(base, 0)
    band = Overlay("band", (0.1, 0.4, 0.7, 0.5), 0.5, (20, 20, 20), "WORLD TEAM CHAMPIONSHIPS")
    r = render(dataclasses.replace(base, overlays=(band,)), 0)
    assert r.truth.overlays == ("band",) and r.truth.light == plain.truth.light and r.truth.dice == ()
    diff = cv2.absdiff(plain.image, r.image).max(axis=2) > 2
    ys, xs = np.nonzero(diff)
    assert xs.min() >= 0.1 * 1280 - 1 and xs.max() <= 0.7 * 1280 and ys.min() >= 0.4 * 720 - 1 and ys.max() <= 0.5 * 720
    # semi-transparent: the board still shows through the band (not a solid fill)
    roi = r.image[int(0.41 * 720):int(0.49 * 720), 140:890].reshape(-1, 3).astype(float)
    assert roi.std(axis=0).max() > 20
    shadow = Overlay("shadow", (0.2, 0.2, 0.6, 0.8), 0.4)
    s = render(dataclasses.replace(base, overlays=(shadow,)), 0)
    g0, g1 = _grey(plain.image).astype(float), _grey(s.image).astype(float)
    assert g1[300:420, 400:500].mean() < 0.75 * g0[300:420, 400:500].mean()
    assert np.array_equal(g1[:, 1000:], g0[:, 1000:])


def test_overlay_validation() -> None:
    with pytest.raises(ConfigError, match="alpha"):
        Overlay("band", (0, 0, 1, 0.1), 1.5)


# -- checkers: metal rims and low-contrast pearl ---------------------------------------------

def _body(board: str, light: bool) -> float:
    pts = [0] * 24
    pts[5] = 1
    s = Scene(light=tuple(pts) if light else EMPTY, dark=EMPTY if light else tuple(pts), cube=None,
              look=Look(board=board))
    r = render(s, 0)
    lay = L.layout("bottom-right")
    x, y = canon_to_image(r.truth, *lay.stack(6, 1)[0])
    return float(_grey(r.image)[y - 4 : y + 5, x - 4 : x + 5].mean())


def test_pearl_pair_is_low_contrast_and_the_tournament_pair_is_not() -> None:
    assert abs(_body("pinetti", True) - _body("pinetti", False)) < 80
    assert abs(_body("tournament", True) - _body("tournament", False)) > 150


def test_metal_rims_are_brighter_than_the_dark_body() -> None:
    pts = [0] * 24
    pts[5] = 1
    r = render(Scene(light=EMPTY, dark=tuple(pts), cube=None, look=Look(board="metal")), 0)
    lay = L.layout("bottom-right")
    x, y = lay.stack(6, 1)[0]
    cx, cy = canon_to_image(r.truth, x, y)
    rx, ry = canon_to_image(r.truth, x + L.R - 1.5, y)
    g = _grey(r.image)
    assert g[cy, cx] < 60 and g[ry, rx] > 150


# -- hands, arms, sleeves --------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["hand", "arm", "sleeve"])
def test_hand_kinds_cover_the_board_and_say_so(kind: str) -> None:
    sleeve = (150, 150, 152)
    base = _empty()
    r = render(dataclasses.replace(base, hand=HandSpec(0.5, 0.5, 0.2, "bottom", kind, sleeve)), 0)  # type: ignore[arg-type]
    plain = render(base, 0)
    assert r.truth.hand and r.truth.hand_kind == kind
    lay = L.layout("bottom-right")
    # along the arm, a palm width behind the wrist
    x, y = canon_to_image(r.truth, *lay.uv_to_px(0.5, 0.5 + 0.2 * lay.fw * 1.0 / L.FH))
    px = r.image[y, x].astype(int)
    is_sleeve = np.abs(px - np.array(sleeve)).max() < 25
    assert is_sleeve == (kind == "sleeve")
    assert (cv2.absdiff(plain.image, r.image).max(axis=2) > 30).mean() > 0.03


# -- small dice and 640x360 frames -----------------------------------------------------------

def test_small_frames_and_small_dice_have_the_size_the_truth_gives() -> None:
    die = DieSpec(5, 0.75, 0.5, 0.0, size=0.65)
    r = render(_empty(width=640, height=360, dice=(die,), look=Look(board="wood")), 0)
    plain = render(_empty(width=640, height=360, look=Look(board="wood")), 0)
    assert r.image.shape == (360, 640, 3)
    t = r.truth.dice[0]
    assert 6.0 <= t.size_px <= 12.0 and t.size_px < SMALL_DIE_PX
    c = r.truth.corners
    assert (c >= 0).all() and (c[:, 0] < 640).all() and (c[:, 1] < 360).all()
    # the drawn die (its bright top face on the wood) is about size_px across
    x, y = (int(round(v)) for v in t.xy)
    diff = (cv2.absdiff(plain.image, r.image).max(axis=2) > 40).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(diff)
    k = int(lab[y, x])
    assert k > 0
    w, h = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
    assert 0.7 * t.size_px <= max(w, h) <= 1.6 * t.size_px + 2


def test_die_size_validation() -> None:
    with pytest.raises(ConfigError, match="die size"):
        DieSpec(3, 0.5, 0.5, size=5.0)


# -- the real-like set ------------------------------------------------------------------------

def test_reallike_set_is_deterministic_by_seed() -> None:
    a, b = reallike_scenes(12, 3), reallike_scenes(12, 3)
    assert a == b and a != reallike_scenes(12, 4)
    r1, r2 = reallike_set(2, 3), reallike_set(2, 3)
    for x, y in zip(r1, r2):
        assert np.array_equal(x.image, y.image)
        assert x.truth.dice == y.truth.dice and x.truth.props == y.truth.props


def test_reallike_set_covers_the_real_variety_with_complete_truth() -> None:
    scenes = reallike_scenes(80, 0)
    assert {s.trays for s in scenes} == set(L.TRAY_SIDES)
    assert {(s.width, s.height) for s in scenes} == {(640, 360), (1280, 720)}
    bars = [s.build.bar for s in scenes]
    assert min(bars) < 40 and max(bars) > 130
    assert {s.look.board for s in scenes} >= set(REAL_BOARDS)
    assert any(abs(s.pose.rotation_deg) > 90 for s in scenes)  # light player at the top
    assert {s.hand.kind for s in scenes if s.hand is not None} == {"hand", "arm", "sleeve"}
    assert any(s.build.insert is not None for s in scenes)
    assert any(p.kind == "logo" for s in scenes for p in s.build.prints)
    assert {o.kind for s in scenes for o in s.overlays} == {"band", "shadow", "panel"}
    assert any(p.kind == "cup" and 0 <= p.u <= 1 and 0 <= p.v <= 1 for s in scenes for p in s.props)
    sizes = [d.size for s in scenes for d in s.dice]
    assert min(sizes) < 0.65 and max(sizes) > 0.9
    assert any(s.totals() == (0, 0) for s in scenes)  # an empty board now and then
    for s in scenes:
        assert s.totals() in ((15, 15), (0, 0))
        assert not any(a and b for a, b in zip(s.light, s.dark))


def test_reallike_truth_has_dice_sizes_and_small_dice_in_small_frames() -> None:
    rs = reallike_set(16, 1)
    small = [d for r in rs for d in r.truth.dice if r.truth.size == (640, 360)]
    assert all(d.size_px > 0 for r in rs for d in r.truth.dice)
    assert small and min(d.size_px for d in small) < 12.0
    for r in rs:
        assert r.image.shape[1::-1] == r.truth.size
        assert r.truth.layout is not None
        corners = r.truth.to_image(list(r.truth.layout.field_corners))
        assert np.allclose(corners, r.truth.corners, atol=1e-3)
        assert r.truth.layout is not None and r.truth.layout.bar == r.truth.layout.fw - 12 * L.PW
        assert len(r.truth.light) == 24 and sum(r.truth.light) + r.truth.bar[0] + r.truth.off[0] in (0, 15)


def test_reallike_setup_is_the_same_table_at_the_start() -> None:
    for s in reallike_scenes(10, 2):
        st = reallike_setup(s)
        start = scene_from_position(Position.start())
        assert (st.light, st.dark, st.bar, st.off) == (start.light, start.dark, (0, 0), (0, 0))
        assert st.dice == () and st.hand is None
        assert (st.build, st.trays, st.pose, st.look, st.width, st.overlays) == (
            s.build, s.trays, s.pose, s.look, s.width, s.overlays)
        assert all(not (0 <= p.u <= 1 and 0 <= p.v <= 1) for p in st.props)


def test_game_tables_play_a_script() -> None:
    tables = reallike_game_tables(4, 0)
    moments = random_game(3, turns=2)
    for kw in tables:
        assert all(not (0 <= p.u <= 1 and 0 <= p.v <= 1) for p in kw["props"])
        hand = next(m for m in moments if m.hand)
        s = scene_of(hand, **kw)
        assert s.hand is not None and s.hand.kind == kw["hand"].kind
        rolled = next(m for m in moments if m.dice and not any(d.moving for d in m.dice))
        assert all(d.size == kw["die_size"] for d in scene_of(rolled, **kw).dice)
    r = render(scene_of(moments[1], **tables[0]), 0)
    assert r.truth.light == scene_from_position(Position.start()).light


def test_sim_camera_plays_the_reallike_set() -> None:
    cam = open_sim_camera("reallike:2", seed=5)
    with cam:
        frames = list(cam)
        truth = cam.last_truth
    assert len(frames) == 2 and truth is not None
    assert frames[-1].image.shape[1::-1] == truth.size


def test_broadcast_panels_hide_nothing_on_the_board() -> None:
    """An opaque panel (with die-like logos) lies on the table beside the board, never over it."""
    scenes = [s for s in reallike_scenes(40, 0) if any(o.kind == "panel" for o in s.overlays)]
    assert scenes
    s = dataclasses.replace(scenes[0], look=Look(board=scenes[0].look.board))  # no blur or JPEG to spread it
    r = render(s, 0)
    plain = render(dataclasses.replace(s, overlays=tuple(o for o in s.overlays if o.kind != "panel")), 0)
    panel = next(o for o in s.overlays if o.kind == "panel")
    w, h = s.width, s.height
    x0, y0, x1, y1 = panel.box[0] * w, panel.box[1] * h, panel.box[2] * w, panel.box[3] * h
    ys, xs = np.nonzero(cv2.absdiff(plain.image, r.image).max(axis=2) > 0)
    assert xs.min() >= x0 - 1 and xs.max() <= x1 + 1 and ys.min() >= y0 - 1 and ys.max() <= y1 + 1
    assert r.truth.dice == plain.truth.dice and "panel" in r.truth.overlays
    for sc in scenes:
        rr = render(sc, 0)
        assert rr.truth.layout is not None and rr.truth.homography is not None
        bx0, by0, bx1, by1 = rr.truth.layout.board_rect
        from tavli_pi.sim._pose import project

        q = project(rr.truth.homography, np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]]))
        p = next(o for o in sc.overlays if o.kind == "panel")
        assert p.box[2] * sc.width <= q[:, 0].min() or p.box[0] * sc.width >= q[:, 0].max()
