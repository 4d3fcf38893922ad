"""The "Assess at" clock (Settings), the same as `plan --now`, and a header that tells an
expired report apart from a substantive failure; known blockers in the findings pane."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from tests.conftest import CONTINUATION_SPEC
from tests.core.continuation.spec_examples import dump, mutated, report
from tests.gui.driving import drop_and_wait, rows, wait_idle
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.gui.main_window import MainWindow

EXAMPLES = CONTINUATION_SPEC / "examples" / "continuation"
SESSION = EXAMPLES / "another-computer.session.json"
REPORT = EXAMPLES / "another-computer.report.json"
REPORT_ROW = "report assessment-another-computer"


def _open_pair(qtbot, window: MainWindow, report_path: Path = REPORT):
    tab = drop_and_wait(qtbot, window, [SESSION, report_path])
    wait_idle(qtbot, window)
    return tab


def test_by_default_reports_are_assessed_now_and_the_example_has_expired(
    qtbot, window: MainWindow
) -> None:
    assert window.assess_at is None
    assert window.clock_label.text() == "assess at: now"
    tab = _open_pair(qtbot, window)
    # The example report expired on 2026-09-26 13:00Z, before any clock this test runs at.
    assert tab.verdict.headline == "EXPIRED at 2026-09-26 13:00Z · ASIF-SESSION VALID"
    assert not tab.verdict.ok
    state, summary = rows(tab)[REPORT_ROW]
    assert (state, summary) == ("fail", "expired 2026-09-26 13:00Z")
    (row,) = [r for r in tab.header.model.rows if r.check == REPORT_ROW]
    assert row.detail.startswith("expired 2026-09-26 13:00Z, assessed at ")
    assert "the report was made 2026-09-26 12:00Z — otherwise it checks clean" in row.detail


def test_the_clock_in_settings_checks_an_archived_report_as_of_its_time(
    qtbot, window: MainWindow
) -> None:
    tab = _open_pair(qtbot, window)
    window.settings_action.trigger()
    dialog = window.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.use_now.isChecked()
    assert not dialog.clock_edit.isEnabled()
    dialog.use_now.setChecked(False)
    dialog.clock_edit.setText("yesterday")
    assert not ok.isEnabled()
    assert dialog.clock_status.text().startswith("Not a clock plan --now would take:")
    dialog.clock_edit.setText("2026-09-26T12:30:00Z")
    assert ok.isEnabled()
    assert dialog.chosen_clock() == parse_datetime("2026-09-26T12:30:00Z")
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.verdict.headline == "READY · ASIF-SESSION VALID", timeout=20_000)
    assert window.clock_label.text() == "assess at: 2026-09-26T12:30:00Z"
    assert rows(tab)[REPORT_ROW] == ("pass", "ready")
    # The clock is the window's, like --now: a new file opens at it too ...
    other = drop_and_wait(qtbot, window, [EXAMPLES / "pending-remote-operation.session.json"])
    assert other.document.result.ok  # type: ignore[union-attr]
    # ... and going back to "now" checks every tab again.
    window.apply_settings(None, None)
    expired = "EXPIRED at 2026-09-26 13:00Z · ASIF-SESSION VALID"
    qtbot.waitUntil(lambda: tab.verdict.headline == expired, timeout=20_000)
    assert window.clock_label.text() == "assess at: now"


def test_an_expired_report_with_a_substantive_fault_is_invalid(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    broken = tmp_path / "wrong.report.json"
    broken.write_bytes(
        dump(mutated(report("another-computer"), lambda r: r["path_bindings"].clear()))
    )
    tab = _open_pair(qtbot, window, broken)
    # wrong, not merely expired: the substantive fault leads
    assert tab.verdict.headline == "REFUSED: path_bindings_incomplete · ASIF-SESSION VALID"
    state, summary = rows(tab)[REPORT_ROW]
    assert state == "fail"
    assert summary in ("report_expired", "path_bindings_incomplete")
    (row,) = [r for r in tab.header.model.rows if r.check == REPORT_ROW]
    assert "expired 2026-09-26 13:00Z" in row.detail
    window.apply_settings(None, parse_datetime("2026-09-26T12:30:00Z"))
    qtbot.waitUntil(
        lambda: rows(tab)[REPORT_ROW] == ("fail", "path_bindings_incomplete"), timeout=20_000
    )
    assert tab.verdict.headline == "REFUSED: path_bindings_incomplete · ASIF-SESSION VALID"


def test_a_report_checked_before_it_was_made_is_not_yet_valid(qtbot, window: MainWindow) -> None:
    window.apply_settings(None, parse_datetime("2026-09-26T11:00:00Z"))
    tab = _open_pair(qtbot, window)
    assert tab.verdict.headline == "NOT VALID BEFORE 2026-09-26 12:00Z · ASIF-SESSION VALID"
    assert rows(tab)[REPORT_ROW] == ("fail", "not valid before 2026-09-26 12:00Z")


def test_known_blockers_and_blocking_reasons_are_in_the_findings_pane(
    qtbot, window: MainWindow
) -> None:
    window.apply_settings(None, parse_datetime("2026-09-26T12:30:00Z"))
    tab = drop_and_wait(
        qtbot,
        window,
        [
            EXAMPLES / "action-specific.session.json",
            EXAMPLES / "action-specific-model_request.report.json",
        ],
    )
    wait_idle(qtbot, window)
    pane = tab.findings_pane
    found = [pane.model.finding(r) for r in range(pane.model.rowCount())]
    blockers = [f for f in found if str(f.code) == "resource_unavailable"]
    # One row per blocker, naming every plan it blocks (five plans inventory it).
    (missing_media,) = [f for f in blockers if "resource:missing-media" in f.message]
    assert str(missing_media.severity) == "warning"
    assert "in plan await_user, await_decision, reconcile_operation, model_request," in (
        missing_media.message
    )
    assert missing_media.pointer == "/resources/5/availability"
    row = found.index(missing_media)
    assert pane.model.elsewhere(row) == ""
    pane.select_finding(row)
    assert tab.selected_pointer() == "/resources/5/availability"
    reasons = [r for r, f in enumerate(found) if str(f.code) == "blocking_reason"]
    assert len(reasons) == 5
    assert all(
        pane.model.elsewhere(r) == "action-specific-model_request.report.json" for r in reasons
    )
    fit = [r for r, f in enumerate(found) if str(f.code) == "model_fit_unknown"]
    assert [pane.model.elsewhere(r) for r in fit] == ["action-specific-model_request.report.json"]


def test_an_expired_asif_05_report_is_headed_expired(qtbot, window: MainWindow) -> None:
    """Issue 34: the ASIF 0.5 example, past its expiry, was headed "REFUSED:
    snapshot_expired" (its snapshot expires with it); the docs say "EXPIRED at …"."""
    asif_05 = Path(__file__).parents[1] / "data" / "asif-0.5" / "examples" / "continuation"
    tab = drop_and_wait(
        qtbot,
        window,
        [asif_05 / "another-computer.session.json", asif_05 / "another-computer.report.json"],
    )
    wait_idle(qtbot, window)
    assert tab.verdict.headline == "EXPIRED at 2026-09-26 13:00Z · ASIF-SESSION VALID"
    assert tab.header.headline.text() == tab.verdict.headline
    assert not tab.verdict.ok
    assert rows(tab)[REPORT_ROW] == ("fail", "expired 2026-09-26 13:00Z")
