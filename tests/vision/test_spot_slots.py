"""The 26 spots' slots (vision/spot_slots.py): where the spots stand, and a slot's ring-only fit."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.spot_slots import SLOT_B, SLOT_W, SLOTS, slot_logits, slot_probability, spot_geometry


def test_spot_geometry_is_read_only_and_the_same_for_an_equal_layout() -> None:
    cal = Calibration(np.asarray([[100, 50], [900, 50], [900, 650], [100, 650]], np.float32))
    a = spot_geometry(cal.layout, cal)
    b = spot_geometry(Calibration(cal.corners).layout, Calibration(cal.corners))
    assert all(np.array_equal(u, v) and u.dtype == v.dtype == np.float32 for u, v in zip(a, b))
    with pytest.raises(ValueError):
        a[0][0] = 1.0


def test_a_slot_s_ring_logit_is_its_ring_fit_clipped() -> None:
    feats = np.random.default_rng(3).normal(0.0, 0.6, (26, SLOTS, len(SLOT_W))).astype(np.float32)
    feats[0, 0] = 5.0  # rings far past the clip
    shape = (26, SLOTS)
    ch = ck.Chains(np.zeros(shape, np.float32), np.zeros(shape, np.float32), feats, np.zeros((*shape, 3), np.float32),
                   None)
    z = feats @ SLOT_W + SLOT_B
    assert float(z[0, 0]) > 10.0
    logit, p = slot_logits(ch), slot_probability(ch)
    assert logit[0, 0] == 10.0 and np.array_equal(logit, np.clip(z, -10.0, 10.0))
    inside = np.abs(z) < 10.0
    assert inside.any() and np.allclose(p[inside], 1.0 / (1.0 + np.exp(-logit[inside])))
