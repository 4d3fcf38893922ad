"""An ASIF package in the window: opened by a drop and from the command line, the
inventory pane from the real core result of a real example, a tampered member shown as
differs in the refused colour, the detached signature under Settings' trusted keys."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QDialogButtonBox

from tests.gui.driving import drop_and_wait
from zcf_inspector import api
from zcf_inspector.gui.document_tab import PANE_INVENTORY, PANE_SESSION
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.settings_dialog import SettingsDialog

EXAMPLES = Path(__file__).parents[1] / "data" / "asif-0.5-package" / "examples"
SESSION = EXAMPLES / "compaction-with-attachment.session.json"
SEED = bytes(range(32))  # the example's public test key (TRANSPORT.md)
REFUSED = ("#b3261e", "#ff7b72")  # the theme's refused colour, light and dark


def _package(folder: Path, name: str = "notes.asif.zip") -> Path:
    path = folder / name
    path.write_bytes(api.build_package(SESSION))
    return path


def _tampered(folder: Path) -> Path:
    source = _package(folder, "source.asif.zip")
    path = folder / "tampered.asif.zip"
    with zipfile.ZipFile(source) as read, zipfile.ZipFile(path, "w") as out:
        for info in read.infolist():
            data = read.read(info)
            out.writestr(
                info,
                data.replace(b"e", b"E", 1)
                if info.filename != "session.json" and info.filename.startswith("assets/")
                else data,
            )
    return path


def _members(tab: object) -> dict[str, str]:
    pane = tab.inventory_pane  # type: ignore[attr-defined]
    model = pane.members_model
    return {
        model.data(model.index(r, 0)): model.data(model.index(r, 1))
        for r in range(model.rowCount())
    }


def test_a_built_package_shows_its_inventory_closure_and_session(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [_package(tmp_path)])
    assert tab.verdict.headline == "VALID PACKAGE · UNSIGNED"
    assert tab.pane_names()[:2] == [PANE_INVENTORY, PANE_SESSION]
    result = api.verify_package(tmp_path / "notes.asif.zip")
    assert _members(tab) == {e.path: "matches" for e in result.inventory}
    pane = tab.inventory_pane
    assert pane is not None
    closure = pane.closure_model
    assert [closure.data(closure.index(r, 2)) for r in range(closure.rowCount())] == ["present"]
    assert "every member matches its record" in pane.summary.text()
    assert tab.session_pane is not None
    assert tab.session_pane.timeline_model.rowCount() == 3
    # the tree is the session member; a closure row selects its resource there
    pane.closure.selectRow(0)
    assert tab.selected_pointer() == result.closure[0].pointer


def test_a_tampered_member_is_shown_as_differs_in_red(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [_tampered(tmp_path)])
    assert tab.verdict.headline.startswith("REFUSED PACKAGE at assets/project-notes.md")
    assert _members(tab)["assets/project-notes.md"] == "DIFFERS"
    assert _members(tab)["session.json"] == "matches"
    pane = tab.inventory_pane
    assert pane is not None
    row = pane.members.currentIndex().row()  # the tampered member is selected first
    model = pane.members_model
    assert model.data(model.index(row, 0)) == "assets/project-notes.md"
    brush = model.data(model.index(row, 1), Qt.ItemDataRole.ForegroundRole)
    assert isinstance(brush, QBrush)
    assert brush.color().name() in REFUSED
    assert model.data(model.index(1, 1), Qt.ItemDataRole.ForegroundRole) is None
    assert "NOT what its record lists" in pane.detail.toPlainText()
    # the session's resource says so too, from its own bytes
    session = tab.session_pane
    assert session is not None
    notes = next(r for r in session.outline.resources if r.id == "notes")
    assert str(notes.integrity) == "differs"


def test_the_inventory_is_walked_by_the_keyboard(qtbot, window: MainWindow, tmp_path: Path) -> None:
    tab = drop_and_wait(qtbot, window, [_package(tmp_path)])
    assert tab.focus_pane(PANE_INVENTORY)
    pane = tab.inventory_pane
    assert pane is not None
    qtbot.waitUntil(pane.members.hasFocus)
    pane.members.setCurrentIndex(pane.members_model.index(0, 0))
    qtbot.keyClick(pane.members, Qt.Key.Key_Down)
    assert pane.members.currentIndex().row() == 1
    assert pane.detail.toPlainText().startswith("member session.json: matches")


def _trusted_key(folder: Path, seed: bytes) -> Path:
    path = folder / "trusted.key"
    path.write_bytes(Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw())
    os.chmod(path, 0o600)
    return path


def test_a_signature_beside_the_package_is_checked_under_settings_keys(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    package = _package(tmp_path)
    seed = tmp_path / "seed"
    seed.write_bytes(SEED)
    os.chmod(seed, 0o600)
    (tmp_path / "package-signature.json").write_bytes(api.sign_package(package, seed))
    tab = drop_and_wait(qtbot, window, [package])
    assert tab.verdict.headline == "INTACT PACKAGE · SIGNATURE NOT CHECKED (no key)"
    window.settings.package_keys = [str(_trusted_key(tmp_path, SEED))]
    window.recheck_tab(tab)
    qtbot.waitUntil(lambda: not window.runner.busy)
    assert tab.verdict.headline.startswith("VALID PACKAGE · SIGNED by sha256:")
    other = tmp_path / "other"
    other.mkdir()
    window.settings.package_keys = [str(_trusted_key(other, bytes(32)))]
    window.recheck_tab(tab)
    qtbot.waitUntil(lambda: not window.runner.busy)
    assert tab.verdict.headline.startswith("REFUSED PACKAGE")
    assert "signing_key_untrusted" in tab.verdict.headline


def test_trusted_package_keys_are_chosen_in_settings(qtbot, tmp_path: Path) -> None:
    dialog = SettingsDialog(None, package_keys=["/keys/a.key"])
    qtbot.addWidget(dialog)
    box = dialog.package_keys_box
    box.ask_key_file = lambda _parent: str(tmp_path / "b.key")
    box._add()
    assert box.chosen() == ["/keys/a.key", str(tmp_path / "b.key")]
    box.list.setCurrentRow(0)
    box._remove()
    assert box.chosen() == [str(tmp_path / "b.key")]


def test_a_package_opens_from_the_command_line_path(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    window.open_paths([str(_package(tmp_path))])
    qtbot.waitUntil(lambda: bool(window.document_tabs()) and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    assert tab.verdict.headline == "VALID PACKAGE · UNSIGNED"


def test_a_zip_that_is_not_a_package_is_refused_with_a_code(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    path = tmp_path / "plain.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("readme.txt", "hello " * 100)
    tab = drop_and_wait(qtbot, window, [path])
    assert tab.verdict.headline.startswith("REFUSED PACKAGE")
    assert tab.inventory_pane is not None
    assert tab.inventory_pane.members_model.rowCount() == 0


def test_a_zip_header_over_garbage_is_a_refused_package_not_a_crash(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    path = tmp_path / "<b>looks<i>.json"  # told by content, never by name
    path.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    tab = drop_and_wait(qtbot, window, [path])
    assert tab.verdict.headline == "REFUSED PACKAGE at (package): container_invalid"
    assert tab.findings_pane.model.rowCount() >= 1


def test_alt_1_puts_the_keyboard_in_a_package_inventory(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [_package(tmp_path)])
    tab.focus_pane(PANE_SESSION)
    tab.tree.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    assert tab.inventory_pane is not None
    qtbot.waitUntil(tab.inventory_pane.members.hasFocus)


def test_keys_chosen_in_the_settings_dialog_check_an_open_package_again(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    package = _package(tmp_path)
    seed = tmp_path / "seed"
    seed.write_bytes(SEED)
    os.chmod(seed, 0o600)
    (tmp_path / "package-signature.json").write_bytes(api.sign_package(package, seed))
    tab = drop_and_wait(qtbot, window, [package])
    assert tab.verdict.headline.startswith("INTACT PACKAGE")
    key = _trusted_key(tmp_path, SEED)
    window.settings_action.trigger()
    dialog = window.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    dialog.package_keys_box.ask_key_file = lambda _parent: str(key)
    dialog.package_keys_box._add()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.verdict.headline.startswith("VALID PACKAGE · SIGNED"))
    assert window.settings.package_keys == [str(key)]
