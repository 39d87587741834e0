"""``tavli-pi plays``: every legal play of a position and roll (M1-M7; V1-V8, P, F).

Portes (the default) takes a gnubg Position ID or XGID and answers as it always
has. ``--variant plakoto|fevga`` takes the RULES-TAVLI.md notation and answers
``{"variant", "position", "dice", "plays": [{"moves", "position"}]}`` where each
play's position is the end position with the other side to move, its moves in
the mover's own numbering; with no legal play (V8) one entry with empty moves
and the position unchanged. ``--jsonl`` answers one request per input line,
output line N for input line N; every error object carries ``"line": N``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from tavli_pi.errors import ConfigError, InvalidDiceError, TavliError
from tavli_pi.rules.ids import parse_position, position_id, position_ids
from tavli_pi.rules.moves import canonical_text, check_dice, legal_results
from tavli_pi.rules.tavli_settings import TavliSettings, Variant, parse_variant, settings_from_mapping

__all__ = ["HELP", "add_arguments", "run", "answer", "answer_tavli", "answer_line", "dumps_answer"]

HELP = ("list every legal play for a position and two dice "
        "(Portes: gnubg Position ID or XGID; Plakoto, Fevga: the RULES-TAVLI.md notation)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position", nargs="?",
        help="Portes: gnubg Position ID or XGID; Plakoto/Fevga: the RULES-TAVLI.md notation, "
             "quoted (e.g. 'b15 - ... - w15 0 0 white'); the side on roll moves",
    )
    parser.add_argument("d1", nargs="?", help="first die, 1-6")
    parser.add_argument("d2", nargs="?", help="second die, 1-6")
    parser.add_argument(
        "--variant", default="portes",
        help="portes (default), plakoto or fevga (RULES-TAVLI.md)",
    )
    parser.add_argument(
        "--setting", action="append", default=[], metavar="KEY=VALUE",
        help="a rule setting of RULES-TAVLI.md, e.g. fevga.block_check=every-move (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--jsonl", action="store_true",
        help='answer many requests: one {"position": ..., "dice": [d1, d2]} per stdin line, '
             'optionally with "variant" and "settings"; output line N answers input line N',
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
    results = legal_results(pos, d)
    ids = position_ids([r.position for r in results])
    plays = [{"moves": canonical_text(r), "position": pid} for r, pid in zip(results, ids)]
    return {"position": position_id(pos), "dice": [d[0], d[1]], "plays": plays}


def answer_tavli(
    variant: Variant, position: str, dice: tuple[int, int], settings: TavliSettings = TavliSettings()
) -> dict[str, Any]:
    """The JSON answer for a Plakoto or Fevga request (raises TavliError on bad input)."""
    # imported here: Portes (the default) answers without loading the tavli rules (issue 12)
    from tavli_pi.rules.tavli_moves import end_turn, format_tavli_play, results_or_pass
    from tavli_pi.rules.tavli_position import format_tavli_position, parse_tavli_position

    pos = parse_tavli_position(position, variant)
    d = check_dice(dice)
    plays = [
        {"moves": format_tavli_play(r.play), "position": format_tavli_position(end_turn(r.position))}
        for r in results_or_pass(variant, pos, d, settings)
    ]
    return {"variant": variant.value, "position": format_tavli_position(pos),
            "dice": [d[0], d[1]], "plays": plays}


def _settings(raw: object) -> TavliSettings:
    if raw is None:
        return TavliSettings()
    if not isinstance(raw, dict):
        raise ConfigError('"settings" must be an object such as {"fevga.block_check": "every-move"}')
    return settings_from_mapping(raw)


def answer_line(line: str, number: int = 1) -> dict[str, Any]:
    """One --jsonl line in, one answer (or {"error": ..., "line": N}) out; never raises."""
    def error(msg: str, **extra: Any) -> dict[str, Any]:
        return {"error": msg, "line": number, **extra}

    if not line.strip():
        return error('blank line: expected {"position": ..., "dice": [d1, d2]}')
    try:
        req = json.loads(line)
    except json.JSONDecodeError as exc:
        return error(f"not JSON ({exc.msg} at column {exc.colno})")
    if not isinstance(req, dict):
        return error('expected an object {"position": ..., "dice": [d1, d2]}')
    pid = req.get("position")
    dice = req.get("dice")
    try:
        variant = parse_variant(req.get("variant", "portes"))
        settings = _settings(req.get("settings"))
        if not isinstance(pid, str):
            what = ("a gnubg Position ID or an XGID" if variant is Variant.PORTES
                    else "the RULES-TAVLI.md notation")
            raise TavliErrorMissing(f'"position" must be a string: {what}')
        if not isinstance(dice, list) or len(dice) != 2:
            raise InvalidDiceError('"dice" must be a list of two dice, e.g. [3, 1]')
        d = (_die(dice[0]), _die(dice[1]))
        if variant is Variant.PORTES:
            return answer(pid, d)
        return answer_tavli(variant, pid, d, settings)
    except TavliError as exc:
        extra: dict[str, Any] = {"position": pid} if isinstance(pid, str) else {}
        return error(str(exc), **extra)


class TavliErrorMissing(TavliError, ValueError):
    """A --jsonl request lacks a field."""


def dumps_answer(result: dict[str, Any]) -> str:
    """``json.dumps(result, separators=(",", ":"))``, written directly for a Portes answer (issue 12).

    A Portes answer's strings are Position IDs (Base64) and gnubg move texts
    (digits, ``bar``, ``off``, ``/*()`` and spaces): nothing JSON escapes, so
    the text is the encoder's, byte for byte (tests/commands/test_plays.py).
    """
    plays = result.get("plays")
    if plays is not None and len(result) == 3:  # {"position", "dice", "plays"}: Portes
        d1, d2 = result["dice"]
        body = ",".join([f'{{"moves":"{p["moves"]}","position":"{p["position"]}"}}' for p in plays])
        return f'{{"position":"{result["position"]}","dice":[{d1},{d2}],"plays":[{body}]}}'
    return json.dumps(result, separators=(",", ":"))


def _run_jsonl(stdin: TextIO, stdout: TextIO) -> int:
    for number, line in enumerate(stdin, 1):
        stdout.write(dumps_answer(answer_line(line, number)) + "\n")
        stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.position is not None:
            raise InvalidDiceError("--jsonl reads requests from stdin: give no POSITION or dice")
        return _run_jsonl(sys.stdin, sys.stdout)
    if args.position is None or args.d1 is None or args.d2 is None:
        raise InvalidDiceError("usage: tavli-pi plays POSITION D1 D2 [--json] (or --jsonl)")
    variant = parse_variant(args.variant)
    settings = settings_from_mapping(dict(_kv(x) for x in args.setting))
    dice = (_die(args.d1), _die(args.d2))
    if variant is not Variant.PORTES:
        return _print_tavli(answer_tavli(variant, args.position, dice, settings), args.json)
    result = answer(args.position, dice)
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


def _kv(text: str) -> tuple[str, str]:
    key, eq, value = text.partition("=")
    if not eq:
        raise ConfigError(f"--setting {text!r}: write KEY=VALUE, e.g. fevga.prime=allowed")
    return key.strip(), value.strip()


def _print_tavli(result: dict[str, Any], as_json: bool) -> int:
    if as_json:
        print(json.dumps(result))
        return 0
    plays = result["plays"]
    d1, d2 = result["dice"]
    n = len(plays) if plays[0]["moves"] else 0
    print(f"{result['variant']} {result['position']}  roll {d1}-{d2}: "
          f"{n} legal result{'s' if n != 1 else ''}")
    if not n:
        print("  no legal play: the turn passes, the board unchanged (V8)")
        return 0
    for i, p in enumerate(plays, 1):
        print(f"  {i:3d}. {p['moves']:<28} -> {p['position']}")
    return 0
