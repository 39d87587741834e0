"""``tavli-pi demo --no-serve --out DIR``: the whole pipeline on rendered frames (a few games' worth)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.cli import main
from tavli_pi.record.store import MatchLog
from tests.mounts import run_with_mount


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    out = tmp_path_factory.mktemp("demo")
    code = main(["demo", "--no-serve", "--out", str(out), "--quiet"])
    return code, out


def test_demo_writes_the_log_and_its_exports(demo: tuple[int, Path]) -> None:
    _, out = demo
    for name in ("table.sqlite", "match.mat", "match.sgf"):
        assert (out / name).stat().st_size > 0, name
    log = MatchLog.open(out / "table.sqlite")
    try:
        kinds = [x.event.kind for x in log.events()]
    finally:
        log.close()
    assert kinds[:2] == ["setup_checked", "game_started"]
    # every scripted decision reached the referee through the app's input queue
    assert kinds.count("action_refused") + kinds.count("cube_offered") + kinds.count("resigned") >= 3


def test_demo_meets_the_script_and_exits_0(demo: tuple[int, Path]) -> None:
    code, _ = demo
    assert code == 0


def test_an_earlier_log_is_never_replaced_without_force(demo: tuple[int, Path],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    _, out = demo
    before = (out / "table.sqlite").read_bytes()
    assert main(["demo", "--no-serve", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "holds an earlier match" in err and "--force" in err and err.count("\n") == 1
    assert (out / "table.sqlite").read_bytes() == before


def test_out_naming_a_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a-file"
    f.write_text("keep me")
    assert main(["demo", "--no-serve", "--out", str(f), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "is a file: give a folder" in err and "Traceback" not in err
    assert f.read_text() == "keep me"


def test_out_in_a_read_only_folder_is_a_clear_error(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    (tmp_path / "src").mkdir()
    script = (f"import sys; from tavli_pi.cli import main; "
              f"sys.exit(main(['demo', '--no-serve', '--out', '{ro}/demo', '--quiet']))")
    proc = run_with_mount(ro, script, read_only_of=tmp_path / "src")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "cannot be written (Read-only file system): give a writable folder" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_force_replaces_the_log_only(tmp_path: Path) -> None:
    from tavli_pi.commands.demo import prepare_out

    (tmp_path / "table.sqlite").write_bytes(b"old")
    (tmp_path / "table.sqlite-wal").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("mine")
    assert prepare_out(tmp_path, force=True) == tmp_path / "table.sqlite"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
