"""The table page in a real headless Chromium: shows the state, buttons work."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tavli_pi.display import DisplayServer
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.ids import position_id

from .helpers import accepted, illegal


@pytest.fixture
def served() -> Iterator[tuple[DisplayServer, list[PlayerInput]]]:
    got: list[PlayerInput] = []
    srv = DisplayServer("127.0.0.1", 0, pin="2468", on_input=got.append).start()
    try:
        yield srv, got
    finally:
        srv.close()


def _text(browser: Any, id_: str) -> str:
    return str(browser.find_element(By.ID, id_).text)


def test_page_shows_state_and_updates_live(browser: Any, served: Any) -> None:
    srv, _ = served
    srv.handle(accepted())
    browser.get(srv.url)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda b: _text(b, "verdict") == "Play accepted")
    assert _text(browser, "score") == "1 – 0"
    assert _text(browser, "pips-white") == "163"
    assert _text(browser, "position-id") == position_id(accepted().state.position)
    assert browser.find_element(By.ID, "crawford").is_displayed() is False
    # 30 checkers drawn on the board
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board circle")) == 30
    # a pushed illegal play arrives without reloading
    srv.handle(illegal())
    wait.until(lambda b: _text(b, "verdict").startswith("Illegal play"))
    assert "illegal" in browser.find_element(By.ID, "verdict").get_attribute("class")
    assert _text(browser, "rule") == "rule M2"
    assert browser.find_element(By.ID, "crawford").is_displayed()
    red = browser.find_elements(By.CSS_SELECTOR, "#board polygon.wrong")
    assert sorted(int(p.get_attribute("data-point")) for p in red) == [13, 18]
    due = [b.get_attribute("data-action") for b in browser.find_elements(By.CSS_SELECTOR, "#decisions button.due")]
    assert due == ["accept", "correct"]


def test_buttons_send_decisions_with_the_pin(browser: Any, served: Any) -> None:
    srv, got = served
    srv.handle(illegal())
    browser.get(srv.url)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda b: _text(b, "verdict").startswith("Illegal"))
    pin = browser.find_element(By.ID, "pin")
    pin.clear()
    pin.send_keys("1111")
    browser.find_element(By.CSS_SELECTOR, "button[data-action='correct']").click()
    wait.until(lambda b: "wrong table PIN" in _text(b, "input-status"))
    assert got == []
    pin.clear()
    pin.send_keys("2468")
    browser.find_element(By.CSS_SELECTOR, "button[data-action='correct']").click()
    wait.until(lambda b: _text(b, "input-status") == "sent: correct")
    assert got == [PlayerInput(Action.CORRECT, None, source="touch")]
