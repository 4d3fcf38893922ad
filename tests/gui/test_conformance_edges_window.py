"""Issue 23's conformance edges in the window: the same verdicts as `plan`/`validate`,
and exact numbers shown exactly in the tree and the canonical-bytes pane."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.conformance_edges import asif_bytes, asif_cases, byte_cases
from tests.core.continuation.spec_examples import CLOCK
from tests.core.continuation.upstream_cases import Case
from tests.gui.driving import drop_and_wait, wait_idle
from zcf_inspector.core.exact_numbers import exact_number_text
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import VALUE_COLUMN

ASIF = asif_cases()


def _open(qtbot: QtBot, window: MainWindow, case: Case, folder: Path) -> DocumentTab:
    window.apply_settings(None, CLOCK)  # the clock the case data is judged at (plan --now)
    source, receipt = asif_bytes(case)
    session = folder / f"{case.name}.session.json"
    session.write_bytes(source)
    paths = [session]
    if receipt is not None:
        report = folder / f"{case.name}.report.json"
        report.write_bytes(receipt)
        paths.append(report)
    tab = drop_and_wait(qtbot, window, paths)
    wait_idle(qtbot, window)
    return tab


def _findings(tab: DocumentTab) -> list[tuple[str, str]]:
    model = tab.findings_pane.model
    return [(str(model.finding(r).code), model.finding(r).pointer) for r in range(model.rowCount())]


@pytest.mark.parametrize("case", ASIF, ids=[c.name for c in ASIF])
def test_the_window_gives_the_verdict_plan_gives(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, case: Case
) -> None:
    tab = _open(qtbot, window, case, tmp_path)
    rejected = case.expect["verdict"] == "rejected"
    assert tab.verdict.ok is not rejected, _findings(tab)
    headline = tab.verdict.headline
    assert "ASIF-SESSION" in headline
    if rejected:
        assert "REFUSED" in headline or "EXPIRED" in headline, headline
    else:
        assert "VALID" in headline, headline
        assert "REFUSED" not in headline, headline
    if "code" in case.expect:
        assert (case.expect["code"], case.expect["pointer"]) in _findings(tab)


def test_exact_numbers_are_shown_exactly(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    (case,) = [c for c in ASIF if c.name == "resource-bytes-not-integral"]
    tab = _open(qtbot, window, case, tmp_path)
    tab.select_pointer("/resources/0/bytes")
    assert tab.selected_pointer() == "/resources/0/bytes"
    shown = tab.model.data(tab.tree.currentIndex().siblingAtColumn(VALUE_COLUMN))
    assert shown == "27.999999999999999999"  # not 28.0, as a double would have it
    (case,) = [c for c in ASIF if c.name == "call-arguments-beyond-a-double"]
    tab = _open(qtbot, window, case, tmp_path)
    tab.show_pane("Canonical bytes")
    tab.select_pointer("/events/1/data/arguments")
    pane = tab.canonical_pane
    qtbot.waitUntil(lambda: pane.form is not None, timeout=20_000)
    text = pane.text.toPlainText()
    assert text.startswith('{"resource_id":"source-csv","scale":1' + "0" * 400 + "}")
    assert exact_number_text(Decimal("1e-400")) == "1e-400"


def test_a_packet_with_several_problems_shows_the_first(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    (case,) = [c for c in byte_cases() if c.name == "duplicate-key-then-trailing-data"]
    path = tmp_path / "packet.json"
    path.write_bytes(case.data)
    tab = drop_and_wait(qtbot, window, [path])
    assert not tab.verdict.ok
    (first, *_) = _findings(tab)
    assert first == (case.code, case.pointer)
