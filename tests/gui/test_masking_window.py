"""One masking rule in the window too (issue 34, point 1): texts the packet scan does not
read — a key that is itself a token, ids, tool names — and a comparison's values are
masked wherever the window shows them: the tree's keys and values, the Findings pane
(and the line Copy Value copies from it), the compare view's ids, pointers and values."""

from __future__ import annotations

import copy
import json
from functools import partial
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.gui.driving import WAIT_MS, drop_and_wait, wait_idle
from tests.gui.test_compare import wait_for_compare
from zcf_inspector.gui.canonical_pane import flagged_below
from zcf_inspector.gui.clipboard import CopyKind
from zcf_inspector.gui.findings_pane import finding_line
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import KEY_COLUMN, VALUE_COLUMN

TOKEN = "ghp_" + "A1b2C3d4E5" * 4
OTHER = "ghp_" + "Z9y8X7w6V5" * 4
RAW = ("A1b2C3d4E5", "Z9y8X7w6V5")


def shown_texts(model: object, parent: QModelIndex | None = None, depth: int = 0) -> list[str]:
    """Every cell a model shows, a few levels deep (only what the test planted matters)."""
    parent = QModelIndex() if parent is None else parent
    texts: list[str] = []
    rows, columns = model.rowCount(parent), model.columnCount(parent)  # type: ignore[attr-defined]
    for row in range(rows):
        for column in range(columns):
            index = model.index(row, column, parent)  # type: ignore[attr-defined]
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = index.data(role)
                if isinstance(value, str):
                    texts.append(value)
        if depth < 4:
            texts += shown_texts(model, model.index(row, 0, parent), depth + 1)  # type: ignore[attr-defined]
    return texts


def no_raw(texts: list[str]) -> None:
    for text in texts:
        assert not any(raw in text for raw in RAW), text


def test_a_token_key_and_a_token_id_are_masked_in_the_tree_and_the_findings(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    packet = g.handoff("mask-window")
    packet["content"]["beliefs"] = [g.belief(TOKEN, "a plain belief")]
    packet["content"][OTHER] = "an unknown field named by a token"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(g.unsigned(packet)), encoding="utf-8")
    tab = drop_and_wait(qtbot, window, [path])
    wait_idle(qtbot, window)
    findings = tab.findings_pane.model
    lines = [finding_line(findings.finding(r)) for r in range(findings.rowCount())]
    assert any("unknown_field" in line and "ghp_…(44 characters, hidden)" in line for line in lines)
    no_raw(lines)
    no_raw(shown_texts(findings))
    tab.tree.expandAll()
    texts = shown_texts(tab.model)
    assert "ghp_…(44 characters, hidden)" in texts  # the unknown key, in the Key column
    no_raw(texts)
    index = tab.model.index_for_pointer("/content/beliefs/0/portableRef", nearest=False)
    assert index.siblingAtColumn(VALUE_COLUMN).data() == '"ghp_…(44 characters, hidden)"'
    assert index.siblingAtColumn(KEY_COLUMN).data() == "portableRef"
    # The canonical-bytes pane holds its bytes back too (and the belief's, which hold it).
    pane = tab.canonical_pane

    def shows(pointer: str) -> bool:
        return pane.form is not None and pane.form.pointer == pointer

    for pointer in ("/content/beliefs/0/portableRef", "/content/beliefs/0"):
        tab.select_pointer(pointer)
        qtbot.waitUntil(partial(shows, pointer))
        wait_idle(qtbot, window)
        assert pane.views.isHidden()
        assert not pane.held_back.isHidden()
        no_raw([pane.text.toPlainText()])
    tab.select_pointer("/content/beliefs/0/content")  # nothing in it: shown at once
    qtbot.waitUntil(lambda: pane.form is not None and pane.form.pointer.endswith("/content"))
    wait_idle(qtbot, window)
    assert pane.held_back.isHidden()
    # Copy Value of that id asks too: the tree shows it masked, though no scan flagged it.
    asked: list[str] = []

    def no(_parent: object, title: str, _text: str) -> bool:
        asked.append(title)
        return False

    tab.copier.confirm = no
    tab.select_pointer("/content/beliefs/0/portableRef")
    tab.tree.setFocus()
    tab.copier.copy(CopyKind.VALUE)
    assert asked == ["Copy a suspected credential?"]


def test_the_compare_view_masks_ids_pointers_and_values(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    a = g.full_handoff()
    a["content"]["beliefs"][0]["content"] = f"deploy with {TOKEN}"
    a = g.unsigned(a)
    b = copy.deepcopy(a)
    b["content"]["beliefs"][0]["content"] = f"deploy with {OTHER}"
    b["content"]["receipts"][0]["id"] = TOKEN  # an id the scan does not read
    path_a, path_b = tmp_path / "a.json", tmp_path / "b.json"
    path_a.write_text(json.dumps(a), encoding="utf-8")
    path_b.write_text(json.dumps(g.unsigned(b)), encoding="utf-8")
    tab = drop_and_wait(qtbot, window, [path_a])
    window.compare_paths(tab, str(path_b))
    view = wait_for_compare(qtbot, window)
    no_raw(shown_texts(view.changes_model) + shown_texts(view.parts_model))
    rows = view.changes_model.rowCount()
    belief = next(
        r
        for r in range(rows)
        if getattr(view.changes_model.row_at(view.changes_model.index(r, 0)), "pointer", "")
        == "/content/beliefs/0"
    )
    view.changes.setCurrentIndex(view.changes_model.index(belief, 0))
    qtbot.waitUntil(lambda: bool(view.detail_lines), timeout=WAIT_MS)
    detail = view.detail.toPlainText()
    no_raw(
        [detail, *(line.a for line in view.detail_lines), *(line.b for line in view.detail_lines)]
    )


def test_copy_key_and_copy_pointer_ask_before_copying_a_token(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Issue 34, point 1: a member named by a token is shown masked; Copy Key and Copy
    JSON Pointer put it on the clipboard only once the user says so, as Copy Value asks."""
    packet = g.handoff("mask-copy-key")
    packet["content"][OTHER] = "an unknown field named by a token"
    path = tmp_path / "k.json"
    path.write_text(json.dumps(g.unsigned(packet)), encoding="utf-8")
    tab = drop_and_wait(qtbot, window, [path])
    wait_idle(qtbot, window)
    clipboard = QGuiApplication.clipboard()
    answers: list[bool] = []
    asked: list[tuple[str, str]] = []

    def answer(_parent: object, title: str, text: str) -> bool:
        asked.append((title, text))
        return answers.pop(0)

    tab.copier.confirm = answer
    tab.select_pointer(f"/content/{OTHER}")
    tab.tree.setFocus()
    assert tab.selected_node() is not None
    assert tab.selected_node().key == OTHER  # type: ignore[union-attr]
    for kind, copied in ((CopyKind.KEY, OTHER), (CopyKind.POINTER, f"/content/{OTHER}")):
        clipboard.setText("before")
        answers.append(False)
        tab.copier.copy(kind)
        assert clipboard.text() == "before"  # No: nothing copied
        assert asked[-1][0] == "Copy a suspected credential?"
        no_raw([asked[-1][1]])  # the question names the place masked
        answers.append(True)
        tab.copier.copy(kind)
        assert clipboard.text() == copied  # Yes: as the packet holds it
    assert len(asked) == 4
    # A plain key and pointer are copied without a question.
    tab.select_pointer("/content/beliefs")
    tab.tree.setFocus()
    tab.copier.copy(CopyKind.KEY)
    assert clipboard.text() == "beliefs"
    tab.copier.copy(CopyKind.POINTER)
    assert clipboard.text() == "/content/beliefs"
    assert len(asked) == 4


def test_the_canonical_pane_holds_back_a_container_with_a_token_past_what_it_shows(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Issue 34, point 1: the views show a node's first 64 KB; a token the packet scan does
    not read (an extension's value) past them holds the node's bytes back all the same,
    and so does a flagged text past them (its pointer under the node's)."""
    packet = g.handoff("mask-canonical")
    packet["extensions"] = {"org.example.data": ["x" * 70_000, {"id": TOKEN}]}
    packet["content"]["beliefs"] = [
        g.belief("b-long", "y " * 40_000 + f"the key is {OTHER}"),
        g.belief("b-plain", "nothing here"),
    ]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(g.unsigned(packet)), encoding="utf-8")
    tab = drop_and_wait(qtbot, window, [path])
    wait_idle(qtbot, window)
    pane = tab.canonical_pane

    def shown(pointer: str) -> None:
        tab.select_pointer(pointer)
        qtbot.waitUntil(
            lambda: pane.form is not None and pane.form.pointer == pointer, timeout=WAIT_MS
        )
        wait_idle(qtbot, window)

    for pointer in ("/extensions/org.example.data", "/extensions", "/content/beliefs", "/content"):
        shown(pointer)
        assert pane.form is not None
        assert len(pane.form.data) > 64 * 1024  # the token lies past what the views show
        assert pane.views.isHidden(), pointer
        assert not pane.held_back.isHidden()
        assert "holds 1 text " in pane.held_back.text()
    shown("/content/beliefs/1")  # nothing in it: shown at once
    assert not pane.views.isHidden()
    pane_texts = [pane.text.toPlainText(), pane.hex.toPlainText()]
    no_raw(pane_texts)


def test_flagged_pointers_are_counted_under_each_ancestor() -> None:
    below = flagged_below(["/a/b/0", "/a/b/1", "/a/c", "/d~1e"])
    assert below == {"": 4, "/a": 3, "/a/b": 2, "/a/b/0": 1, "/a/b/1": 1, "/a/c": 1, "/d~1e": 1}
    assert "/a/bb" not in below  # a sibling sharing a prefix is not under it
    assert flagged_below([""]) == {"": 1}
