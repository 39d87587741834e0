from __future__ import annotations

from tavli_pi.display.view import view_of
from tavli_pi.rules.ids import position_id

from .helpers import accepted, illegal


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
    assert v["cube"] == {"value": 1, "shown": 64, "owner": None}


def test_illegal_view_marks_wrong_points_and_due_decisions() -> None:
    v = view_of(illegal(), 1)
    assert v["verdict"]["style"] == "illegal" and v["verdict"]["rule"] == "M2"
    assert v["wrong_points"] == [13, 18]
    assert v["decisions"] == ["accept", "correct"]
    assert v["crawford"] is True
