"""Tavli measures (issue 13): reading pinned stacks and 15-stacks, and the referee over random Plakoto/Fevga games.

Vision: simulated Plakoto boards with pinned checkers (positions from random
Plakoto games) and boards with tall stacks (the Plakoto and Fevga set-ups, all
15 on one point, and early positions with 12-15 on a point), on every board
design, read by the real reader calibrated on the Portes set-up board (the
installation step). Prints the per-spot error (a point's light or dark count
argmax wrong), the confidently wrong spots (wrong with confidence >= 0.9) and
the pinned colour's accuracy.

Referee: random games of each variant at the Observation level with a noisy
reader (tests/referee/tavli_games.py): illegal calls on legal plays, planted
illegal plays (a checker pushed a pip, F3 on the first turn, F4/F5 blocks)
caught and corrected, per rule.

    .venv/bin/python bench/bench_tavli.py [--part vision|referee|all] [--games 200] [--boards 40]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tavli_pi.rules.games import game_result, legal_ends, start_position  # noqa: E402
from tavli_pi.rules.position import Position, Side  # noqa: E402
from tavli_pi.rules.tavli_position import TavliPosition  # noqa: E402
from tavli_pi.rules.tavli_settings import TavliSettings, Variant  # noqa: E402


def _random_positions(variant: Variant, rng: random.Random, want: int, keep: object) -> list[TavliPosition]:
    out: list[TavliPosition] = []
    while len(out) < want:
        pos = start_position(variant, Side.WHITE)
        for _ in range(120):
            if game_result(variant, pos) is not None:
                break
            ends = legal_ends(variant, pos, (rng.randint(1, 6), rng.randint(1, 6)))
            after = rng.choice(ends).position
            assert isinstance(after, TavliPosition)
            pos = after.with_turn(after.turn.other)
            if keep(pos) and rng.random() < 0.3:  # type: ignore[operator]
                out.append(pos)
                break
    return out


def bench_vision(n_boards: int) -> None:
    from tavli_pi.sim._boards import DESIGNS
    from tavli_pi.sim.render import render
    from tavli_pi.sim.scene import Look, scene_from_position
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.refine import refine

    rng = random.Random(13)
    pinned = _random_positions(Variant.PLAKOTO, rng, n_boards, lambda p: any(p.pinned))
    tall = [TavliPosition.start(Variant.PLAKOTO), TavliPosition.start(Variant.FEVGA)]
    tall += _random_positions(Variant.FEVGA, rng, n_boards // 2,
                              lambda p: max(abs(v) for v in p.points) >= 12)
    tall += _random_positions(Variant.PLAKOTO, rng, n_boards // 2,
                              lambda p: max(abs(v) for v in p.points) >= 12)
    for name, boards in (("pinned Plakoto boards", pinned), ("tall stacks (12-15 on a point)", tall)):
        spots = wrong = confident_wrong = pins = pins_right = 0
        t0 = time.perf_counter()
        frames = 0
        for design in DESIGNS:
            r0 = render(scene_from_position(Position.start(), look=Look(board=design)), seed=1)
            reader = BoardReader(refine(Calibration(r0.truth.corners), r0.image))
            for k, pos in enumerate(boards):
                sc = scene_from_position(pos, look=Look(board=design))
                img = render(sc, seed=100 + k).image
                obs = BoardReader(reader.calibration).read(img)
                frames += 1
                for i, s in enumerate(obs.points):
                    for ev, truth in ((s.light, sc.light[i]), (s.dark, sc.dark[i])):
                        spots += 1
                        if ev.best != truth:
                            wrong += 1
                            confident_wrong += ev.confidence >= 0.9
                    if sc.pinned and sc.pinned[i]:
                        pins += 1
                        pins_right += obs.pinned[i] == sc.pinned[i]
        dt = time.perf_counter() - t0
        print(f"{name}: {len(boards)} boards x {len(DESIGNS)} designs = {frames} frames, {spots} spots")
        print(f"  per-spot error {100 * wrong / spots:.3f} % ({wrong}), confidently wrong (>= 0.9) {confident_wrong}")
        if pins:
            print(f"  pinned colour right {pins_right}/{pins} ({100 * pins_right / pins:.1f} %)")
        print(f"  {dt / frames * 1000:.0f} ms per frame (render + read)")


def bench_referee(games: int) -> None:
    from tests.referee.synth import Noise
    from tests.referee.tavli_games import play_random_tavli_game, tavli_table

    for variant in (Variant.PLAKOTO, Variant.FEVGA):
        for block in ("end-of-play", "every-move") if variant is Variant.FEVGA else ("end-of-play",):
            from tavli_pi.rules.tavli_settings import settings_from_mapping

            settings: TavliSettings = settings_from_mapping({"fevga.block_check": block})
            rng = random.Random(2026)
            t0 = time.perf_counter()
            tot: Counter[str] = Counter()
            kinds: Counter[str] = Counter()
            rules: Counter[str] = Counter()
            for g in range(games):
                t = tavli_table(variant, settings=settings, seed=g, noise=Noise(level=0.3, flip=0.02))
                st = play_random_tavli_game(t, variant, rng, plant=0.15, settings=settings)
                tot.update(turns=st.turns, accepted=st.accepted, illegal_calls=st.illegal_calls,
                           wrong_accepts=st.wrong_accepts, planted=st.planted, caught=st.caught,
                           corrected=st.corrected, finished=st.over is not None, unclear=st.unclear)
                kinds.update(st.planted_kinds)
                rules.update(st.caught_rules)
            dt = time.perf_counter() - t0
            print(f"{variant.value} (fevga.block_check={block}): {games} games, {tot['turns']} turns, "
                  f"{tot['finished']} finished, {dt:.0f} s")
            print(f"  legal plays accepted {tot['accepted']}, illegal calls on legal play {tot['illegal_calls']}, "
                  f"wrong accepts {tot['wrong_accepts']}, clear-view requests {tot['unclear']}")
            print(f"  planted illegal {tot['planted']} ({dict(kinds)}), caught {tot['caught']}, "
                  f"corrected {tot['corrected']}; rules named {dict(rules)}")


def bench_blocks(n: int) -> None:
    """Planted F4 and F5 breaks (random scenarios, noisy reader): every one caught with its rule."""
    from tests.referee.synth import Noise, kinds, roll_dice
    from tests.referee.tavli_games import block_scenario, tavli_table

    from tavli_pi.referee.events import IllegalPlay

    for rule in ("F4", "F5"):
        rng = random.Random(5)
        done = caught = named = 0
        while done < n:
            sc = block_scenario(rng, rule)
            if sc is None:
                continue
            pos, values, bad = sc
            t = tavli_table(Variant.FEVGA, start=pos, seed=done, noise=Noise(level=0.3, flip=0.02))
            t.setup(pos)
            dice = roll_dice(Side.WHITE, values)
            t.throw(pos, dice)
            t.move_and_pick_up(pos, bad, dice, extra=10)
            ills = [e for e in t.events if isinstance(e, IllegalPlay)]
            done += 1
            caught += bool(ills)
            named += bool(ills) and ills[0].rule == rule
            if not ills:
                print("  missed:", pos, values, bad, kinds(t.events)[-5:])
        print(f"planted {rule} breaks: {done}, caught {caught}, named {rule} {named}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=("vision", "referee", "all"), default="all")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--boards", type=int, default=40)
    args = ap.parse_args()
    if args.part in ("vision", "all"):
        bench_vision(args.boards)
    if args.part in ("referee", "all"):
        bench_blocks(args.games)
        bench_referee(args.games)


if __name__ == "__main__":
    main()
