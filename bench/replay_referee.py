"""Replay real-like games through the referee of this tree, without reading a frame again.

``bench_reallike.py --dump DIR`` keeps, for each game, its script and what the app gave its
referee (the observations vision made, the players' buttons, the app's set-up questions). This
replays them through a fresh referee of the code on the path, the scripted players answering it
as ``sim.drive`` does (they confirm a set-up board that is the start, and enter a roll lying
still when asked), and prints the referee figures of ``bench_reallike --games``: illegal calls on
legal play, planted illegal plays caught, plays accepted (and as another board).

It is a referee change's quick check: vision is not run again, so whatever the app does with the
referee's answers (learning the board at set-up, a question it asks itself) stays as recorded.
A change to set-up or to when rolls are asked for can make the replay part from the real run;
the figures to record come from ``bench_reallike.py`` itself.

    .venv/bin/python bench/replay_referee.py DIR [--only 3,8] [--events]
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from pathlib import Path
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_reallike import game_list  # noqa: E402
from tavli_pi.referee import verdict  # noqa: E402
from tavli_pi.referee.events import Event  # noqa: E402
from tavli_pi.referee.inputs import Action, PlayerInput  # noqa: E402
from tavli_pi.sim.drive import ANSWER_HOLD, asks_setup_confirmation, asks_unseen_roll, entered_roll, set_up  # noqa: E402

FRAME = 0.1  # seconds between the frames of bench_reallike's games (10 fps)


def replay(game: dict[str, Any], show: bool = False, answer_last: bool = False,
           unattended: bool = False, at_moment: Callable[[int], None] | None = None) -> dict[str, Any]:
    """One dumped game through a fresh referee; its figures (and the events by moment).

    An answer the players give to a question of frame ``i`` reaches the referee before frame
    ``i + 1``; asked for the roll of a play already made, they hold the board (``sim.drive``): frame
    ``i``'s observation is given again, up to ``ANSWER_HOLD`` times, until the referee accepts or calls
    the play (the frames a dump recorded so are used where there are some, and dropped when this
    referee does not ask), the later frames' times shifted by the frames held. ``answer_last``: the
    answers to a question of the script's last frame are given too (the game goes on at a table).
    ``unattended``: nobody at the table enters a roll (``[referee] attended = false``, as a recording):
    the players only confirm the set-up board (which the app does by itself then). ``at_moment``: called
    with each moment's index before its frames are given (bench/replay_margin.py)."""
    moments = game["moments"]
    referee = pickle.loads(game["referee"])
    if unattended:
        referee.settings = dataclasses.replace(referee.settings, attended=False)
    by_moment: dict[int, list[tuple[str, Any, float]]] = {}
    for i, kind, item, now in game["calls"]:
        if kind == "step" and isinstance(item, PlayerInput) and item.source == "touch":
            continue  # the players' answers: given again below, to this referee's questions
        by_moment.setdefault(i, []).append((kind, item, now))
    events: list[list[Event]] = []
    answers: list[PlayerInput] = []
    asked = False
    last = 0.0
    shift = 0.0  # seconds of frames held by this replay's players that the dump did not record
    for i in range(len(moments)):
        if at_moment is not None:
            at_moment(i)
        calls = by_moment.get(i, [])
        now = calls[0][2] + shift if calls else 0.0
        last = now or last
        out: list[Event] = []
        for inp in answers:
            out += referee.step(inp, now)
        answers = []
        frames = [k for k, (kind, item, _) in enumerate(calls) if kind == "step" and not isinstance(item, PlayerInput)]
        recorded = [calls[k] for k in frames[1:]]  # frames the dump's players held the board for
        seen: tuple[Any, float] | None = None
        for k, (kind, item, t) in enumerate(calls):
            if k in frames[1:]:
                continue
            out += referee.step(item, t + shift) if kind == "step" else referee.ask_setup_confirmation(item)
            if k in frames[:1]:
                seen = (item, t + shift)
        asked = (asked or asks_setup_confirmation(out)) and not any(
            e.kind == "setup_checked" and getattr(e, "ok", False) for e in out)
        if asked and set_up(moments[i]):
            answers.append(PlayerInput(Action.ACCEPT, None, source="touch"))
            asked = False
        roll = None if unattended else entered_roll(out, moments, i)
        if roll is not None:
            answers.append(roll)
        used = 0
        if roll is not None and asks_unseen_roll(out) and seen is not None:
            got: list[Event] = []
            for h in range(ANSWER_HOLD):
                if any(e.kind in ("play_accepted", "illegal_play") for e in got):
                    break
                if h < len(recorded):
                    obs, t = recorded[h][1], recorded[h][2] + shift
                    used += 1
                else:
                    obs, t = seen[0], seen[1] + FRAME
                    shift += FRAME
                for inp in answers:  # given with the frame's time, as the app does
                    got += referee.step(inp, t)
                answers = []
                got += referee.step(obs, t)
                seen = (obs, t)
            out += got
        shift -= FRAME * (len(recorded) - used)  # frames held in the dump, not here
        events.append(out)
        if show and out:
            print(f"    f{i:3d} {moments[i].note[:28]:28s} {referee.phase.value:9s} "
                  + " ".join(e.kind for e in out))
    if answer_last and answers:
        late: list[Event] = []
        for inp in answers:
            late += referee.step(inp, last)
        events[-1] += late
    windows = []
    for i, m in enumerate(moments):
        if m.note == "an illegal play":
            end = next(j for j in range(i, len(moments)) if moments[j].note == "corrected")
            windows.append(range(i, end))
    calls_at = [i for i, ev in enumerate(events) if any(e.kind == "illegal_play" for e in ev)]
    # a planted turn, from the illegal play to the frames after its correction: a play accepted there
    # is the illegal one (or its correction), not one of the game's legal plays
    planted = [range(w.start, w.stop + 3) for w in windows]
    bad = [(w, moments[w.start].position.layout_key()) for w in windows]
    return {
        # a planted illegal play taken as played (the failure to remove), and plays taken unchecked
        "passed": [w.start for w, key in bad if any(e.kind == "play_accepted" and e.after.layout_key() == key  # type: ignore[attr-defined]
                                                    for i in w for e in events[i])],
        "unchecked": sum(1 for ev in events for e in ev if e.kind == "play_accepted" and e.extra.get("roll_unseen")),
        "held": sum(1 for ev in events for e in ev if e.kind == "board_out_of_sync" and e.extra.get("held")),
        "planted": len(windows),
        "caught": sum(1 for w in windows if any(c in w for c in calls_at)),
        "false": [c for c in calls_at if not any(c in w for w in windows)],
        "plays": sum(1 for m in moments if "play_accepted" in m.expect),
        "accepted": sum(1 for ev in events for e in ev if e.kind == "play_accepted"),
        "legal": sum(1 for i, ev in enumerate(events) for e in ev if e.kind == "play_accepted"
                     and not any(i in w for w in planted)),
        "wrong": [i for i, ev in enumerate(events) for e in ev if e.kind == "play_accepted"
                  and e.after.layout_key() != moments[i].position.layout_key()],  # type: ignore[attr-defined]
        "calls": calls_at,
        "windows": [w.start for w in windows],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("dir", type=Path)
    ap.add_argument("--only", default="", help="replay only these games (e.g. 100-119,130)")
    ap.add_argument("--events", action="store_true", help="the events of each moment that had some")
    ap.add_argument("--answer-last", action="store_true", help="give the players' answers to a question "
                    "asked on the script's last frame too (the referee asks for a roll it missed)")
    ap.add_argument("--unattended", action="store_true", help="nobody enters a roll (a recording): plays "
                    "whose roll went unread are taken not checked, or held")
    ap.add_argument("--max-doubtful", type=int, default=None, help="judge with this many doubtful spots "
                    "allowed (verdict.MAX_DOUBTFUL) instead of the tree's; stop 60 swept 4 to 26")
    args = ap.parse_args()
    if args.max_doubtful is not None:
        verdict.MAX_DOUBTFUL = args.max_doubtful  # read by judge_on_sure_spots at each call
    only = set(game_list(args.only))
    files = sorted(args.dir.glob("game*.pkl"), key=lambda p: int(p.stem[4:]))
    total: dict[str, int] = {"planted": 0, "caught": 0, "false": 0, "plays": 0, "accepted": 0, "legal": 0,
                             "wrong": 0, "passed": 0, "unchecked": 0, "held": 0}
    for f in files:
        g = int(f.stem[4:])
        if only and g not in only:
            continue
        with open(f, "rb") as fh:
            r = replay(pickle.load(fh), args.events, args.answer_last, args.unattended)
        for k in total:
            total[k] += len(r[k]) if isinstance(r[k], list) else r[k]
        print(f"  game {g}: accepted {r['accepted']}/{r['plays']} ({r['legal']} outside the planted turn), "
              f"illegal calls at {r['calls']}, "
              f"planted at {r['windows']} (passed as played {r['passed']}); accepted as another board at "
              f"{r['wrong']}; not checked {r['unchecked']}, held {r['held']}")
    print(f"replayed: illegal calls on legal play {total['false']}; planted caught {total['caught']}/"
          f"{total['planted']}, passed as played {total['passed']}; plays accepted {total['accepted']}/{total['plays']} "
          f"({total['unchecked']} not checked; {total['held']} held) "
          f"({total['wrong']} as another board; "
          f"{total['legal']} outside the planted turns)")


if __name__ == "__main__":
    main()
