"""How much of the gate's view sensor noise moves on a still board, per real-like referee game (issue 12, stop 18).

Run: .venv/bin/python bench/probe_gate_noise.py 100,103,105,130

Plays the games as ``bench/bench_reallike.py --frames 0 --games 200 --only ...`` does and, on every
frame the reader gets after its first, counts the gate's quarter-scale cells that differ from the view
of the last reading by more than ``REGION_CHANGE`` (the incremental reader reuses a reading only when
none does). Prints per game the table's noise, JPEG quality, blur and width, and the median and least
count of such cells a frame and the frames with none.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_reallike  # noqa: E402
from tavli_pi.vision.channels import channel_max  # noqa: E402
from tavli_pi.vision.incremental import REGION_CHANGE  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402


def main() -> None:
    read = BoardReader.read
    rows: list[tuple[int, int]] = []  # per frame: cells changed, cells

    def probe(self: BoardReader, image: Any, frame_index: int = 0) -> Observation:
        kept = self._kept  # noqa: SLF001
        if kept is not None:
            d = channel_max(np.asarray(cv2.absdiff(self._view(image), kept.view)))  # noqa: SLF001
            rows.append((int((d > REGION_CHANGE).sum()), d.size))
        return read(self, image, frame_index)

    BoardReader.read = probe  # type: ignore[method-assign]
    tables = bench_reallike.reallike_game_tables(200, 0)
    for g in (int(x) for x in sys.argv[1].split(",")):
        rows.clear()
        bench_reallike.games(200, 0, 8, only=frozenset({g}))
        look = tables[g]["look"]
        a = np.asarray(rows)
        print(f"game {g}: noise {look.noise:.2f} jpeg {look.jpeg_quality} blur {look.blur:.2f} width "
              f"{tables[g].get('width', 1280)}: frames {len(a)}, cells over REGION_CHANGE median "
              f"{np.median(a[:, 0]):.0f} of {a[0, 1]}, least {a[:, 0].min()}, frames with none {(a[:, 0] == 0).sum()}",
              flush=True)


if __name__ == "__main__":
    main()
