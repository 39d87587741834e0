"""The table config: every bad key is named (ConfigError)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli_pi.config import load_config, parse_config
from tavli_pi.errors import ConfigError

REPO = Path(__file__).resolve().parent.parent


def test_the_example_config_loads() -> None:
    cfg = load_config(REPO / "config" / "table.example.toml")
    assert cfg.match_length == 3 and cfg.players == ("White", "Black")
    assert cfg.referee.premature == "void" and cfg.referee.rules.crawford
    assert cfg.log.endswith("config/table.sqlite")  # relative to the file
    assert cfg.signals and cfg.pin_factory == "mock"


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
    ],
)
def test_a_bad_config_names_the_key(text: str, key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        parse_config(text, "table.toml")


def test_a_missing_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="table.example.toml"):
        load_config(tmp_path / "nope.toml")
