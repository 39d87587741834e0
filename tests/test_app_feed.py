"""The app's MQTT feed against a real Mosquitto: a director's FeedListener gets the table's events in order.

The broker fixture is the tournament tests' (tests/tournament/conftest.py); network
waits are on conditions with timeouts, never sleeps.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.referee.events import from_dict, to_dict
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.scene import scene_from_position
from tavli_pi.tournament.feed import FeedListener, FeedSettings

from tests.test_app import calibration, config, synthetic_opening
from tests.tournament.conftest import Broker, broker  # noqa: F401  (the real Mosquitto fixture)
from tests.tournament.test_feed import WAIT, Collector


def test_a_listener_gets_the_tables_events_in_order(broker: Broker, tmp_path: Path) -> None:  # noqa: F811
    got = Collector()
    listener = FeedListener(FeedSettings(host=broker.host, port=broker.port, event_slug="athens-open",
                                         client_id="director-app-test"), got)
    listener.start()
    try:
        assert listener.connected.wait(WAIT), listener.last_error
        cfg = parse_config(config(tmp_path, f"[feed]\nbroker = '{broker.host}:{broker.port}'\n"
                                  "event = 'athens-open'\n[clock]\nenabled = true\n"))
        cfg = replace(cfg, table=replace(cfg.table, id="7"))
        cam = SimCamera([(scene_from_position(Position.start()), 3)], fps=10.0)
        with TableApp(cfg, camera=cam, calibration=calibration(), pin_factory=MockFactory()) as app:
            assert f"feed:{broker.host}:{broker.port}" in app.wired
            app.submit(PlayerInput(Action.DOUBLE))  # refused during the set-up: an event too
            app.run()  # real frames through vision: the set-up is checked
            synthetic_opening(app, 1.0)
            app.submit(PlayerInput(Action.PADDLE, app.referee.position.turn.other, source="link"))
            app.handle_inputs(2.0)
            app.submit(PlayerInput(Action.PAUSE))
            app.handle_inputs(30.0)
            sent = [to_dict(e) for e in app.events]
            assert [d["kind"] for d in sent] == ["action_refused", "setup_checked", "game_started",
                                                 "opening_roll", "clock_reading", "clock_reading"]
            assert app.feed.wait_delivered(WAIT)
        received = got.wait_events(len(sent), table="7")
        assert [m["seq"] for m in received] == list(range(1, len(sent) + 1))
        assert [m["kind"] for m in received] == [d["kind"] for d in sent]
        for m, d in zip(received, sent):
            assert {k: m[k] for k in d} == d  # the whole event, state and clocks included
            assert from_dict({k: m[k] for k in d}) == from_dict(d)
        assert received[-1]["state"]["clocks"] == [360.0 - (30.0 - 2.0 - 12.0), 360.0]  # White's runs
        assert got.wait_status("offline", table="7")  # the app closed the feed cleanly
    finally:
        listener.close()
