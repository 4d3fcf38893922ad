"""Issue 18: one verdict for every front end. Every document of goldens/, tests/data/ and
the hostile corpus (tests/data/hostile/) goes through the window (offscreen, the real
header widgets), the CLI's text, the CLI's --json and the API; all four must say the same
headline words, the same trust level and the same status for every check.

The ASIF sessions of the public examples are also opened with each report that binds
them, at the examples' clock (the window's "Assess at", `plan --now`), so that READY,
ADAPTATION REQUIRED and BLOCKED are each said by all four.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.conftest import DATA, REPO
from tests.core.helpers import to_bytes
from tests.gui.driving import drop, wait_idle
from zcf_inspector import api
from zcf_inspector.cli import main
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.files import shown_path
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.visible_text import visible
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.theme import tone_colour
from zcf_inspector.gui.verdict_header import LEVEL_TONES
from zcf_inspector.present import receipt_match
from zcf_inspector.present.recognise import CONTINUATION_KINDS, recognise
from zcf_inspector.present.vocabulary import CHECK_SEPARATOR, CheckStatus, Chip, Trust

if TYPE_CHECKING:
    from zcf_inspector.present.registry import Result

EXAMPLES = DATA / "asif-0.4" / "examples" / "continuation"
DESTINATION = REPO / "goldens" / "destination.json"
CLOCK = "2026-09-26T12:30:00Z"
CUT = "… ("  # where the CLI's checks line was cut (core.visible_text.clip)


def documents(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


def pairs() -> list[tuple[Path, Path]]:
    found = []
    for session in sorted(EXAMPLES.glob("*.session.json")):
        stem = session.name.removesuffix(".session.json")
        found += [(session, r) for r in sorted(EXAMPLES.glob(f"{stem}*.report.json"))]
    return found


@dataclass(frozen=True)
class Said:
    """What one front end said: the headline words, the trust level, every chip's text."""

    words: str
    trust: str
    chips: tuple[str, ...] | None  # None: the CLI's line was cut; see `chip_line`
    chip_line: str = ""


def kind_of(path: Path) -> DocumentKind:
    try:
        value = read_json(path.read_bytes())
    except ReadError:
        value = None
    return recognise(value)


def argv(paths: tuple[Path, ...], *, json_out: bool, destination: bool) -> list[str]:
    kind = kind_of(paths[0])
    flag = ["--json"] if json_out else []
    if destination:
        flag += ["--destination", str(DESTINATION)]
    if kind is DocumentKind.RECEIPT:
        return ["receipt", "verify", *flag, str(paths[0])]
    if kind in CONTINUATION_KINDS:
        report = ["--report", str(paths[1]), "--now", CLOCK] if len(paths) > 1 else []
        return ["plan", *flag[:1], str(paths[0]), *report]
    return ["validate", *flag, str(paths[0])]  # a packet, a snapshot, an unknown document


def run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(args)
    return code, capsys.readouterr().out


def cli_text(
    capsys: pytest.CaptureFixture[str], paths: tuple[Path, ...], destination: bool
) -> tuple[int, Said]:
    code, out = run(capsys, argv(paths, json_out=False, destination=destination))
    head, checks = out.splitlines()[:2]
    words = head.removeprefix(f"{shown_path(paths[0])}: ")
    if words.endswith(" error(s)"):  # validate counts a refusal's errors after its words
        words = words.rsplit(" — ", 1)[0]
    assert checks.startswith("  ")
    trust, _, _ = checks[2:].partition(CHECK_SEPARATOR)
    return code, Said(words, trust, None, checks[2:])


def cli_json(
    capsys: pytest.CaptureFixture[str], paths: tuple[Path, ...], destination: bool
) -> tuple[int, Said]:
    code, out = run(capsys, argv(paths, json_out=True, destination=destination))
    doc = json.loads(out)
    if isinstance(doc, list):
        (doc,) = doc
    chips = tuple(
        visible(Chip(c["check"], CheckStatus(c["status"]), c["summary"], "").text)
        for c in doc["checks"]
    )
    return code, Said(visible(doc["verdict"]), doc["trust"], chips)


def api_said(paths: tuple[Path, ...], destination: bool = False) -> Said:
    kind = kind_of(paths[0])
    result: Result
    if kind is DocumentKind.RECEIPT:
        key = api.load_destination(DESTINATION).signing_public_key if destination else None
        result = api.verify_receipt(paths[0], key)
    elif kind in CONTINUATION_KINDS:
        now = parse_datetime(CLOCK) if len(paths) > 1 else None
        result = api.inspect_continuation(
            paths[0], report=paths[1] if len(paths) > 1 else None, now=now
        )
    elif kind is not DocumentKind.PACKET:  # a snapshot alone, or no known kind
        view = api.open_document(paths[0], destination=DESTINATION if destination else None)
        return Said(
            visible(view.headline),
            str(view.trust),
            tuple(visible(c.text) for c in view.verdict.chips),
        )
    elif destination:  # admitted there: what admission changed is a chip of its own
        result = api.ingest(paths[0], DESTINATION)
    else:
        result = api.inspect_packet(paths[0])
    shown = api.verdict(result)
    return Said(visible(shown.words), str(shown.trust), tuple(visible(c.text) for c in shown.chips))


def close_all(window: MainWindow) -> None:
    while window.tabs.count():
        window.close_tab(0)


def window_said(qtbot: QtBot, window: MainWindow, paths: tuple[Path, ...]) -> Said | None:
    """What the real header widgets show; None when the window makes no tab (a file that
    is not a document at all: it gets one plain message instead)."""
    close_all(window)
    drop(window, list(paths))
    wait_idle(qtbot, window)
    tabs = window.document_tabs()
    if not tabs:
        return None
    (tab,) = tabs
    header = tab.header
    full = header.headline.accessibleName().removeprefix("Verdict: ")
    shown = header.headline.text()
    assert shown == visible(full) or "SIGNED by" in full  # only a key is ever shortened
    tone = LEVEL_TONES[header.level]
    colour = header.headline.palette().windowText().color()
    if tone is None:  # unsigned: the ordinary text colour, never green
        assert colour == header.palette().color(QPalette.ColorRole.WindowText)
    else:
        assert colour == tone_colour(tone, header.palette())
    chips = tuple(chip.text().replace("&&", "&") for chip in header.chips)
    # A receipt's tab adds the chip saying which open packet it belongs to (the receipt-
    # against-packet presenter): only the window has open packets to match it with.
    matched = tuple(c for c in chips if c.startswith(f"{receipt_match.CHECK}: "))
    assert len(matched) == (1 if tab.document.path.endswith(".receipt.json") else 0)
    chips = tuple(c for c in chips if c not in matched)
    return Said(visible(full), str(header.level), chips)


def agree(
    qtbot: QtBot,
    window: MainWindow,
    capsys: pytest.CaptureFixture[str],
    paths: tuple[Path, ...],
    destination: bool = False,
) -> None:
    where = " + ".join(
        str(p.relative_to(REPO)) if p.is_relative_to(REPO) else p.name for p in paths
    )
    text_code, text = cli_text(capsys, paths, destination)
    json_code, as_json = cli_json(capsys, paths, destination)
    library = api_said(paths, destination)
    assert text_code == json_code, where
    assert (as_json.words, as_json.trust, as_json.chips) == (
        library.words,
        library.trust,
        library.chips,
    ), where
    assert library.chips is not None
    assert text.words == library.words, where
    assert text.trust == library.trust, where
    line = CHECK_SEPARATOR.join((library.trust, *library.chips))
    if CUT in text.chip_line and text.chip_line != line:  # cut: what is shown is the start
        assert line.startswith(text.chip_line.rsplit(CUT, 1)[0]), where
    else:
        assert text.chip_line == line, where
    seen = window_said(qtbot, window, paths)
    if seen is None:
        # not opened as a document (binary, not text): every other front end refuses it
        assert library.trust == str(Trust.REFUSED), where
        return
    assert seen == library, where


@pytest.mark.parametrize(
    "folder",
    [
        "goldens",
        "tests/data/asif-0.4",
        "tests/data/asif-0.5-package",
        "tests/data/hostile",
        "tests/data/vectors",
    ],
)
def test_every_document_is_said_alike_by_all_four(
    qtbot: QtBot, window: MainWindow, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    found = documents(REPO / folder)
    assert found
    for path in found:
        agree(qtbot, window, capsys, (path,))


def test_every_golden_at_the_destination_is_said_alike_by_all_four(
    qtbot: QtBot, window: MainWindow, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the goldens' destination: MACs and signatures verified (green), policy and
    admission checked — the admission chip of a truncated packet in all four."""
    window.apply_destination(str(DESTINATION))
    levels = set()
    for path in documents(REPO / "goldens"):
        agree(qtbot, window, capsys, (path,), destination=True)
        levels.add(api_said((path,), destination=True).trust)
    assert levels == {"verified", "unsigned", "refused"}  # with its keys, nothing is unchecked


def test_every_example_session_with_its_report_is_said_alike(
    qtbot: QtBot, window: MainWindow, capsys: pytest.CaptureFixture[str]
) -> None:
    window.apply_settings(None, parse_datetime(CLOCK))
    outcomes = set()
    for pair in pairs():
        agree(qtbot, window, capsys, pair)
        outcomes.add(api_said(pair).words.split(" · ")[0].split(" (")[0])
    assert outcomes == {"READY", "ADAPTATION REQUIRED", "BLOCKED"}


def test_a_packet_with_a_suspected_credential_is_said_alike_by_all_four(
    qtbot: QtBot, window: MainWindow, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The secret scan's flag is on the admission chip of the window, the CLI's text and
    --json, and the API alike (issue 20, point 4), without and with a destination."""
    value = g.handoff("one-verdict-secrets")
    value["content"]["beliefs"] = [g.belief("b-1", "the deploy key is AKIAIOSFODNN7EXAMPLE")]
    path = tmp_path / "planted.json"
    path.write_bytes(to_bytes(g.unsigned(value)))
    agree(qtbot, window, capsys, (path,))
    said = api_said((path,))
    assert said.chips is not None
    assert "admission: changed · 1 suspected credential flagged (values hidden)" in said.chips
    window.apply_destination(str(DESTINATION))
    agree(qtbot, window, capsys, (path,), destination=True)
