"""Issue 18, point 8: a receipt is matched to its packet by identity (packet id, nonce,
correlation id, target digest), never by a title: two open packets of the same file
name, the receipt offered with the one it was made for."""

from __future__ import annotations

import shutil
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, rows, wait_idle
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.previous_dialog import OpenFile


def test_the_receipt_goes_with_the_packet_it_binds_not_a_namesake(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    # Two different packets, both named packet.json: the receipt is for the second.
    first, second = tmp_path / "a" / "packet.json", tmp_path / "b" / "packet.json"
    for path, golden in ((first, "minimal.json"), (second, "full-handoff.json")):
        path.parent.mkdir()
        shutil.copy(PUBLICATION / golden, path)
    receipt = tmp_path / "the.receipt.json"
    shutil.copy(PUBLICATION / "full-handoff.receipt.json", receipt)
    drop_and_wait(qtbot, window, [first])
    drop_and_wait(qtbot, window, [second])
    receipt_tab = drop_and_wait(qtbot, window, [receipt])
    wait_idle(qtbot, window)
    assert rows(receipt_tab)["packet"] == ("pass", "belongs to packet.json")
    tabs = window.document_tabs()
    assert [t.title for t in tabs[:2]] == ["packet.json", "packet.json"]
    # Asked from the first packet's tab: the second packet, and the receipt with it (by
    # title it would go with the first tab of that name).
    packets, receipts = window.open_files_for(tabs[0])
    assert packets == [OpenFile("packet.json", str(second))]
    assert receipts == [OpenFile("the.receipt.json", str(receipt), str(second))]
