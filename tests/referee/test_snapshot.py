"""Referee snapshots: a whole referee round-trips; a crafted or damaged blob never runs code."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import pytest

from tavli_pi.errors import SnapshotError
from tavli_pi.referee import snapshot
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.match import MatchState


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
