"""Opening documents: drops of every golden, verdict rows, tabs, start page, recent files,
reloading a file that changed on disk, and the command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.gui.driving import (
    DESTINATION,
    NEGATIVE,
    PUBLICATION,
    drop,
    drop_and_wait,
    publication_packets,
    rows,
    wait_idle,
)
from zcf_inspector.cli import asks_for_window, build_parser, main, split_qt_options
from zcf_inspector.core import reading
from zcf_inspector.core.reading import ReadDocument
from zcf_inspector.gui import documents
from zcf_inspector.gui.icons import example_packet_path
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.opener.documents import PacketDocument

UNSIGNED_REASON = "unsigned"
# Without a destination, what a packet claims about its recipient is not checked: not VALID.
HEADLINES = {
    "recipient-bound-mac": "INTACT · MAC NOT CHECKED (no destination keys)",
    "recipient-bound-unsigned": "INTACT · UNSIGNED · RECIPIENT NOT CHECKED (no destination)",
}


@pytest.mark.parametrize("path", publication_packets(), ids=lambda p: p.stem)
def test_each_publication_golden_dropped_shows_its_verdict(
    qtbot, window: MainWindow, path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [path])
    verdict = rows(tab)
    manifest = json.loads(path.read_bytes())["manifest"]
    assert tab.verdict.headline == HEADLINES.get(path.stem, "VALID · UNSIGNED")
    assert verdict["bytes"] == ("pass", "passed")
    assert verdict["structure"] == ("pass", "passed")
    sections = {
        k.removeprefix("section "): v for k, v in verdict.items() if k.startswith("section ")
    }
    assert sorted(sections) == sorted(manifest["sections"])
    assert set(sections.values()) == {("pass", "digest matches")}
    assert verdict["manifest root"] == ("pass", "matches")
    if path.stem == "recipient-bound-mac":
        assert verdict["authentication"] == (
            "not checkable",
            "recipient-bound-mac, not verified (no keys)",
        )
    else:
        assert verdict["authentication"] == ("pass", UNSIGNED_REASON)
    assert verdict["policy"] == ("not checkable", "no destination")
    assert window.windowTitle().startswith(path.name)


def test_destination_makes_the_mac_verified_and_policy_checked(qtbot, window: MainWindow) -> None:
    window.apply_destination(str(DESTINATION))
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "recipient-bound-mac.json"])
    verdict = rows(tab)
    assert verdict["authentication"] == ("pass", "recipient-bound-mac, verified")
    assert verdict["policy"] == ("pass", "passed")
    auth = next(r for r in tab.header.model.rows if r.check == "authentication")
    assert auth.detail.startswith("signature by trusted key sha256:")
    assert "dest-golden-01" in window.destination_label.text()


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("signature-invalid", "signature_invalid"),
        ("mac-invalid", "mac_invalid"),
        ("source-signature", "source_signature_unverifiable"),
        ("source-key-unknown", "source_key_unknown"),
    ],
)
def test_authentication_refusals_say_why(qtbot, window: MainWindow, name: str, code: str) -> None:
    window.apply_destination(str(DESTINATION))
    tab = drop_and_wait(qtbot, window, [NEGATIVE / f"{name}.json"])
    state, summary = rows(tab)["authentication"]
    assert state == "fail"
    assert summary.endswith(code)
    document = tab.document
    assert isinstance(document, PacketDocument)
    assert document.inspection.auth is not None
    detail = next(r for r in tab.header.model.rows if r.check == "authentication").detail
    assert detail == document.inspection.auth.reason
    assert tab.verdict.headline == "REFUSED at authentication"


def test_tampered_golden_marks_exactly_the_changed_section(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [NEGATIVE / "tampered-capsule.json"])
    table = tab.manifest_pane.model
    mismatched = [table.row(i).name for i in range(table.rowCount()) if not table.row(i).match]
    assert mismatched == ["capsule", "(root)"]
    verdict = rows(tab)
    assert [k for k, v in verdict.items() if k.startswith("section ") and v[0] == "fail"] == [
        "section capsule"
    ]
    model = tab.model
    marks = {}
    for section in tab.document.inspection.manifest.sections:  # type: ignore[union-attr]
        node = model.node(model.index_for_pointer(section.pointer or "", nearest=False))
        assert node is not None
        marks[section.name] = model.status(node).text
    assert marks.pop("capsule") == "digest MISMATCH (capsule)"
    assert all(text == f"digest matches ({name})" for name, text in marks.items())


def test_byte_refusal_shows_code_message_offset_and_raw_text(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [NEGATIVE / "duplicate-key.json"])
    assert rows(tab)["bytes"][0] == "fail"
    assert tab.pane_names()[0] == "Byte refusal"
    pane = tab.byte_pane
    assert pane.code.text() == "duplicate_key"
    assert pane.offset.text() == "2,962"
    assert "duplicate key 'a'" in pane.message.text()
    raw = pane.raw.toPlainText()
    line, caret = raw.splitlines()[:2]
    assert caret.endswith("^ byte 2,962")
    assert line[caret.index("^") :].startswith('"a"')


def test_several_files_open_in_tabs_and_reopening_reuses_the_tab(qtbot, window: MainWindow) -> None:
    paths = [
        PUBLICATION / "minimal.json",
        PUBLICATION / "unicode.json",
        NEGATIVE / "unknown-field.json",
    ]
    drop(window, paths)
    qtbot.waitUntil(lambda: len(window.document_tabs()) == 3, timeout=20_000)
    titles = [t.title for t in window.document_tabs()]
    assert titles == ["minimal.json", "unicode.json", "unknown-field.json"]
    drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
    assert len(window.document_tabs()) == 3
    assert window.current_tab() is window.document_tabs()[0]
    window.close_current()
    assert [t.title for t in window.document_tabs()] == ["unicode.json", "unknown-field.json"]


def test_start_page_offers_the_bundled_example(qtbot, window: MainWindow) -> None:
    assert window.stack.currentWidget() is window.start_page
    assert example_packet_path().read_bytes() == (PUBLICATION / "full-handoff.json").read_bytes()
    window.start_page.example_button.click()
    qtbot.waitUntil(lambda: window.current_tab() is not None, timeout=20_000)
    tab = window.current_tab()
    assert tab is not None
    assert tab.verdict.headline == "VALID · UNSIGNED"
    assert window.stack.currentWidget() is window.tabs
    window.close_current()
    assert window.stack.currentWidget() is window.start_page


def test_open_recent(qtbot, window: MainWindow, tmp_path: Path) -> None:
    copy = tmp_path / "a&b.json"
    shutil.copy(PUBLICATION / "minimal.json", copy)
    drop_and_wait(qtbot, window, [copy])
    window.close_current()
    entries = [a for a in window.recent_menu.actions() if a.text().endswith(".json")]
    assert [a.text() for a in entries] == [str(copy.resolve()).replace("&", "&&")]
    assert window.start_page.recent.count() == 1
    entries[0].trigger()
    qtbot.waitUntil(lambda: window.current_tab() is not None, timeout=20_000)
    assert window.current_tab().title == "a&b.json"  # type: ignore[union-attr]
    # remembered across windows (QSettings)
    other = MainWindow()
    qtbot.addWidget(other)
    assert next(a.text() for a in other.recent_menu.actions()) == str(copy.resolve()).replace(
        "&", "&&"
    )


def test_changed_file_prompts_to_reload(qtbot, window: MainWindow, tmp_path: Path) -> None:
    path = tmp_path / "packet.json"
    shutil.copy(PUBLICATION / "minimal.json", path)
    tab = drop_and_wait(qtbot, window, [path])
    assert tab.verdict.headline == "VALID · UNSIGNED"
    path.write_bytes((NEGATIVE / "tampered-capsule.json").read_bytes())
    qtbot.waitUntil(
        lambda: window.reload_prompt is not None and window.reload_prompt.isVisible(),
        timeout=20_000,
    )
    prompt = window.reload_prompt
    assert prompt is not None
    assert str(path) in prompt.text()
    prompt.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: tab.verdict.headline == "REFUSED at manifest", timeout=20_000)
    assert window.document_tabs() == [tab]
    # declining keeps what is shown
    path.write_bytes((PUBLICATION / "minimal.json").read_bytes())

    def asked_again() -> bool:
        box = window.reload_prompt
        return box is not None and box is not prompt and box.isVisible()

    qtbot.waitUntil(asked_again, timeout=20_000)
    second = window.reload_prompt
    assert second is not None
    second.button(QMessageBox.StandardButton.No).click()
    wait_idle(qtbot, window)
    assert tab.verdict.headline == "REFUSED at manifest"


def test_unreadable_file_is_reported_plainly(qtbot, window: MainWindow, tmp_path: Path) -> None:
    drop(window, [tmp_path / "<b>missing</b>.json"])
    qtbot.waitUntil(
        lambda: window.message is not None and window.message.isVisible(), timeout=20_000
    )
    assert window.message is not None
    assert "<b>missing</b>.json: no such file" in window.message.text()
    assert window.message.textFormat().name == "PlainText"
    assert window.document_tabs() == []


def test_command_line_routes_files_and_no_arguments_to_the_window() -> None:
    assert asks_for_window([])
    assert asks_for_window(["a.json", "b.json"])
    assert asks_for_window(["gui", "a.json"])
    assert asks_for_window(["-style", "Fusion", "a.json"])
    for argv in (["validate", "x.json"], ["--help"], ["--version"], ["plan", "x"]):
        assert not asks_for_window(argv)
    args = build_parser("gui").parse_args(["gui", "a.json"])
    assert args.command == "gui"
    assert args.files == ["a.json"]


def test_qt_options_are_set_apart_for_qt() -> None:
    qt, ours = split_qt_options(
        ["-style", "Fusion", "a.json", "-reverse", "-platform=xcb", "b.json", "-qwindowtitle", "T"]
    )
    assert qt == ["-style", "Fusion", "-reverse", "-platform=xcb", "-qwindowtitle", "T"]
    assert ours == ["a.json", "b.json"]


def test_help_and_subcommands_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "validate" in out
    assert "gui" in out
    assert "it opens" in out
    assert main(["validate", str(PUBLICATION / "minimal.json")]) == 0


def test_files_above_the_fast_read_limit_skip_the_fast_path(
    qtbot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fast path parses in one call that holds the GIL, which the UI thread would wait
    # out: the window's worker uses it only for files up to FAST_READ_MAX_BYTES.
    tried: list[int] = []
    real = reading._read_clean

    def spy(data: bytes) -> ReadDocument | None:
        tried.append(len(data))
        return real(data)

    monkeypatch.setattr(reading, "_read_clean", spy)
    small, large = PUBLICATION / "minimal.json", PUBLICATION / "full-handoff.json"
    monkeypatch.setattr(documents, "FAST_READ_MAX_BYTES", small.stat().st_size)
    assert drop_and_wait(qtbot, window, [small]).verdict.headline == "VALID · UNSIGNED"
    assert drop_and_wait(qtbot, window, [large]).verdict.headline == "VALID · UNSIGNED"
    assert tried == [small.stat().st_size]
