"""The director's page says when a table's last play was taken without its roll (not checked)."""

from __future__ import annotations

from tavli_pi.referee.events import to_dict
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.tournament.director import Dashboard
from tavli_pi.tournament.feed import FeedMessage

from tests.referee.synth import Table, opened


def test_a_play_taken_without_its_roll_is_shown_not_checked() -> None:
    t = Table(Referee(RefereeSettings(attended=False)))
    ref = opened(t)
    pos = ref.position
    after = apply_play(pos, parse_play(pos, "13/7 8/7"))  # Black's 6-1, the roll never seen
    t.show(after, hand=True)
    t.show(after, 4)
    d = Dashboard()
    out = {}
    for seq, e in enumerate(t.events, 1):
        out = d.apply(FeedMessage("7", "events", {**to_dict(e), "seq": seq}, "ev"))
        if e.kind == "play_accepted" and e.extra.get("roll_unseen"):
            assert out["last"].endswith("(not checked: roll not seen)")
        elif e.kind == "play_accepted":
            assert "not checked" not in out["last"]
    assert "not checked" in out["last"]
