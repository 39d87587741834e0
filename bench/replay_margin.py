"""The referee's margin against a false call: how near a wrong board came to being called.

Replays dumped real-like games (``bench_reallike.py --dump DIR``) through the referee of this tree, as
``replay_referee.py`` does, and notes every verdict the referee works out (``judge_evidence``, however
it is reached) on a moment outside the planted turns -- a legal play, a corrected board, a board
waiting for its roll -- where the board it reads (the free reading) is not the one on the table while
that board is among the candidates. For each such moment it keeps the largest gap the wrong board
reached over the best candidate: the raw gap, and the gap a call is tested against
(:func:`~tavli_pi.referee.verdict.call_gap`). A call needs that gap to reach ``illegal_gap`` (9.0) on a
board read confidently (``illegal_confidence`` on every spot it rests on, or pinned by the count) and
alike on ``stable_frames`` frames, so the second list -- those read so -- is how near legal play came to
a false call.

    .venv/bin/python bench/replay_margin.py DIR [--only 42,142] [--top 12]
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_reallike import game_list  # noqa: E402
from bench.replay_referee import replay  # noqa: E402
import tavli_pi.referee.referee as referee_module  # noqa: E402
import tavli_pi.referee.verdict as verdict_module  # noqa: E402
from tavli_pi.referee.evidence import EvidenceTable, game_spot_counts  # noqa: E402
from tavli_pi.referee.verdict import Verdict, call_gap  # noqa: E402

_judge = verdict_module.judge_evidence


class Watch:
    """What the replay's verdicts were, moment by moment."""

    def __init__(self) -> None:
        self.moment: int | None = None
        self.truth: Any = None  # the moment's position on the table
        self.seen: list[dict[str, Any]] = []

    def judge(self, frames: Sequence[Any], candidates: Sequence[Any], settings: Any, turn: Any,
              **kw: Any) -> Verdict:
        v = _judge(frames, candidates, settings, turn, **kw)
        r = v.reading
        if r is None or self.moment is None or self.truth is None:
            return v
        game, lw = kw.get("game"), settings.light_is_white
        tl, td = game_spot_counts(self.truth, lw, game)
        fl, fd = np.asarray(r.free_light), np.asarray(r.free_dark)
        key = self.truth.layout_key()
        table = kw.get("table")
        blind = kw.get("blind", ())
        t = EvidenceTable(frames, blind) if table is None else table.blinded(blind)
        sure = r.free is not None and (r.min_confidence >= settings.illegal_confidence or t.sure_by_count(
            fl, fd, r.differing, settings.illegal_confidence))
        self.seen.append({
            "moment": self.moment, "frames": len(frames), "gap": r.gap, "call_gap": call_gap(r, len(frames), settings),
            "confidence": r.min_confidence, "stable": r.stable_frames, "kind": v.kind,
            "wrong": bool(((fl != tl) | (fd != td)).any()), "candidate": any(c.layout_key() == key for c in candidates),
            "sure": sure and r.stable_frames >= settings.stable_frames,
        })
        return v


def margins(game: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One dumped game replayed: its figures (replay_referee) and its verdicts outside the planted
    turns on a wrong board whose true board was a candidate."""
    w = Watch()
    moments = game["moments"]

    def at(i: int) -> None:
        w.moment, w.truth = i, moments[i].position

    verdict_module.judge_evidence = w.judge
    referee_module.judge_evidence = w.judge
    try:
        r = replay(game, at_moment=at)
    finally:
        verdict_module.judge_evidence = _judge
        referee_module.judge_evidence = _judge
    planted = []
    for start in r["windows"]:
        end = next(j for j in range(start, len(moments)) if moments[j].note == "corrected")
        planted.append(range(start, end))
    return r, [x for x in w.seen if x["wrong"] and x["candidate"] and not any(x["moment"] in p for p in planted)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("dir", type=Path)
    ap.add_argument("--only", default="", help="only these games (e.g. 42,142)")
    ap.add_argument("--top", type=int, default=12, help="how many of the nearest moments to list")
    args = ap.parse_args()
    only = set(game_list(args.only))
    files = sorted(args.dir.glob("game*.pkl"), key=lambda p: int(p.stem[4:]))
    rows: list[tuple[int, dict[str, Any]]] = []
    false = caught = planted = 0
    for f in files:
        g = int(f.stem[4:])
        if only and g not in only:
            continue
        with open(f, "rb") as fh:
            r, seen = margins(pickle.load(fh))
        false += len(r["false"])
        caught += r["caught"]
        planted += r["planted"]
        rows += [(g, x) for x in seen]

    def show(title: str, picked: list[tuple[int, dict[str, Any]]]) -> None:
        print(title)
        best: dict[tuple[int, int], tuple[int, dict[str, Any]]] = {}
        for g, x in picked:  # the largest call gap of each moment
            k = (g, x["moment"])
            if k not in best or x["call_gap"] > best[k][1]["call_gap"]:
                best[k] = (g, x)
        for g, x in sorted(best.values(), key=lambda gx: -gx[1]["call_gap"])[: args.top]:
            print(f"  game {g} moment {x['moment']}: call gap {x['call_gap']:.1f} (summed {x['gap']:.1f}) over "
                  f"{x['frames']} frames, confidence {x['confidence']:.2f}, alike on {x['stable']}, {x['kind']}")

    print(f"replayed: illegal calls on legal play {false}; planted caught {caught}/{planted}")
    show("the nearest a wrong board came to a call (any confidence):", rows)
    show("read confidently and alike on the frames a call needs (all but the gap of a call):",
         [(g, x) for g, x in rows if x["sure"]])


if __name__ == "__main__":
    main()
