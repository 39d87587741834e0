"""A board joined mid-game nobody gave the position of: which first guess leads to the true position? (issue 9)

Run: .venv/bin/python bench/probe_join_guesses.py [--tables 0-23] [--size 640]

Each table of ``bench_reallike.py --known``'s set (seed 0: a real-like table clear at a random position
of a game in progress, ``tests/vision/test_known._midgame_table``) is read with no learnt board
(``unlearnt``), and learnt as the start and read back as the app's unattended set-up does. From each
first guess -- the unlearnt reading made whole (``u``), the start-learnt read-back made whole (``a``),
and that read-back with the unlearnt reading wherever it merely echoes the start (``b``,
``learn_consistent.read_as(hidden_by=...)``) -- the board is learnt to a fixed point
(``learn_consistent``). Printed per table: each guess's spots wrong, its fixed point's spots wrong and
the read-back's log-likelihood (the sum over spots of the log-probability of the count read), whether
the truth is a fixed point, and what ``learn_as_read`` (the app's choice) learns; then the tallies.
``--size 640``: each table scaled to 640 px wide first (INTER_AREA, its corners moved with it, as
``tests/vision/_variants.py``'s "640 wide"), a small camera joining the same games.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.errors import CalibrationError, TavliWarning  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.known import KnownBoard  # noqa: E402
from tavli_pi.vision.learn_consistent import learn_as_read, learn_consistent, read_as  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.refine import refine  # noqa: E402
from tavli_pi.vision.setup import learn_board  # noqa: E402
from tests.vision.test_known import _midgame_table  # noqa: E402
from tests.vision.test_learn_consistent import _reading  # noqa: E402


def scaled_reading(index: int, width: int) -> tuple[KnownBoard, np.ndarray, Calibration, Observation]:
    """``_reading(index)`` with the frame scaled to ``width`` px wide (INTER_AREA; pixel centres kept:
    x' + 0.5 = s (x + 0.5)) and its corners moved with it; the native frame when it is no wider."""
    known, mid, _ = _midgame_table(index)
    image = mid.image  # type: ignore[attr-defined]
    s = width / image.shape[1]
    corners = np.asarray(mid.truth.corners, np.float64)  # type: ignore[attr-defined]
    if s < 1:
        image = cv2.resize(image, (width, round(image.shape[0] * s)), interpolation=cv2.INTER_AREA)
        corners = s * (corners + 0.5) - 0.5
    cal = refine(Calibration(corners, home=mid.truth.home), image)  # type: ignore[attr-defined]
    return known, image, cal, BoardReader(cal).read(image)


def wrong(a: KnownBoard | None, b: KnownBoard) -> int | None:
    """Spots (points, bar, off) where ``a`` differs from ``b``; None for no position."""
    if a is None:
        return None
    return sum((a.light[i], a.dark[i]) != (b.light[i], b.dark[i]) for i in range(len(b.light)))


def likelihood(obs: Observation) -> float:
    spots = [*obs.points, obs.bar, obs.off]
    return float(sum(np.log(max(1e-9, s.light.probs[s.light.best])) + np.log(max(1e-9, s.dark.probs[s.dark.best]))
                     for s in spots))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", default="0-23", help="a range of the set's tables, e.g. 0-23")
    ap.add_argument("--size", type=int, default=0, help="scale each table to this width first (e.g. 640)")
    args = ap.parse_args()
    lo, _, hi = args.tables.partition("-")
    warnings.simplefilter("ignore", TavliWarning)
    right = {"u": 0, "a": 0, "b": 0, "chosen": 0}
    found = dict.fromkeys(right, 0)
    tables = range(int(lo), int(hi or lo) + 1)
    for index in tables:
        if args.size:
            known, image, cal, unlearnt = scaled_reading(index, args.size)
        else:
            known, mid, cal, unlearnt = _reading(index)  # type: ignore[assignment]
            image = mid.image  # type: ignore[attr-defined]
        line = [f"table {index} ({image.shape[1]} px):"]
        guesses = {"u": read_as(unlearnt, balance=True)}  # type: ignore[arg-type]
        start = back = None
        try:
            start = learn_board(image, cal)
        except CalibrationError:
            line.append("(not learnt as the start)")
        if start is not None:
            back = BoardReader(start.with_(taught_ring=None)).read(image)
            guesses["a"] = read_as(back, balance=True)
            guesses["b"] = read_as(back, balance=True, hidden_by=start, unlearnt=unlearnt)  # type: ignore[arg-type]
        for name, first in guesses.items():
            got = None if first is None else learn_consistent(image, cal, first)
            w = None if got is None else wrong(got[0].position, known)
            found[name] += got is not None
            right[name] += w == 0
            line.append(f"{name}: guess wrong {wrong(first, known)}, fixed point wrong {w}"
                        + ("" if got is None else f" ({likelihood(got[1]):.2f})"))
        truth = learn_consistent(image, cal, known, steps=1)
        line.append(f"truth a fixed point: {truth is not None}" + ("" if truth is None else f" ({likelihood(truth[1]):.2f})"))
        if start is not None and back is not None:
            chosen = learn_as_read(image, cal, back, hidden_by=start, unlearnt=unlearnt)  # type: ignore[arg-type]
        else:
            chosen = learn_as_read(image, cal, unlearnt)  # type: ignore[arg-type]
        w = None if chosen is None else wrong(chosen[0].position, known)
        found["chosen"] += chosen is not None
        right["chosen"] += w == 0
        line.append(f"learnt: wrong {w}")
        print(" | ".join(line), flush=True)
    print(f"{len(tables)} tables; fixed points found / right: "
          + ", ".join(f"{k} {found[k]}/{right[k]}" for k in right))


if __name__ == "__main__":
    main()
