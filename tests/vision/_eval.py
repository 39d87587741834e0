"""Shared scoring helpers for the vision tests and bench (not a test module)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.refine import refine


def spot_errors(obs: Observation, light: dict[int, int], dark: dict[int, int], bar: tuple[int, int]) -> list[Any]:
    """Spots (points 1-24 and the bar) whose best reading differs from the truth."""
    lt, dk = obs.best_counts()
    errs: list[Any] = [
        (p, (light.get(p, 0), dark.get(p, 0)), (lt[p - 1], dk[p - 1]))
        for p in range(1, 25)
        if (lt[p - 1], dk[p - 1]) != (light.get(p, 0), dark.get(p, 0))
    ]
    if (obs.bar.light.best, obs.bar.dark.best) != tuple(bar):
        errs.append(("bar", tuple(bar), (obs.bar.light.best, obs.bar.dark.best)))
    return errs


def wtc_labels(real: Path) -> dict[str, Any]:
    frames: dict[str, Any] = json.loads((real / "boards/wtc2022/labels.json").read_text())["frames"]
    return frames


def wtc_calibration(real: Path) -> Calibration:
    """Calibrate once on a clear frame with the labelled corners (like --corners)."""
    labels = wtc_labels(real)
    image = cv2.imread(str(real / "boards/wtc2022/frame0.jpg"))
    lab = labels["frame0.jpg"]
    return refine(Calibration(np.float32(lab["corners"]), home=lab["home"]), image)


def sim_calibration(scene: Any, seed: int) -> tuple[Calibration, Any]:
    """Calibrate on the same view without hand or dice, return it with the real render."""
    from tavli_pi.sim.render import render

    r = render(scene, seed)
    clear = render(dataclasses.replace(scene, hand=None, dice=()), seed)
    cal = refine(Calibration(r.truth.corners, home=r.truth.home), clear.image)  # type: ignore[arg-type]
    return cal, r
