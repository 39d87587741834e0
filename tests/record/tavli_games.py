"""Random tavli matches played with the rules, recorded as the referee would (tests only)."""

from __future__ import annotations

import random

from tavli_pi.record.tavli_text import RecordedGame, RecordedTurn, TavliRecord, turn_of
from tavli_pi.rules import moves as portes
from tavli_pi.rules import tavli_moves as tavli
from tavli_pi.rules.games import GamePosition, game_result, start_position
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.tavli_settings import MatchSettings, TavliSettings, Variant


def random_game(variant: Variant, rng: random.Random, settings: TavliSettings,
                match: MatchSettings, first: Side, max_turns: int = 600
                ) -> tuple[RecordedGame, list[GamePosition]]:
    """One game to its end (or ``max_turns``), and every position it went through."""
    pos: GamePosition = start_position(variant, first)
    seen = [pos]
    turns: list[RecordedTurn] = []
    for _ in range(max_turns):
        if game_result(variant, pos, settings, match) is not None:
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if isinstance(pos, Position):
            prs = portes.legal_results(pos, dice)
            pr = rng.choice(prs) if prs else None
            turns.append(turn_of(variant, pos, dice, pr))
            pos = portes.end_turn(pr.position if pr else pos)
        else:
            trs = tavli.legal_results(variant, pos, dice, settings)
            tr = rng.choice(trs) if trs else None
            turns.append(turn_of(variant, pos, dice, tr))
            pos = tavli.end_turn(tr.position if tr else pos)
        seen.append(pos)
    return RecordedGame(variant, seen[0], tuple(turns), game_result(variant, pos, settings, match)), seen


def random_match(seed: int, settings: TavliSettings = TavliSettings(),
                 match: MatchSettings = MatchSettings(match_length=3)
                 ) -> tuple[TavliRecord, list[list[GamePosition]]]:
    rng = random.Random(seed)
    state = TavliMatch(match)
    games: list[RecordedGame] = []
    positions: list[list[GamePosition]] = []
    while not state.over and len(games) < 12:
        first = state.starter or rng.choice([Side.WHITE, Side.BLACK])
        g, seen = random_game(state.variant, rng, settings, match, first)
        games.append(g)
        positions.append(seen)
        if g.result is None:
            break
        state = state.after_game(g.result.winner, g.result.points)
    return TavliRecord(("Anna", "Babis"), match, settings, tuple(games)), positions
