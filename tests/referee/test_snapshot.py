"""Referee snapshots: a whole referee round-trips; a crafted or damaged blob never runs code."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import pytest

from tavli_pi.errors import SnapshotError
from tavli_pi.referee import snapshot
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import SNAPSHOT_ADDED, Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.referee.setup_check import MOVED
from tavli_pi.rules.match import MatchState
from tavli_pi.referee.unseen import AskedRoll
from tavli_pi.rules.moves import legal_results
from tavli_pi.rules.position import Position, Side

from .synth import Table, die, kinds, roll_dice


def _signed(body: bytes) -> bytes:
    return snapshot.FORMAT + hashlib.blake2b(body, digest_size=16).digest() + body


def test_a_referee_mid_match_round_trips() -> None:
    ref = Referee(RefereeSettings(), match=MatchState(5), players=("Ann", "Bob"))
    again = snapshot.loads(snapshot.dumps(ref))
    assert again.state == ref.state
    assert vars(again).keys() == vars(ref).keys()


class _Evil:
    def __reduce__(self) -> tuple[object, tuple[str, ...]]:
        return (os.system, ("touch /tmp/tavli-snapshot-pwned",))


def test_a_crafted_pickle_naming_a_function_is_refused_before_it_runs(tmp_path: Path) -> None:
    blob = _signed(pickle.dumps(_Evil()))
    with pytest.raises(SnapshotError, match="may not hold"):
        snapshot.loads(blob)
    assert not Path("/tmp/tavli-snapshot-pwned").exists()


def test_a_project_function_is_refused_too() -> None:
    from tavli_pi.files import write_atomic

    class Writes:
        def __reduce__(self) -> tuple[object, tuple[str, str]]:
            return (write_atomic, ("/tmp/tavli-snapshot-written", "x"))

    with pytest.raises(SnapshotError, match="may not hold"):
        snapshot.loads(_signed(pickle.dumps(Writes())))
    assert not Path("/tmp/tavli-snapshot-written").exists()


def test_damaged_foreign_and_wrong_type_blobs_are_refused() -> None:
    good = snapshot.dumps(Referee())
    with pytest.raises(SnapshotError, match="damaged"):
        snapshot.loads(good[:-3] + b"xyz")
    with pytest.raises(SnapshotError, match="bad header"):
        snapshot.loads(b"tavli-pi referee snapshot 0\n" + good[len(snapshot.FORMAT):])
    with pytest.raises(SnapshotError, match="not a referee"):
        snapshot.loads(_signed(pickle.dumps({"phase": "rolled"})))
    with pytest.raises(SnapshotError, match="cannot be read"):
        snapshot.loads(_signed(b"\x80\x05garbage"))


def test_the_attributes_an_older_snapshot_lacks_are_those_a_new_referee_starts_with() -> None:
    ref = Referee()
    assert {k: getattr(ref, k) for k in SNAPSHOT_ADDED} == SNAPSHOT_ADDED


def test_an_older_snapshot_without_the_added_attributes_restores_and_plays_on() -> None:
    """A snapshot written before the referee (its dice watches, its sync state) grew attributes:
    restored, it holds every attribute with a new referee's value and takes frames and rolls."""
    t = Table(Referee(RefereeSettings(attended=False)))
    t.setup()
    ref = t.referee
    for name in SNAPSHOT_ADDED:
        delattr(ref, name)
    for watch in (ref._watch, ref._prem):
        for name in ("unread", "_unread_sig", "_unread_n"):
            delattr(watch, name)
    del ref.sync.state.steady_s
    t.referee = again = snapshot.loads(snapshot.dumps(ref))
    assert {k: getattr(again, k) for k in SNAPSHOT_ADDED} == SNAPSHOT_ADDED
    assert again._watch.unread is None and again._watch._unread_n == 0 and again.sync.state.steady_s == 0.0
    assert kinds(t.throw(Position.start(), (die(3, "right"), die(1, "left")))) == ["opening_roll"]


def test_a_stop_16_snapshot_s_open_roll_question_restores_into_the_question_part() -> None:
    """Stop 16 kept the open "which roll did you play?" question on the referee (``_unseen_asked``);
    restored, it is the question part's (roll_question.py), which acts on the restored referee."""
    ref = Referee()
    asked = AskedRoll(Position.start().layout_key(), Side.BLACK, False, 12.5)
    del ref.question
    ref._unseen_asked = asked  # type: ignore[attr-defined]
    again = snapshot.loads(snapshot.dumps(ref))
    assert again.question.asked == asked and again.question.ref is again
    assert not hasattr(again, "_unseen_asked")
    fresh = snapshot.loads(snapshot.dumps(Referee()))
    assert fresh.question.asked is None and fresh.question.ref is fresh


#: a referee out of sync (two turns missed, White's 3-2 judged on the stale board), White having
#: confirmed the board and Black not yet, as 3d8b19c wrote it (before the referee's parts used its
#: public names only); the table's clock then
OLD_OUT_OF_SYNC = Path(__file__).resolve().parent.parent / "data" / "referee" / "out_of_sync-3d8b19c.snapshot"
OLD_OUT_OF_SYNC_AT = 4.3


def test_a_3d8b19c_snapshot_out_of_sync_restores_and_its_parts_act_on_the_restored_referee() -> None:
    ref = snapshot.loads(OLD_OUT_OF_SYNC.read_bytes())
    assert vars(ref).keys() == vars(Referee()).keys()
    assert ref.sync.ref is ref and ref.question.ref is ref and ref.offers.ref is ref and ref.timing.ref is ref
    assert ref.phase == "out_of_sync" and ref.sync.state.confirmed == [Side.WHITE]
    seen, known = ref.sync.state.seen, ref.sync.state.known
    assert seen is not None and known is not None
    t = Table(ref)
    t.t = OLD_OUT_OF_SYNC_AT
    assert kinds(t.press(Action.ACCEPT, Side.WHITE)) == ["action_refused"]  # White confirmed already
    adopted = t.press(Action.ACCEPT)  # Black's confirmation
    assert kinds(adopted) == ["board_adopted"]
    assert adopted[0].state.position.layout_key() == seen.layout_key() and ref.phase == "awaiting_roll"
    pos = ref.position
    dice = roll_dice(pos.turn, (4, 2))
    assert kinds(t.throw(pos, dice)) == ["roll_accepted"]
    after = legal_results(pos, (4, 2))[-1].position
    assert kinds(t.move_and_pick_up(pos, after, dice)) == ["play_accepted"]
    again = snapshot.loads(snapshot.dumps(ref))  # and it round-trips as this tree writes it
    assert again.state == ref.state and vars(again).keys() == vars(ref).keys()


#: a referee in set-up, the board read otherwise at White's 13-point (its colours swapped) and reported,
#: as 3d8b19c wrote it (its set-up state on the referee, before setup_check.py's part held it)
OLD_SETUP_WRONG = OLD_OUT_OF_SYNC.with_name("setup_wrong-3d8b19c.snapshot")


def test_a_3d8b19c_snapshot_in_set_up_restores_its_set_up_state_into_the_set_up_part() -> None:
    from .test_setup_confirm import P13, START, SwappedTable

    ref = snapshot.loads(OLD_SETUP_WRONG.read_bytes())
    assert vars(ref).keys() == vars(Referee()).keys() and not any(k in vars(ref) for k in MOVED)
    st = ref.setup.state
    assert ref.setup.ref is ref and ref.phase == "setup" and ref.state.setup_wrong and st.wrong
    assert st.target == START and st.after == "opening" and len(st.reported) == 1
    t = SwappedTable(ref)
    t.t = 0.2
    assert kinds(t.show(START, 3)) == []  # the same reading is not reported again
    assert kinds(t.press(Action.ACCEPT)) == ["setup_checked", "game_started"]
    assert ref.blind == (P13,) and not ref.state.setup_wrong  # learnt from the restored set-up frames
    again = snapshot.loads(snapshot.dumps(ref))
    assert again.state == ref.state and again.setup.state.target == START and again.setup.ref is again
