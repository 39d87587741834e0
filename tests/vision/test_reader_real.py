"""The reader on the labelled WTC 2022 broadcast frames (read from /work/shared/data/real).

Measured (bench/RESULTS.md): 0 wrong spots of 100 on the four frames
with labelled counts; every hand frame reported as covered, no false hand.
Thresholds below are those figures with a small margin.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from tavli_pi.vision.reader import BoardReader
from tests.vision._eval import spot_errors, wtc_calibration, wtc_labels


@pytest.fixture(scope="module")
def wtc(real_data: Path):  # type: ignore[no-untyped-def]
    cal = wtc_calibration(real_data)
    reader = BoardReader(cal)
    out = {}
    for name, lab in wtc_labels(real_data).items():
        out[name] = (lab, reader.read(cv2.imread(str(real_data / "boards/wtc2022" / name))))
    return out


def test_calibration_finds_the_bar_and_the_surface_edges(real_data: Path) -> None:
    cal = wtc_calibration(real_data)
    # the labelled corners include a strip of frame on the left: refinement moves inside it
    assert 0.01 < cal.u0 < 0.05 and 0.97 < cal.u1 <= 1.0
    assert 0.46 < cal.bar[0] < 0.49 and 0.53 < cal.bar[1] < 0.56
    assert sum(cal.light_bgr) > 3 * 150 and sum(cal.dark_bgr) < 3 * 60
    # checkers are almost as wide as a point (learnt radius / point width)
    assert 0.42 <= cal.checker_r <= 0.55


def test_checker_counts_on_labelled_frames(wtc) -> None:  # type: ignore[no-untyped-def]
    total = wrong = 0
    for name, (lab, obs) in wtc.items():
        if "light" not in lab or lab["hand"]:
            continue
        light = {int(k): v for k, v in lab["light"].items()}
        dark = {int(k): v for k, v in lab["dark"].items()}
        errs = spot_errors(obs, light, dark, (lab["bar"]["light"], lab["bar"]["dark"]))
        total += 25
        wrong += len(errs)
        # the truth always keeps real weight in the evidence, so the referee can still pick it
        for p in range(1, 25):
            ev = obs.points[p - 1]
            assert ev.light.p(light.get(p, 0)) > 0.01 and ev.dark.p(dark.get(p, 0)) > 0.01
    assert total == 100
    assert wrong <= 1, f"{wrong} wrong spots of {total}"


def test_hands_are_reported(wtc) -> None:  # type: ignore[no-untyped-def]
    for name, (lab, obs) in wtc.items():
        assert obs.hand == lab["hand"], name
        if lab["hand"]:
            assert obs.confidence < 0.5
