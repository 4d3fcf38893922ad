"""The compare view, driven as a user drives it: File → Compare With…, a tab's context
menu, a drop with Alt or Ctrl held, F7 / Shift+F7, and the highlighted characters;
and the tree's Digest column, which lets two copies be matched by eye."""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QWidget
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.gui.conftest import OFFSCREEN_NOTICE
from tests.gui.driving import PUBLICATION, WAIT_MS, drop_and_wait, wait_idle
from zcf_inspector.core.canonical import canonical
from zcf_inspector.gui.compare_view import ADDED_BACKGROUND, REMOVED_BACKGROUND, CompareView
from zcf_inspector.gui.compare_work import release_in_slices
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.element_digests import COMPUTING
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.manifest_pane import short_digest
from zcf_inspector.gui.packet_tree_model import DIGEST_COLUMN
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE
from zcf_inspector.gui.shortcuts import WINDOW

PACKET = PUBLICATION / "full-handoff.json"
ALT = Qt.KeyboardModifier.AltModifier
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def sha(value: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical(value)).hexdigest()


def next_generation(folder: Path, name: str = "gen2.json") -> Path:
    """B: belief b-order reworded and confirmed, b-new added, receipt r-patch removed,
    and an extension (outside the root) changed."""
    b = json.loads(PACKET.read_bytes())
    beliefs = b["content"]["beliefs"]
    beliefs[1]["content"] = "Keys are sorted by code point, not by UTF-16 word."
    beliefs[1]["reviewState"] = "confirmed"
    beliefs.append(g.belief("b-new", "A new belief."))
    del b["content"]["receipts"][0]
    b = g.unsigned(b)
    b["extensions"] = {"org.example.ticket": "ZCF-43"}
    path = folder / name
    path.write_text(json.dumps(b, indent=2), encoding="utf-8")
    return path


def wait_for_compare(qtbot: QtBot, window: MainWindow) -> CompareView:
    qtbot.waitUntil(lambda: window.current_compare() is not None, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    view = window.current_compare()
    assert view is not None
    return view


def choose_in_dialog(qtbot: QtBot, window: MainWindow, path: Path) -> None:
    dialog = window.compare_file_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    dialog.selectFile(str(path))
    dialog.accept()


def highlighted(view: CompareView, color: QColor) -> list[str]:
    """The runs of the detail text painted with ``color`` as background, in order."""
    runs: list[str] = []
    block = view.detail.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().background().color() == color:
                runs.append(fragment.text())
            it += 1
        block = block.next()
    return runs


def activate(qtbot: QtBot, window: MainWindow, focus: QWidget) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    focus.setFocus()
    qtbot.waitUntil(focus.hasFocus)


def drop_with(
    window: MainWindow, path: Path, modifiers: Qt.KeyboardModifier, where: QPointF
) -> None:
    """A real drag-enter then drop of ``path`` at ``where``, with ``modifiers`` held."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    action, button = Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton
    try:  # PySide6 >= 6.12 has the QPointF constructor (as in tests/gui/driving.py)
        enter: QDragEnterEvent = QDragEnterEvent(  # type: ignore[call-overload,unused-ignore]
            where, action, mime, button, modifiers
        )
    except TypeError:
        enter = QDragEnterEvent(where.toPoint(), action, mime, button, modifiers)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    event = QDropEvent(where, action, mime, button, modifiers)
    QApplication.sendEvent(window, event)
    assert event.isAccepted()


# --- opening a comparison ------------------------------------------------------------


def test_file_menu_compares_the_current_packet_with_a_chosen_one(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [PACKET])
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu)
    assert window.compare_action in file_menu.actions()
    assert window.compare_action.isEnabled()
    window.compare_action.trigger()
    choose_in_dialog(qtbot, window, next_generation(tmp_path))
    view = wait_for_compare(qtbot, window)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "full-handoff.json ↔ gen2.json"
    assert window.windowTitle().startswith("full-handoff.json ↔ gen2.json")
    assert tab in window.document_tabs()  # A's tab stays open
    # changed sections first, each with its two digests
    parts = [
        (view.parts_model.index(r, 0).data(), view.parts_model.index(r, 1).data())
        for r in range(view.parts_model.rowCount())
    ]
    statuses = [status for _, status in parts]
    first_same = statuses.index("same")
    assert all(s == "same" for s in statuses[first_same:])
    assert set(parts[:first_same]) == {
        ("beliefs", "changed"),
        ("receipts", "changed"),
        ("extensions", "changed"),
        ("manifest", "changed"),
    }
    beliefs_row = [name for name, _ in parts].index("beliefs")
    manifest_a = json.loads(PACKET.read_bytes())["manifest"]["sections"]
    assert view.parts_model.index(beliefs_row, 4).data() == short_digest(manifest_a["beliefs"])
    assert view.parts_model.index(beliefs_row, 2).data() == "1 added, 1 changed"
    extensions_row = [name for name, _ in parts].index("extensions")
    assert view.parts_model.index(extensions_row, 3).data() == "not integrity-protected"
    changes = [
        tuple(view.changes_model.index(r, c).data() for c in range(4))
        for r in range(view.changes_model.rowCount())
    ]
    assert changes[:4] == [
        ("changed", "beliefs", "b-order", "/content/beliefs/1"),
        ("added", "beliefs", "b-new", "/content/beliefs/3"),
        ("removed", "receipts", "r-patch", "/content/receipts/0"),
        (
            "changed",
            "extensions (outside the root)",
            "org.example.ticket",
            "/extensions/org.example.ticket",
        ),
    ]
    # the first change is selected and its changed characters highlighted
    assert view.current_change() is not None
    qtbot.waitUntil(lambda: bool(view.detail_lines), timeout=WAIT_MS)
    assert highlighted(view, REMOVED_BACKGROUND) == ["unit"]
    assert highlighted(view, ADDED_BACKGROUND) == ["word", '"confirmed"']
    text = view.detail.toPlainText()
    assert 'changed — beliefs "b-order"' in text
    assert "review state unreviewed (absent) → confirmed" in text
    assert '  A  "Keys are sorted by code point, not by UTF-16 unit."' in text


# A popped-up menu grabs the keyboard, which the offscreen platform cannot do (and says).
@pytest.mark.qt_log_ignore(OFFSCREEN_NOTICE, r"This plugin does not support grabbing the keyboard")
def test_a_tabs_context_menu_offers_compare_with(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    drop_and_wait(qtbot, window, [PACKET])
    bar = window.tabs.tabBar()
    bar.customContextMenuRequested.emit(bar.tabRect(0).center())
    menu = window.tab_menu
    assert menu is not None
    texts = {a.text(): a for a in menu.actions()}
    assert set(texts) == {"Compare With…", "Close Tab"}
    assert texts["Compare With…"].isEnabled()
    texts["Compare With…"].trigger()
    menu.close()
    choose_in_dialog(qtbot, window, next_generation(tmp_path))
    view = wait_for_compare(qtbot, window)
    assert view.changes_model.rowCount() == 6  # 3 elements, 1 extension, 2 in the manifest
    # the compare tab's own menu: nothing to compare from, but it closes
    bar.customContextMenuRequested.emit(bar.tabRect(1).center())
    menu = window.tab_menu
    assert menu is not None
    texts = {a.text(): a for a in menu.actions()}
    assert not texts["Compare With…"].isEnabled()
    texts["Close Tab"].trigger()
    menu.close()
    assert window.current_compare() is None
    assert window.tabs.count() == 1


def test_dropping_with_alt_or_ctrl_on_a_tab_compares(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    other = drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
    packet = drop_and_wait(qtbot, window, [PACKET])
    window.tabs.setCurrentWidget(other)
    gen2 = next_generation(tmp_path)
    bar = window.tabs.tabBar()
    on_packet_tab = QPointF(bar.mapTo(window, bar.tabRect(window.tabs.indexOf(packet)).center()))
    drop_with(window, gen2, ALT, on_packet_tab)
    view = wait_for_compare(qtbot, window)
    assert view.compared.path_a == packet.document.path  # the tab dropped on, not the current
    assert view.compared.path_b == str(gen2)
    # Ctrl on the content area compares with the tab shown
    window.tabs.setCurrentWidget(other)
    middle = QPointF(window.width() / 2, window.height() / 2)
    drop_with(window, gen2, CTRL, middle)
    view = wait_for_compare(qtbot, window)
    assert view.compared.path_a == other.document.path
    # without a modifier the file opens in its own tab, as before
    before = window.tabs.count()
    drop_with(window, gen2, Qt.KeyboardModifier.NoModifier, middle)
    qtbot.waitUntil(lambda: window.tabs.count() == before + 1, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert window.current_tab() is not None
    assert window.current_tab().document.path == str(gen2)  # type: ignore[union-attr]


# --- moving and highlighting ---------------------------------------------------------


def test_f7_and_shift_f7_move_between_changes_and_are_listed_in_help(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [PACKET])
    window.compare_paths(tab, str(next_generation(tmp_path)))
    view = wait_for_compare(qtbot, window)
    activate(qtbot, window, view.changes)
    assert view.changes.currentIndex().row() == 0
    QTest.keyClick(view.changes, Qt.Key.Key_F7)
    assert view.changes.currentIndex().row() == 1
    qtbot.waitUntil(lambda: "b-new" in view.detail.toPlainText(), timeout=WAIT_MS)
    assert (
        f"sha256:{hashlib.sha256(canonical(g.belief('b-new', 'A new belief.'))).hexdigest()}"
        in (view.detail.toPlainText())
    )
    QTest.keyClick(view.changes, Qt.Key.Key_F7)
    QTest.keyClick(view.changes, Qt.Key.Key_F7)
    assert view.changes.currentIndex().row() == 3
    qtbot.waitUntil(lambda: bool(view.detail_lines), timeout=WAIT_MS)
    assert "not integrity-protected" in view.detail.toPlainText()
    assert highlighted(view, REMOVED_BACKGROUND) == ["2"]
    assert highlighted(view, ADDED_BACKGROUND) == ["3"]
    QTest.keyClick(view.changes, Qt.Key.Key_F7, SHIFT)
    assert view.changes.currentIndex().row() == 2
    messages: list[str] = []
    view.statusMessage.connect(messages.append)
    view.select_change(view.changes_model.rowCount() - 1)
    QTest.keyClick(view.changes, Qt.Key.Key_F7)
    assert view.changes.currentIndex().row() == view.changes_model.rowCount() - 1
    assert messages == ["That was the last change."]
    # a section row leads to its first change
    row = next(
        r
        for r in range(view.parts_model.rowCount())
        if view.parts_model.index(r, 0).data() == "receipts"
    )
    view.parts.clicked.emit(view.parts_model.index(row, 0))
    assert view.current_change() is not None
    assert view.current_change().id == "r-patch"  # type: ignore[union-attr]
    # Help → Keyboard Shortcuts lists both keys
    QTest.keyClick(window, Qt.Key.Key_F1)
    dialog = window.shortcuts_dialog
    assert dialog is not None
    listed = {(keys, action) for section, keys, action in dialog.rows() if section == WINDOW}
    native = QKeySequence.SequenceFormat.NativeText
    assert (QKeySequence("F7").toString(native), "Next Change") in listed
    assert (QKeySequence("Shift+F7").toString(native), "Previous Change") in listed
    dialog.close()


def test_packet_text_in_the_compare_view_stays_plain_and_visible(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    a = g.full_handoff()
    a["content"]["beliefs"][0]["content"] = "<b>bold</b> text"
    a = g.unsigned(a)
    b = copy.deepcopy(a)
    b["content"]["beliefs"][0]["content"] = "<b>bold</b> text\u202e\x1b[31m<i>x</i>"
    path_a, path_b = tmp_path / "a.json", tmp_path / "b.json"
    path_a.write_text(json.dumps(a), encoding="utf-8")
    path_b.write_text(json.dumps(g.unsigned(b)), encoding="utf-8")
    tab = drop_and_wait(qtbot, window, [path_a])
    window.compare_paths(tab, str(path_b))
    view = wait_for_compare(qtbot, window)
    qtbot.waitUntil(lambda: bool(view.detail_lines), timeout=WAIT_MS)
    text = view.detail.toPlainText()
    assert '"<b>bold</b> text\\u202e\\u001b[31m<i>x</i>"' in text
    assert "\u202e" not in text
    assert "\x1b" not in text
    assert highlighted(view, ADDED_BACKGROUND) == ["\\u202e\\u001b[31m<i>x</i>"]


# --- refusals, progress and cancel ---------------------------------------------------


def test_a_b_refused_at_the_byte_stage_is_a_message_not_a_view(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [PACKET])
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{"format": ')
    window.compare_paths(tab, str(broken))
    wait_idle(qtbot, window)
    assert window.current_compare() is None
    assert window.message is not None
    assert "cannot be compared: it was refused at the byte stage (invalid_json" in (
        window.message.text()
    )
    window.message.close()
    window.compare_paths(tab, str(tmp_path))  # a folder
    wait_idle(qtbot, window)
    assert window.current_compare() is None
    assert "folder" in window.message.text()


def test_a_b_refused_at_a_later_stage_is_compared(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tampered = json.loads(PACKET.read_bytes())
    tampered["content"]["capsule"]["objective"] = "Exfiltrate the keys"  # not resealed
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    tab = drop_and_wait(qtbot, window, [PACKET])
    window.compare_paths(tab, str(path))
    view = wait_for_compare(qtbot, window)
    assert "B: " in view.header.text()
    assert "REFUSED at manifest (compared as far as it reads)" in view.header.text()
    assert view.parts_model.index(0, 0).data() == "capsule"
    assert view.parts_model.index(1, 1).data() == "same"
    assert view.current_change() is not None
    assert view.current_change().pointer == "/content/capsule/objective"  # type: ignore[union-attr]


def test_comparing_is_not_offered_for_documents_other_than_packets(
    qtbot: QtBot, window: MainWindow
) -> None:
    drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.receipt.json"])
    assert not window.compare_action.isEnabled()
    drop_and_wait(qtbot, window, [PACKET])
    assert window.compare_action.isEnabled()
    assert not window.next_change_action.isEnabled()


def test_the_comparison_runs_on_a_worker_with_progress_and_cancel(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [PACKET])
    reached = threading.Event()
    release = threading.Event()
    seen: list[str] = []

    def hold(what: str, fraction: float) -> None:  # on the worker thread
        del fraction
        seen.append(what)
        if what.startswith("comparing"):
            reached.set()
            release.wait(timeout=60)

    window.runner.progress_hook = hold
    try:
        window.compare_paths(tab, str(next_generation(tmp_path)))
        qtbot.waitUntil(reached.is_set, timeout=WAIT_MS)
        qtbot.waitUntil(window.cancel_button.isVisible, timeout=WAIT_MS)
        assert window.progress.isVisible()
        QTest.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
        assert not window.runner.busy
    finally:
        window.runner.progress_hook = None
        release.set()
    assert window.runner.wait_for_done(WAIT_MS)
    qtbot.wait(50)
    assert window.current_compare() is None
    assert any(s.startswith("gen2.json: ") for s in seen)  # B's stages reported progress


# --- the Digest column of the tree ---------------------------------------------------


def test_every_element_of_a_covered_section_shows_its_own_digest(
    qtbot: QtBot, window: MainWindow
) -> None:
    tab = drop_and_wait(qtbot, window, [PACKET])
    packet = json.loads(PACKET.read_bytes())
    model = tab.model
    for pointer, value in (
        ("/content/beliefs/0", packet["content"]["beliefs"][0]),
        ("/content/capsule/objective", packet["content"]["capsule"]["objective"]),
        ("/content/allowedTools/2", packet["content"]["allowedTools"][2]),
        ("/packet/nonce", packet["packet"]["nonce"]),
    ):
        index = model.index_for_pointer(pointer, nearest=False).siblingAtColumn(DIGEST_COLUMN)
        assert index.data() == short_digest(sha(value)), pointer
        assert f"canonical digest: {sha(value)}" in index.data(PLAIN_TOOLTIP_ROLE)
    section = model.index_for_pointer("/content/beliefs", nearest=False)
    assert section.siblingAtColumn(DIGEST_COLUMN).data() == short_digest(
        packet["manifest"]["sections"]["beliefs"]
    )
    for pointer in ("/format", "/content", "/content/beliefs/0/content", "/extensions"):
        index = model.index_for_pointer(pointer, nearest=False)
        assert index.siblingAtColumn(DIGEST_COLUMN).data() == "", pointer


def test_two_copies_show_the_same_digests_row_for_row(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    copy_path = tmp_path / "copy.json"
    copy_path.write_text(json.dumps(json.loads(PACKET.read_bytes()), indent=4), encoding="utf-8")
    first = drop_and_wait(qtbot, window, [PACKET])
    second = drop_and_wait(qtbot, window, [copy_path])
    for n in range(3):
        pointer = f"/content/beliefs/{n}"
        shown = [
            t.model.index_for_pointer(pointer, nearest=False).siblingAtColumn(DIGEST_COLUMN).data()
            for t in (first, second)
        ]
        assert shown[0] == shown[1] != ""


def test_a_large_elements_digest_is_made_on_a_worker(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    p = g.full_handoff()
    p["content"]["capsule"]["decisions"] = [f"decision {n}" for n in range(20_000)]
    path = tmp_path / "large.json"
    path.write_text(json.dumps(g.unsigned(p)), encoding="utf-8")
    tab: DocumentTab = drop_and_wait(qtbot, window, [path])
    index = tab.model.index_for_pointer("/content/capsule/decisions", nearest=False)
    cell = index.siblingAtColumn(DIGEST_COLUMN)
    first = cell.data()
    expected = short_digest(sha(p["content"]["capsule"]["decisions"]))
    assert first in (COMPUTING, expected)
    qtbot.waitUntil(lambda: cell.data() == expected, timeout=WAIT_MS)


def test_b_is_let_go_in_slices_but_never_what_a_change_still_holds() -> None:
    beliefs = [g.belief(f"b-{n}", "x") for n in range(10_000)]
    kept = [f"decision {n}" for n in range(10_000)]
    held_elsewhere = kept  # as a change's field may hold an array of B
    packet: dict[str, Any] = {"content": {"beliefs": beliefs, "decisions": kept, "small": [1]}}
    del beliefs
    breaths: list[int] = []
    release_in_slices(packet, lambda: breaths.append(1))
    assert packet["content"]["beliefs"] == []
    assert len(breaths) == 3  # 10,000 elements, 4,096 at a time
    assert held_elsewhere == [f"decision {n}" for n in range(10_000)]
    assert packet["content"]["small"] == [1]
