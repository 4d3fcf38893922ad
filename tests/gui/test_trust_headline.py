"""Issue 12, point 1: the headline says validity and authenticity in the CLI's words, and
is green only when everything the packet claims was checked."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from tests.gui.driving import DESTINATION, NEGATIVE, PUBLICATION, drop_and_wait
from zcf_inspector.cli.output import inspection_json, verdict_line
from zcf_inspector.core.packet.destination import load_destination
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.plain_text import plain_tip
from zcf_inspector.gui.theme import Tone, tone_colour
from zcf_inspector.gui.verdict_header import LEVEL_TONES
from zcf_inspector.present import packet
from zcf_inspector.present.vocabulary import Trust

ALL_PACKETS = sorted(
    p
    for folder in (PUBLICATION, NEGATIVE)
    for p in folder.glob("*.json")
    if not p.name.endswith((".receipt.json", ".expect.json", ".destination.json"))
)


@pytest.mark.parametrize("with_destination", [False, True])
def test_window_and_cli_say_the_same_words(with_destination: bool) -> None:
    destination = load_destination(DESTINATION) if with_destination else None
    for path in ALL_PACKETS:
        inspection = inspect_bytes(path.read_bytes(), destination)
        verdict = packet.verdict(inspection)
        line = verdict_line(str(path), inspection)
        # the CLI adds the error count to a refusal; the words before it are the window's
        assert line.removeprefix(f"{path}: ").split(" — ")[0] == verdict.words, path
        authenticity = inspection_json(str(path), inspection)["authenticity"]
        assert isinstance(authenticity, dict)
        assert authenticity["verdict"] == verdict.words


def headline_colour(window: MainWindow) -> str:
    tab = window.current_tab()
    assert tab is not None
    return tab.header.headline.palette().windowText().color().name()


def test_unverified_mac_is_not_green(qtbot: QtBot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "recipient-bound-mac.json"])
    assert tab.verdict.headline == "INTACT · MAC NOT CHECKED (no destination keys)"
    assert tab.verdict.level is Trust.UNCHECKED
    caution = tone_colour(Tone.CAUTION, tab.header.palette()).name()
    assert headline_colour(window) == caution
    assert headline_colour(window) != tone_colour(Tone.GOOD, tab.header.palette()).name()
    # the tab says so too: the not-checkable icon, not the pass icon
    window.apply_destination(str(DESTINATION))
    qtbot.waitUntil(lambda: tab.verdict.level is Trust.VERIFIED, timeout=20_000)
    assert tab.verdict.headline.startswith("VALID · SIGNED by sha256:")
    assert tab.verdict.headline.endswith("… (trusted)")  # shortened on screen
    assert tab.header.headline.toolTip() == plain_tip(tab.verdict.full_headline)  # in full
    assert headline_colour(window) == tone_colour(Tone.GOOD, tab.header.palette()).name()


def test_a_wrong_mac_without_a_destination_is_not_valid(qtbot: QtBot, window: MainWindow) -> None:
    # The reviewer's case: a recipient-bound packet with a wrong MAC, opened without a
    # destination, used to read a green VALID.
    tab = drop_and_wait(qtbot, window, [NEGATIVE / "mac-invalid.json"])
    assert tab.verdict.headline == "INTACT · MAC NOT CHECKED (no destination keys)"
    assert tab.verdict.level is not Trust.VERIFIED
    window.apply_destination(str(DESTINATION))
    qtbot.waitUntil(lambda: tab.verdict.level is Trust.REFUSED, timeout=20_000)
    assert tab.verdict.headline == "REFUSED at authentication"
    assert LEVEL_TONES[tab.verdict.level] is Tone.BAD
    assert headline_colour(window) == tone_colour(Tone.BAD, tab.header.palette()).name()
