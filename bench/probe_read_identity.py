"""Every frame's reading of two trees, side by side: the identity proof of an exact speed-up (issue 12).

Run, from the root of the tree to record (its ``tavli_pi`` and ``bench`` are the ones run):

    PYTHONPATH=$PWD .venv/bin/python PROBE dump OUT.txt reallike G [G ...]
    PYTHONPATH=$PWD .venv/bin/python PROBE dump OUT.txt video ARGS...   (``bench/bench_video.py``'s arguments)
    .venv/bin/python PROBE compare OLD.txt NEW.txt

``dump`` wraps ``BoardReader.read`` and writes one line per read: the run's name, the read's number, and
the reading's every die (value, value confidence, place, size, note, flat, on a checker, half, moving, lie
seen), every spot's light and dark count probabilities (so every count and confidence), the cube, hand,
motion, confidence and problems, floats as ``repr`` (to the bit). ``reallike G``: real-like game G as
``bench_reallike.py --frames 0 --games 200 --only G`` plays it, through the app (``bench/profile_loop.py``'s
run, incremental reader on); ``video``: a clip as ``bench_video.py`` runs it.
``compare`` prints the reads compared and the mismatch count (reads whose line differs, or a read only one
side made), with the first few mismatches.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

_LINES: list[str] = []
_RUN: dict[str, Any] = {"name": "", "n": 0}


def _die(d: Any) -> str:
    return (f"({d.value},{d.value_confidence!r},{d.xy[0]!r},{d.xy[1]!r},{d.size_px!r},{d.note!r},{d.flat},"
            f"{d.on_checker},{d.half},{d.moving},{d.lie_seen})")


def _spot(s: Any) -> str:
    return f"[{','.join(map(repr, s.light.probs))}|{','.join(map(repr, s.dark.probs))}]"


def reading(obs: Any) -> str:
    """The reading as one line, every float to the bit."""
    dice = ";".join(_die(d) for d in obs.dice)
    spots = ";".join(_spot(s) for s in (*obs.points, obs.bar, obs.off))
    cube = None if obs.cube is None else (obs.cube.value, obs.cube.place, repr(obs.cube.confidence))
    return (f"dice {dice} | cube {cube} | hand {obs.hand} motion {obs.motion} conf {obs.confidence!r} "
            f"problems {obs.problems} | spots {spots}")


def _install() -> None:
    from tavli_pi.vision import reader as rd

    read = rd.BoardReader.read

    def recorded(self: Any, *a: Any, **k: Any) -> Any:
        obs = read(self, *a, **k)
        _RUN["n"] += 1
        _LINES.append(f"{_RUN['name']} #{_RUN['n']}: {reading(obs)}")
        return obs

    rd.BoardReader.read = recorded  # type: ignore[method-assign]


def _reallike(g: int) -> None:
    from bench.bench_loop import drive_reallike

    drive_reallike(g, 10, True, lambda app, n: app)


def dump(out: str, kind: str, rest: list[str]) -> None:
    root = os.getcwd()
    sys.path.insert(0, root)
    from tavli_pi.threads import pin_threads

    pin_threads()
    _install()
    if kind == "reallike":
        for g in map(int, rest):
            _RUN["name"], _RUN["n"] = f"reallike {g}", 0
            _reallike(g)
        Path(out).write_text("\n".join(_LINES) + "\n")
    else:
        # ``bench_video`` runs ``tavli-pi run`` over each game's video in a child process: the child is
        # given the wrapper (``child``), its reads appended to ``out`` when it ends, one run a game
        import subprocess

        Path(out).write_text("")
        run, runs = subprocess.run, [0]

        def wrapped(cmd: list[str], *a: Any, **k: Any) -> Any:
            if len(cmd) > 2 and cmd[1] == "-c" and "tavli_pi.cli" in cmd[2]:
                runs[0] += 1
                here = str(Path(__file__).resolve().parent)
                cmd = [cmd[0], "-c", f"import sys; sys.path.append({here!r}); import probe_read_identity as P; "
                       f"P.child({out!r}, {f'video run {runs[0]}'!r}); {cmd[2]}", *cmd[3:]]
            return run(cmd, *a, **k)

        subprocess.run = wrapped  # type: ignore[assignment]
        sys.argv = [str(Path(root) / "bench" / "bench_video.py"), *rest]
        runpy.run_path(sys.argv[0], run_name="__main__")
    n = len(Path(out).read_text().splitlines())
    print(f"{n} reads written to {out}")


def child(out: str, name: str) -> None:
    """In ``tavli-pi run``'s process: record every read, appended to ``out`` as the process ends."""
    import atexit

    _RUN["name"], _RUN["n"] = name, 0
    _install()

    def write() -> None:
        with open(out, "a") as fh:
            fh.write("".join(line + "\n" for line in _LINES))

    atexit.register(write)


def compare(old: str, new: str) -> int:
    a = Path(old).read_text().splitlines()
    b = Path(new).read_text().splitlines()
    da, db = {s.split(":", 1)[0]: s for s in a}, {s.split(":", 1)[0]: s for s in b}
    bad = [k for k in dict.fromkeys([*da, *db]) if da.get(k) != db.get(k)]
    dice = sum(1 for s in a if not s.split(": ", 1)[1].startswith("dice  |"))
    print(f"{old} vs {new}: {len(da)} / {len(db)} reads ({dice} with dice), mismatches {len(bad)}")
    for k in bad[:5]:
        print(f"  {k}:\n    old {str(da.get(k))[:400]}\n    new {str(db.get(k))[:400]}")
    return len(bad)


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "dump" and sys.argv[3] in ("reallike", "video"):
        dump(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(1 if compare(sys.argv[2], sys.argv[3]) else 0)
    else:
        sys.exit("usage: probe_read_identity.py dump OUT.txt reallike G [G ...] | dump OUT.txt video ARGS... | "
                 "compare OLD.txt NEW.txt (see the module's doc)")
