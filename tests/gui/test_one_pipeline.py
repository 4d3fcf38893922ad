"""Issue 28: one document, one pipeline. Every file of goldens/ and tests/data/ is opened
under each setting — none, a destination, a receipt key, a current capability snapshot —
by the window (the real header, tab icon and title), `validate` (text, ``--json``, exit
code), `diff A A` (its side lines, for packets) and `api.open_document`; all must say the
same words, trust level and chips, and each open must read and parse each file once.

The opener (`zcf_inspector.opener`) is what they share; this test holds them to it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import DATA, REPO
from tests.gui.driving import drop, wait_idle
from zcf_inspector import api
from zcf_inspector.cli import exitcodes, main
from zcf_inspector.core import reading
from zcf_inspector.core.continuation import inspection as continuation_inspection
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.files import shown_path
from zcf_inspector.core.visible_text import visible
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.verdict_header import level_icon
from zcf_inspector.opener import reading as opener_reading
from zcf_inspector.opener.documents import DocumentView
from zcf_inspector.present import receipt_match
from zcf_inspector.present.vocabulary import CHECK_SEPARATOR, CheckStatus, Chip, Trust

DESTINATION = REPO / "goldens" / "destination.json"
EXAMPLES_05 = DATA / "asif-0.5" / "examples" / "continuation"
CLOCK = "2026-09-26T12:30:00Z"
CUT = "… ("  # where the CLI's checks line was cut (core.visible_text.clip)
FOLDERS = ("goldens", *(f"tests/data/{p.name}" for p in sorted(DATA.iterdir()) if p.is_dir()))


def documents(folder: str) -> list[Path]:
    return sorted((REPO / folder).rglob("*.json"))


@dataclass(frozen=True)
class Said:
    """What one front end said: the headline words, the trust level, every chip's text."""

    words: str
    trust: str
    chips: tuple[str, ...]


def said(view: DocumentView) -> Said:
    shown = view.verdict
    return Said(visible(shown.words), str(shown.trust), tuple(visible(c.text) for c in shown.chips))


def run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(args)
    return code, capsys.readouterr().out


@dataclass(frozen=True)
class Setting:
    name: str
    flags: tuple[str, ...] = ()
    destination: Path | None = None
    key: Path | None = None

    def api_view(self, paths: tuple[Path, ...], **extra: Any) -> DocumentView:
        return api.open_document(
            paths[0],
            destination=self.destination,
            key=self.key,
            report=paths[1] if len(paths) > 1 else None,
            **extra,
        )


@pytest.fixture(scope="module")
def public_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The public half of the goldens' destination signingKey: what signs its receipts."""
    out = tmp_path_factory.mktemp("key") / "destination.pub.json"
    assert main(["keygen", "--public-of", str(DESTINATION), "--out", str(out)]) == 0
    return out


def settings(public_key: Path) -> list[Setting]:
    return [
        Setting("none"),
        Setting("destination", ("--destination", str(DESTINATION)), destination=DESTINATION),
        Setting("key", ("--key", str(public_key)), key=public_key),
    ]


def validate_text(
    capsys: pytest.CaptureFixture[str], paths: tuple[Path, ...], flags: tuple[str, ...]
) -> tuple[int, str, str, str]:
    code, out = run(capsys, ["validate", *flags, *map(str, paths)])
    head, checks = out.splitlines()[:2]
    words = head.removeprefix(f"{shown_path(paths[0])}: ")
    if words.endswith(" error(s)"):  # validate counts a refusal's errors after its words
        words = words.rsplit(" — ", 1)[0]
    assert checks.startswith("  ")
    trust, _, _ = checks[2:].partition(CHECK_SEPARATOR)
    return code, words, trust, checks[2:]


def validate_json(
    capsys: pytest.CaptureFixture[str], paths: tuple[Path, ...], flags: tuple[str, ...]
) -> tuple[int, Said]:
    code, out = run(capsys, ["validate", "--json", *flags, *map(str, paths)])
    (doc,) = json.loads(out)
    chips = tuple(
        visible(Chip(c["check"], CheckStatus(c["status"]), c["summary"], "").text)
        for c in doc["checks"]
    )
    return code, Said(visible(doc["verdict"]), doc["trust"], chips)


def close_all(window: MainWindow) -> None:
    while window.tabs.count():
        window.close_tab(0)


@dataclass(frozen=True)
class Window:
    said: Said
    title: str
    parses: int


def window_said(qtbot: QtBot, window: MainWindow, paths: tuple[Path, ...]) -> Window | None:
    """The real header widgets, the tab's icon and the window's title; None when the
    window makes no tab (a file that is not a document at all: one plain message)."""
    close_all(window)
    drop(window, list(paths))
    wait_idle(qtbot, window)
    tabs = window.document_tabs()
    if not tabs:
        return None
    (tab,) = tabs
    header = tab.header
    full = header.headline.accessibleName().removeprefix("Verdict: ")
    # The tab's icon is the header's level, from the one verdict (issue 28: a current
    # snapshot turned the header red and left the icon green).
    index = window.tabs.indexOf(tab)
    assert window.tabs.tabIcon(index).cacheKey() == level_icon(header.level).cacheKey()
    chips = tuple(chip.text().replace("&&", "&") for chip in header.chips)
    chips = tuple(c for c in chips if not c.startswith(f"{receipt_match.CHECK}: "))
    view = tab.document.view
    assert header.level is view.tone
    return Window(Said(visible(full), str(header.level), chips), window.windowTitle(), view.parses)


@contextmanager
def counted() -> Iterator[dict[str, int]]:
    """How often files are read and parsed while the block runs (the real functions,
    counted: nothing is replaced)."""
    counts = {"reads": 0, "parses": 0, "continuation parses": 0}
    mp = pytest.MonkeyPatch()

    def counting(module: Any, name: str, key: str) -> None:
        real = getattr(module, name)

        def spy(*args: Any, **kwargs: Any) -> Any:
            counts[key] += 1
            return real(*args, **kwargs)

        mp.setattr(module, name, spy)

    counting(opener_reading, "read_bounded", "reads")
    counting(opener_reading, "read_document", "parses")
    counting(continuation_inspection, "read_json", "continuation parses")
    try:
        yield counts
    finally:
        mp.undo()


def needs_exact_reread(path: Path) -> bool:
    """A continuation document whose numbers the profile's reader cannot keep exactly is
    read a second time with exact numbers (`opener.reading.strict_read`)."""
    data = path.read_bytes()
    try:
        read = reading.read_document(data)
    except reading.ReadError as refused:
        return refused.code == "number_out_of_range"
    kind = api.open_document(data).kind
    continuation = kind in (
        DocumentKind.ASIF_SESSION,
        DocumentKind.CONTINUATION_PROFILE,
        DocumentKind.CONTINUATION_REPORT,
    )
    return continuation and bool(read.has_fractions or read.decimal_literals)


def agree(
    qtbot: QtBot,
    window: MainWindow,
    capsys: pytest.CaptureFixture[str],
    paths: tuple[Path, ...],
    setting: Setting,
) -> None:
    where = f"{' + '.join(str(p.relative_to(REPO)) for p in paths)} ({setting.name})"
    library = said(setting.api_view(paths))
    code, words, trust, line = validate_text(capsys, paths, setting.flags)
    json_code, as_json = validate_json(capsys, paths, setting.flags)
    assert code == json_code == exitcodes.for_trust(Trust(library.trust)), where
    assert as_json == library, where
    assert (words, trust) == (library.words, library.trust), where
    expected = CHECK_SEPARATOR.join((library.trust, *library.chips))
    if CUT in line and line != expected:  # cut: what is shown is the start
        assert expected.startswith(line.rsplit(CUT, 1)[0]), where
    else:
        assert line == expected, where
    kind = api.open_document(paths[0]).kind
    if kind is DocumentKind.PACKET and len(paths) == 1:
        diff_code, out = run(capsys, ["diff", *setting.flags, str(paths[0]), str(paths[0])])
        if diff_code != exitcodes.USAGE:  # refused at the byte stage: nothing to compare
            side_a, side_b = out.splitlines()[:2]
            for label, side in (("A", side_a), ("B", side_b)):
                assert side.startswith(f"{label}: {visible(str(paths[0]))} — "), where
                assert side.split(" — ", 1)[1].startswith(library.words), where
    if setting.name == "key" and kind is not DocumentKind.RECEIPT:
        return  # the window takes a receipt's key from its destination: nothing else
    with counted() as counts:
        seen = window_said(qtbot, window, paths)
    if seen is None:
        # not opened as a document (empty, binary): every other front end refuses it
        assert library.trust == str(Trust.REFUSED), where
        return
    assert seen.said == library, where
    assert all(visible(p.name) in seen.title for p in paths), where
    # Read once, parsed once per file (twice only for exact numbers), and the
    # continuation checks never parse the bytes again.
    assert counts["reads"] == len(paths), where
    rereads = sum(needs_exact_reread(p) for p in paths)
    assert counts["parses"] == seen.parses == len(paths) + rereads, where
    assert counts["continuation parses"] == 0, where


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_file_is_said_alike_under_every_setting(
    qtbot: QtBot,
    window: MainWindow,
    capsys: pytest.CaptureFixture[str],
    public_key: Path,
    folder: str,
) -> None:
    found = documents(folder)
    assert found
    for setting in settings(public_key):
        if setting.name == "destination":
            window.apply_destination(str(DESTINATION))
        elif setting.name == "key":
            # A receipt's key, in the window, is its destination's signingKey.
            window.apply_destination(str(DESTINATION))
        else:
            window.apply_destination(None)
        wait_idle(qtbot, window)  # the re-check of the tab left open: not counted below
        close_all(window)
        for path in found:
            agree(qtbot, window, capsys, (path,), setting)


def test_a_session_with_its_report_and_a_current_snapshot_is_said_alike(
    qtbot: QtBot, window: MainWindow, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fourth setting: an ASIF 0.5 report checked with the destination's current
    capability snapshot — another destination's, so it differs — by `validate
    --current-capabilities`, the API and the window's "check with current snapshot"
    (whose tab icon turns with its header)."""
    window.apply_settings(None, parse_datetime(CLOCK))
    session = EXAMPLES_05 / "another-agent.session.json"
    report = EXAMPLES_05 / "another-agent.report.json"
    snapshot = EXAMPLES_05 / "another-computer.capabilities.json"
    flags = ("--now", CLOCK, "--current-capabilities", str(snapshot))
    view = api.open_document(
        session, report=report, now=CLOCK, current_capabilities=snapshot.read_bytes()
    )
    library = said(view)
    assert view.trust is Trust.REFUSED
    code, words, trust, _ = validate_text(capsys, (session, report), flags)
    assert (code, words, trust) == (exitcodes.REFUSED, library.words, library.trust)
    assert validate_json(capsys, (session, report), flags)[1] == library
    drop(window, [session, report])
    wait_idle(qtbot, window)
    (tab,) = window.document_tabs()
    index = window.tabs.indexOf(tab)
    before = tab.header.level
    assert before is not Trust.REFUSED
    tab.check_current_snapshot(str(snapshot))
    wait_idle(qtbot, window)
    assert tab.header.level is Trust.REFUSED
    assert window.tabs.tabIcon(index).cacheKey() == level_icon(Trust.REFUSED).cacheKey()
    full = tab.header.headline.accessibleName().removeprefix("Verdict: ")
    assert visible(full) == library.words


def test_validate_accepts_every_document_the_window_opens() -> None:
    """The README's tour: `validate goldens/publication/*.json` — receipts as receipts."""
    receipt = REPO / "goldens" / "publication" / "minimal.receipt.json"
    assert main(["validate", str(receipt)]) == exitcodes.UNCHECKED
    assert main(["validate", "--destination", str(DESTINATION), str(receipt)]) == exitcodes.OK
    view = api.open_document(b'{"a": 1}')
    assert [f.code for f in view.findings] == ["unrecognised_document"]
    assert view.trust is Trust.REFUSED
    publication = sorted((REPO / "goldens" / "publication").glob("*.json"))
    assert main(["validate", *map(str, publication)]) == exitcodes.UNCHECKED  # receipts: no key
    flags = ["--destination", str(DESTINATION)]
    assert main(["validate", *flags, *map(str, publication)]) == exitcodes.OK
