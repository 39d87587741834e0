"""Every check the director makes on a feed message: each bad input is refused with its reason.

``BAD_EVENTS`` is also what the hostile-broker test (test_feed_hostile.py) fires
through a real Mosquitto, and what RELIABILITY.md lists.
"""

from __future__ import annotations

import json
import socket
import ssl
from typing import Any

import pytest

from tavli_pi.errors import FeedError
from tavli_pi.referee.events import to_dict
from tavli_pi.tournament.feed import describe_connect_error, parse_broker
from tavli_pi.tournament.feed_check import (
    MAX_PAYLOAD,
    BadMessage,
    check_event,
    check_resend,
    check_state_message,
    check_status,
    parse_payload,
    parse_topic,
)

from .match_stream import match_events

GOOD: dict[str, Any] = {**to_dict(match_events(1)[3]), "seq": 4, "stream": "s1", "table": "7"}


def with_(**kw: Any) -> bytes:
    return json.dumps({**GOOD, **kw}).encode()


def with_state(**kw: Any) -> bytes:
    return json.dumps({**GOOD, "state": {**GOOD["state"], **kw}}).encode()


def without(key: str) -> bytes:
    return json.dumps({k: v for k, v in GOOD.items() if k != key}).encode()


# (name, payload for tavli/ev/table/7/events, the reason it is refused)
BAD_EVENTS: list[tuple[str, bytes, str]] = [
    ("seq 10**30", with_(seq=10**30), "field"),
    ("seq negative", with_(seq=-3), "field"),
    ("seq zero", with_(seq=0), "field"),
    ("seq float", with_(seq=4.5), "field"),
    ("seq string", with_(seq="4"), "field"),
    ("seq bool", with_(seq=True), "field"),
    ("seq null", with_(seq=None), "field"),
    ("seq missing", without("seq"), "field"),
    ("seq with 5000 digits", b'{"seq": ' + b"9" * 5000 + b"}", "json"),
    ("stream not an id", with_(stream="a/b"), "field"),
    ("stream huge", with_(stream="s" * 5000), "field"),
    ("table of another topic", with_(table="8"), "field"),
    ("table not a string", with_(table=7), "field"),
    ("kind unknown", with_(kind="format_disk"), "kind"),
    ("kind a number", with_(kind=3), "kind"),
    ("kind missing", without("kind"), "field"),
    ("state missing", without("state"), "field"),
    ("state a list", with_(state=[1, 2]), "field"),
    ("players not two", with_state(players=["A"]), "field"),
    ("player name 10 kB", with_state(players=["A" * 10_000, "B"]), "field"),
    ("score strings", with_state(score=["1", "0"]), "field"),
    ("score negative", with_state(score=[-1, 0]), "field"),
    ("clocks strings", with_state(clocks=["a", "b"]), "field"),
    ("clocks infinite", b'{"seq": 4, "stream": "s1", "kind": "clock_reading", "state": {"phase": "x", '
     b'"score": [0, 0], "players": ["a", "b"], "clocks": [1e999, 1]}}', "field"),
    ("cube owner bad", with_state(cube_owner="green"), "field"),
    ("dice out of range", with_state(dice=[0, 9]), "field"),
    ("match length huge", with_state(match_length=10**9), "field"),
    ("crawford a string", with_state(crawford="yes"), "field"),
    ("side bad", with_(side="red"), "field"),
    ("position missing", with_state(position=None), "field"),
    ("position 23 points", with_state(position={**GOOD["state"]["position"], "points": [0] * 23}), "field"),
    ("position 99 checkers", with_state(position={**GOOD["state"]["position"], "bar": [99, 0]}), "field"),
    ("position turn bad", with_state(position={**GOOD["state"]["position"], "turn": "both"}), "field"),
    ("after not a position", with_(after="13/7"), "field"),
    ("wrong_points strings", with_(wrong_points=["six"]), "field"),
    ("remaining strings", with_(remaining=["x", None]), "field"),
    ("message 100 kB", with_(message="m" * 100_000), "size"),
    ("payload over the cap", b'{"pad": "' + b"x" * MAX_PAYLOAD + b'"}', "size"),
    ("payload 1 MB", b"\x00" * 1_000_000, "size"),
    ("JSON nested 12 deep", with_(extra=json.loads('{"a":' * 11 + "1" + "}" * 11)), "depth"),
    ("JSON nested 5000 deep", b"[" * 5000 + b"]" * 5000, "depth"),
    ("NaN", b'{"seq": NaN}', "json"),
    ("Infinity", b'{"seq": Infinity}', "json"),
    ("not UTF-8", b'{"seq": 4, "stream": "\xff\xfe"}', "encoding"),
    ("UTF-16", json.dumps(GOOD).encode("utf-16"), "encoding"),
    ("not JSON", b"not json at all", "json"),
    ("truncated JSON", json.dumps(GOOD).encode()[:50], "json"),
    ("empty payload", b"", "json"),
    ("a JSON array", b"[1, 2, 3]", "json"),
    ("a JSON number", b"42", "json"),
    ("a JSON string", b'"online"', "json"),
]


def refuse(payload: bytes, leaf: str = "events") -> str:
    with pytest.raises(BadMessage) as info:
        data = parse_payload(payload)
        if leaf == "events":
            check_event(data, "7")
        else:
            check_state_message(data, "7")
    return info.value.reason


def test_a_real_event_passes() -> None:
    for seq, e in enumerate(match_events(3), 1):
        check_event(parse_payload(json.dumps({**to_dict(e), "seq": seq, "stream": "s1", "table": "7"}).encode()), "7")


@pytest.mark.parametrize(("name", "payload", "reason"), BAD_EVENTS, ids=[b[0] for b in BAD_EVENTS])
def test_bad_event_is_refused_with_its_reason(name: str, payload: bytes, reason: str) -> None:
    assert refuse(payload) == reason


BAD_STATES: list[tuple[str, bytes]] = [
    ("state seq 10**30", json.dumps({"seq": 10**30, "stream": "s1", "state": GOOD["state"]}).encode()),
    ("state without state", json.dumps({"seq": 3, "stream": "s1"}).encode()),
    ("state with score text", json.dumps({"seq": 3, "stream": "s1", "state": {**GOOD["state"],
                                                                              "score": "5-1"}}).encode()),
    ("state for table 9", json.dumps({"seq": 3, "stream": "s1", "table": "9", "state": GOOD["state"]}).encode()),
    ("state garbage", b"\x89PNG\r\n"),
]


@pytest.mark.parametrize(("name", "payload"), BAD_STATES, ids=[b[0] for b in BAD_STATES])
def test_bad_retained_state_is_refused(name: str, payload: bytes) -> None:
    refuse(payload, "state")


BAD_TOPICS = ["tavli/ev/table/7", "tavli/ev/table/7/events/x", "tavli//table//events", "tavli/a b/table/7/events",
              "tavli/ev/table/" + "7" * 65 + "/events", "tavli/ev/table/7/secrets", "other/ev/table/7/events",
              "tavli/ev/tables/7/events", "tavli/év/table/7/events"]


@pytest.mark.parametrize("name", BAD_TOPICS)
def test_topic_of_unexpected_shape(name: str) -> None:
    with pytest.raises(BadMessage) as info:
        parse_topic(name)
    assert info.value.reason == "topic"


def test_status_and_resend_requests() -> None:
    assert check_status(b"online") == "online" and check_status(b"offline") == "offline"
    for bad in (b"", b"ONLINE", b"online\n", b"\xff" * 100):
        with pytest.raises(BadMessage):
            check_status(bad)
    assert check_resend({"stream": "s1", "from": 3, "to": 9}, 500) == ("s1", 3, 9)
    assert check_resend({"stream": "s1", "from": 3, "to": 10**9}, 500) == ("s1", 3, 502)  # capped
    requests: list[dict[str, Any]] = [
        {"stream": "s1", "from": 9, "to": 3}, {"stream": "s1", "from": True, "to": 3},
        {"stream": "s1", "from": 0, "to": 3}, {"from": 1, "to": 3}, {"stream": "s1", "from": "1", "to": 2}]
    for request in requests:
        with pytest.raises(BadMessage):
            check_resend(request, 500)


@pytest.mark.parametrize(("text", "want"), [
    ("broker:port", "1-65535"), ("broker:70000", "1-65535"), ("broker:0", "1-65535"), ("", "HOST:PORT"),
    ("bro ker:1883", "HOST:PORT"), ("mqtt://broker:1883", "HOST:PORT"), ("broker:", "no port"),
    ("[::1", "HOST:PORT"), ("::1:1883", "HOST:PORT"),
])
def test_malformed_broker_address(text: str, want: str) -> None:
    with pytest.raises(FeedError, match=want):
        parse_broker(text)


def test_good_broker_addresses() -> None:
    assert parse_broker("[::1]:1884") == ("::1", 1884)
    assert parse_broker(" 127.0.0.1:1883 ") == ("127.0.0.1", 1883)
    assert parse_broker("mqtt.club") == ("mqtt.club", 1883)


def test_connect_errors_say_what_to_do() -> None:
    dns = describe_connect_error(socket.gaierror(socket.EAI_NONAME, "Name or service not known"), "nohost", 1883)
    assert "cannot resolve" in dns and "'nohost'" in dns and "--broker" in dns
    assert "Mosquitto running" in describe_connect_error(ConnectionRefusedError(111, "refused"), "h", 1)
    assert "no answer" in describe_connect_error(TimeoutError(), "h", 1)
    assert "--tls-ca" in describe_connect_error(ssl.SSLError(1, "bad cert"), "h", 1)
