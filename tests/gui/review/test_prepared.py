"""The window prepares ingest and the review target on its load worker; the pane uses
what it is given rather than ingesting again on the UI thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from tests.core.helpers import destination, golden_bytes
from tests.gui.review.conftest import ScriptedPrompter, wait_open
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.review.target import ReviewPreparation, prepare_review
from zcf_inspector.gui.documents import open_documents
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.opener.documents import PacketDocument
from zcf_inspector.opener.open import OpenRequest


def test_pane_uses_the_prepared_target(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> None:
    pane = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
    qtbot.addWidget(pane)
    data = golden_bytes("full-handoff")
    dest = destination()
    inspection = inspect_bytes(data, dest)
    # A preparation that differs from what the pane would compute shows it is used as is.
    pane.set_packet(
        "/p.json", data, inspection, dest, ReviewPreparation(None, "prepared elsewhere")
    )
    wait_open(qtbot, pane)
    assert pane.target is None
    assert pane.ui.problem.text() == "Nothing to review: prepared elsewhere."
    prepared = prepare_review(data, inspection, dest)
    pane.set_packet("/p.json", data, inspection, dest, prepared)
    wait_open(qtbot, pane)
    assert pane.target is prepared.target


def test_window_load_prepares_the_review_off_the_ui_thread(tmp_path: Path) -> None:
    packet = tmp_path / "full-handoff.json"
    packet.write_bytes(golden_bytes("full-handoff"))
    [document] = open_documents(OpenRequest((str(packet),), destination()), Monitor())
    assert isinstance(document, PacketDocument)
    assert document.review is not None
    assert document.review.target is not None
    assert len(document.review.target.beliefs) == 3
    [without] = open_documents(OpenRequest((str(packet),)), Monitor())
    assert isinstance(without, PacketDocument)
    assert without.review is None
