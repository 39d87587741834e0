"""How much of the dice search's kept arrays a changed frame makes again (issue 12, vision/dice_memo.py).

Run: .venv/bin/python bench/probe_patched.py demo|GAMES [--windows]  (GAMES: real-like games, e.g. 100,103;
``--windows``: never make an array whole, as before stop 21, to see every window asked for)

``demo``: the demo's first 80 frames through a TableApp at 10 fps, incremental reader on (as
bench/profile_loop.py); GAMES: ``bench_reallike.games(200, 0, 8, only=GAMES)``'s reads. For every
``DiceMemo.patched`` call on an array kept from an earlier frame it counts the windows made again
(``part``) and their summed area over the array's, times the call (CPU, ``thread_time``) and, apart,
what making the whole array would have cost, and says how often the call made the array whole
(``WHOLE_SHARE``). A camera whose frames change in scattered cells (noise, JPEG) asks for many
windows; a noise-free one for a few round what moved.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable, Hashable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

from tavli_pi.vision import dice_memo  # noqa: E402
from tavli_pi.vision.dice_memo import Box, DiceMemo, Rect  # noqa: E402

#: per array kind: calls, windows, summed area share, CPU of the call, CPU of a whole array, made whole
stats: dict[str, list[float]] = {}
_patched = DiceMemo.patched


def _probe(self: DiceMemo, key: Hashable, place: Callable[[Box], Box], reach: int, whole: Callable[[], np.ndarray],
           part: Callable[[Rect], np.ndarray], source: np.ndarray | None = None) -> np.ndarray:
    kept = key in self._patched  # noqa: SLF001
    areas: list[int] = []
    wholes: list[int] = []

    def counted_part(r: Rect) -> np.ndarray:
        areas.append((r[1] - r[0]) * (r[3] - r[2]))
        return part(r)

    def counted_whole() -> np.ndarray:
        wholes.append(1)
        return whole()

    c = time.thread_time()
    out = _patched(self, key, place, reach, counted_whole, counted_part, source)
    spent = time.thread_time() - c
    if kept:
        c = time.thread_time()
        whole()
        alone = time.thread_time() - c
        name = str(key[0]) if isinstance(key, tuple) else str(key)
        if isinstance(key, tuple) and key[0] == "spots":
            name = f"spots {key[1]}"
        s = stats.setdefault(name, [0.0] * 6)
        for i, v in enumerate((1, len(areas), sum(areas) / (out.shape[0] * out.shape[1]), spent, alone, len(wholes))):
            s[i] += v
    return out


def _demo() -> None:
    from gpiozero.pins.mock import MockFactory

    from bench.bench_loop import _at, _frames
    from tavli_pi.app import TableApp
    from tavli_pi.config import parse_config
    from tavli_pi.sim.script import demo_match

    moments = demo_match()[:80]
    frames, cal = _frames(moments, 7)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config(f"[table]\nmatch_length = 5\n[record]\nlog = '{Path(tmp) / 'table.sqlite'}'\n")
        with TableApp(cfg, calibration=cal, pin_factory=MockFactory(), incremental=True) as app:
            seen = -1
            for m, frame in _at(frames, 10):
                if m != seen:
                    for inp in moments[m].inputs:
                        app.submit(inp)
                    seen = m
                app.process(frame)


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "demo"
    if "--windows" in sys.argv:
        dice_memo.WHOLE_SHARE = float("inf")
    DiceMemo.patched = _probe  # type: ignore[method-assign]
    if what == "demo":
        _demo()
    else:
        from bench import bench_reallike

        bench_reallike.games(200, 0, 8, only=frozenset(int(g) for g in what.split(",")))
    print(f"{what}: arrays kept from an earlier frame (WHOLE_SHARE {dice_memo.WHOLE_SHARE})")
    for name, (n, wins, area, spent, alone, made) in stats.items():
        print(f"  {name:16s} calls {int(n):4d}: windows {wins / n:6.1f} a call, their area {area / n:5.2f} of the "
              f"array's, made whole {int(made)}; the call {1000 * spent / n:6.2f} ms, a whole array {1000 * alone / n:6.2f} ms")


if __name__ == "__main__":
    main()
