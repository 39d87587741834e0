"""The move list, last play and dice layout kept from the event stream."""

from __future__ import annotations

from tavli_pi.display.history import TableHistory, dice_laid, marks_of
from tavli_pi.referee import events as E
from tavli_pi.rules.moves import Move, parse_play
from tavli_pi.rules.position import Position, Side

from .helpers import illegal, scripted_game, state


def test_marks_are_in_whites_numbering_net_of_hops() -> None:
    pos = Position.start(Side.BLACK)
    # Black's 24/18 13/9 is White's 1 -> 7 and 12 -> 16
    assert marks_of(Side.BLACK, parse_play(pos, "24/18 13/9")) == ((1, 12), (7, 16), ())
    # one checker 13/7*/5: it left 13 and reached 5; 7 is where it hit
    play = (Move(13, 7, True), Move(7, 5))
    assert marks_of(Side.WHITE, play) == ((13,), (5,), (7,))
    assert marks_of(Side.WHITE, (Move(25, 22), Move(6, 0))) == (("bar", 6), (22, "off"), ())
    assert marks_of(Side.BLACK, (Move(25, 20),)) == (("bar",), (5,), ())


def test_dice_laid() -> None:
    assert dice_laid((5, 5), Side.WHITE) == [{"value": 5, "half": "right", "side": "white"}] * 2
    assert len(dice_laid((5, 5, 5, 5), Side.WHITE)) == 2  # a double is still two dice on the table
    assert dice_laid((2, 1), Side.BLACK)[0]["half"] == "left"
    assert [d["side"] for d in dice_laid((6, 1), Side.WHITE, (6, 1))] == ["black", "white"]


def test_a_new_game_clears_the_list() -> None:
    h = TableHistory()
    for e in scripted_game():
        h.feed(e)
    assert len(h.rows) == 3 and h.last_play is not None
    h.feed(E.GameStarted(at=20.0, state=state(phase="opening"), game_number=2, score=(0, 2), crawford=False))
    assert h.rows == [] and h.last_play is None and h.game_number == 2


def test_black_first_pass_and_an_illegal_play_let_stand() -> None:
    h = TableHistory()
    p0 = Position.start(Side.BLACK)
    after = Position.start(Side.BLACK)
    # the real referee reports the pass (E7), then accepts the empty play when the dice leave: one entry
    h.feed(E.NoLegalMove(at=0.5, state=state(position=p0.with_turn(Side.WHITE)), side=Side.BLACK, dice=(6, 5)))
    assert h.rows == [["", "65: (no move)"]]
    h.feed(E.PlayAccepted(at=1.0, state=state(), side=Side.BLACK, dice=(6, 5), play="", before=p0, after=after))
    assert h.rows == [["", "65: (no move)"]]  # Black opened: White's column stays empty, as in gnubg
    ill = illegal()  # White 6-5 from the start, let stand: 13/7 13/8 seen as 24/13
    pts = list(Position.start().points)
    pts[23] -= 1  # one checker 24/13: not a 6-5 play (M1), the opponent lets it stand (E8)
    pts[12] += 1
    observed = Position(tuple(pts), turn=Side.WHITE)
    h.feed(ill)
    h.feed(E.IllegalPlayResolved(at=3.0, state=state(), side=Side.WHITE, accepted=True, play="", after=observed))
    assert h.rows[-1][0].startswith("65: ") and h.last_play is not None
    assert h.last_play.sources == (24,) and h.last_play.targets == (13,)
    assert h.last_play.notation == "24/13"


def test_cube_pass_and_win_rows() -> None:
    h = TableHistory()
    st = state(phase="cube")
    h.feed(E.CubeOffered(at=1.0, state=st, side=Side.BLACK, value=2))
    h.feed(E.CubePassed(at=2.0, state=st, side=Side.WHITE, value=1))
    h.feed(E.GameOver(at=3.0, state=st, winner=Side.BLACK, points=1, result="pass", score=(0, 1)))
    assert h.rows == [["", "Doubles => 2"], ["Drops", "Wins 1 point"]]


def test_the_move_list_agrees_with_the_match_record_of_whole_matches() -> None:
    """Whole random matches (record.synthetic): each game's list holds the record's turns and cube actions.

    The match record is what the .mat export writes (checked against gnubg in tests/record).
    """
    from tavli_pi.record.game_record import CubeAction, Turn, build_record
    from tavli_pi.record.header import MatchHeader
    from tavli_pi.record.synthetic import synthetic_match
    from tavli_pi.rules.moves import format_play

    for seed in range(6):
        header = MatchHeader(players=("Alice", "Bob"), match_length=5)
        events = synthetic_match(seed, header)
        record = build_record(header, events)
        lists: list[list[str]] = []
        h = TableHistory()
        for e in events:
            if isinstance(e, E.GameStarted) and h.rows:
                lists.append([x for row in h.rows for x in row if x])
            h.feed(e)
        lists.append([x for row in h.rows for x in row if x])
        assert len(lists) == len(record.games)
        for shown, game in zip(lists, record.games):
            want = []
            for a in game.actions:
                if isinstance(a, Turn):
                    want.append(f"{a.dice[0]}{a.dice[1]}: {format_play(a.play) or '(no move)'}")
                elif isinstance(a, CubeAction):
                    want.append({"double": f"Doubles => {a.value}", "take": "Takes", "drop": "Drops"}[a.action])
            assert [x for x in shown if not x.startswith("Wins")] == want, (seed, game.number)
            if game.result != "resign":
                assert shown[-1] == f"Wins {game.points} point{'s' if game.points != 1 else ''}"
