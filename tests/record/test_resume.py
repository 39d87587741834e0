"""Resume info: where the log ends, and the board check on restart."""

from __future__ import annotations

from pathlib import Path

from tavli_pi.record.header import MatchHeader
from tavli_pi.record.resume import check_board, open_for_resume
from tavli_pi.referee.events import Event, MatchOver, to_dict
from tavli_pi.rules.moves import apply_play, parse_play
from tavli_pi.rules.position import Position


def test_resume_points_after_the_last_committed_event(tmp_path: Path, header: MatchHeader,
                                                      events: list[Event]) -> None:
    p = tmp_path / "t.sqlite"
    log, info = open_for_resume(p, header)
    assert info.empty and info.next_seq == 1 and info.position is None
    with log:
        for e in events[:40]:
            log.append(e)
    log, info = open_for_resume(p, MatchHeader(players=("Other", "Names")))
    with log:
        assert info.header == header  # the logged header wins
        assert info.next_seq == 41
        assert info.last is not None and to_dict(info.last.event) == to_dict(events[39])
        assert info.state == events[39].state and info.position == events[39].state.position
        assert not info.finished
        for e in events[40:]:
            log.append(e, expect_seq=log.next_seq)
    _, info = open_for_resume(p)
    assert isinstance(events[-1], MatchOver) and info.finished


def test_board_check_names_the_points_that_differ() -> None:
    start = Position.start()
    assert check_board(start, start).ok
    moved = apply_play(start, parse_play(start, "24/18 13/11"))
    c = check_board(start, moved)
    assert not c.ok and c.wrong_points == (11, 13, 18, 24)
    assert "11, 13, 18, 24" in c.message
    hit = apply_play(Position.start(), parse_play(Position.start(), "8/2 6/2"))
    assert check_board(start, hit).wrong_points == (2, 6, 8)


def test_log_sink_commits_every_event(tmp_path: Path, header: MatchHeader, events: list[Event]) -> None:
    from tavli_pi.record.sink import LogSink
    from tavli_pi.record.store import MatchLog
    from tavli_pi.referee.events import PlayAccepted

    import numpy as np

    from tavli_pi.record.sink import RecordPolicy

    sink = LogSink(MatchLog.open(tmp_path / "t.sqlite", header), RecordPolicy(proving=frozenset({"play_accepted"})))
    image = np.full((48, 64, 3), 128, np.uint8)
    for e in events[:30]:
        sink.handle(e, image)  # the frame travels with the event; the policy decides whether it is kept
    sink.close()
    sink.close()
    with MatchLog.open(tmp_path / "t.sqlite", readonly=True) as log:
        got = list(log.events())
    assert [to_dict(g.event) for g in got] == [to_dict(e) for e in events[:30]]
    assert all(g.has_frame == isinstance(g.event, PlayAccepted) for g in got)
