"""The camera's noise learnt from the stream (vision/noise_level.py): still frames of a noisy camera
are read as unchanged (the last reading reused), and a real change under that noise is still read.

Issue 12: on a real camera the sensor noise differs frame to frame, and at 640 px some of the gate's
pixels pass ``REGION_CHANGE`` on every frame, so with a fixed level no frame was ever unchanged.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import Item, SimCamera
from tavli_pi.sim.scene import DieSpec, Look, Scene, scene_from_position
from tavli_pi.vision.incremental import REGION_CHANGE
from tavli_pi.vision.noise_level import LEAST, RMS_BLOCK, NoiseLevel, block_change, block_rms, gaussian_reach, spread
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, CubeReading, Observation, SpotEvidence, certain
from tests.vision._readers import full_and_incremental

# a small, noisy picture (the real-like referee games' 640 px tables), noise new every frame. No JPEG:
# its block errors reach 8-10 times the learnt spread, so such a camera's still frames stay changed
# reads (bench/RESULTS.md, stop 18)
LOOK = Look(noise=4.0, light_gradient=0.2)


def _noise_free_stream(seed: int) -> tuple[np.ndarray, NoiseLevel]:
    """A still view and a noise level fed ten equal frames of it (a camera with no sensor noise)."""
    view = np.random.default_rng(seed).integers(0, 256, (146, 185, 3)).astype(np.uint8)
    noise = NoiseLevel(view.size)
    for _ in range(10):
        noise(view.copy())
    return view, noise


def _true_view(seed: int) -> tuple[np.random.Generator, np.ndarray]:
    """A random view's true values, and the generator its noisy frames are then drawn from."""
    rng = np.random.default_rng(seed)
    return rng, rng.uniform(40, 200, (146, 185, 3))


def _noisy(rng: np.random.Generator, base: np.ndarray, sigma: float) -> np.ndarray:
    return np.clip(base + rng.normal(0, sigma, base.shape), 0, 255).round().astype(np.uint8)


@pytest.mark.parametrize("sigma", [1.0, 2.0, 4.0])
def test_the_spread_of_two_noisy_frames_is_measured(sigma: float) -> None:
    rng, base = _true_view(0)
    got = spread(_noisy(rng, base, sigma), _noisy(rng, base, sigma))
    assert got == pytest.approx(sigma * np.sqrt(2), rel=0.1)


def test_a_checker_moved_does_not_raise_the_spread() -> None:
    rng, base = _true_view(1)
    a, b = _noisy(rng, base, 2.0), _noisy(rng, base, 2.0)
    b[40:60, 40:60] = 250  # a tenth of the view changed by a lot
    assert spread(a, b) == pytest.approx(2.0 * np.sqrt(2), rel=0.2)


def test_a_noise_free_stream_keeps_the_fixed_level() -> None:
    view, noise = _noise_free_stream(2)
    assert noise.level() == REGION_CHANGE


def test_the_level_passes_the_noise_learnt_and_waits_for_enough_frames() -> None:
    rng, base = _true_view(3)
    noise = NoiseLevel(base.size)
    frames = [_noisy(rng, base, 4.0) for _ in range(LEAST + 3)]
    for f in frames[:LEAST]:
        noise(f)
    assert noise.level() == REGION_CHANGE  # LEAST - 1 comparisons: not trusted yet
    for f in frames[LEAST:]:
        noise(f)
    assert noise.level() > REGION_CHANGE
    # the level is the Gaussian reach over every value compared: still frames pass it
    assert noise.level() >= gaussian_reach(base.size) * 4.0 * np.sqrt(2) * 0.9
    assert all(int(np.abs(f.astype(int) - frames[0].astype(int)).max()) <= noise.level() for f in frames[1:])


def _scene(**kw: object) -> Scene:
    return dataclasses.replace(scene_from_position(Position.start()), look=LOOK, width=640, height=360,
                               **kw)  # type: ignore[arg-type]


def _moved(scene: Scene) -> Scene:
    """One light checker moved a point on, onto an empty point."""
    light = list(scene.light)
    i = next(i for i in range(1, 24) if light[i] > 0 and light[i - 1] == 0 and scene.dark[i - 1] == 0)
    light[i] -= 1
    light[i - 1] += 1
    return dataclasses.replace(scene, light=tuple(light))


def _read(items: list[Item]) -> list[tuple[str, Observation, Observation]]:
    """Per frame: the incremental reader's kind of read, its Observation and a full reader's."""
    out: list[tuple[str, Observation, Observation]] = []
    full = inc = None
    with SimCamera(items, fps=10.0, seed=5) as cam:
        for frame in cam:
            if full is None or inc is None:
                full, inc = full_and_incremental(cam, frame.image)
            b = inc.read(frame.image, frame.index)
            out.append((inc.last_kind, b, full.read(frame.image, frame.index)))
    return out


def _counts(obs: Observation) -> tuple[object, ...]:
    return (tuple((s.light.best, s.dark.best) for s in (*obs.points, obs.bar)),
            tuple(sorted((d.value, d.moving) for d in obs.dice)))


def test_still_noisy_frames_are_unchanged_and_real_changes_are_read() -> None:
    still = _scene()
    die = dataclasses.replace(still, dice=(DieSpec(value=5, u=0.3, v=0.5),))
    # a die lands, slides out a little at a time, is gone; then a checker is moved
    sliding = [dataclasses.replace(still, dice=(DieSpec(value=5, u=0.3 - 0.01 * k, v=0.5),)) for k in range(1, 5)]
    items: list[Item] = [(still, 12), (die, 3), *sliding, (still, 3), (_moved(still), 3)]
    reads = _read(items)
    kinds = [k for k, _, _ in reads]
    # once the noise is learnt (LEAST frames compared) most still frames are unchanged; with the fixed
    # level none was (the noise passes REGION_CHANGE somewhere on every frame)
    assert kinds[LEAST + 1:12].count("unchanged") >= 4, kinds
    starts = [12, 15, 16, 17, 18, 19, 22]  # a frame where the scene changed
    for i in starts:
        assert kinds[i] != "unchanged", (i, kinds)
    # and the frame after one is read again: a noisy camera's reading is kept only once two frames
    # read in a row agree on it (a borderline die one noisy frame misses is not held)
    for i in (13, 20, 23):
        assert kinds[i] != "unchanged", (i, kinds)
    # the end of every stretch reads as a full read does (the counts and the dice)
    for i in (11, 14, 18, 21, 24):
        assert _counts(reads[i][1]) == _counts(reads[i][2]), i
    assert not reads[21][1].dice and reads[14][1].dice
    assert _counts(reads[24][1]) != _counts(reads[21][1])  # the checker's move is seen


def test_block_means_tell_a_still_frame_from_a_die_sized_change() -> None:
    rng, base = _true_view(4)
    a, b = _noisy(rng, base, 3.0), _noisy(rng, base, 3.0)
    assert block_change(a, a) == 0.0
    assert block_change(b, a) < 6.0  # sensor noise averages out over a block (the largest of ~5,000)
    c = b.copy()
    c[51:57, 61:67] = np.clip(c[51:57, 61:67].astype(int) + 40, 0, 255)  # a block's worth, 40 levels, off the grid
    assert block_change(c, a) > 25.0  # (the block most over it covers 6 x 5 of its 6 x 6)


def test_a_noise_free_stream_never_passes_the_block_test() -> None:
    view, noise = _noise_free_stream(5)
    assert noise.quiet == 0.0
    moved = view.copy()
    moved[0, 0] = moved[0, 0] // 2 + 100  # one pixel: its block's mean moves a little
    assert not noise.blocks_still(moved, view)
    assert noise.blocks_still(view.copy(), view) is False  # (an equal frame is the pixel test's)


def test_the_block_floor_waits_for_enough_frames() -> None:
    rng, base = _true_view(6)
    noise = NoiseLevel(base.size)
    frames = [_noisy(rng, base, 3.0) for _ in range(LEAST + 2)]
    for f in frames[:LEAST]:
        noise(f)
    assert noise.quiet is None and not noise.blocks_still(frames[-1], frames[0])
    for f in frames[LEAST:]:
        noise(f)
    assert noise.quiet is not None and noise.quiet > 0.0


def test_still_frames_of_a_jpeg_camera_are_unchanged_and_real_changes_are_read() -> None:
    # a 640 px JPEG camera (the real-like games 101-103: quality 54-57): its block errors pass any
    # pixel level on every still frame (stop 18: none was read unchanged); their block means do not
    look = Look(noise=3.0, light_gradient=0.2, jpeg_quality=55)
    still = dataclasses.replace(_scene(), look=look)
    die = dataclasses.replace(still, dice=(DieSpec(value=5, u=0.3, v=0.5),))
    sliding = [dataclasses.replace(still, dice=(DieSpec(value=5, u=0.3 - 0.01 * k, v=0.5),)) for k in range(1, 5)]
    items: list[Item] = [(still, 12), (die, 3), *sliding, (still, 3), (_moved(still), 3)]
    reads = _read(items)
    kinds = [k for k, _, _ in reads]
    assert kinds[LEAST + 1:12].count("unchanged") >= 3, kinds
    for i in [12, 15, 16, 17, 18, 19, 22]:  # a frame where the scene changed
        assert kinds[i] != "unchanged", (i, kinds)
    for i in (13, 20, 23):  # and the frame after one: two reads in a row must agree
        assert kinds[i] != "unchanged", (i, kinds)
    for i in (11, 14, 18, 21, 24):
        assert _counts(reads[i][1]) == _counts(reads[i][2]), i
    assert not reads[21][1].dice and reads[14][1].dice
    assert _counts(reads[24][1]) != _counts(reads[21][1])


def test_a_reading_with_an_unsure_die_is_not_held_by_its_block_means() -> None:
    # game 109 (stop 19): a five read at 0.94 then 0.47 (one gist) was held at 0.47 by the block test
    from tavli_pi.vision.observation import DieReading
    from tavli_pi.vision.reader import _sure_dice

    def die(value: int, conf: float, moving: bool = False, flat: bool = True) -> DieReading:
        return DieReading((10.0, 10.0), value, conf, flat, False, "left", moving=moving)

    assert _sure_dice(())  # no dice: nothing unsure
    assert _sure_dice((die(4, 0.95), die(5, 0.94)))
    assert not _sure_dice((die(4, 0.95), die(5, 0.47)))
    assert not _sure_dice((die(0, 0.0, moving=True),))
    assert not _sure_dice((die(4, 0.95, flat=False),))


def test_a_reading_made_in_motion_or_under_a_hand_is_not_held_by_its_block_means() -> None:
    # game 107 (stop 19): the frame the dice landed on, read in motion with the dice unread, was held
    from tavli_pi.vision.reader import _holdable
    from tests.referee.synth import die, observe

    start = Position.start()
    assert _holdable(observe(start, dice=(die(4, "left"), die(5, "left"))))
    assert not _holdable(observe(start, motion=True))
    assert not _holdable(observe(start, hand=True))
    assert not _holdable(observe(start, dice=(die(4, "left"), die(5, "left", moving=True))))


@pytest.mark.parametrize("look", [Look(noise=4.2, light_gradient=0.2),
                                  Look(noise=3.0, light_gradient=0.2, jpeg_quality=47),
                                  Look(noise=3.6, board="club", jpeg_quality=54)], ids=["raw", "jpeg47", "club-jpeg54"])
def test_a_small_die_or_one_checker_moved_is_never_the_cameras_noise(look: Look) -> None:
    # 640 px: the camera's noise learnt from its own still frames (fresh noise and JPEG blocks each);
    # a half-size die (12 canonical px: a quarter of a block) landing on a light or dark point or on
    # the frame's edge, or one checker moved, passes both the pixel level and the block test's bound
    from tavli_pi.sim.render import render
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.incremental import GateView, any_changed

    still = dataclasses.replace(_scene(), look=look)
    first = render(still, 0, 100)
    view = GateView(Calibration(first.truth.corners, home=first.truth.home))  # type: ignore[arg-type]
    frames = [view(render(still, 0, 100 + k).image) for k in range(LEAST + 3)]
    noise = NoiseLevel(frames[0].size)
    for f in frames:
        noise(f)
    ref = frames[-1]
    assert noise.quiet is not None and noise.quiet > 0.0  # a noisy camera (a noise-free one never passes)
    assert all(noise.blocks_still(f, ref) for f in frames[:-1])  # its still frames pass (the test can pass)
    changes = [dataclasses.replace(still, dice=(DieSpec(value=v, u=u, v=w, size=0.5),))
               for v, u, w in ((1, 0.3, 0.5), (2, 0.05, 0.2), (6, 0.45, 0.85), (3, 0.6, 0.15))]
    for scene in [*changes, _moved(still)]:
        new = view(render(scene, 0, 300).image)
        assert not noise.blocks_still(new, ref), scene.dice
        assert any_changed(new, ref, noise.level()), scene.dice


def test_block_rms_sees_a_change_whose_mean_matches_what_was_there() -> None:
    # a die-sized patch of dark pips on white over a mid-grey ground: its block means barely move
    rng = np.random.default_rng(8)
    base = np.full((60, 80, 3), 120.0)
    a, b = _noisy(rng, base, 2.0), _noisy(rng, base, 2.0)
    c = b.copy()
    c[20:24, 30:34] = np.where((np.indices((4, 4)).sum(axis=0) % 2 == 0)[..., None], 200, 40)  # mean 120
    assert block_change(c, a) < 2 * block_change(b, a) + 1.0  # the means: within twice the noise's
    assert block_rms(c, a, RMS_BLOCK) > 10 * block_rms(b, a, RMS_BLOCK)  # the RMS: far over it
    assert block_rms(a, a) == 0.0


def test_two_reads_agree_whatever_the_cubes_confidence() -> None:
    # the cube's confidence moves with a noisy camera's every frame: in the gist it kept two reads of
    # a JPEG camera from ever agreeing, so no still frame was held by its blocks (stop 22, game 103)
    from tavli_pi.vision.observation import CubeReading
    from tavli_pi.vision.reader import _gist
    from tests.referee.synth import observe

    obs = observe(Position.start())
    a = dataclasses.replace(obs, cube=CubeReading(2, "middle", 0.81))
    assert _gist(a) == _gist(dataclasses.replace(obs, cube=CubeReading(2, "middle", 0.79)))
    assert _gist(a) != _gist(dataclasses.replace(obs, cube=CubeReading(4, "middle", 0.81)))
    assert _gist(a) != _gist(obs)


def _learnt(rng: np.random.Generator, base: np.ndarray, sigma: float) -> NoiseLevel:
    """A noise level fed LEAST + 2 noisy frames of a still view (its block floor learnt)."""
    noise = NoiseLevel(base.size)
    for _ in range(LEAST + 2):
        noise(_noisy(rng, base, sigma))
    return noise


def test_moved_blocks_mark_a_change_block_by_block_and_never_the_noise() -> None:
    # a noisy camera's parts are kept while their blocks move within its noise (issue 12): the mask of
    # moved pixels holds every changed block and nothing of a still frame
    rng, base = _true_view(9)
    noise = _learnt(rng, base, 3.0)
    a, b = _noisy(rng, base, 3.0), _noisy(rng, base, 3.0)
    assert noise.moved(b, a) is not None and not noise.moved(b, a).any()  # type: ignore[union-attr]
    c = b.copy()
    c[51:57, 61:67] = np.clip(c[51:57, 61:67].astype(int) + 40, 0, 255)  # a block's worth, off the grid
    c[20:24, 30:34] = np.where((np.indices((4, 4)).sum(axis=0) % 2 == 0)[..., None], 230, 10)  # dark pips on white
    c[-2:, -3:] = 255 - c[-2:, -3:]  # the far corner: a block flush with the edges holds it
    got = noise.moved(c, a)
    assert got is not None and got.shape == a.shape[:2]
    for ys, xs in ((slice(51, 57), slice(61, 67)), (slice(20, 24), slice(30, 34)), (slice(-2, None), slice(-3, None))):
        assert got[ys, xs].all()
    assert got.mean() < 0.03  # only the blocks round the changes (3 of them, each at most 12 px a side)
    assert not got[80:, :100].any()


def test_a_noise_free_stream_or_an_unlearnt_floor_has_no_block_mask() -> None:
    view, noise = _noise_free_stream(10)
    assert noise.moved(view.copy(), view) is None  # every pixel's own change is the test there
    rng, base = _true_view(11)
    fresh = NoiseLevel(base.size)
    fresh(_noisy(rng, base, 3.0))
    fresh(_noisy(rng, base, 3.0))
    assert fresh.moved(_noisy(rng, base, 3.0), _noisy(rng, base, 3.0)) is None


def _leaning(n: int, p: float) -> CountEvidence:
    """``n`` checkers at probability ``p``, the rest spread over the other counts."""
    return CountEvidence(tuple(p if i == n else (1.0 - p) / MAX_COUNT for i in range(MAX_COUNT + 1)))


def test_a_spot_is_steady_only_when_two_sure_reads_agree() -> None:
    # real-like games 56, 161, 176 (branch speed39): a point read 1 of 6 dark at 0.60, the trays 0
    # off at 0.81, each twice in a row, were held while every full read of the frame wavered
    from tavli_pi.vision.reader import _cube_steady, _steady

    sure, other = SpotEvidence(certain(0), _leaning(2, 0.95)), SpotEvidence(certain(0), _leaning(3, 0.95))
    unsure = SpotEvidence(certain(0), _leaning(1, 0.60))
    assert _steady(sure, sure)
    assert not _steady(sure, other)  # the counts differ
    assert not _steady(unsure, unsure) and not _steady(sure, SpotEvidence(certain(0), _leaning(2, 0.81)))
    cube = CubeReading(2, "middle", 0.95)
    assert _cube_steady(cube, cube)
    assert not _cube_steady(cube, CubeReading(4, "middle", 0.95))
    # a cube found at one value and place twice, its number read (a JPEG camera's reads of one cube wander
    # 0.59-0.99: real-like game 103), is held; one whose number did not read (0.2) is not
    assert _cube_steady(CubeReading(1, "middle", 0.64), CubeReading(1, "middle", 0.59))
    assert not _cube_steady(CubeReading(1, "middle", 0.2), CubeReading(1, "middle", 0.2))
    assert not _cube_steady(None, None)  # no cube found is no sure reading (game 161: found at 0.64-0.78)


class _Still:
    """Footprints of a frame where no block moved."""

    @staticmethod
    def spots_changed(changed: np.ndarray, among: object = None) -> set[int]:
        return set()


def test_a_noisy_cameras_unsure_point_is_read_again_while_its_blocks_stand() -> None:
    from tavli_pi.vision.reader import _Spots

    view = np.zeros((8, 8, 3), np.uint8)
    sure, unsure = SpotEvidence(certain(0), _leaning(2, 0.95)), SpotEvidence(certain(0), _leaning(1, 0.60))
    reads = [sure] * 24
    reads[18] = unsure  # game 56's point 19: its reads 1, 2 or 3 of 6, two in a row agreeing by chance
    spots = _Spots.of(range(24), reads, [], [], [0] * 24, view, (1.0,))
    spots.update(_Spots.of(range(24), reads, [], [], [0] * 24, view, (1.0,)))
    nothing = lambda a, b: np.zeros(a.shape[:2], bool)  # noqa: E731 (no block moved)
    assert spots.stale(view, (1.0,), _Still(), nothing, noisy=True) == {18}  # type: ignore[arg-type]


def test_a_jpeg_cameras_changed_frame_reads_again_only_the_points_the_change_reaches() -> None:
    # a 640 px JPEG-55 camera: every frame's shared values (the gradients' scale, the typical change
    # from the set-up board) move with its noise, so every changed frame read all 24 points again
    # (base 412a3a3); kept while their blocks stand, a checker moved reads again only the points whose
    # footprint it reaches, and the board then reads as a full read of the frame does
    look = Look(noise=3.0, light_gradient=0.2, jpeg_quality=55)
    still = dataclasses.replace(_scene(), look=look)
    moved = _moved(still)
    items: list[Item] = [(still, 12), (moved, 4)]
    full = inc = None
    reads: list[tuple[str, int, Observation, Observation]] = []
    with SimCamera(items, fps=10.0, seed=5) as cam:
        for frame in cam:
            if full is None or inc is None:
                full, inc = full_and_incremental(cam, frame.image)
            b = inc.read(frame.image, frame.index)
            reads.append((inc.last_kind, inc.last_reread, b, full.read(frame.image, frame.index)))
    changed = [n for kind, n, _, _ in reads[12:] if kind == "changed"]
    assert changed and max(changed) < 24, [(k, n) for k, n, _, _ in reads]
    assert reads[12][0] == "changed" and reads[12][1] > 0  # the move is read
    assert _counts(reads[-1][2]) == _counts(reads[-1][3])  # ... as a full read of the last frame reads it
    assert _counts(reads[-1][2]) != _counts(reads[11][2])


def test_a_frame_takes_each_block_measure_of_a_pair_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A noisy changed frame asks ``blocks_still`` of itself and the frame before, then learns the
    floor from the same pair: each block measure is taken once (issue 12), the values as before."""
    from tavli_pi.vision import noise_level

    rng = np.random.default_rng(2)
    views = [np.clip(100 + rng.normal(0, 4, (60, 80, 3)), 0, 255).astype(np.uint8) for _ in range(LEAST + 4)]
    counts = {"change": 0, "rms": 0}

    def change(a: np.ndarray, b: np.ndarray, side: int = noise_level.BLOCK) -> float:
        counts["change"] += 1
        return block_change(a, b, side)

    def rms(a: np.ndarray, b: np.ndarray, side: int = noise_level.BLOCK) -> float:
        counts["rms"] += 1
        return block_rms(a, b, side)

    monkeypatch.setattr(noise_level, "block_change", change)
    monkeypatch.setattr(noise_level, "block_rms", rms)
    noise = NoiseLevel(60 * 80 * 3)
    quiet = []
    for v in views:
        counts.update(change=0, rms=0)
        prev = noise.previous
        noise.blocks_still(v, prev)  # the reader's motion test, then its learning
        noise(v)
        if prev is not None:
            assert counts == {"change": 1, "rms": 1}
            quiet.append(block_change(v, prev))
    assert noise._quiet == min(quiet)  # noqa: SLF001
