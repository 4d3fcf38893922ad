"""Issue 18, point 4, for comparisons: a Settings change checks a compare tab again by the
path opening takes, as it checks every other tab — its banner then says each side under
the destination in force, and the change selected stays selected."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.driving import DESTINATION, NEGATIVE, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.main_window import MainWindow

UNCHECKED_MAC = "INTACT · MAC NOT CHECKED (no destination keys)"
WAIT_MS = 60_000


def compared(qtbot: QtBot, window: MainWindow) -> CompareView:
    tab = drop_and_wait(qtbot, window, [NEGATIVE / "mac-invalid.json"])
    window.compare_paths(tab, str(PUBLICATION / "recipient-bound-mac.json"))
    qtbot.waitUntil(lambda: window.current_compare() is not None, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    view = window.current_compare()
    assert view is not None
    return view


def test_a_settings_change_checks_a_comparison_again(qtbot: QtBot, window: MainWindow) -> None:
    view = compared(qtbot, window)
    a, b, summary = view.header.text().splitlines()
    assert a.endswith(f"mac-invalid.json — {UNCHECKED_MAC}")
    assert b.endswith(f"recipient-bound-mac.json — {UNCHECKED_MAC}")
    assert view.changes_model.rowCount() > 3
    view.select_change(3)
    chosen = view.current_change()
    window.apply_destination(str(DESTINATION))
    qtbot.waitUntil(lambda: "REFUSED" in view.header.text(), timeout=WAIT_MS)
    wait_idle(qtbot, window)
    a, b, again = view.header.text().splitlines()
    # The destination's keys now check both MACs: A's is wrong, B's is right.
    assert a.endswith("mac-invalid.json — REFUSED at authentication (compared as far as it reads)")
    assert " — VALID · SIGNED by sha256:" in b
    assert b.endswith("(trusted)")
    assert again == summary  # the same bytes compared: the same changes
    assert window.current_compare() is view  # the tab it was, not a new one
    assert view.changes.currentIndex().row() == 3
    assert view.current_change() == chosen
    # And back: without a destination, the MACs are not checked again.
    window.apply_destination(None)
    qtbot.waitUntil(lambda: "REFUSED" not in view.header.text(), timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert view.header.text().splitlines()[0].endswith(UNCHECKED_MAC)


def test_a_comparison_is_checked_again_over_the_bytes_it_compared(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A re-check under other settings checks what is shown, not what B became since (a
    change on disk is not silently taken in)."""
    tab = drop_and_wait(qtbot, window, [NEGATIVE / "mac-invalid.json"])
    b = tmp_path / "b.json"
    b.write_bytes((PUBLICATION / "recipient-bound-mac.json").read_bytes())
    window.compare_paths(tab, str(b))
    qtbot.waitUntil(lambda: window.current_compare() is not None, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    view = window.current_compare()
    assert view is not None
    rows = view.changes_model.rowCount()
    b.write_bytes((NEGATIVE / "mac-invalid.json").read_bytes())  # now the same as A
    window.apply_destination(str(DESTINATION))
    qtbot.waitUntil(lambda: "REFUSED" in view.header.text(), timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert view.changes_model.rowCount() == rows
    assert "(trusted)" in view.header.text().splitlines()[1]
