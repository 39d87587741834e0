"""The typed event stream: phases as a StrEnum with the JSON unchanged, every output an EventSink."""

from __future__ import annotations

import json
from pathlib import Path

from tavli_pi.referee.events import PHASES, EventSink, GameStarted, Phase, TableState, from_dict, to_dict
from tavli_pi.rules.position import Position


def test_the_phase_is_a_str_enum_and_its_json_is_the_plain_string() -> None:
    e = GameStarted(at=1.0, state=TableState(phase=Phase.OPENING, position=Position.start()), game_number=1,
                    score=(0, 0), crawford=False)
    text = json.dumps(to_dict(e))
    assert '"phase": "opening"' in text
    back = from_dict(json.loads(text))
    assert back.state.phase is Phase.OPENING and back == e
    assert [str(p) for p in PHASES][:3] == ["setup", "opening", "awaiting_roll"]


def test_an_old_log_line_without_the_new_state_fields_still_reads() -> None:
    d = to_dict(GameStarted(at=0.0, state=TableState(phase=Phase.SETUP, position=Position.start()),
                            game_number=1, score=(0, 0), crawford=False))
    del d["state"]["clear_view"], d["state"]["setup_wrong"]
    s = from_dict(d).state
    assert not s.clear_view and not s.setup_wrong


def test_every_output_is_an_event_sink_without_an_adapter(tmp_path: Path) -> None:
    # mypy checks the app's wiring statically; here, real instances against the runtime-checkable Protocol
    from gpiozero.pins.mock import MockFactory

    from tavli_pi.link.table_link import TableLink
    from tavli_pi.record.header import MatchHeader
    from tavli_pi.record.sink import LogSink
    from tavli_pi.record.store import MatchLog
    from tavli_pi.signals.gpio import Signals
    from tavli_pi.signals.pinout import load_pinout

    log = LogSink(MatchLog.open(tmp_path / "t.sqlite", MatchHeader(players=("A", "B"), match_length=3)))
    signals = Signals(load_pinout(), pin_factory=MockFactory())
    link = TableLink("loop://")
    try:
        for sink in (log, signals, link):
            assert isinstance(sink, EventSink), type(sink).__name__
        assert not isinstance(object(), EventSink)
    finally:
        for sink in (log, signals, link):
            sink.close()
