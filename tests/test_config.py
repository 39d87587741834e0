"""The table config: every bad key is named (ConfigError)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.config import load_config, parse_config
from tavli_pi.errors import ConfigError
from tavli_pi.referee.match_clock import ClockSettings, Timeout

REPO = Path(__file__).resolve().parent.parent


def test_the_example_config_loads() -> None:
    cfg = load_config(REPO / "config" / "table.example.toml")
    assert cfg.match_length == 3 and cfg.players == ("White", "Black")
    assert cfg.referee.premature == "void" and cfg.referee.rules.crawford
    assert cfg.log.endswith("config/table.sqlite")  # relative to the file
    assert cfg.signals and cfg.pin_factory == "mock"
    assert cfg.referee.clock is None and not cfg.feed_broker and not cfg.link_port  # off unless enabled


def test_defaults_from_an_empty_file() -> None:
    cfg = parse_config("")
    assert cfg.camera == "picamera2" and cfg.match_length == 0 and not cfg.display


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[referee]\npremature = 'later'", "referee.premature"),
        ("[referee]\nillegal_policy = 'strict'", "referee.illegal_policy"),
        ("[referee]\nsettle_frames = 'two'", "referee.settle_frames"),
        ("[table]\nmatch_length = -1", "table.match_length"),
        ("[table]\nplayers = ['A']", "table.players"),
        ("[table]\nhome = 'top-left'", "table.home"),
        ("[table]\ncolour = 'red'", "table.colour"),
        ("[tabel]\nid = 'x'", "[tabel]"),
        ("[camera]\nfps = 0", "camera.fps"),
        ("[camera]\nfps = true", "camera.fps"),
        ("[display]\nenabled = true\npin = '12'", "display.pin"),
        ("[display]\nport = 70000", "display.port"),
        ("[signals]\npin_factory = 'lgpio2'", "signals.pin_factory"),
        ("[rules]\nbackgammon_value = 4", "backgammon_value"),
        ("[table\nid=", "not valid TOML"),
        ("[clock]\nenabled = 'yes'", "clock.enabled"),
        ("[clock]\nenabled = true\nper_point = 0", "clock.per_point"),
        ("[clock]\nper_point = -5", "clock.per_point"),  # checked even while the clock is off
        ("[clock]\nenabled = true\ndelay = -1", "clock.delay"),
        ("[clock]\nenabled = true\ndelay = true", "clock.delay"),
        ("[clock]\nenabled = true\non_timeout = 'forfeit'", "clock.on_timeout"),
        ("[clock]\nenabled = true\nper_point_scored = 200", "clock.per_point_scored"),
        ("[clock]\nreset = true", "clock.reset"),
        ("[feed]\nbroker = 'host:port'", "feed.broker"),
        ("[feed]\nbroker = 'h:1883'\npassword = 'x'", "feed.password"),
        ("[feed]\nqos = 2", "feed.qos"),
        ("[link]\nport = 7", "link.port"),
    ],
)
def test_a_bad_config_names_the_key(text: str, key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        parse_config(text, "table.toml")


def test_a_missing_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="table.example.toml"):
        load_config(tmp_path / "nope.toml")


def test_the_clock_section() -> None:
    cfg = parse_config("[clock]\nenabled = true\ndelay = 18\nper_point = 150\nper_point_scored = 75\n"
                       "on_timeout = 'overtime'\novertime = 90\nreset_each_game = true")
    assert cfg.referee.clock == ClockSettings.doubles(on_timeout=Timeout.OVERTIME, overtime=90.0)
    assert cfg.referee.clock_reset_each_game
    assert parse_config("[clock]\nenabled = true").referee.clock == ClockSettings()  # USBGF singles


def test_the_feed_section(tmp_path: Path) -> None:
    text = ("[feed]\nbroker = 'broker.local:8883'\nevent = 'athens-open'\nusername = 'table7'\n"
            "password = 's3cret'\ntls_ca = 'ca.crt'\noutbox = 'outbox.sqlite'\n")
    cfg = parse_config(text, str(tmp_path / "table.toml"))
    assert (cfg.feed_broker, cfg.feed_event, cfg.feed_username) == ("broker.local:8883", "athens-open", "table7")
    assert cfg.feed_tls_ca == str(tmp_path / "ca.crt") and cfg.feed_outbox == str(tmp_path / "outbox.sqlite")


def test_home_may_be_learnt_from_the_set_up_board() -> None:
    assert parse_config("[table]\nhome = 'auto'").home == "auto"
