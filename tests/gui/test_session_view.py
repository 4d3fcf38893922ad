"""The session view of an ASIF session in the window: the timeline (lanes, marks), the
contexts and the resources from the real core outline of real examples, walked by the
keyboard; text and image previews; a 1,000-event session rendered lazily."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QBrush, QColor, QImage
from pytestqt.qtbot import QtBot

from tests.core.many_events import many_events, many_events_bytes
from tests.gui.driving import drop_and_wait
from zcf_inspector.core.continuation.outline import SessionOutline
from zcf_inspector.gui.document_tab import PANE_SESSION
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.session_pane import SessionPane
from zcf_inspector.present import asif_session

DATA = Path(__file__).parents[1] / "data"
ANOTHER_AGENT = DATA / "asif-0.5" / "examples" / "continuation" / "another-agent.session.json"
COMPACTION = DATA / "asif-0.5-package" / "examples" / "compaction-with-attachment.session.json"


def _pane(window: MainWindow, qtbot: QtBot, path: Path) -> SessionPane:
    tab = drop_and_wait(qtbot, window, [path])
    assert PANE_SESSION in tab.pane_names()
    assert tab.session_pane is not None
    return tab.session_pane


def _cells(pane: SessionPane, row: int) -> list[str]:
    model = pane.timeline_model
    return [str(model.data(model.index(row, c))) for c in range(model.columnCount())]


def test_a_session_with_a_plan_shows_its_timeline_and_boundary(qtbot, window: MainWindow) -> None:
    pane = _pane(window, qtbot, ANOTHER_AGENT)
    value = json.loads(ANOTHER_AGENT.read_bytes())
    assert pane.timeline_model.rowCount() == len(value["events"])
    assert [_cells(pane, r)[6] for r in range(4)] == ["e1", "e2", "e3", "e4"]
    assert _cells(pane, 1)[2:4] == ["agent", "tool_call"]
    assert "continuation boundary continue-main" in _cells(pane, 3)[5]
    assert pane.resources_model.rowCount() == len(value["resources"])
    assert pane.contexts_model.rowCount() == len(value["contexts"])
    assert "4 events on 1 branch" in pane.summary.text()


def test_a_core_session_opens_on_its_timeline_with_the_compaction_marked(
    qtbot, window: MainWindow
) -> None:
    tab = drop_and_wait(qtbot, window, [COMPACTION])
    assert tab.panes.tabText(tab.panes.currentIndex()) == PANE_SESSION
    assert tab.session_pane is not None
    assert _cells(tab.session_pane, 2)[5].startswith("compaction → compacted")


def test_the_timeline_is_walked_by_the_keyboard_and_selects_in_the_tree(
    qtbot, window: MainWindow
) -> None:
    tab = drop_and_wait(qtbot, window, [ANOTHER_AGENT])
    assert tab.focus_pane(PANE_SESSION)
    pane = tab.session_pane
    assert pane is not None
    table = pane.timeline
    qtbot.waitUntil(table.hasFocus)
    table.setCurrentIndex(pane.timeline_model.index(0, 0))
    for _ in range(3):
        qtbot.keyClick(table, Qt.Key.Key_Down)
    assert table.currentIndex().row() == 3
    assert "event e4" in pane.event_detail.toPlainText()
    qtbot.keyClick(table, Qt.Key.Key_Return)  # Enter shows the event in the tree
    assert tab.selected_pointer() == "/events/3"
    qtbot.keyClick(table, Qt.Key.Key_Up)
    assert "event e3" in pane.event_detail.toPlainText()
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert tab.selected_pointer() == "/events/2"
    # the resources, by the keyboard too: the first one's text is previewed
    pane.tabs.setCurrentIndex(2)
    pane.resources.setFocus()
    pane.resources.setCurrentIndex(pane.resources_model.index(0, 0))
    qtbot.keyClick(pane.resources, Qt.Key.Key_Down)
    assert pane.resources.currentIndex().row() == 1
    detail = pane.resource_detail.toPlainText()
    assert "resource output-csv" in detail
    assert "— preview —" in detail
    qtbot.keyClick(pane.resources, Qt.Key.Key_Return)
    assert tab.selected_pointer() == "/resources/1"


def _png(size: int) -> bytes:
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(QColor("#3366cc"))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs want bytes; PySide6 takes str
    return bytes(buffer.data().data())


def _with_resource(tmp_path: Path, resource: dict[str, object]) -> Path:
    value = many_events(3)
    value["resources"].append(resource)
    path = tmp_path / "with-resource.session.json"
    path.write_text(json.dumps(value))
    return path


def _embedded(ident: str, media_type: str, data: bytes) -> dict[str, object]:
    return {
        "id": ident,
        "media_type": media_type,
        "availability": "embedded",
        "purpose": "input",
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "data": base64.b64encode(data).decode(),
    }


def test_an_image_is_previewed_through_qt_and_a_pdf_summarised(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    png = _png(24)
    pane = _pane(window, qtbot, _with_resource(tmp_path, _embedded("picture", "image/png", png)))
    row = next(i for i, r in enumerate(pane.outline.resources) if r.id == "picture")
    pane.tabs.setCurrentIndex(2)
    pane.resources.selectRow(row)
    assert not pane.image.isHidden()
    assert not pane.image.pixmap().isNull()
    assert hashlib.sha256(png).hexdigest() in pane.resource_detail.toPlainText()
    pdf = b"%PDF-1.4 <script>alert(1)</script>"
    other = _pane(window, qtbot, _with_resource(tmp_path, _embedded("doc", "application/pdf", pdf)))
    row = next(i for i, r in enumerate(other.outline.resources) if r.id == "doc")
    other.resources.selectRow(row)
    text = other.resource_detail.toPlainText()
    assert "type: application/pdf" in text
    assert "preview" not in text
    assert "alert" not in text  # the bytes of what is not text are never shown
    assert other.image.isHidden()


def test_a_huge_image_is_summarised_not_decoded(qtbot, window: MainWindow, tmp_path: Path) -> None:
    png = _png(5000)
    pane = _pane(window, qtbot, _with_resource(tmp_path, _embedded("huge", "image/png", png)))
    pane.resources.selectRow(
        next(i for i, r in enumerate(pane.outline.resources) if r.id == "huge")
    )
    assert pane.image.isHidden()
    assert "integrity: bytes and SHA-256 match" in pane.resource_detail.toPlainText()


def test_a_resource_whose_bytes_differ_is_refused_and_shown_first(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    resource = _embedded("changed", "text/plain", b"hello")
    resource["sha256"] = "0" * 64
    pane = _pane(window, qtbot, _with_resource(tmp_path, resource))
    row = next(i for i, r in enumerate(pane.outline.resources) if r.id == "changed")
    assert pane.resources.currentIndex().row() == row
    model = pane.resources_model
    assert model.data(model.index(row, 3)) == "DIFFERS"
    brush = model.data(model.index(row, 3), Qt.ItemDataRole.ForegroundRole)
    assert isinstance(brush, QBrush)
    assert brush.color().name() in ("#b3261e", "#ff7b72")


def test_document_text_is_shown_escaped(qtbot, window: MainWindow, tmp_path: Path) -> None:
    value = many_events(3)
    value["events"][1]["actor_id"] = "agent\u202e<b>x</b>"
    path = tmp_path / "hostile.session.json"
    path.write_text(json.dumps(value))
    pane = _pane(window, qtbot, path)
    actor = _cells(pane, 1)[2]
    assert "\u202e" not in actor
    assert "<b>x</b>" in actor


def test_a_thousand_event_session_renders_lazily(
    qtbot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "many.session.json"
    path.write_bytes(many_events_bytes(1000))
    asked: list[int] = []
    real = asif_session.event_cells

    def counted(outline: SessionOutline, row: int) -> tuple[str, ...]:
        asked.append(row)
        return real(outline, row)

    monkeypatch.setattr(asif_session, "event_cells", counted)
    window.resize(1024, 700)
    tab = drop_and_wait(qtbot, window, [path])
    assert tab.session_pane is not None
    assert tab.session_pane.timeline_model.rowCount() == 1000
    tab.focus_pane(PANE_SESSION)
    table = tab.session_pane.timeline
    qtbot.waitUntil(lambda: bool(asked))
    assert max(asked) < 100  # only the rows on screen were asked for
    asked.clear()
    table.scrollToBottom()
    qtbot.waitUntil(lambda: bool(asked))
    assert min(asked) > 900  # and after a scroll, only those now on screen


def test_alt_7_puts_the_keyboard_in_the_timeline(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [ANOTHER_AGENT])
    action = next(a for a in window.pane_actions if a.text().startswith("&Session"))
    assert action.shortcut().toString() == "Alt+7"
    tab.tree.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.AltModifier)
    assert tab.session_pane is not None
    qtbot.waitUntil(tab.session_pane.timeline.hasFocus)
    assert tab.panes.currentWidget() is tab.session_pane


def test_ctrl_tab_goes_from_the_timeline_to_the_contexts(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [ANOTHER_AGENT])
    tab.focus_pane(PANE_SESSION)
    pane = tab.session_pane
    assert pane is not None
    qtbot.waitUntil(pane.timeline.hasFocus)
    qtbot.keyClick(pane.timeline, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert pane.tabs.currentIndex() == 1
