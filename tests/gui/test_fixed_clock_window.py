"""A fixed clock in force is shown in the window's header (issue 34, point 9): with a
destination whose file sets ``now``, a packet's header says so under the headline, in
`present.clock`'s words; on the system clock, or for an ASIF plan, it says nothing."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.conftest import EXAMPLES
from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.gui.main_window import MainWindow


def test_the_header_says_a_fixed_clock_is_in_force(qtbot: QtBot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    assert tab.header.clock.isHidden()  # no destination: no clock of its own
    window.apply_destination(str(DESTINATION))
    qtbot.waitUntil(lambda: not tab.header.clock.isHidden(), timeout=20_000)
    assert tab.header.clock.text().startswith(
        'FIXED CLOCK 2026-10-01T12:00:00Z (the destination file\'s "now", for tests)'
    )
    assert tab.verdict.words == "VALID · UNSIGNED"  # the verdict's words are its own
    plan = drop_and_wait(qtbot, window, [EXAMPLES / "another-agent.session.json"])
    wait_idle(qtbot, window)
    assert plan.header.clock.isHidden()  # a plan has its own clock (Assess at)


def test_no_word_of_it_on_the_system_clock(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    dest = json.loads(DESTINATION.read_text())
    del dest["now"]
    path = tmp_path / "destination.json"
    path.write_text(json.dumps(dest))
    path.chmod(0o600)
    window.apply_destination(str(path))
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    wait_idle(qtbot, window)
    assert tab.destination is not None
    assert tab.header.clock.isHidden()
