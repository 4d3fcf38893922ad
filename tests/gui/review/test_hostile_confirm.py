"""A bulk confirm that includes a belief whose text holds a bidi override asks apart
before confirming it (issue 30, point 4): No leaves it unreviewed, Yes confirms it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from goldens import generate as g
from tests.core.helpers import to_bytes
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, open_pane
from zcf_inspector.core.formats import ReviewState

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def test_a_bulk_confirm_asks_before_confirming_a_belief_with_hidden_characters(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    packet = g.handoff("review-hostile")
    packet["content"]["beliefs"] = [
        g.belief("b-plain", "Typed escapes like \\u202e are only text."),
        g.belief("b-override", "Ship invoice \u202egnp.exe to the client."),
    ]
    path = tmp_path / "hostile.json"
    path.write_bytes(to_bytes(g.unsigned(packet)))
    pane = open_pane(qtbot, settings, data_dir, prompter, path)
    prompter.script(("confirm", True), ("confirm", False))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    asked = prompter.messages("confirm")
    assert asked[1].startswith(
        "1 of these 2 beliefs holds hidden characters or mixed scripts — confirm it too?"
    )
    assert "No confirms the other 1 and leaves that one as it is." in asked[1]
    assert pane.model.state("b-plain") is ReviewState.CONFIRMED
    assert pane.model.state("b-override") is ReviewState.UNREVIEWED
    prompter.script(("confirm", True), ("confirm", True))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    assert pane.model.state("b-override") is ReviewState.CONFIRMED
