"""The canonical view and its gradients made again only round what changed are a whole read's
(vision/front_patch.py, issue 12)."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.script import demo_match, random_game
from tavli_pi.sim.table import scenes_of
from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.front_patch import FrontPatch
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.incremental import GateView


def _frames_patched(moments: list, seed: int) -> tuple[int, int]:  # type: ignore[type-arg]
    """Every frame through a FrontPatch and made whole; fails on the first difference. Returns
    (frames patched in part, frames)."""
    patch = gate = cal = None
    partial = n = 0
    with SimCamera(scenes_of(moments), fps=10.0, seed=seed) as cam:
        for frame in cam:
            if cal is None:
                truth = cam.last_truth
                assert truth is not None
                cal = Calibration(truth.corners, home=truth.home)  # type: ignore[arg-type]
                patch, gate = FrontPatch(cal.warp_maps(), SCALE), GateView(cal)
            assert patch is not None and gate is not None
            canon, g = patch.read(frame.image, gate(frame.image))
            whole = cv2_remap(cal, frame.image)
            want = ck.gradients(whole)
            assert np.array_equal(canon, whole), f"frame {frame.index}: the view differs"
            assert np.array_equal(g.pair, want.pair), f"frame {frame.index}: the gradients differ"
            assert g.scale == want.scale, f"frame {frame.index}: the scale differs"
            area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in patch.windows)
            partial += n > 0 and area < 0.5 * canon.shape[0] * canon.shape[1]
            n += 1
    return partial, n


def cv2_remap(cal: Calibration, image: np.ndarray) -> np.ndarray:
    import cv2

    m1, m2 = cal.warp_maps()
    return np.asarray(cv2.remap(image, m1, m2, cv2.INTER_LINEAR))


def test_the_demo_patched_is_the_demo_made_whole() -> None:
    partial, n = _frames_patched(demo_match()[:40], seed=7)
    assert partial >= n // 2  # most frames were patched in part: the comparison is not of whole reads


def test_a_random_game_patched_is_the_game_made_whole() -> None:
    partial, n = _frames_patched(random_game(3, turns=3), seed=3)
    assert partial >= n // 2
