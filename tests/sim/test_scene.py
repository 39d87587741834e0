"""Scene.digest: what keys a rendered frame in the benches' caches (bench/diag_spots.py, the fit_* scripts)."""

from __future__ import annotations

import dataclasses

from tavli_pi.sim.datasets import reallike_scenes


def test_a_scene_digest_is_its_drawing_and_changes_with_any_field() -> None:
    a, b = reallike_scenes(4, 0), reallike_scenes(4, 0)
    assert [s.digest() for s in a] == [s.digest() for s in b]  # the same tables drawn again: the same keys
    assert len({s.digest() for s in a}) == 4
    s = a[0]
    thick = dataclasses.replace(s, build=dataclasses.replace(s.build, thickness=0.2 if s.build.thickness == 0 else 0.0))
    assert thick.digest() != s.digest()  # a frame cached before the table changed is not read back
    assert dataclasses.replace(s, dice=()).digest() != s.digest() or not s.dice
