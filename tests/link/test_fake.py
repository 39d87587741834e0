from __future__ import annotations

import pytest

from tavli_pi.link import Buzz, FakeLink, ScoreSet
from tavli_pi.referee import events as ev
from tavli_pi.rules.position import Side

from tests.link.events_factory import state


def _game_over(score: tuple[int, int]) -> ev.GameOver:
    return ev.GameOver(at=1.0, state=state(phase="game_over", score=score, match_length=5), winner=Side.WHITE,
                       points=1, result="single", score=score)


def test_fake_link_checks_expected_commands_and_presses_paddles() -> None:
    presses: list[Side] = []
    link = FakeLink(on_paddle=presses.append)
    link.expect(ScoreSet(1, 0, 5, False), Buzz(Buzz.LONG))
    link.handle(_game_over((1, 0)))
    link.assert_done()
    link.press(Side.BLACK)
    assert presses == [Side.BLACK]
    assert ScoreSet(1, 0, 5, False) in link.view


def test_fake_link_reports_the_wrong_command() -> None:
    link = FakeLink().expect(ScoreSet(9, 9, 5, False))
    with pytest.raises(AssertionError, match="expected ScoreSet"):
        link.handle(_game_over((1, 0)))
    with pytest.raises(AssertionError, match="still expecting"):
        FakeLink().expect(Buzz(Buzz.SHORT)).assert_done()
