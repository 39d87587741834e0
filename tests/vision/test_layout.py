"""The canonical layout's columns: worked out once per layout, the same strips as ``point_columns``."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from tavli_pi.vision.layout import Column, Layout, point_columns


@pytest.mark.parametrize("home", ["bottom-right", "bottom-left"])
def test_columns_are_made_once_and_are_point_columns(home: str) -> None:
    lay = Layout(560, 448, home, u0=0.01, u1=0.985, bar=(0.46, 0.54))  # type: ignore[arg-type]
    cols = lay.columns
    # the same object every time: the set-up model asks thousands of times a frame (issue 12)
    assert lay.columns is cols
    fw = lay.field_w
    want = point_columns(lay.mx + lay.u0 * fw, lay.mx + lay.bar[0] * fw, lay.mx + lay.bar[1] * fw,
                         lay.mx + lay.u1 * fw, lay.home)
    assert cols == tuple(Column(p, x, w, top) for p, x, w, top in want)
    assert isinstance(cols, tuple)  # nobody can change the kept strips


def test_a_changed_layout_has_its_own_columns() -> None:
    lay = Layout(560, 448, "bottom-right")
    cols = lay.columns
    moved = dataclasses.replace(lay, bar=(0.45, 0.55))
    assert moved.columns != cols
    assert lay.columns is cols
    # a layout sent elsewhere (pickled) keeps its fields' meaning and its columns' values
    back = pickle.loads(pickle.dumps(lay))
    assert back == lay and back.columns == cols
