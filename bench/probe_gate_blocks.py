"""Could a block-mean test tell a JPEG camera's still frames from changed ones? (issue 12, stop 19)

Run: .venv/bin/python bench/probe_gate_blocks.py 101,102,103,104 [--blocks 2,3,4]

Plays the real-like referee games as ``bench/bench_reallike.py --frames 0 --games 200 --only ...``
does, with the reader's block test (``NoiseLevel.blocks_still``) off -- the reader of stop 18 -- and,
on every frame the incremental reader reads (``last_kind`` changed or full, with a reading kept),
compares the gate's view (quarter scale, colour) with the view the reading in use was read from by
``noise_level.block_change``: the largest absolute change of a b x b block's mean (blocks
overlapping by half, per channel, grey levels). Also printed: the quietest block change between two
frames in a row the reader learnt (``NoiseLevel.quiet``, b = ``BLOCK``) and the still frames the
reader's own rule (under ``BLOCK_FLOOR`` times it and under ``REGION_CHANGE``) would keep. Each such frame is classed by the truth: ``still`` (the camera shows the very scene
the reading in use was read from) or ``moved``. A block-mean test could reuse the reading on a still
frame only if the still frames' largest block change lies below every moved frame's; per game and
block size it prints both sides' ranges and the still frames a threshold half way would keep, and
the moved frames it would miss. It also prints the plain pixel test's largest change on both sides
(``any_changed``'s statistic) for comparison.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_reallike  # noqa: E402
from bench.scene_truth import SceneTruth  # noqa: E402
from tavli_pi.vision.incremental import REGION_CHANGE  # noqa: E402
from tavli_pi.vision.noise_level import BLOCK, BLOCK_FLOOR, NoiseLevel, block_change, block_rms  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402


def main() -> None:
    args = sys.argv[1:]
    blocks = [int(x) for x in args[args.index("--blocks") + 1].split(",")] if "--blocks" in args else [2, 3, 4, 6]
    read = BoardReader.read
    scenes = SceneTruth()
    rows: list[tuple[bool, float, list[float]]] = []  # (still, pixel max, block maxima)
    rms_rows: list[list[float]] = []  # per row: block_rms at each size
    floors: dict[int, list[float]] = {}  # per size: block_rms between every two frames in a row
    prev_view: list[Any] = [None]
    noise: list[Any] = [None]  # the reader's NoiseLevel
    def probe(self: BoardReader, image: Any, frame_index: int = 0) -> Observation:
        kept = self._kept  # noqa: SLF001
        obs = read(self, image, frame_index)
        if self.incremental:
            noise[0] = self.noise
            same = scenes.still()
            cur = self._view(image)  # noqa: SLF001
            if prev_view[0] is not None and prev_view[0].shape == cur.shape:
                for b in blocks:
                    floors.setdefault(b, []).append(block_rms(cur, prev_view[0], b))
            prev_view[0] = cur
            if kept is not None and self.last_kind != "unchanged":
                view = self._view(image)  # noqa: SLF001
                rows.append((same, float(cv2.absdiff(view, kept.view).max()),
                             [block_change(view, kept.view, b) for b in blocks]))
                rms_rows.append([block_rms(view, kept.view, b) for b in blocks])
            scenes.read_as(self.last_kind)
        return obs

    BoardReader.read = probe  # type: ignore[method-assign]
    # the reader as base reads: no frame kept by its block means (so every still frame is measured)
    NoiseLevel.blocks_still = lambda self, view, ref: False  # type: ignore[method-assign]
    scenes.install()
    tables = bench_reallike.reallike_game_tables(200, 0)
    for g in (int(x) for x in args[0].split(",")):
        rows.clear()
        rms_rows.clear()
        floors.clear()
        prev_view[0] = None
        scenes.reset()
        bench_reallike.games(200, 0, 8, only=frozenset({g}))
        look = tables[g]["look"]
        still = [r for r in rows if r[0]]
        moved = [r for r in rows if not r[0]]
        for i, b in enumerate(blocks):
            fl = floors.get(b, [])
            q = min(fl[:]) if len(fl) >= 5 else float("nan")
            s_ = sorted(x[i] for r, x in zip(rows, rms_rows) if r[0])
            m_ = sorted(x[i] for r, x in zip(rows, rms_rows) if not r[0])
            if s_ and m_:
                print(f"  rms {b}x{b}: floor {q:.2f}; still {s_[0]:.1f}-{s_[-1]:.1f} (x floor {s_[-1] / q:.2f}), moved "
                      f"{m_[0]:.1f}-{m_[-1]:.1f} (x floor {m_[0] / q:.2f}; lowest five "
                      f"{', '.join(f'{v / q:.2f}' for v in m_[:5])})", flush=True)
        print(f"game {g}: noise {look.noise:.2f} jpeg {look.jpeg_quality} width {tables[g].get('width', 1280)}: "
              f"frames read {len(rows)}, still {len(still)}, moved {len(moved)}", flush=True)
        if not still or not moved:
            continue
        quiet = noise[0].quiet if noise[0] is not None else None
        if quiet is not None and BLOCK in blocks:
            cut = min(BLOCK_FLOOR * quiet, float(REGION_CHANGE))
            i = blocks.index(BLOCK)
            print(f"  the reader's floor (quietest block change of two frames in a row) {quiet:.2f}: under {cut:.2f} "
                  f"still {sum(r[2][i] < cut for r in still)}/{len(still)}, moved {sum(r[2][i] < cut for r in moved)}/{len(moved)}")
        px_s, px_m = [r[1] for r in still], [r[1] for r in moved]
        print(f"  pixel max: still {min(px_s):.0f}-{max(px_s):.0f}, moved {min(px_m):.0f}-{max(px_m):.0f}")
        for i, b in enumerate(blocks):
            s = sorted(r[2][i] for r in still)
            m = sorted(r[2][i] for r in moved)
            cut = 0.5 * (s[-1] + m[0])
            print(f"  blocks {b}x{b}: still {s[0]:.1f}-{s[-1]:.1f} (median {np.median(s):.1f}), moved "
                  f"{m[0]:.1f}-{m[-1]:.1f} (median {np.median(m):.1f}, lowest five "
                  f"{', '.join(f'{v:.1f}' for v in m[:5])}); gap {m[0] - s[-1]:+.1f}; "
                  f"at {cut:.1f}: still kept {sum(v < cut for v in s)}/{len(s)}, moved missed "
                  f"{sum(v < cut for v in m)}/{len(m)}", flush=True)


if __name__ == "__main__":
    main()
