"""Issue 18, "words drift between front ends", in the window: the compare view's banner says
each side as `validate` does, a blocked plan is headed BLOCKED in red (never OK in green),
and a valid unsigned packet is neutral — never the green of a trusted key."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from tests.conftest import EXAMPLES
from tests.gui.driving import NEGATIVE, PUBLICATION, drop_and_wait, rows, wait_idle
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.theme import Tone, tone_colour
from zcf_inspector.present.vocabulary import Trust

UNCHECKED_MAC = "INTACT · MAC NOT CHECKED (no destination keys)"


def headline_colour(window: MainWindow) -> str:
    tab = window.current_tab()
    assert tab is not None
    return tab.header.headline.palette().windowText().color().name()


def test_the_compare_banner_says_a_wrong_mac_is_unchecked_not_valid(
    qtbot: QtBot, window: MainWindow
) -> None:
    wrong = NEGATIVE / "mac-invalid.json"
    tab = drop_and_wait(qtbot, window, [wrong])
    assert tab.verdict.headline == UNCHECKED_MAC
    window.compare_paths(tab, str(PUBLICATION / "recipient-bound-mac.json"))
    qtbot.waitUntil(lambda: window.current_compare() is not None, timeout=20_000)
    wait_idle(qtbot, window)
    view = window.current_compare()
    assert view is not None
    lines = view.header.text().splitlines()
    assert lines[0] == f"A: {wrong} — {UNCHECKED_MAC}"
    assert lines[1].endswith(f"recipient-bound-mac.json — {UNCHECKED_MAC}")
    assert "valid — " not in view.header.text()


def test_a_blocked_plan_is_headed_blocked_in_red(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_settings(None, parse_datetime("2026-09-26T12:30:00Z"))
    tab = drop_and_wait(
        qtbot,
        window,
        [
            EXAMPLES / "action-specific.session.json",
            EXAMPLES / "action-specific-model_request.report.json",
        ],
    )
    assert tab.verdict.headline == "BLOCKED (5 blockers) · ASIF-SESSION VALID"
    assert tab.header.level is Trust.REFUSED
    assert headline_colour(window) == tone_colour(Tone.BAD, tab.header.palette()).name()
    assert rows(tab)["report assessment-model_request"] == ("fail", "blocked (5 blockers)")
    assert not any(c.text().endswith("· ok") for c in tab.header.chips)


def test_a_ready_plan_is_the_only_green_one(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_settings(None, parse_datetime("2026-09-26T12:30:00Z"))
    tab = drop_and_wait(
        qtbot,
        window,
        [EXAMPLES / "another-computer.session.json", EXAMPLES / "another-computer.report.json"],
    )
    assert tab.verdict.headline == "READY · ASIF-SESSION VALID"
    assert headline_colour(window) == tone_colour(Tone.GOOD, tab.header.palette()).name()
    alone = drop_and_wait(qtbot, window, [EXAMPLES / "another-agent.session.json"])
    assert alone.verdict.headline == "ASIF-SESSION VALID · NOT ASSESSED (no report)"
    assert headline_colour(window) != tone_colour(Tone.GOOD, alone.header.palette()).name()


def test_a_valid_unsigned_packet_is_neutral_never_green(qtbot: QtBot, window: MainWindow) -> None:
    # valid, but it claims no identity: anyone could have written it
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
    assert tab.verdict.headline == "VALID · UNSIGNED"
    assert tab.header.level is Trust.UNSIGNED
    neutral = tab.header.palette().color(QPalette.ColorRole.WindowText).name()
    assert headline_colour(window) == neutral
    assert headline_colour(window) != tone_colour(Tone.GOOD, tab.header.palette()).name()
