"""dice_small: a small still die the search left unsure gets its template face only where that is sure."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_scenes
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.sim._boards import DESIGNS
from tavli_pi.vision.dice_small import TEMPLATE_CONFIDENCE, PipPolarity, small_faces
from tavli_pi.vision.dice_template import face_axes
from tavli_pi.vision.observation import DieReading


@lru_cache(maxsize=4)
def _scene(i: int) -> tuple[np.ndarray, Calibration, list[tuple[DieReading, int, float]], bool]:
    """Real-like scene ``i`` (seed 0): its frame, calibration, each true die as the search would
    report it too small to read, with its true value and its width across (image px), and whether
    its pips are darker than its dice."""
    scene = reallike_scenes(i + 1, 0)[i]
    r = render(scene, i)
    cal = Calibration(r.truth.corners, home=scene.home)
    dice = []
    for t in r.truth.dice:
        canon = cal.to_canonical(np.asarray([t.xy], np.float32)).reshape(2)
        unit = face_axes(cal.to_image, (float(canon[0]), float(canon[1])), 1.0)
        width = t.size_px / float(np.sqrt(abs(np.linalg.det(unit))))
        d = DieReading(xy=t.xy, value=0, value_confidence=0.0, flat=True, on_checker=False, half=t.half,
                       note=f"too small to read ({int(t.size_px)} px, need 12)", size_px=width)
        dice.append((d, t.value, width))
    design = DESIGNS[scene.look.board]
    return r.image, cal, dice, sum(design.die_pip) < sum(design.die_body)


def test_a_small_one_read_surely_by_its_templates_is_given_its_value() -> None:
    image, cal, dice, dark = _scene(6)  # a 10.6 px one on a 640x360 frame
    d, value, width = dice[0]
    assert value == 1
    got = small_faces([d], image, cal, width, dark)[0]
    assert got.value == 1
    assert got.value_confidence == TEMPLATE_CONFIDENCE >= 0.9
    assert got.note == ""
    # nor when the table's polarity is not known, or is the other
    assert small_faces([d], image, cal, width, None) == [d]
    assert small_faces([d], image, cal, width, not dark) == [d]


def test_a_face_read_alike_at_the_sizes_either_side_is_given_its_value_under_the_sure_margin() -> None:
    """A 9.3 px six whose templates lead by 0.19-0.21 only (under ``SURE_MARGIN``) at the table's size and
    at ``SIDES`` of it, with the table's polarity, is read (stop 51: 5s and 3s of 9-10 px in a video)."""
    image, cal, dice, dark = _scene(2)
    d, value, width = dice[0]
    assert value == 6
    got = small_faces([d], image, cal, width, dark)[0]
    assert (got.value, got.value_confidence) == (6, TEMPLATE_CONFIDENCE)
    assert small_faces([d], image, cal, width, not dark) == [d]


def test_a_face_a_wrong_size_conjured_is_left_as_the_search_read_it() -> None:
    """An 11.3 px six reads as a two at its size and 12 % under it, but not at 12 % over: it is left
    unread, as is a value the search gave under ``CLEAR``."""
    image, cal, dice, dark = _scene(6)
    d, value, width = dice[1]
    assert value == 6
    assert small_faces([d], image, cal, width, dark) == [d]
    under = dataclasses.replace(d, value=4, value_confidence=0.85, note="")
    assert small_faces([under], image, cal, width, dark) == [under]


def test_nothing_is_read_without_a_learnt_small_table_size_nor_on_a_die_not_lying_flat_and_still() -> None:
    image, cal, dice, dark = _scene(6)
    d, _, width = dice[0]
    assert small_faces([d], image, cal, 0.0, dark) == [d]  # the table's size not learnt
    assert small_faces([d], image, cal, 14.0, dark) == [d]  # a table of dice too big for the measure
    for other in (dataclasses.replace(d, moving=True), dataclasses.replace(d, flat=False),
                  dataclasses.replace(d, on_checker=True), dataclasses.replace(d, lie_seen=False),
                  dataclasses.replace(d, value=2, value_confidence=0.95)):
        assert small_faces([other], image, cal, width, dark) == [other]


def test_the_tables_polarity_is_learnt_from_the_dice_the_search_read() -> None:
    polarity = PipPolarity()
    image, cal, dice, dark = _scene(2)
    read = [dataclasses.replace(d, value=v, value_confidence=0.89, note="") for d, v, _ in dice]
    unsure = [dataclasses.replace(d, value=v, value_confidence=0.5, note="") for d, v, _ in dice]
    for _ in range(3):
        polarity.add(unsure, image, cal, dice[0][2])  # a die read unsure does not vote
        polarity.add(read, image, cal, 0.0)  # nor one without the table's size
    assert polarity.dark() is None
    polarity.add(read, image, cal, dice[0][2])
    assert polarity.dark() is None  # two votes: not yet known
    polarity.add(read, image, cal, dice[0][2])
    assert dark
    assert polarity.dark() is True


def test_a_table_of_dice_smaller_than_any_the_measure_held_is_never_given_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``TABLE_LEAST`` (the smallest dice bench_small_dice measured) a die is too small to read
    (issue 9): the same die read surely at its size is left unread once its size is under the floor."""
    import tavli_pi.vision.dice_small as small

    image, cal, dice, dark = _scene(6)
    d, _, width = dice[0]
    assert small_faces([d], image, cal, width, dark)[0].value  # read surely at its size
    monkeypatch.setattr(small, "TABLE_LEAST", width + 0.1)
    assert small_faces([d], image, cal, width, dark) == [d]


def test_a_face_the_learnt_model_reads_surely_at_the_sizes_is_given_its_value() -> None:
    """A 9.1 px five (scene 24) whose templates lead by 0.12 only (stop 51: the 9 px fives of a video)
    is read by ``dice_net`` at ``NET_SHARE`` at the table's size and at ``SIDES`` of it: taken, at
    ``TEMPLATE_CONFIDENCE``; not with the other polarity."""
    image, cal, dice, dark = _scene(24)
    d, value, width = dice[0]
    assert value == 5
    got = small_faces([d], image, cal, width, dark)[0]
    assert (got.value, got.value_confidence, got.note) == (5, TEMPLATE_CONFIDENCE, "")
    assert small_faces([d], image, cal, width, not dark) == [d]


def test_a_face_the_model_reads_under_its_share_is_left_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 9.2 px four (scene 24) the templates read a six (margin 0.2, not alike at the sizes) and the model
    a six under ``NET_SHARE``: left as the search read it. And where the model and the templates
    each read a face surely but differ, neither is taken."""
    import tavli_pi.vision.dice_small as small

    image, cal, dice, dark = _scene(24)
    d, value, width = dice[2]
    assert value == 4
    assert small_faces([d], image, cal, width, dark) == [d]
    five, _, five_width = dice[0]
    reads = small._net_reads
    monkeypatch.setattr(small, "_net_reads", lambda *a: (reads(*a)[0], 3))  # the model's sure read: a 3
    assert small_faces([five], image, cal, five_width, dark)[0].value == 3  # the templates left it
    image6, cal6, dice6, dark6 = _scene(6)
    sure, _, sure_width = dice6[0]
    assert small_faces([sure], image6, cal6, sure_width, dark6) == [sure]  # the templates' sure 1 vs a 3


def test_a_face_the_templates_read_is_left_where_the_models_best_face_is_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 10.6 px one the templates read surely (scene 6) is left as the search read it where the model's
    best face at the table's size, at whatever share, is another (a real 9 px two the templates read a one
    at margin 0.34: dice54); the model's best face the same, it is read."""
    import tavli_pi.vision.dice_small as small
    from tavli_pi.vision.dice_net import NetRead

    image, cal, dice, dark = _scene(6)
    d, value, width = dice[0]
    assert value == 1
    assert small_faces([d], image, cal, width, dark)[0].value == 1
    shares = np.full(6, 0.1)
    shares[1] = 0.5  # a two, far under NET_SHARE
    monkeypatch.setattr(small, "read_face", lambda *a: NetRead(shares), raising=False)
    monkeypatch.setattr(small, "agreed_from", lambda *a: (0, 0.0))  # nor the model's sure read at the sizes
    assert small_faces([d], image, cal, width, dark) == [d]
    shares[0] = 0.6  # a one
    assert small_faces([d], image, cal, width, dark)[0].value == 1
