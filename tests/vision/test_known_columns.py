"""The field's columns and bar from where the start position's stacks stand (vision/known_columns.py)."""

from __future__ import annotations

import pytest

from tavli_pi.rules.position import Position
from tavli_pi.sim import _layout as SL
from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.render import render
from tavli_pi.sim.script import Moment
from tavli_pi.sim.table import scene_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board

_TABLES = reallike_game_tables(173, 0)


def _columns_off(g: int) -> float:
    """The set-up board of real-like game table ``g`` learnt as the app learns it: the largest
    distance, in point widths, of a point's column from where the simulator drew it."""
    kw = _TABLES[g]
    scene = scene_of(Moment(Position.start(), ()), **kw)
    r = render(scene, g)
    cal = learn_board(r.image, refine(Calibration(r.truth.corners, home=r.truth.home), r.image))
    lay = SL.layout(scene.home, scene.trays, scene.build.bar)
    true = cal.with_(u0=0.0, u1=1.0, bar=lay.bar_u).layout
    return max(abs(a.x - b.x) / b.width for a, b in zip(cal.layout.columns, true.columns))


@pytest.mark.parametrize("g, drawn", [
    (67, "thick checkers, camera overhead: the top 8-point stack's clearest rings beside it"),
    (172, "thick checkers: three of eight stacks found off their columns, one by 0.87 of a point"),
    (0, "flat checkers: both stacks next to the bar found a third of a point towards it"),
])
def test_every_column_is_where_the_stacks_put_it_together(g: int, drawn: str) -> None:
    """Each half's start and point width are fitted to all its stacks at once, so one stack whose
    clearest rings lie beside it cannot move its half (one column found alone decided a half of
    two columns: 0.46, 0.61 and 0.31 of a point off before)."""
    kw = _TABLES[g]
    assert (kw["build"].thickness > 0) == ("thick" in drawn)
    assert _columns_off(g) < 0.1, drawn
