"""Input kept as given (issue 30, point 3): a note pasted with a line separator and a
bidi override is recorded as pasted and shown escaped under the editor; a reviewer name
holding hidden characters is refused with a message, never changed; the Reviewer label
shows a stored name escaped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from tests.core.helpers import GOLDENS
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, open_pane
from zcf_inspector.gui.review.dialogs import NoteDialog, ReviewerSettingsDialog
from zcf_inspector.gui.review.settings import load_identity, save_identity

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)
PASTED = "bob\u202elive\u202c\u200b\u2028x"


def ok(box: QDialogButtonBox) -> Any:
    return box.button(QDialogButtonBox.StandardButton.Ok)


def test_a_pasted_note_is_kept_as_given_and_shown_escaped(qtbot: Any) -> None:
    dialog = NoteDialog(None, "Note", "Why?", "", required=True)
    qtbot.addWidget(dialog)
    QApplication.clipboard().setText("seen\u2028then \u202eevil\u202c")
    dialog.editor.paste()
    dialog.editor.insertPlainText("\nsecond line")
    assert dialog.note() == "seen\u2028then \u202eevil\u202c\nsecond line"  # no \n for U+2028
    assert ok(dialog.buttons).isEnabled()
    assert dialog.kept.text() == (
        "Kept as given, with a character a reader cannot see (U+2028 LINE SEPARATOR at "
        "character 4); escaped, the note reads: seen\\u2028then \\u202eevil\\u202c\n"
        "second line"
    )


def test_a_reviewer_name_with_hidden_characters_is_refused_with_a_message(
    qtbot: Any, tmp_path: Path
) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    dialog = ReviewerSettingsDialog(None, settings)
    qtbot.addWidget(dialog)
    dialog.name.setText(PASTED)
    assert not ok(dialog.buttons).isEnabled()
    assert dialog.problem.text() == (
        "The name holds a character a reader cannot see (U+202E RIGHT-TO-LEFT OVERRIDE at "
        "character 3): bob\\u202elive\\u202c\\u200b\\u2028x — type it without."
    )
    assert dialog.name.text() == PASTED  # the field keeps what was pasted
    dialog.name.setText("bob")
    assert ok(dialog.buttons).isEnabled()


def test_the_reviewer_label_shows_a_stored_name_escaped(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> None:
    save_identity(settings, PASTED, "")  # stored before names were checked, or by hand
    assert load_identity(settings).name == PASTED
    pane = open_pane(
        qtbot, settings, data_dir, prompter, GOLDENS / "publication" / "full-handoff.json"
    )
    assert pane.ui.reviewer.text().startswith("Reviewer: bob\\u202elive\\u202c\\u200b\\u2028x")
