"""The Briefing pane (issue 20), driven through the real window: reached from the
keyboard, Enter on an item selects its tree node, a workspace check with one mismatch
says "differs" on that source, a planted credential stays masked until revealed, hostile
strings are shown escaped, and a receipt's digest is checked against a picked file."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from goldens import generate as g
from tests.core.helpers import to_bytes
from tests.gui.driving import WAIT_MS, wait_idle
from zcf_inspector.gui.briefing_pane import BriefingPane
from zcf_inspector.gui.document_tab import PANE_BRIEFING, DocumentTab
from zcf_inspector.gui.main_window import MainWindow

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
REVEAL_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
HOSTILE = "Fix \x1b[31mred\x1b[0m, \u202eevil\u202c and zero\u200bwidth"
SPEC = b"the spec\n"
PATCH = b"--- a/zcf/reading.py\n+++ b/zcf/reading.py\n"


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def briefing_packet() -> dict[str, Any]:
    packet = g.handoff("briefing-pane")
    c = packet["content"]
    c["capsule"]["objective"] = HOSTILE
    c["capsule"]["decisions"] = ["keep the reader streaming", "no new dependency"]
    c["capsule"]["risks"] = [f"the deploy key {AWS_KEY} is still live"]
    c["capsule"]["changedFiles"] = ["spec/a.md", "zcf/reading.py"]
    c["beliefs"] = [g.belief("b-1", "the spec says so"), g.belief("b-2", "the reader")]
    c["evidenceSources"] = [
        {"id": "s-spec", "kind": "local", "locator": "spec/a.md", "digest": sha(SPEC)},
        {"id": "s-reader", "kind": "local", "locator": "zcf/reading.py", "digest": sha(b"old\n")},
    ]
    c["evidenceAnchors"] = [
        {"id": "a-1", "beliefRef": "b-1", "sourceRef": "s-spec"},
        {"id": "a-2", "beliefRef": "b-2", "sourceRef": "s-reader"},
    ]
    c["receipts"] = [
        {"id": "r-patch", "kind": "patch", "digest": sha(PATCH), "summary": "the reader patch"},
        {"id": "r&d\u202e", "kind": "verification", "digest": sha(b"x"), "summary": "tests"},
    ]
    return g.unsigned(packet)


@pytest.fixture
def packet_path(tmp_path: Path) -> Path:
    path = tmp_path / "briefing.json"
    path.write_bytes(to_bytes(briefing_packet()))
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """spec/a.md as the packet claims it; zcf/reading.py with other bytes: one mismatch."""
    root = tmp_path / "ws"
    (root / "spec").mkdir(parents=True)
    (root / "zcf").mkdir()
    (root / "spec" / "a.md").write_bytes(SPEC)
    (root / "zcf" / "reading.py").write_bytes(b"new\n")
    return root


def opened(qtbot, window: MainWindow, path: Path) -> tuple[DocumentTab, BriefingPane]:
    window.open_paths([str(path)])
    qtbot.waitUntil(lambda: window.current_tab() is not None, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    tab = window.current_tab()
    assert tab is not None
    pane = tab.briefing_pane
    qtbot.waitUntil(lambda: pane.text is not None, timeout=WAIT_MS)
    return tab, pane


def briefing_action(window: MainWindow) -> Any:
    return next(a for a in window.pane_actions if a.text().startswith("&Briefing"))


def test_the_briefing_is_reached_from_the_keyboard_and_enter_selects_the_node(
    qtbot, window: MainWindow, packet_path: Path
) -> None:
    tab, pane = opened(qtbot, window, packet_path)
    assert PANE_BRIEFING in tab.pane_names()
    action = briefing_action(window)
    assert action.shortcut().toString() == "Alt+6"
    tab.tree.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_6, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(pane.view.hasFocus, timeout=WAIT_MS)
    assert tab.panes.currentWidget() is pane
    # Headings and items, plain and selectable.
    assert pane.find_line("Decisions (2)") >= 0
    line = pane.find_line("• no new dependency")
    assert line >= 0
    assert "covered · /content/capsule/decisions/1" in pane.line_text(line + 1)
    pane.go_to_line(line)
    qtbot.keyClick(pane.view, Qt.Key.Key_Return)
    assert tab.selected_pointer() == "/content/capsule/decisions/1"
    # Down to the item's detail line: Enter still names the same item.
    qtbot.keyClick(pane.view, Qt.Key.Key_Down)
    qtbot.keyClick(pane.view, Qt.Key.Key_Enter)
    assert tab.selected_pointer() == "/content/capsule/decisions/1"
    # A double-click on another item selects its node too.
    other = pane.find_line("• keep the reader streaming")
    pane.go_to_line(other)
    rect = pane.view.cursorRect()
    qtbot.mouseDClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert tab.selected_pointer() == "/content/capsule/decisions/0"
    assert pane.view.isReadOnly()
    assert pane.view.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByKeyboard


def test_the_shortcuts_list_names_the_briefing(qtbot, window: MainWindow) -> None:
    from zcf_inspector.gui.shortcuts import BRIEFING, shortcut_entries

    entries = shortcut_entries(window.actions())
    assert any(e.keys == "Alt+6" and e.action.startswith("Briefing") for e in entries)
    keys = [e.keys for e in entries if e.section == BRIEFING]
    assert keys == ["Enter", "Up / Down", "Ctrl+Shift+V"]
    # The listed reveal key is the pane's real one.
    pane = BriefingPane(window.runner)
    qtbot.addWidget(pane)
    assert pane.reveal_action.shortcut().toString() == keys[2]


def test_a_workspace_check_with_one_mismatch_says_differs_on_that_source(
    qtbot, window: MainWindow, packet_path: Path, workspace: Path
) -> None:
    tab, pane = opened(qtbot, window, packet_path)
    assert pane.find_line("not checked: no workspace named") >= 0
    pane.choose_folder = lambda: str(workspace)
    qtbot.mouseClick(pane.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not pane.busy, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: pane.find_line("claims vs workspace:") >= 0, timeout=WAIT_MS)
    differs = pane.find_line("• evidence source s-reader (zcf/reading.py): differs")
    assert differs >= 0
    matches = pane.find_line("• evidence source s-spec (spec/a.md): matches")
    assert matches >= 0
    # Two sources and the two changed files they name: two files, each counted once
    # (issue 34: it said "2 match, 2 differ" for these two files), and said so.
    summary = (
        "claims vs workspace: 1 matches, 1 differs "
        "(2 files named both as a source and as a changed file, counted once)"
    )
    assert pane.find_line(summary) >= 0
    assert pane.state.text() == summary
    # The changed file the mismatching source names says so on its own item.
    changed = pane.find_line("• zcf/reading.py")
    assert "workspace: differs" in "\n".join(pane.line_text(changed + i) for i in range(1, 4))
    # The per-belief roll-up: b-2 cites the mismatch.
    assert pane.find_line("• b-2: cites a mismatch") >= 0
    assert pane.find_line("all cited sources match: 1") >= 0
    pane.go_to_line(differs)
    qtbot.keyClick(pane.view, Qt.Key.Key_Return)
    assert tab.selected_pointer() == "/content/evidenceSources/1"
    # Remembered for this packet: a second window checks it again on its own.
    second = MainWindow()
    qtbot.addWidget(second)
    _, again = opened(qtbot, second, packet_path)
    qtbot.waitUntil(lambda: again.find_line("differs") >= 0, timeout=WAIT_MS)
    assert again.folder == str(workspace)
    # A remembered folder that went away says so.
    (workspace / "zcf" / "reading.py").unlink()
    (workspace / "zcf").rmdir()
    (workspace / "spec" / "a.md").unlink()
    (workspace / "spec").rmdir()
    workspace.rmdir()
    qtbot.mouseClick(again.again_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not again.busy, timeout=WAIT_MS)
    gone = again.find_line("not checked: the workspace ")
    assert gone >= 0
    assert again.line_text(gone).endswith("is not a folder")
    assert again.state.text() == again.line_text(gone)
    assert again.find_line("no workspace named") < 0
    qtbot.mouseClick(again.forget_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: again.find_line("no workspace named") >= 0, timeout=WAIT_MS)


def test_the_workspace_check_runs_on_the_runner_and_cancels(
    qtbot, window: MainWindow, packet_path: Path, workspace: Path
) -> None:
    _, pane = opened(qtbot, window, packet_path)
    reached, release = threading.Event(), threading.Event()

    def hold(what: str, _fraction: float) -> None:
        if "workspace" in what and not reached.is_set():
            reached.set()
            release.wait(10)  # the worker waits here, mid-check, until the test has cancelled

    window.runner.progress_hook = hold
    pane.choose_folder = lambda: str(workspace)
    pane.choose_and_check()
    assert pane.busy
    assert pane.cancel_button.isVisibleTo(pane)
    assert not pane.check_button.isEnabled()
    assert reached.wait(10)
    qtbot.mouseClick(pane.cancel_button, Qt.MouseButton.LeftButton)
    assert not pane.busy
    assert pane.state.text() == "cancelled"
    release.set()
    window.runner.wait_for_done(WAIT_MS)
    qtbot.wait(50)
    assert not window.runner.busy
    assert pane.find_line(": differs") < 0  # the cancelled check never showed
    assert pane.check_button.isEnabled()


def test_a_planted_credential_is_masked_until_revealed(
    qtbot, window: MainWindow, packet_path: Path
) -> None:
    tab, pane = opened(qtbot, window, packet_path)
    text = pane.view.toPlainText()
    assert AWS_KEY not in text
    risk = pane.find_line("• the deploy key AKIA…(20 characters, hidden) is still live")
    assert risk >= 0
    assert pane.find_line("1 suspected credential in 1 of 15 texts (values hidden)") >= 0
    hit = pane.find_line("• an AWS access key id at /content/capsule/risks/0: looks like")
    assert hit >= 0
    qtbot.keyClick(window, Qt.Key.Key_6, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(pane.view.hasFocus, timeout=WAIT_MS)
    pane.go_to_line(risk + 1)  # a detail line of the item: Reveal acts on its item
    assert pane.reveal_button.isEnabled()
    qtbot.keyClick(
        pane.view,
        Qt.Key.Key_V,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert AWS_KEY in pane.line_text(risk)
    assert "(revealed" in pane.line_text(risk)
    assert AWS_KEY not in pane.line_text(hit)  # revealed on the one item only
    assert pane.reveal_button.text() == "Hi&de"
    qtbot.mouseClick(pane.reveal_button, Qt.MouseButton.LeftButton)  # hide again
    assert AWS_KEY not in pane.view.toPlainText()
    assert pane.line_text(risk) == "• the deploy key AKIA…(20 characters, hidden) is still live"
    # The hit's own line reveals the text it was found in.
    pane.view.setFocus()
    pane.go_to_line(hit)
    qtbot.keyClick(pane.view, Qt.Key.Key_V, REVEAL_MODIFIERS)
    assert f"the deploy key {AWS_KEY} is still live" in pane.line_text(hit)
    qtbot.keyClick(pane.view, Qt.Key.Key_V, REVEAL_MODIFIERS)
    assert AWS_KEY not in pane.view.toPlainText()
    # An item without a credential offers nothing to reveal.
    pane.go_to_line(pane.find_line("• keep the reader streaming"))
    assert not pane.reveal_button.isEnabled()
    assert tab is window.current_tab()


def test_hostile_strings_are_shown_escaped(qtbot, window: MainWindow, packet_path: Path) -> None:
    _, pane = opened(qtbot, window, packet_path)
    text = pane.view.toPlainText()
    for char in ("\x1b", "\u202e", "\u200b"):
        assert char not in text
    line = pane.find_line("Fix ")
    assert pane.line_text(line) == (
        "• Fix \\u001b[31mred\\u001b[0m, \\u202eevil\\u202c and zero\\u200bwidth"
    )


def test_a_receipts_digest_is_checked_against_a_picked_file(
    qtbot, window: MainWindow, packet_path: Path, tmp_path: Path
) -> None:
    _, pane = opened(qtbot, window, packet_path)
    good, bad = tmp_path / "good.patch", tmp_path / "bad.patch"
    good.write_bytes(PATCH)
    bad.write_bytes(PATCH + b"+more\n")
    # Packet text in the menu: escaped, and its "&" not taken for a mnemonic.
    assert [a.text() for a in pane.receipt_menu.actions()] == [
        "patch receipt r-patch…",
        "verification receipt r&&d\\u202e…",
    ]
    check_file(qtbot, pane, bad, "differs")
    check_file(qtbot, pane, good, "matches")


def check_file(qtbot, pane: BriefingPane, file: Path, word: str) -> None:
    pane.choose_file = lambda _receipt: str(file)
    pane.receipt_menu.actions()[0].trigger()
    qtbot.waitUntil(lambda: pane.find_line(f"file {file}") >= 0, timeout=WAIT_MS)
    assert pane.state.text().startswith(f"patch receipt r-patch: {word} — ")
    item = pane.find_line("• patch receipt r-patch: the reader patch")
    lines = "\n".join(pane.line_text(item + i) for i in range(1, 5))
    assert f"file {file}: {word}" in lines


def test_the_scan_and_the_briefing_run_on_the_runner_not_the_ui_thread(
    qtbot, window: MainWindow, packet_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zcf_inspector.core.briefing.build import build_briefing as real_build
    from zcf_inspector.core.secrets.scan import scan_packet as real_scan

    threads: list[str] = []

    def scan(*args: Any, **kwargs: Any) -> Any:  # the real scan, its thread noted
        threads.append(f"scan {threading.current_thread() is threading.main_thread()}")
        return real_scan(*args, **kwargs)

    def build(*args: Any, **kwargs: Any) -> Any:
        threads.append(f"build {threading.current_thread() is threading.main_thread()}")
        return real_build(*args, **kwargs)

    # The open scans the packet (on its worker) and the Briefing uses that scan; the
    # pane's own work would scan a packet opened without one.
    monkeypatch.setattr("zcf_inspector.opener.open.scan_packet", scan)
    monkeypatch.setattr("zcf_inspector.gui.briefing_work.build_briefing", build)
    _, pane = opened(qtbot, window, packet_path)
    assert threads == ["scan False", "build False"]
    assert pane.result is not None
    assert pane.result.scan is not None
    assert len(pane.result.scan.hits) == 1  # the real scan's answer, masked in the pane


def test_a_packet_refused_at_its_bytes_is_briefed_in_words(qtbot, window: MainWindow) -> None:
    from tests.gui.driving import NEGATIVE

    _, pane = opened(qtbot, window, NEGATIVE / "bom.json")
    assert pane.line_text(0).startswith("REFUSED")
    assert pane.find_line("no briefing: the packet was refused at its bytes") >= 0
    assert pane.find_line("not scanned: the packet could not be read") >= 0
    assert not pane.check_button.isEnabled()  # nothing in it can be checked
