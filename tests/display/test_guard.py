"""Host, Origin and body rules of the display (pure)."""

from __future__ import annotations

import pytest

from tavli_pi.display.guard import BadInput, OriginPolicy, normal_origin, parse_decision

P = OriginPolicy.make(["https://kiosk.example:8443"], local_names=("localhost", "tavli", "tavli.local"))
ACTIONS = ("accept", "double")


def test_origins_normalise_like_browsers() -> None:
    assert normal_origin("HTTP://Tavli.Local:80/") == "http://tavli.local"
    assert normal_origin("https://x:443") == "https://x"
    assert normal_origin("null") == normal_origin("file:///etc") == normal_origin("ws://x") == ""


@pytest.mark.parametrize("host", ["192.168.1.20:8080", "[::1]:8080", "localhost:8080", "tavli.local:8080",
                                  "TAVLI:8080", "kiosk.example:1"])
def test_hosts_naming_this_machine(host: str) -> None:
    assert P.host_ok(host)


@pytest.mark.parametrize("host", ["evil.example:8080", "tavli.local.evil.example", "", "a b"])
def test_foreign_hosts(host: str) -> None:
    assert not P.host_ok(host)


def test_origin_rules() -> None:
    assert P.origin_ok("http://192.168.1.20:8080", "http", "192.168.1.20:8080")
    assert P.origin_ok("https://kiosk.example:8443", "http", "192.168.1.20:8080")
    assert not P.origin_ok("http://192.168.1.20:8080", "https", "192.168.1.20:8080")  # scheme differs
    assert not P.origin_ok("http://192.168.1.21:8080", "http", "192.168.1.20:8080")
    assert not P.origin_ok("http://evil.example:8080", "http", "evil.example:8080")  # DNS rebinding
    assert not P.origin_ok(None, "http", "192.168.1.20:8080")
    assert not P.origin_ok("null", "http", "192.168.1.20:8080")


def test_an_entered_roll_is_two_dice() -> None:
    acts = ("roll", "accept")
    assert parse_decision({"action": "roll", "pin": "1", "roll": "53"}, acts).roll == 53
    assert parse_decision({"action": "roll", "pin": "1", "roll": 62}, acts).roll == 62
    assert parse_decision({"action": "accept", "pin": "1", "roll": "x"}, acts).roll == 0  # only with "roll"
    for bad in ("73", "5", "530", None, True, 5.3, "5-3", [5, 3]):
        with pytest.raises(BadInput) as e:
            parse_decision({"action": "roll", "pin": "1", "roll": bad}, acts)
        assert e.value.status == 400 and '"roll": "53"' in str(e.value), bad


def test_decisions() -> None:
    d = parse_decision({"action": "double", "pin": "0123"}, ACTIONS)
    assert (d.action, d.pin) == ("double", "0123")
    for body, status, words in [
        ({"action": "double", "pin": 123}, 400, "not a number"),
        ({"action": "double", "pin": True}, 400, "not true/false"),
        ({"action": "double", "pin": None}, 400, "no PIN"),
        ({"action": "resign", "pin": "1"}, 400, "use one of accept, double"),
        ({"action": 3, "pin": "1"}, 400, "unknown action"),
        ("double", 400, "JSON object"),
        ({"action": "double", "pin": "9" * 65}, 400, "too long"),
    ]:
        with pytest.raises(BadInput) as e:
            parse_decision(body, ACTIONS)
        assert e.value.status == status and words in str(e.value), body
