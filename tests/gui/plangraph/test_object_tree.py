"""The detail pane's object tree: collapsible members, copy as JSON, bounded, plain text."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tests.core.continuation.spec_examples import session
from zcf_inspector.gui.plangraph.object_tree import ROW_LIMIT, ObjectTree


def _tree(qtbot: Any) -> ObjectTree:
    tree = ObjectTree()
    qtbot.addWidget(tree)
    tree.resize(480, 400)
    tree.show()
    return tree


def _rows(tree: ObjectTree) -> dict[str, str]:
    model = tree.model
    return {model.item(r, 0).text(): model.item(r, 1).text() for r in range(model.rowCount())}


def test_members_are_rows_and_copy_gives_json(qtbot: Any) -> None:
    document = session("action-specific")
    tree = _tree(qtbot)
    tree.show_object(document, "/contexts/0")
    resource = document["contexts"][0]
    rows = _rows(tree)
    assert rows["id"] == '"continue-context"'
    assert rows["inputs"] == f"[{len(resource['inputs'])}]"
    assert set(rows) == set(resource)
    assert tree.caption.text() == "Object at /contexts/0"
    tree.copy_all()
    assert json.loads(QGuiApplication.clipboard().text()) == resource
    # A member selected: Ctrl+C copies just that member, and its pointer can be copied.
    nested = next(k for k, v in resource.items() if isinstance(v, dict | list) and v)
    row = list(resource).index(nested)
    tree.view.setCurrentIndex(tree.model.index(row, 0))
    tree.view.setFocus()
    qtbot.keyClick(tree.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert json.loads(QGuiApplication.clipboard().text()) == resource[nested]
    tree.copy_pointer()
    assert QGuiApplication.clipboard().text() == f"/contexts/0/{nested}"
    # The first two levels start open; the value column takes the rest of the width.
    assert tree.view.isExpanded(tree.model.index(row, 0))
    assert tree.view.columnWidth(0) + tree.view.columnWidth(1) >= tree.view.viewport().width() - 2


def test_no_object_says_why(qtbot: Any) -> None:
    tree = _tree(qtbot)
    tree.show_object(None, None)
    assert tree.caption.text() == "Object: not declared anywhere in the document"
    assert not tree.copy_button.isEnabled()
    tree.show_object({"a": 1}, "/b")
    assert tree.caption.text() == "Object: /b does not resolve in the document"
    assert tree.model.rowCount() == 0


def test_hostile_objects_are_bounded_and_plain(qtbot: Any) -> None:
    tree = _tree(qtbot)
    huge: dict[str, Any] = {
        "items": [{"k": i} for i in range(ROW_LIMIT * 2)],
        "<b>bold</b>\u202e": "x\u202ey",
    }
    tree.show_object({"o": huge}, "/o")
    rows = _rows(tree)
    assert "<b>bold</b>\\u202e" in rows  # shown escaped, never interpreted
    assert rows["<b>bold</b>\\u202e"] == '"x\\u202ey"'
    assert "members shown" in tree.caption.text()
    made = 0
    stack = [tree.model.invisibleRootItem()]
    while stack:
        item = stack.pop()
        made += item.rowCount()
        stack += [item.child(r, 0) for r in range(item.rowCount())]
    assert made == ROW_LIMIT
