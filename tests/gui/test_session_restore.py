"""Issue 31, point 1: the window reopens its last session after a restart or a crash —
tabs, a review's filters and highlighted belief, decisions from the journal — from a
small state file written as the session changes; a file changed since is checked again
and said so, a file gone is listed; Settings and ``--no-restore`` turn it off."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.gui.conftest import keep_on_close
from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.app import make_window
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.session_restore import read_state, state_path


def saved_texts() -> list[str]:
    """The review text filters the state file holds (none while it has not been written)."""
    state = read_state(state_path())
    return [] if state is None else [t.text for t in state.tabs]


def review_in(qtbot: Any, window: MainWindow, packet: Path) -> Any:
    tab = drop_and_wait(qtbot, window, [packet])
    pane = tab.review_pane
    assert pane is not None
    qtbot.waitUntil(lambda: pane.review is not None and not pane.opening, timeout=20_000)
    return tab, pane


def test_a_crashed_session_reopens_with_its_tabs_review_and_view(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    window.apply_destination(str(DESTINATION))
    packet = tmp_path / "handoff.json"
    shutil.copy(PUBLICATION / "full-handoff.json", packet)
    changed = tmp_path / "minimal.json"
    shutil.copy(PUBLICATION / "minimal.json", changed)
    gone = tmp_path / "archive.json"
    shutil.copy(PUBLICATION / "archive.json", gone)
    drop_and_wait(qtbot, window, [changed])
    drop_and_wait(qtbot, window, [gone])
    tab, pane = review_in(qtbot, window, packet)
    tab.show_pane("Review")
    pane.identity_bar.field.setText("carol")
    pane.identity_bar.button.click()
    pane.table.setFocus()
    pane.decide_current(ReviewState.CONFIRMED)
    pane.ui.text_filter.setText("b-")
    qtbot.waitUntil(lambda: pane.current_ref() is not None)
    current = pane.current_ref()
    decided = dict(pane.review.session.last_decisions())
    assert decided
    # the state file follows the session as it changes (no close needed: a crash)
    qtbot.waitUntil(lambda: "b-" in saved_texts(), timeout=5_000)
    saved = read_state(state_path())
    assert saved is not None
    assert [Path(t.paths[0]).name for t in saved.tabs] == [
        "minimal.json",
        "archive.json",
        "handoff.json",
    ]
    window.session.timer.stop()  # the crash: nothing more is written
    changed.write_bytes(changed.read_bytes() + b"\n")
    gone.unlink()
    again = make_window()  # a bare start
    qtbot.addWidget(again)
    again.show()
    wait_idle(qtbot, again)

    def names() -> list[str]:
        return sorted(Path(t.paths[0]).name for t in again.document_tabs())

    qtbot.waitUntil(lambda: names() == ["handoff.json", "minimal.json"], timeout=20_000)
    assert again.message is not None
    text = again.message.text()
    assert f"Changed on disk since the last session, checked again as it is now:\n{changed}" in text
    assert f"Not reopened, no longer there:\n{gone}" in text
    restored = again.tab_for_path(str(packet))
    assert restored is not None
    restored_pane = restored.review_pane
    assert restored_pane is not None
    qtbot.waitUntil(lambda: restored_pane.ui.text_filter.text() == "b-", timeout=20_000)
    qtbot.waitUntil(lambda: restored_pane.current_ref() == current, timeout=20_000)
    assert restored_pane.review is not None
    assert dict(restored_pane.review.session.last_decisions()) == decided
    keep_on_close(again)


def test_no_restore_and_the_settings_switch_turn_it_off(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    packet = tmp_path / "minimal.json"
    shutil.copy(PUBLICATION / "minimal.json", packet)
    drop_and_wait(qtbot, window, [packet])
    assert window.session.save() or read_state(state_path()) is not None
    bare = make_window(restore=False)  # --no-restore
    qtbot.addWidget(bare)
    wait_idle(qtbot, bare)
    assert bare.document_tabs() == []
    window.settings.restore_session = False
    off = make_window()
    qtbot.addWidget(off)
    wait_idle(qtbot, off)
    assert off.document_tabs() == []
    assert not off.session.save()  # and nothing is written while it is off


def test_a_comparison_tab_is_reopened_with_its_pair(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    shutil.copy(PUBLICATION / "full-handoff.json", a)
    shutil.copy(PUBLICATION / "minimal.json", b)
    tab = drop_and_wait(qtbot, window, [a])
    window.compare_paths(tab, str(b))
    qtbot.waitUntil(lambda: bool(window.comparing.views()), timeout=20_000)
    assert window.session.save()
    saved = read_state(state_path())
    assert saved is not None
    assert [(t.kind, t.paths) for t in saved.tabs] == [
        ("document", (str(a),)),
        ("compare", (str(a), str(b))),
    ]
    again = make_window()
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: bool(again.comparing.views()), timeout=20_000)
    compared = again.comparing.views()[0].compared
    assert (compared.path_a, compared.path_b) == (str(a), str(b))
