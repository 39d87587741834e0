"""Resuming a table: the display shows the game so far, a log of another match is refused by name."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.errors import ConfigError

CONFIG = """
[table]
players = ["Ann", "Bob"]
match_length = 3
[camera]
source = "sim:demo"
corners = "324.8,64.8 955.2,64.8 955.2,655.2 324.8,655.2"
[signals]
enabled = true
pin_factory = "mock"
[display]
enabled = {display}
host = "127.0.0.1"
port = 0
pin = "2468"
[record]
log = "{log}"
"""


def _config(log: Path, *, display: bool, players: str = '["Ann", "Bob"]') -> str:
    return CONFIG.format(display=str(display).lower(), log=log).replace('["Ann", "Bob"]', players)


def test_a_resumed_display_shows_the_moves_of_the_game_so_far(tmp_path: Path) -> None:
    log = tmp_path / "t.sqlite"
    with TableApp(parse_config(_config(log, display=False)), pin_factory=MockFactory()) as app:
        app.run(max_frames=60)  # the opening and a few turns of game 1
        played = [e for e in app.events if e.kind == "play_accepted"]
    assert played, "the script plays in its first 60 frames"
    with TableApp(parse_config(_config(log, display=True)), pin_factory=MockFactory()) as app:
        assert app.display is not None
        with urllib.request.urlopen(f"{app.display.url}api/state", timeout=30) as r:
            view = json.loads(r.read())
    assert len(view["moves"]) >= 1
    assert any(row["white"] or row["black"] for row in view["moves"])


def test_a_log_of_another_match_is_refused_naming_both(tmp_path: Path) -> None:
    log = tmp_path / "t.sqlite"
    with TableApp(parse_config(_config(log, display=False)), pin_factory=MockFactory()) as app:
        app.run(max_frames=12)
    before = log.read_bytes()
    other = parse_config(_config(log, display=False, players='["Cy", "Di"]'), str(tmp_path / "t.toml"))
    with pytest.raises(ConfigError) as err:
        TableApp(other, pin_factory=MockFactory())
    msg = str(err.value)
    assert "the log holds Ann v Bob, a 3-point match" in msg and "the config says Cy v Di" in msg
    assert "give this match its own [record] log" in msg
    assert log.read_bytes() == before  # refused before anything is written


def test_a_resumed_match_is_checked_against_the_board_the_camera_sees(tmp_path: Path) -> None:
    log = tmp_path / "t.sqlite"
    with TableApp(parse_config(_config(log, display=False)), pin_factory=MockFactory()) as app:
        app.run(max_frames=60)
        logged = app.referee.position
    assert logged != logged.start()
    # the table restarts, but someone has set the board back to the start position meanwhile
    text = _config(log, display=False).replace('source = "sim:demo"', 'source = "sim:start"')
    with TableApp(parse_config(text), pin_factory=MockFactory()) as app:
        app.run(max_frames=30)
        lost = [e for e in app.events if e.kind == "board_out_of_sync"]
    assert lost, "a board that differs from the log must not be played on silently"
    assert "restore" in lost[0].message or "confirm" in lost[0].message
