"""``tavli-pi export DB --format mat|sgf [--out FILE]`` on a real log, read back by gnubg."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.cli import main
from tavli_pi.record.export import export_all, load_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.mat import read_mat
from tavli_pi.record.store import MatchLog
from tavli_pi.record.synthetic import synthetic_match
from tests.record.gnubg_tool import gnubg_read
from tests.record.test_gnubg_import import _compare

H = MatchHeader(players=("Alice", "Bob"), match_length=5, event="Club night", date="2024-05-01")


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    p = tmp_path / "table.sqlite"
    with MatchLog.open(p, H) as log:
        log.append_many([(e, None) for e in synthetic_match(77, H)])
    return p


def test_export_mat_and_sgf_files(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(db), "--format", "mat", "--out", str(tmp_path / "m.mat")]) == 0
    assert main(["export", str(db), "--format", "sgf", "--out", str(tmp_path / "m.sgf")]) == 0
    assert "wrote" in capsys.readouterr().err
    rec = load_record(db)
    assert read_mat(tmp_path / "m.mat").games == rec.games
    for got, fmt in zip(gnubg_read([("mat", tmp_path / "m.mat"), ("sgf", tmp_path / "m.sgf")]),
                        ("mat", "sgf")):
        _compare(rec, got, fmt)


def test_export_to_stdout(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("; [Player 1 \"Alice\"]") and " 5 point match" in out
    assert main(["export", str(db), "--format", "sgf"]) == 0
    assert capsys.readouterr().out.startswith("(;FF[4]GM[6]")


def test_export_all_for_the_demo(db: Path, tmp_path: Path) -> None:
    out = export_all(db, tmp_path / "out")
    assert out["mat"].name == "match.mat" and out["sgf"].name == "match.sgf"
    assert read_mat(out["mat"]).score == load_record(db).score


def test_foreign_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("shopping list\n" * 20)
    assert main(["export", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not a tavli-pi match log" in err and "left untouched" in err
    assert bad.read_text() == "shopping list\n" * 20
    assert main(["export", str(tmp_path / "missing.sqlite")]) == 2
    assert "no match log here" in capsys.readouterr().err


def test_export_position_ids(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tavli_pi.record.game_record import Turn
    from tavli_pi.rules.ids import parse_xgid, position_from_id

    assert main(["export", str(db), "--format", "ids"]) == 0
    lines = capsys.readouterr().out.splitlines()
    turns = [a for g in load_record(db).games for a in g.actions if isinstance(a, Turn)]
    assert len(lines) == len(turns)
    for line, t in zip(lines, turns):
        _, game, _, n, side, dice, pid, xg = line.split()
        assert t.before is not None and side == t.side.name.lower() and dice == f"{t.dice[0]}{t.dice[1]}"
        assert position_from_id(pid, t.side).layout_key() == t.before.layout_key()
        pos, info = parse_xgid(xg)
        assert pos.layout_key() == t.before.layout_key() and info.dice == t.dice


def test_unwritable_out_path_is_a_clear_error(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(db), "--out", str(tmp_path / "no-such-dir" / "m.mat")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-dir exists" in err and "Traceback" not in err
