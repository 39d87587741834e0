from __future__ import annotations

from typing import Any

from tavli_pi.display.history import TableHistory
from tavli_pi.display.view import cube_text, view_of
from tavli_pi.rules.ids import position_id
from tavli_pi.rules.position import Side

from .helpers import accepted, illegal, scripted_game


def test_view_carries_board_score_and_ids() -> None:
    ev = accepted()
    v = view_of(ev, 7)
    assert v["seq"] == 7
    assert v["points"][4] == 2 and v["points"][7] == 2  # White's 5 and 8 points
    assert v["score"] == [1, 0]
    assert v["pips"] == [163, 167]
    assert v["position_id"] == position_id(ev.state.position)
    assert v["xgid"].startswith("XGID=")
    assert v["verdict"] == {"text": "Play accepted", "style": "ok", "rule": ""}
    assert v["cube"] == {"value": 1, "face": 64, "owner": None, "text": "centred"}
    assert v["moves"] == [] and v["last_play"] is None  # no history given


def test_illegal_view_marks_wrong_points_and_due_decisions() -> None:
    v = view_of(illegal(), 1)
    assert v["verdict"]["style"] == "illegal" and v["verdict"]["rule"] == "M2"
    assert v["wrong_points"] == [13, 18]
    assert v["decisions"] == ["accept", "correct"]
    assert v["crawford"] is True


def test_cube_is_said_as_players_say_it() -> None:
    assert cube_text(1, None) == "centred"
    assert cube_text(2, Side.BLACK) == "Black owns 2"
    assert cube_text(8, Side.WHITE) == "White owns 8"
    assert cube_text(2, None) == "centred at 2"  # an automatic double (C5) leaves it in the middle


def _views() -> list[dict[str, Any]]:
    h = TableHistory()
    out = []
    for i, e in enumerate(scripted_game(), 1):
        h.feed(e)
        out.append(view_of(e, i, h))
    return out


def test_dice_lie_in_the_rollers_half_and_the_opening_roll_in_both() -> None:
    vs = _views()
    kinds = [v["kind"] for v in vs]
    assert vs[kinds.index("opening_roll")]["dice_laid"] == [
        {"value": 1, "half": "left", "side": "black"},
        {"value": 3, "half": "right", "side": "white"},
    ]
    assert vs[2]["dice_laid"] == []  # picked up once the play is accepted (E5)
    assert vs[3]["dice_laid"] == [{"value": 6, "half": "left", "side": "black"}] + [
        {"value": 4, "half": "left", "side": "black"}]
    assert [d["half"] for d in vs[7]["dice_laid"]] == ["right", "right"]  # White's 6-2


def test_last_play_and_move_list_follow_the_game() -> None:
    v = _views()[-1]
    assert v["last_play"] == {"side": "white", "dice": [6, 2], "notation": "13/11 13/7*", "from": [13, 13],
                              "to": [11, 7], "hits": [7]}
    assert v["moves"] == [
        {"n": 1, "white": "31: 8/5 6/5", "black": "64: 24/18 13/9"},
        {"n": 2, "white": "Doubles => 2", "black": "Takes"},
        {"n": 3, "white": "62: 13/11 13/7*", "black": ""},
    ]
    assert v["cube"]["text"] == "Black owns 2" and v["game"] == 1


def test_a_set_up_read_otherwise_offers_accept_to_confirm_it_B3() -> None:
    from tavli_pi.referee.events import Phase, SetupChecked, TableState
    from tavli_pi.rules.position import Position

    asked = SetupChecked(at=0.0, state=TableState(phase=Phase.SETUP, position=Position.start(), setup_wrong=True),
                         ok=False, problems=("point 13",))
    assert view_of(asked, 1)["decisions"] == ["accept"]
    fine = SetupChecked(at=0.0, state=TableState(phase=Phase.SETUP, position=Position.start()), ok=True)
    assert view_of(fine, 2)["decisions"] == []
