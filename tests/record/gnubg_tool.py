"""Drive the real GNU Backgammon (Debian gnubg, /usr/games/gnubg) over its Python interface.

``gnubg -t -q -r -p script.py`` runs a script inside gnubg; the script imports
each file (``import mat FILE`` / ``load match FILE``) and dumps
``gnubg.match(boards=1)``: per game the info (winner, points, resigned) and
every action (dice, move, the Position ID before it, double/take/drop).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

GNUBG = Path("/usr/games/gnubg")

_SCRIPT = r'''
import gnubg, json
jobs = json.load(open(JOBS))
for fmt, path, out in jobs:
    gnubg.command("new session")
    if fmt == "mat":
        gnubg.command("import mat " + path)
    else:
        gnubg.command("load match " + path)
    m = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    with open(out, "w") as f:
        json.dump(m, f, default=str)
'''


def require_gnubg() -> None:
    if not GNUBG.exists():
        pytest.fail("GNU Backgammon is missing: run scripts/setup.sh (apt package gnubg)")


def gnubg_read(files: list[tuple[str, Path]]) -> list[dict[str, Any]]:
    """Import every (format, path) into gnubg; return what gnubg found, per file."""
    require_gnubg()
    with tempfile.TemporaryDirectory(prefix="tavli-gnubg-") as d:
        jobs = [(fmt, str(p), str(Path(d) / f"{i}.json")) for i, (fmt, p) in enumerate(files)]
        jobs_path = Path(d) / "jobs.json"
        jobs_path.write_text(json.dumps(jobs))
        script = Path(d) / "dump.py"
        script.write_text(f"JOBS = {str(jobs_path)!r}\n" + _SCRIPT)
        env = dict(os.environ, HOME=d)  # keep gnubg's prefs out of the real home
        proc = subprocess.run([str(GNUBG), "-t", "-q", "-r", "-p", str(script)],
                              capture_output=True, text=True, timeout=120, env=env, cwd=d)
        out = []
        for _, _, o in jobs:
            if not Path(o).exists():
                raise AssertionError(f"gnubg produced nothing for a file:\n{proc.stdout[-2000:]}\n"
                                     f"{proc.stderr[-2000:]}")
            out.append(json.loads(Path(o).read_text()))
        return out
