"""The ``tavli-pi`` entry point loads only what the chosen command needs (issue 12: start fast).

Each check runs in a fresh interpreter (this test process has long imported
everything) and reads ``sys.modules`` after ``main`` returns: ``--help`` and
``plays`` must not load cv2, numpy, aiohttp, paho, gpiozero or the simulator.
The wall time of a cold start is measured in bench/bench_startup.py, not here.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tavli_pi.cli import COMMANDS, build_parser, chosen_command

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("cv2", "numpy", "aiohttp", "paho", "gpiozero", "tavli_pi.sim", "tavli_pi.vision", "tavli_pi.app")

_PROBE = """
import contextlib, io, json, sys
from tavli_pi.cli import main
out = io.StringIO()
code = None
with contextlib.redirect_stdout(out):
    try:
        code = main(json.loads(sys.argv[1]))
    except SystemExit as exc:
        code = exc.code
heavy = json.loads(sys.argv[2])
loaded = sorted({h for h in heavy for m in sys.modules if m == h or m.startswith(h + ".")})
print(json.dumps({"code": code, "out": out.getvalue(), "loaded": loaded}))
"""


def _probe(argv: list[str], stdin: str = "") -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv), json.dumps(HEAVY)], input=stdin,
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_top_level_help_lists_every_command_and_loads_nothing_heavy() -> None:
    r = _probe(["--help"])
    assert r["code"] == 0 and r["loaded"] == []
    out = str(r["out"])
    for name, (_, help_) in COMMANDS.items():
        assert name in out and help_.split()[0] in out


def test_plays_loads_nothing_heavy() -> None:
    r = _probe(["plays", "4HPwATDgc/ABMA", "3", "1"])
    assert r["code"] == 0 and r["loaded"] == []
    assert "4HPwATDgc/ABMA  roll 3-1: 16 legal results" in str(r["out"])


def test_plays_jsonl_loads_nothing_heavy() -> None:
    lines = '{"position": "4HPwATDgc/ABMA", "dice": [6, 5]}\n{"position": "x", "dice": [1, 1]}\n'
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(["plays", "--jsonl"]), json.dumps(HEAVY)],
                          input=lines, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    *answers, last = done.stdout.strip().splitlines()
    r = json.loads(last)
    assert r["code"] == 0 and r["loaded"] == []
    first, second = (json.loads(x) for x in str(r["out"]).splitlines())
    assert len(first["plays"]) == 7 and second["line"] == 2 and "error" in second


@pytest.mark.parametrize("name", ["run", "demo", "director", "export", "markers", "read"])
def test_each_commands_help_shows_its_options_without_its_heavy_modules(name: str) -> None:
    r = _probe([name, "--help"])
    assert r["code"] == 0
    assert r["loaded"] == [], f"{name} --help imported {r['loaded']}"
    assert f"usage: tavli-pi {name}" in str(r["out"])
    # the command's own options are there: its module was loaded for this line
    parser = build_parser(name)
    sub = next(a for a in parser._actions if a.dest == "command")
    own = sub.choices[name]  # type: ignore[index]
    for action in own._actions:
        for flag in action.option_strings:
            if flag.startswith("--"):
                assert flag in str(r["out"])


def test_the_light_help_table_matches_each_module() -> None:
    for name, (module, help_) in COMMANDS.items():
        mod = importlib.import_module(f"tavli_pi.commands.{module}")
        assert mod.HELP == help_, name


def test_read_home_choices_match_the_vision_calibration() -> None:
    from tavli_pi.commands.read import HOMES
    from tavli_pi.vision import calibrate

    assert HOMES == calibrate.HOMES


def test_export_format_choices_match_the_exporters() -> None:
    from tavli_pi.commands.export import FORMATS
    from tavli_pi.record import export

    assert FORMATS == tuple(sorted(export.FORMATS))


def test_chosen_command() -> None:
    assert chosen_command(["plays", "X", "3", "1"]) == "plays"
    assert chosen_command(["--help"]) == ""
    assert chosen_command([]) == ""
    assert chosen_command(["nonsense"]) == ""
    assert chosen_command(["-h", "demo"]) == "demo"


def test_an_unknown_command_is_argparse_usage_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from tavli_pi.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["nonsense"])
    assert exc.value.code == 2
    assert "invalid choice: 'nonsense'" in capsys.readouterr().err


def test_run_opens_a_sim_camera_from_config_in_a_fresh_process(tmp_path: Path) -> None:
    """``[camera] source = "sim:..."`` still works for ``run``, though demo (and the sim) are not imported up front."""
    cfg = tmp_path / "table.toml"
    cfg.write_text("[camera]\nsource = 'sim:start:2'\ncorners = '324.8,64.8 955.2,64.8 955.2,655.2 324.8,655.2'\n"
                   f"[record]\nlog = '{tmp_path / 'table.sqlite'}'\n")
    r = _probe(["run", "--config", str(cfg), "--max-frames", "2"])
    assert r["code"] == 0, r
    assert "tavli_pi.sim" in str(r["loaded"])  # loaded on first use, by the camera registry
