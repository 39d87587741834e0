"""How many frames the incremental reader reuses its reading on, per real-like referee game (issue 12, stop 18).

Run: .venv/bin/python bench/probe_gate_level.py 100,103,105,130

Plays the games as ``bench/bench_reallike.py --frames 0 --games 200 --only ...`` does and counts the
reader's kinds of read (``BoardReader.last_kind``: full, changed, unchanged) over every frame it reads,
with how many frames showed the very scene the reading in use was read from (the truth: still) and
how many of those, and of the others (a change missed), were read as unchanged; the camera noise
learnt (``NoiseLevel``, if the tree has it: its spread and level at the end); and the largest change
of the gate's view from the last reading's view on the frames read as unchanged.
Works on trees without ``NoiseLevel`` too (the base), so base and branch run the same probe.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_reallike  # noqa: E402
from bench.scene_truth import SceneTruth  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402


def main() -> None:
    read = BoardReader.read
    kinds: Counter[str] = Counter()
    last: dict[str, Any] = {}
    kept_max: list[int] = []
    scenes = SceneTruth()
    truth: Counter[str] = Counter()

    def probe(self: BoardReader, image: Any, frame_index: int = 0) -> Observation:
        kept = self._kept  # noqa: SLF001
        obs = read(self, image, frame_index)
        if self.incremental:
            kinds[self.last_kind] += 1
            same = scenes.still()
            truth["still"] += same
            truth["still, unchanged"] += same and self.last_kind == "unchanged"
            truth["moved, unchanged"] += not same and self.last_kind == "unchanged"
            scenes.read_as(self.last_kind)
            if self.last_kind == "unchanged" and kept is not None:
                kept_max.append(int(cv2.absdiff(self._view(image), kept.view).max()))  # noqa: SLF001
            last["noise"] = getattr(self, "noise", None)
        return obs

    BoardReader.read = probe  # type: ignore[method-assign]
    scenes.install()
    tables = bench_reallike.reallike_game_tables(200, 0)
    for g in (int(x) for x in sys.argv[1].split(",")):
        kinds.clear()
        kept_max.clear()
        last.clear()
        truth.clear()
        scenes.reset()
        bench_reallike.games(200, 0, 8, only=frozenset({g}))
        look = tables[g]["look"]
        n = last.get("noise")
        learnt = f", noise learnt sigma {n.sigma:.2f} level {n.level()}" if n is not None else ""
        total = sum(kinds.values())
        print(f"game {g}: noise {look.noise:.2f} jpeg {look.jpeg_quality} width {tables[g].get('width', 1280)}: "
              f"reads {total}, unchanged {kinds['unchanged']} ({kinds['unchanged'] / max(1, total):.0%}), "
              f"changed {kinds['changed']}, full {kinds['full']}{learnt}; scene as the reading's {truth['still']}, of them "
              f"unchanged {truth['still, unchanged']}; scene changed but read unchanged {truth['moved, unchanged']}; largest change on an unchanged frame "
              f"{max(kept_max) if kept_max else '-'}", flush=True)


if __name__ == "__main__":
    main()
