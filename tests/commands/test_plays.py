"""``tavli-pi plays``: the CLI and its JSON / JSONL protocol."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tavli_pi.cli import main
from tavli_pi.rules.ids import position_from_id

START = "4HPwATDgc/ABMA"
START_XG = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_json_for_the_opening_31(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", START, "3", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["position"] == START and out["dice"] == [3, 1]
    assert len(out["plays"]) == 16  # gnubg lists 16 distinct results for 31
    moves = {p["moves"] for p in out["plays"]}
    assert "8/5 6/5" in moves and "24/23 13/10" in moves
    ids = [p["position"] for p in out["plays"]]
    assert len(set(ids)) == 16
    # the result ID is from the mover's view: the mover has 15 on board, 8/5 6/5 made the 5 point
    made = next(p["position"] for p in out["plays"] if p["moves"] == "8/5 6/5")
    assert position_from_id(made).count(position_from_id(made).turn, 5) == 2


def test_xgid_input_and_hits(capsys: pytest.CaptureFixture[str]) -> None:
    # a Black blot on White's 10 (lowercase a), White 13 on the ace point, 2 on 13
    xg = "XGID=-M----n---a--B------------:0:0:1:00:0:0:0:0:10"
    assert main(["plays", xg, "3", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any("*" in p["moves"] for p in out["plays"])
    assert main(["plays", START_XG, "6", "6"]) == 0
    text = capsys.readouterr().out
    assert "legal results" in text and "24/18(2) 13/7(2)" in text


def test_no_move_readable(capsys: pytest.CaptureFixture[str]) -> None:
    # White on the bar against a closed board
    xg = "XGID=-----c-------N-----bbbbbbA:0:0:1:00:0:0:0:0:10"
    assert main(["plays", xg, "6", "6"]) == 0
    assert "no legal move" in capsys.readouterr().out
    assert main(["plays", xg, "6", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plays"] == []


@pytest.mark.parametrize("argv,why", [
    (["plays", "4HPwATDgc/ABM", "3", "1"], "14 characters"),
    (["plays", START, "3", "7"], "1-6"),
    (["plays", START, "x", "1"], "1-6"),
    (["plays", START, "3"], "usage"),
])
def test_errors_are_one_line_exit_2(argv: list[str], why: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert why in err and "\n" not in err


def test_jsonl_many_requests_in_one_process() -> None:
    lines = [
        {"position": START, "dice": [3, 1]},
        "not json",
        {"position": "garbage!", "dice": [1, 2]},
        {"position": START, "dice": [0, 2]},
        {"position": START_XG, "dice": [6, 6]},
        {"dice": [1, 2]},
    ]
    stdin = "".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines)
    proc = subprocess.run([sys.executable, "-m", "tavli_pi.cli", "plays", "--jsonl"],
                          input=stdin, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    assert len(out[0]["plays"]) == 16
    assert "not JSON" in out[1]["error"]
    assert "14 characters" in out[2]["error"]
    assert "1-6" in out[3]["error"]
    assert out[4]["position"] == START and out[4]["dice"] == [6, 6]
    assert "position" in out[5]["error"]


# -- Plakoto and Fevga (issue 13), and one answer per input line (issue 10) -------------
PLAKOTO_START = "b15 " + "- " * 22 + "w15 0 0 white"
FEVGA_START = "- " * 11 + "b15 " + "- " * 11 + "w15 0 0 white"


def test_variant_json_lists_plays_with_end_positions_other_side_to_move(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "--variant", "fevga", FEVGA_START, "5", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "fevga" and out["dice"] == [5, 5]
    assert out["position"] == FEVGA_START
    assert {p["moves"] for p in out["plays"]} == {"24/19/14/9 24/19", "24/19/14/9/4"}  # F3
    for p in out["plays"]:
        assert p["position"].endswith(" 0 0 black")
    assert main(["plays", "--variant", "plakoto", PLAKOTO_START, "6", "5"]) == 0
    text = capsys.readouterr().out
    assert "2 legal results" in text and "24/18/13" in text


def test_settings_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    runner_on_12 = "b15 " + "- " * 10 + "w1 " + "- " * 11 + "w14 0 0 white"
    assert main(["plays", "--variant", "fevga", runner_on_12, "2", "1", "--json"]) == 0
    default = {p["moves"] for p in json.loads(capsys.readouterr().out)["plays"]}
    assert main(["plays", "--variant", "fevga", runner_on_12, "2", "1", "--json",
                 "--setting", "fevga.first_checker=in-start-quarter"]) == 0
    quarter = {p["moves"] for p in json.loads(capsys.readouterr().out)["plays"]}
    assert "24/22 24/23" in quarter and "24/22 24/23" not in default


def test_V8_no_play_is_one_entry_with_the_position_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    shut = "b11 " + "- " * 16 + "b2 b2 " + "- " * 4 + "w15 0 0 white"
    assert main(["plays", "--variant", "plakoto", shut, "6", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["plays"] == [{"moves": "", "position": shut.replace("white", "black")}]
    assert main(["plays", "--variant", "plakoto", shut, "6", "5"]) == 0
    assert "V8" in capsys.readouterr().out


@pytest.mark.parametrize("argv,why", [
    (["plays", "--variant", "narde", PLAKOTO_START, "3", "1"], "portes, plakoto or fevga"),
    (["plays", "--variant", "plakoto", PLAKOTO_START.replace("b15", "b2w3", 1), "3", "1"],
     "one pinned checker"),
    (["plays", "--variant", "plakoto", PLAKOTO_START.replace("w15", "w14"), "3", "1"], "15"),
    (["plays", "--variant", "fevga", FEVGA_START, "3", "1", "--setting", "fevga.speed=fast"],
     "unknown setting"),
    (["plays", "--variant", "fevga", FEVGA_START, "3", "1", "--setting", "fevga.prime"], "KEY=VALUE"),
    (["plays", "--variant", "plakoto", PLAKOTO_START.replace("b15", "q15", 1), "3", "1"], "'q15'"),
])
def test_tavli_errors_are_one_line(argv: list[str], why: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert why in err and "\n" not in err


def test_jsonl_mixed_games_one_output_line_per_input_line() -> None:
    lines = [
        json.dumps({"variant": "fevga", "position": FEVGA_START, "dice": [5, 5],
                    "settings": {"fevga.block_check": "every-move"}}),
        "",
        json.dumps({"position": START, "dice": [3, 1]}),
        json.dumps({"variant": "plakoto", "position": PLAKOTO_START, "dice": [6, 5],
                    "settings": {"plakoto.mother": "sometimes"}}),
        json.dumps({"variant": "plakoto", "position": "b15 w15", "dice": [6, 5]}),
        json.dumps({"variant": "tavla", "position": PLAKOTO_START, "dice": [6, 5]}),
        json.dumps({"variant": "plakoto", "position": PLAKOTO_START, "dice": [6, 5],
                    "settings": {"plakoto.mother": "two-points"}}),
        "   ",
    ]
    proc = subprocess.run([sys.executable, "-m", "tavli_pi.cli", "plays", "--jsonl"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["variant"] == "fevga" and len(out[0]["plays"]) == 2
    assert out[1] == {"error": out[1]["error"], "line": 2} and "blank" in out[1]["error"]
    assert "variant" not in out[2] and len(out[2]["plays"]) == 16  # Portes: today's format
    assert out[3]["line"] == 4 and "plakoto.mother" in out[3]["error"]
    assert out[4]["line"] == 5 and "27 tokens" in out[4]["error"]
    assert out[5]["line"] == 6 and "unknown variant" in out[5]["error"]
    assert out[6]["variant"] == "plakoto" and len(out[6]["plays"]) == 2
    assert out[7]["line"] == 8 and "error" in out[7]
    for o in out:
        assert ("error" in o) == ("line" in o)


def test_a_finished_game_is_an_error_naming_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    mother = "b1w1 " + "- " * 4 + "w14 " + "- " * 13 + "b14 - - - - 0 0 black"
    assert main(["plays", "--variant", "plakoto", mother, "3", "1"]) == 2
    err = capsys.readouterr().err
    assert "game is over" in err and "P6" in err


def test_jsonl_answers_are_the_json_encoders_text_byte_for_byte() -> None:
    """The Portes answer is written directly (issue 12): the same bytes as json.dumps."""
    from tavli_pi.commands.plays import answer_line, dumps_answer
    from tavli_pi.rules.ids import position_id, xgid
    from tests.rules.gnubg_oracle import sample_pairs

    lines = [json.dumps({"position": xgid(p) if i % 5 == 0 else position_id(p), "dice": [d[0], d[1]]})
             for i, (p, d) in enumerate(sample_pairs(400, seed=612))]
    lines += ['', 'nope', '{"position": "4HPwATDgc/ABMA", "dice": [7, 1]}',
              '{"variant": "plakoto", "position": "' + PLAKOTO_START + '", "dice": [3, 1]}']
    portes = 0
    for n, line in enumerate(lines, 1):
        result = answer_line(line, n)
        assert dumps_answer(result) == json.dumps(result, separators=(",", ":"))
        portes += "plays" in result and "variant" not in result
    assert portes == 400
