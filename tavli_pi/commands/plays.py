"""``tavli-pi plays``: every legal play of a position and roll (M1-M7)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from tavli_pi.errors import InvalidDiceError, TavliError
from tavli_pi.rules.ids import parse_position, position_id
from tavli_pi.rules.moves import check_dice, format_play, legal_results

__all__ = ["HELP", "add_arguments", "run", "answer", "answer_line"]

HELP = "list every legal play for a position (gnubg Position ID or XGID) and two dice"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", nargs="?", help="gnubg Position ID or XGID; the side on roll moves")
    parser.add_argument("d1", nargs="?", help="first die, 1-6")
    parser.add_argument("d2", nargs="?", help="second die, 1-6")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--jsonl", action="store_true",
        help='answer many requests: one {"position": ID, "dice": [d1, d2]} per stdin line',
    )


def _die(v: object) -> int:
    if isinstance(v, bool):
        raise InvalidDiceError(f"a die is a number 1-6, got {v!r}")
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.strip().isdigit():
        return int(v)
    raise InvalidDiceError(f"a die is a number 1-6, got {v!r}")


def answer(position: str, dice: tuple[int, int]) -> dict[str, Any]:
    """The JSON answer for one request (raises TavliError on bad input)."""
    pos = parse_position(position)
    d = check_dice(dice)
    plays = [
        {"moves": format_play(r.plays[0]), "position": position_id(r.position)}
        for r in legal_results(pos, d)
    ]
    return {"position": position_id(pos), "dice": [d[0], d[1]], "plays": plays}


def answer_line(line: str) -> dict[str, Any]:
    """One --jsonl line in, one answer (or {"error": ...}) out; never raises."""
    try:
        req = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON ({exc.msg} at column {exc.colno})"}
    if not isinstance(req, dict):
        return {"error": 'expected an object {"position": ID, "dice": [d1, d2]}'}
    pid = req.get("position")
    dice = req.get("dice")
    try:
        if not isinstance(pid, str):
            raise TavliErrorMissing('"position" must be a string: a gnubg Position ID or an XGID')
        if not isinstance(dice, list) or len(dice) != 2:
            raise InvalidDiceError('"dice" must be a list of two dice, e.g. [3, 1]')
        return answer(pid, (_die(dice[0]), _die(dice[1])))
    except TavliError as exc:
        out: dict[str, Any] = {"error": str(exc)}
        if isinstance(pid, str):
            out["position"] = pid
        return out


class TavliErrorMissing(TavliError, ValueError):
    """A --jsonl request lacks a field."""


def _run_jsonl(stdin: TextIO, stdout: TextIO) -> int:
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(answer_line(line), separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.position is not None:
            raise InvalidDiceError("--jsonl reads requests from stdin: give no POSITION or dice")
        return _run_jsonl(sys.stdin, sys.stdout)
    if args.position is None or args.d1 is None or args.d2 is None:
        raise InvalidDiceError("usage: tavli-pi plays POSITION D1 D2 [--json] (or --jsonl)")
    result = answer(args.position, (_die(args.d1), _die(args.d2)))
    if args.json:
        print(json.dumps(result))
        return 0
    plays = result["plays"]
    d1, d2 = result["dice"]
    print(f"{result['position']}  roll {d1}-{d2}: {len(plays)} legal result{'s' if len(plays) != 1 else ''}")
    if not plays:
        print("  no legal move: the turn passes (E7, M4)")
    for i, p in enumerate(plays, 1):
        print(f"  {i:3d}. {p['moves']:<28} -> {p['position']}")
    return 0
