"""The table config: every bad key is named (ConfigError)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tavli_pi.config import TableConfig, default_log, load_config, parse_config
from tavli_pi.errors import ConfigError
from tavli_pi.referee.match_clock import ClockSettings, Timeout

REPO = Path(__file__).resolve().parent.parent


def test_the_example_config_loads() -> None:
    cfg = load_config(REPO / "config" / "table.example.toml")
    assert cfg.table.match_length == 3 and cfg.table.players == ("White", "Black")
    assert cfg.referee.premature == "void" and cfg.referee.rules.crawford
    assert cfg.camera.source == "sim:demo"  # runnable as it is: the demo's scripted match
    assert cfg.record.log == default_log("table-1")  # never into the source tree
    assert not cfg.record.log.startswith(str(REPO))
    assert cfg.signals.enabled and cfg.signals.pin_factory == "mock"
    assert cfg.referee.clock is None and cfg.feed.broker is None and cfg.link.port is None  # off unless enabled


def test_defaults_from_an_empty_file() -> None:
    cfg = parse_config("")
    assert cfg.camera.source == "picamera2" and cfg.table.match_length == 0 and not cfg.display.enabled
    assert cfg == TableConfig(source="config")  # the dataclasses hold the only defaults


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
        ("[camera]\nfps = nan", "camera.fps must be a finite number"),
        ("[camera]\nfps = inf", "camera.fps must be a finite number"),
        ("[clock]\ndelay = nan", "clock.delay must be a finite number"),
        ("[referee]\naccept_gap = -inf", "referee.accept_gap must be a finite number"),
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
    f = cfg.feed
    assert (f.broker, f.event, f.username) == ("broker.local:8883", "athens-open", "table7")
    assert f.tls_ca == str(tmp_path / "ca.crt") and f.outbox == str(tmp_path / "outbox.sqlite")


def test_home_may_be_learnt_from_the_set_up_board() -> None:
    assert parse_config("[table]\nhome = 'auto'").table.home == "auto"


def test_empty_text_keys_are_none() -> None:
    cfg = parse_config("[link]\nport = ''\n[feed]\nbroker = ''\n[camera]\ncorners = ''\n[display]\npin = ''")
    assert cfg.link.port is None and cfg.feed.broker is None and cfg.camera.corners is None
    assert cfg.display.pin is None


@pytest.mark.parametrize("data", [bytes(range(256)) * 4, b"\xff\xfe\x00garbage\x80\x81"])
def test_a_file_of_random_bytes_is_a_one_line_error(tmp_path: Path, data: bytes) -> None:
    p = tmp_path / "table.toml"
    p.write_bytes(data)
    with pytest.raises(ConfigError) as err:
        load_config(p)
    assert str(p) in str(err.value) and "\n" not in str(err.value)


def test_random_text_is_not_valid_toml(tmp_path: Path) -> None:
    p = tmp_path / "table.toml"
    p.write_text("ed8f 9a@@ [[ =")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        load_config(p)


def test_a_folder_is_not_a_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"is a folder: give the table's \.toml file"):
        load_config(tmp_path)


def test_an_unreadable_file_says_how_to_fix_it(tmp_path: Path) -> None:
    p = tmp_path / "table.toml"
    p.write_text("[table]\n")
    p.chmod(0)
    tmp_path.chmod(0o755)
    script = ("from tavli_pi.config import load_config\n"
              f"try:\n    load_config({str(p)!r})\nexcept Exception as exc:\n    print(type(exc).__name__, exc)\n")
    # Root reads every file, so the check runs as an unprivileged user, as on a real table.
    cmd = [sys.executable, "-c", script]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv is not None, "setpriv (util-linux) is needed to run as an unprivileged user"
        cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=REPO)
    finally:
        p.chmod(0o644)
    assert out.stdout.startswith("ConfigError "), out.stdout + out.stderr
    assert "cannot be read (permission denied): make it readable" in out.stdout


def test_a_permission_error_reading_the_file_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same branch as above on a machine where the tests run as root (which reads every file)
    p = tmp_path / "table.toml"
    p.write_text("[table]\n")

    def denied(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(ConfigError, match=r"cannot be read \(permission denied\): make it readable") as err:
        load_config(p)
    assert "\n" not in str(err.value)


def test_every_key_is_read_by_its_section() -> None:
    # an accepted key that nothing reads would silently do nothing: each section's keys are its dataclass's fields
    import dataclasses

    from tavli_pi import config as C

    sections = {"table": C.TableSection, "camera": C.CameraConfig, "signals": C.SignalsConfig,
                "display": C.DisplayConfig, "record": C.RecordConfig, "link": C.LinkConfig, "feed": C.FeedConfig}
    for name, cls in sections.items():
        assert set(C._SCHEMA[name]) == {f.name for f in dataclasses.fields(cls)}, name
    referee = {f.name for f in dataclasses.fields(C.RefereeSettings)}
    assert set(C._SCHEMA["referee"]) <= referee
    # rules.game is GameConfig.game; [tavli] holds MatchSettings' fields and the dotted rule settings
    assert set(C._SCHEMA["rules"]) <= {f.name for f in dataclasses.fields(C.Settings)} | {"game"}
    assert set(C._SCHEMA["tavli"]) == {f.name for f in dataclasses.fields(C.MatchSettings)} | {"plakoto", "fevga"}
    clock = {f.name for f in dataclasses.fields(C.ClockSettings)} | {"enabled", "reset_each_game"}
    assert set(C._SCHEMA["clock"]) <= clock


def test_a_relative_log_is_beside_the_config_and_the_default_is_the_state_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "t.toml"
    p.write_text("[table]\nid = 'club 7'\n[record]\nlog = 'logs/m.sqlite'\n")
    assert load_config(p).record.log == str(tmp_path / "logs" / "m.sqlite")
    p.write_text("[table]\nid = 'club 7'\n")
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/tavli-pi")
    assert load_config(p).record.log == "/var/lib/tavli-pi/club_7.sqlite"  # systemd's StateDirectory
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert load_config(p).record.log == str(tmp_path / "state" / "tavli-pi" / "club_7.sqlite")


# -- [rules] game and [tavli] (RULES-TAVLI.md) -------------------------------------------------
TAVLI = """
[table]
match_length = 3
[rules]
game = "tavli"
[tavli]
winner_starts = false
plakoto.mother = "two-points"
fevga.block_check = "every-move"
"""


def test_tavli_game_and_settings() -> None:
    from tavli_pi.rules.tavli_settings import BlockCheck, Mother, Variant

    cfg = parse_config(TAVLI)
    g = cfg.game
    assert g.game == "tavli" and g.tavli
    assert g.match.match_length == 3 and not g.match.winner_starts  # T1 from [table] when [tavli] omits it
    assert g.match.games == (Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA)
    assert g.settings.mother is Mother.TWO_POINTS and g.settings.block_check is BlockCheck.EVERY_MOVE
    assert parse_config("").game.game == "portes" and not parse_config("").game.tavli


def test_a_single_game_kind_plays_only_that_game() -> None:
    from tavli_pi.rules.tavli_settings import Variant

    g = parse_config('[rules]\ngame = "fevga"\n[tavli]\nmatch_length = 7\n').game
    assert g.match.games == (Variant.FEVGA,) and g.match.match_length == 7


@pytest.mark.parametrize("text,words", [
    ('[rules]\ngame = "plakoto"\nautomatic_doubles = true\n', ["automatic_doubles", "V2"]),
    ('[rules]\ngame = "fevga"\njacoby = true\n', ["jacoby", "V2"]),
    ('[rules]\ngame = "tavli"\nbeavers = true\n', ["beavers", "V2"]),
    ('[rules]\ngame = "tavli"\nmax_cube = 8\n', ["max_cube", "V2"]),
    ('[rules]\ngame = "plakoto"\n[tavli]\ncube = true\n', ["tavli.cube", "V2"]),
    ('[rules]\ngame = "plakoto"\n[tavli]\nplakoto.cube_limit = 2\n', ["cube", "V2"]),
    ('[rules]\ngame = "tavli"\ncrawford = true\n', ["crawford", "T4"]),
    ('[rules]\ngame = "backgammon"\n', ["rules.game", "portes, plakoto, fevga, tavli"]),
    ('[rules]\ngame = "tavli"\n[tavli]\nplakoto.mother = "three"\n', ["plakoto.mother", "two-points"]),
    ('[rules]\ngame = "tavli"\n[tavli]\nfevga.speed = "fast"\n', ["fevga.speed"]),
    ('[rules]\ngame = "tavli"\n[tavli]\nmatch_length = 0\n', ["match_length", "T1"]),
    ('[rules]\ngame = "fevga"\n[tavli]\ngames = ["portes"]\n', ["tavli.games"]),
    ('[tavli]\nmatch_length = 5\n', ["[tavli]", "rules.game"]),
])
def test_bad_tavli_configs_are_refused_with_the_rule(text: str, words: list[str]) -> None:
    with pytest.raises(ConfigError) as exc:
        parse_config(text)
    msg = str(exc.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
