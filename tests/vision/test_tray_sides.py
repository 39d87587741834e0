"""Which sides of the field have trays, learnt from the set-up board (vision/tray_sides.py), and
a board without trays read with the counts off the board implies (never a count read from wood)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board
from tavli_pi.vision.tray_sides import home_side, sides_read

SCENES = reallike_scenes(14, 0)


def _learnt(index: int) -> Calibration:
    s = render(reallike_setup(SCENES[index]), index)
    return learn_board(s.image, refine(Calibration(s.truth.corners, home=s.truth.home), s.image))  # type: ignore[arg-type]


# 640x360 real-like tables: no trays (7, 13), the tray column on the home side (10), on the
# other side (1), on both sides (2)
@pytest.mark.parametrize("index", [7, 13, 10, 1, 2])
def test_the_sides_with_trays_are_learnt_at_set_up(index: int) -> None:
    cal = _learnt(index)
    kind = SCENES[index].trays
    other = "left" if home_side(cal) == "right" else "right"
    assert cal.trays == {"none": "none", "both": "both", "home": home_side(cal), "away": other}[kind]


def test_a_board_without_trays_reports_the_count_the_board_implies() -> None:
    """Table 7 has no trays: 5 light and 2 dark checkers lie borne off on the table beside the
    board, where the empty table read 0 before. The count reported is the one the board read
    implies (15 less the points and the bar). Its light checker on the bar lies under the
    translucent score band, half under the dark one: read at 0.53 with stop 28's geometry and as
    none at 0.67 with the bar placed from the stacks together (known_columns, 1 px narrower there),
    so the light count implied is 5 or 6 by that one spot; the dark one is 2 either way. With the
    bar found from the middle band round the field's middle (lone46) that spot is a near tie (0.49 none,
    0.48 one), and the count implied weighs both: the tray's count is 15 less the points and one of the
    bar's two likeliest counts."""
    cal = _learnt(7)
    r = render(SCENES[7], 7)
    obs = BoardReader(cal).read(r.image)
    assert not obs.hand
    assert r.truth.off == (5, 2)
    on_board = [sum(p.light.best for p in obs.points) + obs.bar.light.best,
                sum(p.dark.best for p in obs.points) + obs.bar.dark.best]
    bar_likeliest = [sorted(range(len(c.probs)), key=lambda n: -c.probs[n])[:2] for c in (obs.bar.light, obs.bar.dark)]
    for k, (off, bar) in enumerate(((obs.off.light, obs.bar.light), (obs.off.dark, obs.bar.dark))):
        assert off.best in {15 - on_board[k] + bar.best - n for n in bar_likeliest[k]}
    assert obs.off.dark.best == 2 and obs.off.light.best in (5, 6)
    assert obs.off_source == ("implied", "implied")
    assert max(obs.off.light.confidence, obs.off.dark.confidence) <= 0.8 + 1e-9


def test_a_calibration_from_an_older_log_loads_and_reads_both_sides() -> None:
    old = Calibration(np.asarray([[0, 0], [100, 0], [100, 90], [0, 90]], np.float32)).to_dict()
    del old["trays"]  # written before the trays were learnt
    cal = Calibration.from_dict(old)
    assert cal.trays == "" and sides_read(cal) == (True, True)
    for trays, read in (("none", (False, False)), ("both", (True, True)), ("right", (True, False)),
                        ("left", (False, True))):
        again = Calibration.from_dict(cal.with_(trays=trays).to_dict())
        assert again.trays == trays and sides_read(again) == read  # home bottom-right: the home trays are right
