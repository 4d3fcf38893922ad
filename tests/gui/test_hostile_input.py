"""Hostile input dropped on the window (issue 7, item 3): each bad path gives one specific,
plain-text message and nothing else; huge strings are elided with the full value one
action away; deep and wide documents display without stalling the UI thread."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from tests.gui.driving import PUBLICATION, WAIT_MS, drop, drop_and_wait, wait_idle
from tests.hostile.corpus import by_name
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES, MAX_DEPTH
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import VALUE_COLUMN

NOBODY = 65534
CTRL = Qt.KeyboardModifier.ControlModifier
# The UI thread may stall this long at most while a hostile document opens and is walked.
# (The 50 MB benchmark holds 100 ms; a test machine running other suites gets headroom.)


def message_after_drop(qtbot: QtBot, window: MainWindow, paths: list[Path]) -> QMessageBox:
    window.message = None
    drop(window, paths)
    qtbot.waitUntil(
        lambda: window.message is not None and window.message.isVisible(), timeout=WAIT_MS
    )
    wait_idle(qtbot, window)
    box = window.message
    assert box is not None
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert box.windowTitle() == "Cannot open"  # not "Internal error", no traceback
    assert box.icon() == QMessageBox.Icon.Warning
    assert not box.detailedText()
    return box


def only_message(qtbot: QtBot, window: MainWindow, path: Path) -> str:
    """Drop ``path``: exactly one message, no tab, and the window still opens good files."""
    box = message_after_drop(qtbot, window, [path])
    text = box.text()
    assert "Traceback" not in text
    assert window.document_tabs() == []
    assert window.stack.currentWidget() is window.start_page
    box.close()
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
    assert tab.verdict.headline == "VALID · UNSIGNED"
    window.close_current()
    return text


def test_folder(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    text = only_message(qtbot, window, tmp_path)
    assert text == f"{tmp_path} is a folder, not a file; open the files inside it instead"


def test_empty_file(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    assert only_message(qtbot, window, path) == (
        f"{path} is empty (0 bytes); there is nothing to inspect"
    )


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "is a PNG image, not a JSON document"),
        (b'{"a": 1}\x00\x00', "is a binary file (it contains NUL bytes), not a JSON document"),
        (bytes(range(0x80, 0x100)) * 40, "is a binary file (most of its bytes are not text)"),
        ('{"a": 1}'.encode("utf-16"), "is UTF-16 text (packets must be UTF-8)"),
    ],
    # (a ZIP archive is opened as an ASIF package: tests/gui/test_package_window.py)
    ids=["png", "nul", "not-utf8", "utf16"],
)
def test_binary_file(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, data: bytes, says: str
) -> None:
    path = tmp_path / "<b>looks<i>.json"  # the name is shown literally, too
    path.write_bytes(data)
    text = only_message(qtbot, window, path)
    assert text.startswith(f"{path} {says}")


def test_a_packet_with_one_bad_byte_is_still_shown_refused_at_the_byte_stage(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    data = (PUBLICATION / "minimal.json").read_bytes()
    path = tmp_path / "bad-byte.json"
    path.write_bytes(data[:40] + b"\xff" + data[40:])
    tab = drop_and_wait(qtbot, window, [path])
    assert tab.verdict.headline == "REFUSED at bytes"
    assert tab.byte_pane.code.text() == "invalid_encoding"


def test_file_over_the_size_limit_is_not_read(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # sparse: the size is there, the bytes are not
        handle.truncate(DEFAULT_MAX_BYTES + 1)
    text = only_message(qtbot, window, path)
    assert text.startswith(f"{path} is 64.0 MiB ({DEFAULT_MAX_BYTES + 1:,} bytes); ")
    assert "at most 64.0 MiB" in text


def test_dangling_symlink(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    link = tmp_path / "dangling.json"
    link.symlink_to(tmp_path / "gone.json")
    text = only_message(qtbot, window, link)
    assert text == (
        f"{link} is a symbolic link to {tmp_path / 'gone.json'}, which does not exist "
        "(a dangling link)"
    )


def test_looping_symlinks(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.symlink_to(second)
    second.symlink_to(first)
    text = only_message(qtbot, window, first)
    assert text == f"{first} is a symbolic link that loops back on itself; it leads to no file"


def test_symlink_to_a_packet_opens_it(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(PUBLICATION / "minimal.json")
    assert drop_and_wait(qtbot, window, [link]).verdict.headline == "VALID · UNSIGNED"


def test_fifo_never_blocks_the_worker(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer for ever
    text = only_message(qtbot, window, fifo)
    assert text == f"{fifo} is a named pipe (FIFO), not a file; only files can be inspected"


def test_path_through_a_file(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    parent = tmp_path / "file"
    parent.write_text("x")
    text = only_message(qtbot, window, parent / "packet.json")
    assert text.endswith("no such file (a part of the path is a file, not a folder)")


@contextlib.contextmanager
def as_nobody() -> Iterator[None]:
    """Root reads everything; act as ``nobody`` so that permissions apply (any other
    account is subject to them already)."""
    if os.geteuid() != 0:
        yield
        return
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder everyone may enter (pytest's own temp folders are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="zcf-hostile-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def test_unreadable_file(qtbot: QtBot, window: MainWindow, open_folder: Path) -> None:
    path = open_folder / "secret.json"
    path.write_bytes((PUBLICATION / "minimal.json").read_bytes())
    path.chmod(0o000)  # found, but may not be read
    with as_nobody():
        box = message_after_drop(qtbot, window, [path])
    assert box.text() == f"{path}: permission denied — this account may not read it"
    assert window.document_tabs() == []


def test_unreachable_folder(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    path = tmp_path / "packet.json"
    path.write_bytes((PUBLICATION / "minimal.json").read_bytes())
    # As root, nobody may not look inside a 0700 folder of root's; any other account may
    # not look inside a folder of its own with no permissions at all.
    tmp_path.chmod(0o700 if os.geteuid() == 0 else 0o000)
    try:
        with as_nobody():
            box = message_after_drop(qtbot, window, [path])
    finally:
        tmp_path.chmod(0o700)
    assert box.text() == f"{path}: permission denied — this account may not read it"
    assert window.document_tabs() == []


def test_drop_of_many_files_opens_the_good_and_reports_the_bad_together(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\x7fELF" + bytes(200))
    good = [PUBLICATION / "minimal.json", PUBLICATION / "unicode.json"]
    box = message_after_drop(qtbot, window, [good[0], tmp_path, empty, binary, good[1]])
    assert [t.title for t in window.document_tabs()] == ["minimal.json", "unicode.json"]
    lines = box.text().splitlines()
    assert lines[0] == "3 of 5 files could not be opened; the other 2 opened:"
    assert lines[2:] == [
        f"• {tmp_path} is a folder, not a file; open the files inside it instead",
        f"• {empty} is empty (0 bytes); there is nothing to inspect",
        f"• {binary} is an executable (ELF), not a JSON document",
    ]


# --- huge, deep and wide documents -----------------------------------------------------


def test_huge_string_is_elided_with_the_full_value_one_action_away(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    huge = "<b>bold</b>" + "x" * 5_000_000 + "\u202etail"
    path = tmp_path / "huge-string.json"
    path.write_text(json.dumps({"format": "not-zcf", "huge": huge}), encoding="utf-8")
    tab = drop_and_wait(qtbot, window, [path])
    index = tab.model.index_for_pointer("/huge", nearest=False)
    shown = tab.model.index(index.row(), VALUE_COLUMN, QModelIndex()).data()
    assert shown.startswith('"<b>bold</b>xxx')
    assert shown.endswith(f'… ({len(huge):,} characters)"')
    assert len(shown) < 300
    tab.select_pointer("/huge")
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    tab.tree.setFocus()
    QTest.keyClick(tab.tree, Qt.Key.Key_Return, CTRL)  # Edit → Show Full Value
    qtbot.waitUntil(lambda: tab.full_value_dialog is not None, timeout=WAIT_MS)
    dialog = tab.full_value_dialog
    assert dialog is not None
    assert dialog.summary.textFormat() == Qt.TextFormat.PlainText
    assert dialog.summary.text() == f"/huge — string, {len(huge):,} characters"
    text = dialog.text.toPlainText()
    assert text.startswith("<b>bold</b>xxx")
    assert text.endswith("\\u202etail")  # the override is shown, not obeyed
    assert "broken for display" in dialog.note.text()
    QGuiApplication.clipboard().clear()
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == huge
    dialog.close()
    qtbot.waitUntil(lambda: tab.full_value_dialog is None)
    # Copy Value copies the whole string as well
    QGuiApplication.clipboard().clear()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    tab.tree.setFocus()
    QTest.keyClick(tab.tree, Qt.Key.Key_C, CTRL)
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == huge, timeout=WAIT_MS)


def test_double_click_on_a_string_shows_its_full_value(qtbot: QtBot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
    index = tab.model.index_for_pointer("/format", nearest=False)
    tab.tree.setCurrentIndex(index)
    rect = tab.tree.visualRect(index)
    # A double click is a click and then a second press: QTest needs the first click.
    QTest.mouseClick(tab.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(tab.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: tab.full_value_dialog is not None, timeout=WAIT_MS)
    dialog = tab.full_value_dialog
    assert dialog is not None
    assert (
        dialog.text.toPlainText()
        == json.loads((PUBLICATION / "minimal.json").read_bytes())["format"]
    )
    assert not dialog.note.isVisibleTo(dialog)
    window.close_current()  # closing the tab closes its viewer
    qtbot.waitUntil(lambda: not dialog.isVisible())


def nested(depth: int) -> str:
    """A document of exactly ``depth`` levels: the top object and ``depth - 1`` arrays."""
    return '{"deep": ' + "[" * (depth - 1) + '"bottom"' + "]" * (depth - 1) + "}"


def test_nesting_at_the_limit_displays(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(nested(MAX_DEPTH))
    pointer = "/deep" + "/0" * (MAX_DEPTH - 1)  # the string inside the innermost array
    tab = drop_and_wait(qtbot, window, [path])
    tab.select_pointer(pointer)  # expands all 127 levels above it
    qtbot.waitUntil(lambda: tab.canonical_pane.form is not None, timeout=WAIT_MS)
    assert tab.selected_pointer() == pointer
    assert tab.canonical_pane.form is not None
    assert tab.canonical_pane.form.data == b'"bottom"'
    tab.find_bar.edit.setText("bottom")
    tab.find_again(False)
    wait_idle(qtbot, window)
    # one level more is refused at the byte stage, with its offset: still a tab
    too_deep = tmp_path / "too-deep.json"
    too_deep.write_text(nested(MAX_DEPTH + 1))
    refused = drop_and_wait(qtbot, window, [too_deep])
    assert refused.byte_pane.code.text() == "nesting_too_deep"


def test_very_wide_object_displays_in_ranges(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    width = 100_000
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"wide": {f"k{i:06d}": i for i in range(width)}}))
    tab = drop_and_wait(qtbot, window, [path])
    tab.select_pointer(f"/wide/k{width - 1:06d}")  # expands the 100,000 rows above it
    qtbot.waitUntil(lambda: tab.canonical_pane.form is not None, timeout=WAIT_MS)
    wide = tab.model.index_for_pointer("/wide", nearest=False)
    # 100 rows of 1,000 members each, not 100,000 rows
    assert tab.model.rowCount(wide) == width // 1000
    last_range = tab.model.index(width // 1000 - 1, 0, wide)
    assert last_range.data() == '{"k099000" … "k099999"}'
    assert tab.model.index(width // 1000 - 1, VALUE_COLUMN, wide).data() == "1,000 members"
    assert tab.selected_pointer() == f"/wide/k{width - 1:06d}"
    assert tab.selected_node() is not None
    assert tab.selected_node().top_level_key == "wide"  # type: ignore[union-attr]


def test_findings_past_the_budget_are_said_to_be_cut(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Issue 15: 6,000 missing fields open in a tab whose findings pane lists the first
    1,000, says how many more of each code were counted and where the first was, and whose
    tree marks where the unlisted ones begin."""
    path = tmp_path / "empty-beliefs.json"
    data = by_name("empty-beliefs").build(64)  # one empty belief, then 2,000 of them
    path.write_bytes(
        data.replace(b'"beliefs":[{}]', b'"beliefs":[' + b",".join([b"{}"] * 2000) + b"]")
    )
    tab = drop_and_wait(qtbot, window, [path])
    assert tab.verdict.headline.startswith("REFUSED")
    tab.show_pane("Findings")
    pane = tab.findings_pane
    listed = pane.model.rowCount()
    assert 1000 <= listed <= 1100
    assert pane.cut.isVisibleTo(pane)
    text = pane.cut.text()
    assert text.startswith("Only the first 1,000 findings are listed; 5,000 more were counted")
    assert "error missing_field: 5,000 more, the first at /content/beliefs/333/sourceId" in text
    assert "(1,000 + 5,000 not listed)" in pane.filters[Severity.ERROR].text()
    says = "5,000 more missing_field not listed, from /content/beliefs/333/sourceId"
    for holder in ("/content/beliefs/333", "/content"):  # the first names a missing member
        node = tab.model.node(tab.model.index_for_pointer(holder, nearest=False))
        assert node is not None
        assert says in tab.model.status(node).text
