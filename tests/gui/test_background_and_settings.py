"""Cancel of a slow load; the destination chosen in Settings; receipts and continuation
documents recognised by content."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from tests.conftest import CONTINUATION_SPEC
from tests.gui.driving import DESTINATION, PUBLICATION, drop, drop_and_wait, rows, wait_idle
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.settings import AppSettings

EXAMPLES = CONTINUATION_SPEC / "examples" / "continuation"


def test_cancel_of_a_slow_load_leaves_the_window_usable(qtbot, window: MainWindow) -> None:
    reached = threading.Event()
    release = threading.Event()

    def hold(what: str, fraction: float) -> None:  # runs on the worker thread
        del fraction
        if "checking structure" in what:
            reached.set()
            release.wait(timeout=60)

    window.runner.progress_hook = hold
    drop(window, [PUBLICATION / "full-handoff.json"])
    qtbot.waitUntil(reached.is_set, timeout=20_000)
    qtbot.waitUntil(window.cancel_button.isVisible, timeout=20_000)
    assert window.progress.isVisible()
    qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
    assert not window.runner.busy
    assert not window.cancel_button.isVisible()
    try:
        # the first load is still held on its worker; the window opens another file meanwhile
        window.runner.progress_hook = None
        tab = drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
        assert tab.verdict.headline == "VALID · UNSIGNED"
        window.find_action.trigger()
        assert tab.find_bar.isVisible()
    finally:
        release.set()
    assert window.runner.wait_for_done(20_000)
    qtbot.wait(50)  # let any late signal of the cancelled load arrive: it must be dropped
    assert [t.title for t in window.document_tabs()] == ["minimal.json"]


def test_settings_dialog_validates_remembers_and_reverifies(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "recipient-bound-mac.json"])
    assert rows(tab)["authentication"][0] == "not checkable"
    assert window.destination_label.text().startswith("destination: none")
    window.settings_action.trigger()
    dialog = window.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    bad = tmp_path / "bad.json"
    bad.write_text('{"installationKeyId": "x", "capabilities": ["<b>nope</b>"]}')
    dialog.path.setText(str(bad))
    assert not ok.isEnabled()
    assert "cannot be used" in dialog.status.text()
    assert "<b>nope</b>" in dialog.status.text()
    assert dialog.status.textFormat() == Qt.TextFormat.PlainText
    dialog.path.setText(str(tmp_path / "missing.json"))
    assert not ok.isEnabled()
    dialog.path.setText(str(DESTINATION))
    assert ok.isEnabled()
    assert "installation key id: dest-golden-01" in dialog.status.text()
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: rows(tab)["authentication"][0] == "pass", timeout=20_000)
    assert rows(tab)["authentication"][1] == "recipient-bound-mac, verified"
    assert rows(tab)["policy"] == ("pass", "passed")
    assert AppSettings().destination_path == str(DESTINATION)
    other = MainWindow()
    qtbot.addWidget(other)
    assert other.destination is not None
    assert "dest-golden-01" in other.destination_label.text()
    # choosing none again: MACs are not verifiable
    other.apply_destination(None)
    assert other.destination_label.text().startswith("destination: none")
    assert AppSettings().destination_path is None


def test_receipt_is_recognised_by_content(qtbot, window: MainWindow, tmp_path: Path) -> None:
    renamed = tmp_path / "something.txt"
    shutil.copy(PUBLICATION / "full-handoff.receipt.json", renamed)
    tab = drop_and_wait(qtbot, window, [renamed])
    assert tab.verdict.headline == "INTACT RECEIPT · SIGNATURE NOT CHECKED (no key)"
    assert rows(tab)["receipt digest"] == ("pass", "matches")
    assert rows(tab)["signature"] == ("not checkable", "not checked (no key)")
    window.apply_destination(str(DESTINATION))
    qtbot.waitUntil(lambda: rows(tab)["signature"] == ("pass", "verified"), timeout=20_000)
    assert "Review" not in tab.pane_names()
    assert not window.export_action.isEnabled()


def test_session_dropped_with_its_report_is_checked_against_it(qtbot, window: MainWindow) -> None:
    session = EXAMPLES / "another-agent.session.json"
    report = EXAMPLES / "another-agent.report.json"
    tab = drop_and_wait(qtbot, window, [report, session])
    wait_idle(qtbot, window)
    assert [t.title for t in window.document_tabs()] == [
        "another-agent.session.json + another-agent.report.json"
    ]
    verdict = rows(tab)
    assert verdict["plan continue-main"] == ("pass", "passed")
    assert verdict["report assessment-another-agent"][0] in ("pass", "fail")
    assert "Plan graph" in tab.pane_names()
    assert tab.pane_names()[0] == "Findings"
    pane = tab.findings_pane
    codes = [pane.model.finding(r).code for r in range(pane.model.rowCount())]
    assert codes == [c.code for c in tab.document.result.all_findings()]  # type: ignore[union-attr]
    # a report finding points into the report, so it names that file and selects nothing
    for row in range(pane.model.rowCount()):
        if pane.model.elsewhere(row):
            tab.tree.clearSelection()
            pane.select_finding(row)
            assert tab.selected_pointer() is None
            assert pane.detail.text().startswith("in another-agent.report.json:")


def test_bare_session_opens_with_the_plan_graph_pane(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [EXAMPLES / "another-computer.session.json"])
    assert tab.verdict.headline.startswith("ASIF-SESSION")
    assert any(check.startswith("plan ") for check in rows(tab))
    assert "Plan graph" in tab.pane_names()
    assert tab.plan_graph_pane is not None
