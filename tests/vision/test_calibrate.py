"""The field found in the picture, kept between the frames of a stream (``FieldMemory``):
found once while the camera and board stay put, found again when they have moved."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.sim.datasets import reallike_set
from tavli_pi.vision.calibrate import GONE_FRAMES, FieldMemory
from tavli_pi.vision.calibration import order_corners


def _frame() -> np.ndarray:
    r = next(r for r in reallike_set(5, 3) if not r.truth.hand)
    return r.image


def test_the_field_is_found_once_while_the_picture_stays_alike() -> None:
    image = _frame()
    memory = FieldMemory()
    first, source = memory.locate(image)
    assert source == "found" and memory.searches == 1
    rng = np.random.default_rng(1)
    noisy = np.clip(image.astype(np.int16) + rng.integers(-6, 7, image.shape), 0, 255).astype(np.uint8)
    h, w = image.shape[:2]
    hand = image.copy()
    hand[h // 3: h // 2, w // 3: w // 2] = (90, 140, 200)  # something over a part of the board
    for alike in (image, noisy, hand):
        corners, _ = memory.locate(alike)
        assert corners is first
    assert memory.searches == 1


def test_the_field_is_found_again_when_the_camera_moved() -> None:
    image = _frame()
    memory = FieldMemory()
    before = order_corners(memory.locate(image)[0])
    shift = image.shape[1] // 8
    moved = np.roll(image, shift, axis=1)  # the camera turned: the board is further right
    for _ in range(GONE_FRAMES - 1):
        assert memory.locate(moved)[0] is not None and memory.searches == 1  # one frame may be a hand
    after = order_corners(memory.locate(moved)[0])
    assert memory.searches == 2
    assert float(np.min(after[:, 0] - before[:, 0])) > 0.8 * shift  # looked for again: not the old field
    blank = np.full_like(image, 120)
    with pytest.raises(CalibrationError, match="^no board found"):
        for _ in range(GONE_FRAMES):
            memory.locate(blank)
    assert memory.field is None  # a field not seen any more is forgotten, never read through


def test_a_found_field_seen_from_the_dark_side_is_read_from_the_light_players_seat() -> None:
    # real-like table 1 of seed 0 (bench_video --size 1280, wood game 1): 1280 px, the camera turned
    # 180 degrees (on the dark player's side), the home side given (config table.home), the field
    # found in the picture. Read in the picture's own order, its set-up was 10 spots off the start,
    # was confirmed by the opening roll, and every turn after it waited to be judged for ever.
    from tavli_pi.sim.datasets import reallike_game_tables
    from tavli_pi.sim.render import render
    from tavli_pi.sim.script import random_game
    from tavli_pi.sim.table import scene_of
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.reader import BoardReader

    kw = reallike_game_tables(2, 0)[1]
    assert kw["width"] == 1280 and abs(kw["pose"].rotation_deg - 180.0) < 5.0
    moments = random_game(1, turns=6)
    setup = render(scene_of(moments[1], **kw))
    memory = FieldMemory()
    cal = calibrate_image(setup.image, home=kw["home"], field=memory)
    truth = np.asarray(setup.truth.corners, np.float32)
    assert cal.home == kw["home"]
    assert float(np.abs(cal.corners - truth).max()) < 0.03 * float(np.linalg.norm(truth[1] - truth[0]))
    # the stacks that tell the two seats apart (read turned: light's on 1, 12, 18 and 20) read
    # right, before the board is learnt (light's 13 is read dark until then: the wood's colours)
    light, dark = BoardReader(cal).read(setup.image).best_counts()
    assert (light[23], light[7], light[5], light[0], light[11], light[17], light[19]) == (2, 3, 5, 0, 0, 0, 0)
    assert (dark[0], dark[16], dark[18], dark[23]) == (2, 3, 5, 0)
    # a later frame (dice on the board: no start to tell the side by) keeps the side learnt
    assert getattr(memory, "turned", None) is True
    later = render(scene_of(moments[3], **kw))
    again = calibrate_image(later.image, home=kw["home"], field=memory)
    assert memory.searches == 1 and np.array_equal(again.corners, cal.corners)


def test_a_stream_of_a_game_in_progress_is_seated_by_its_play_and_keeps_the_seat() -> None:
    # a stream that starts on a game in progress (no start to learn the seat from), filmed from the
    # dark player's side: the play tells the seat (seat.seat_of), and the stream keeps it as it keeps
    # one a set-up board told (in the picture's own order the board was read turned round and every
    # roll after voided as an opening roll in one half: bench_video --from-play 6 --rolled, game 1)
    from tavli_pi.rules.position import Position
    from tavli_pi.sim.render import render
    from tavli_pi.sim.scene import CameraPose, scene_from_position
    from tavli_pi.vision.calibrate import seated

    pos = Position.from_counts({1: 8, 2: 7}, {1: 8, 2: 7})
    r = render(scene_from_position(pos, pose=CameraPose(rotation_deg=180.0)), seed=1)
    corners = order_corners(r.truth.corners)
    memory = FieldMemory()
    cal = seated(corners, r.image, "bottom-right", memory)
    truth = np.asarray(r.truth.corners, np.float32)
    assert memory.turned is True
    assert float(np.abs(cal.corners - truth).max()) < 0.03 * float(np.linalg.norm(truth[1] - truth[0]))
    again = seated(corners, r.image, "bottom-right", memory)  # the next frame: the seat kept, not read again
    assert np.array_equal(again.corners, cal.corners)


def test_of_fields_alike_the_one_that_finds_the_checkers_is_the_field(tmp_path: Path) -> None:
    # a 640 px beech board joined mid-game (bench_video.py --size 640 --from-play 6, game 7), its first
    # frame as the MP4 gives it: a field one point narrow at the edge whose last column is filled with
    # checkers fits its points 0.9 as well as the true one and seats the few stacks it sees better, but
    # reads 10 light checkers fewer. Taken, the checker colours were learnt from the bar and the game
    # was never joined; the field that accounts for the checkers is taken.
    from tavli_pi.vision.calibrate import locate_field
    from tests.vision._midgame_clip import first_frame

    image, truth, _ = first_frame(7, tmp_path)
    found, _ = locate_field(image)
    worst = max(float(np.linalg.norm(truth - p, axis=1).min()) for p in np.asarray(found, np.float32))
    assert worst < 0.03 * float(np.linalg.norm(truth[1] - truth[0]))  # on main: 17.6 px, a point (field 269 px)


def test_a_field_in_doubt_is_looked_for_again_and_the_plausible_one_kept(tmp_path: Path, real_data: Path) -> None:
    # bench_real_join.py: the pinetti product photo (bcv-template3) held as an MP4 clip. On the clip's first
    # frame (its key frame) the field was found a point too wide at the right (796 px, the label's 753), its
    # reading in doubt; every frame after read through it, and the game was joined turned round, wrong at 13
    # spots. The next frames find the field: looked for again, the plausible field is kept.
    import json

    import cv2

    from bench.bench_real_join import write_clip
    from tavli_pi.vision.calibrate import LOOK_AGAIN_EVERY

    lab = json.loads((real_data / "boards" / "more" / "labels.json").read_text())["frames"]["bcv-template3.jpg"]
    write_clip(tmp_path / "clip.mp4", cv2.imread(str(real_data / "boards" / "more" / "bcv-template3.jpg")), 8, 103)
    cap = cv2.VideoCapture(str(tmp_path / "clip.mp4"))
    memory = FieldMemory()
    first = None
    for _ in range(LOOK_AGAIN_EVERY + 2):
        ok, image = cap.read()
        assert ok
        corners = order_corners(memory.locate(image)[0])
        first = corners if first is None else first
    assert float(first[:, 0].max()) > 780  # (the frame that found it too wide: the case stands)
    assert float(np.abs(corners - np.float32(lab["corners"])).max()) < 15 and memory.searches == 2
