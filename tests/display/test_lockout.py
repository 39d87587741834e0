"""Wrong-PIN lockout per client with backoff (pure, injected clock)."""

from __future__ import annotations

import pytest

from tavli_pi.display.lockout import LockoutPolicy, PinGuard, client_key


class Clock:
    t = 0.0

    def __call__(self) -> float:
        return self.t


def test_five_wrong_pins_lock_one_client_with_doubling_waits() -> None:
    clock = Clock()
    g = PinGuard(LockoutPolicy(), clock)
    assert [g.failed("a") for _ in range(5)] == [0, 0, 0, 0, 60]
    assert g.locked_for("a") == 60 and g.locked_for("b") == 0  # never anyone else
    clock.t += 60
    assert g.locked_for("a") == 0
    assert [g.failed("a") for _ in range(5)][-1] == 120
    clock.t += 120
    assert [g.failed("a") for _ in range(5)][-1] == 240
    g.succeeded("a")  # the right PIN forgets the client
    assert [g.failed("a") for _ in range(5)][-1] == 60


def test_waits_stop_at_the_cap() -> None:
    clock = Clock()
    g = PinGuard(LockoutPolicy(max_attempts=1, base_seconds=60, max_seconds=300), clock)
    waits = []
    for _ in range(6):
        waits.append(g.failed("x"))
        clock.t += waits[-1]
    assert waits == [60, 120, 240, 300, 300, 300]


def test_memory_is_bounded_and_locked_clients_are_kept() -> None:
    clock = Clock()
    g = PinGuard(LockoutPolicy(max_attempts=2, max_clients=3), clock)
    g.failed("attacker")
    g.failed("attacker")  # locked
    for i in range(100):
        g.failed(f"spray-{i}")
    assert g.remembered() == 3
    assert g.locked_for("attacker") == 60  # spraying addresses does not free the locked one


def test_client_keys() -> None:
    assert client_key("192.168.1.20") == "192.168.1.20"
    assert client_key("::ffff:192.168.1.20") == "192.168.1.20"
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::7") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key(None) == "unknown"


@pytest.mark.parametrize("kw", [dict(max_attempts=0), dict(base_seconds=0), dict(base_seconds=10, max_seconds=5),
                                dict(max_clients=0)])
def test_bad_policies_are_refused(kw: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        LockoutPolicy(**kw)  # type: ignore[arg-type]
