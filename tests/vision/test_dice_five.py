"""A small five read by its own proof (``vision.dice_five``): a pip at the centre and all four corners, none
at the side middles nor on the body's rim, better than any other face's places show."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_scenes
from tavli_pi.sim.render import TruthDie, render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import CLEAR
from tavli_pi.vision.dice_five import FIVE_CONFIDENCE, face_crop_at, five_shown, is_five, small_fives
from tavli_pi.vision.dice_vet import NEED_PX
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.reader import BoardReader

_FACES = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)], 6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
}


def _scene(value: int, side: float, angle: float, dark_die: bool, at: tuple[float, float] = (30.3, 29.6)) -> np.ndarray:
    """A die of ``side`` px turned by ``angle`` on a plain board, drawn 8 times finer and shrunk (pips a
    fifth of the side across, a quarter of it apart), softened as a small camera's: BGR, 60 px square."""
    k = 8
    big = np.full((60 * k, 60 * k, 3), (150, 180, 200) if dark_die else (60, 90, 70), np.uint8)
    body, pip = ((40, 40, 45), (235, 235, 235)) if dark_die else ((235, 235, 230), (30, 30, 30))
    c = np.asarray(at) * k
    t = np.deg2rad(angle)
    rot = np.asarray([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    h = side * k / 2
    corners = np.asarray([[-h, -h], [h, -h], [h, h], [-h, h]]) @ rot.T + c
    cv2.fillConvexPoly(big, np.round(corners).astype(np.int32), body)
    for r, col in _FACES[value]:
        p = np.asarray([col, r]) * 0.25 * side * k @ rot.T + c
        cv2.circle(big, (int(round(p[0])), int(round(p[1]))), int(round(0.1 * side * k)), pip, -1)
    small = cv2.resize(big, (60, 60), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), 0.5)


def _die(value: int, conf: float, size: float, xy: tuple[float, float] = (30.3, 29.6), **kw: bool) -> DieReading:
    return DieReading(xy=xy, value=value, value_confidence=conf, flat=True, on_checker=False, half="right",
                      note="" if value else f"too small to read ({int(size)} px, need 12)", size_px=size, **kw)


@pytest.mark.parametrize("dark_die", [True, False])
@pytest.mark.parametrize("angle", [0.0, 17.0, 40.0])
@pytest.mark.parametrize("side", [9.0, 10.5])
def test_a_small_five_shows_a_five_and_no_other_face_does(dark_die: bool, angle: float, side: float) -> None:
    """9-10.5 px dice of every face, dark with light pips and light with dark, turned: the five shows its
    proof at its place (the side the reader measured, a little larger than its face), no other face does."""
    for value in range(1, 7):
        crop = face_crop_at(_scene(value, side, angle, dark_die), (30.3, 29.6), side * 1.15)
        r = five_shown(crop)
        assert is_five(r) == (value == 5), (value, r)


def test_a_face_with_no_contrast_shows_no_five() -> None:
    assert not is_five(five_shown(np.full((48, 48), 128, np.uint8)))


def test_small_fives_reads_an_unread_five_and_a_five_read_two_unsurely_and_nothing_else() -> None:
    image = _scene(5, 9.5, 20.0, True)
    got = small_fives([_die(0, 0.0, 10.5)], image)
    assert got[0].value == 5 and got[0].value_confidence == FIVE_CONFIDENCE < 0.9 and got[0].note == ""
    assert small_fives([_die(2, 0.89, 10.5)], image)[0].value == 5  # a five whose two corners were lost
    # a value read surely, a three (no five lost its pips to a three), a die too large, moving, cocked: left
    for d in (_die(2, 0.92, 10.5), _die(3, 0.6, 10.5), _die(0, 0.0, 12.5), _die(0, 0.0, 10.5, moving=True)):
        assert small_fives([d], image) == [d]
    cocked = DieReading(xy=(30.3, 29.6), value=0, value_confidence=0.0, flat=False, on_checker=False,
                        half="right", size_px=10.5)
    assert small_fives([cocked], image) == [cocked]
    for value in (1, 2, 3, 4, 6):
        d = _die(0, 0.0, 10.5)
        assert small_fives([d], _scene(value, 9.5, 20.0, True)) == [d], value


@lru_cache(maxsize=4)
def _reallike(i: int) -> tuple[np.ndarray, Calibration, tuple[TruthDie, ...]]:
    """Real-like scene ``i`` (seed 0, as ``test_dice_small`` draws them): its frame, calibration, true dice."""
    scene = reallike_scenes(i + 1, 0)[i]
    r = render(scene, i)
    return r.image, Calibration(r.truth.corners, home=scene.home), r.truth.dice


def _read_at(dice: Sequence[DieReading], xy: tuple[float, float]) -> DieReading:
    """The reading nearest ``xy`` (image px), within a die's side of it."""
    d = min(dice, key=lambda d: float(np.hypot(d.xy[0] - xy[0], d.xy[1] - xy[1])))
    assert np.hypot(d.xy[0] - xy[0], d.xy[1] - xy[1]) < 8.0, (d, xy)
    return d


def test_a_stream_reads_a_small_five_the_search_left_unread_a_photo_does_not() -> None:
    """Scene 21 (640x360): an 8 px five, still and flat, the search finds (measured 9 px) and leaves unread
    (too small for ``dice_vet``): a stream's reader gives it 5 at ``FIVE_CONFIDENCE`` (its face's own proof,
    wired after ``small_faces``), a still photo's reader leaves it unread (the proof is a stream's only)."""
    image, cal, truth = _reallike(21)
    five = truth[1]
    assert five.value == 5 and five.flat and not five.moving and five.size_px < 8.5
    got = _read_at(BoardReader(cal).read(image).dice, five.xy)
    assert (got.value, got.value_confidence, got.note) == (5, FIVE_CONFIDENCE, "")
    photo = _read_at(BoardReader(cal, still_photo=True).read(image).dice, five.xy)
    assert photo.size_px and photo.value != 5  # found, and not called a five


@pytest.mark.parametrize("i", [41, 110])
def test_a_stream_leaves_a_small_four_read_unsurely_a_four(i: int) -> None:
    """Scenes 41 and 110 (640x360): a 10-11 px four the search reads 4 under ``dice.CLEAR`` -- a face
    ``small_fives`` looks at (a five may lose its centre pip) -- is left a four: no centre pip shows."""
    image, cal, truth = _reallike(i)
    four = next(t for t in truth if t.value == 4 and not t.moving)
    got = _read_at(BoardReader(cal).read(image).dice, four.xy)
    assert got.flat and not got.moving and got.lie_seen and got.size_px < NEED_PX  # (small_fives looks at it)
    assert got.value == 4 and got.value_confidence < CLEAR


def test_a_five_measured_too_large_is_read_at_the_tables_die_size() -> None:
    """A 9 px five the search measured 11.5 px (its shadow or the board beside it taken in) shows no five at
    that side; at the side the table's dice show (``table_px``, learnt from the stream) it does. A table
    size not learnt (0) or not a small die's (12.5 px) is not tried, and no other face shows a five at it."""
    image = _scene(5, 9.0, 20.0, True)
    d = _die(0, 0.0, 11.5)
    assert small_fives([d], image) == [d]
    got = small_fives([d], image, table_px=10.0)[0]
    assert (got.value, got.value_confidence) == (5, FIVE_CONFIDENCE)
    assert small_fives([d], image, table_px=0.0) == [d]
    assert small_fives([d], image, table_px=12.5) == [d]
    for value in (1, 2, 3, 4, 6):
        assert small_fives([d], _scene(value, 9.0, 20.0, True), table_px=10.0) == [d], value


@lru_cache(maxsize=1)
def _game_frame(game: int, at: int) -> tuple[np.ndarray, Calibration, tuple[TruthDie, ...]]:
    """Frame ``at`` of real-like game ``game`` (``bench_reallike``'s table, script and camera), the board
    learnt from its set-up frame (frame 2), as ``_readers.game_frame``: (image, calibration, true dice)."""
    from bench.bench_reallike import game_camera, game_plans, game_script
    from tavli_pi.vision.setup import learn_board

    kw, plant = game_plans(200, 0, 8)[game]
    cam = game_camera(game_script(game, 0, 8, plant), kw, game, 0)
    cal: Calibration | None = None
    with cam:
        for f in cam:
            t = cam.last_truth
            assert t is not None
            if f.index == 2:
                cal = learn_board(f.image, Calibration(t.corners, home=t.home))  # type: ignore[arg-type]
            if f.index == at and cal is not None:
                return f.image, cal, t.dice
    raise AssertionError(f"game {game} has no frame {at} after its set-up frame")


@pytest.mark.parametrize("table", [0.0, 8.7])
def test_a_stream_reads_a_five_measured_too_large_at_its_tables_die_size(table: float,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Real-like game 189 (navy, 640 px), frame 12: a 9.2 px five the search measures 10.9 px and leaves
    unread shows no five at that side. Where the stream has learnt its table's dice show 8.7 px (as that
    game's stream had by then) it is read 5 at ``FIVE_CONFIDENCE``; with no size learnt it stays unread."""
    image, cal, truth = _game_frame(189, 12)
    monkeypatch.setattr(BoardReader, "table_die_px", property(lambda self: table))
    five = next(t for t in truth if t.value == 5 and abs(t.size_px - 9.2) < 0.1)
    got = _read_at(BoardReader(cal).read(image).dice, five.xy)
    assert got.size_px > 10.5
    assert (got.value, got.value_confidence) == ((5, FIVE_CONFIDENCE) if table else (0, 0.0))
