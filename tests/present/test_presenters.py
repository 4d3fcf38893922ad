"""The presentation layer on its own: pure Python, one presenter per kind, one registry."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import zcf_inspector.present
from tests.conftest import EXAMPLES, REPO
from zcf_inspector.cli import exitcodes
from zcf_inspector.core.compare.packets import compare
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.document_kind import DocumentKind as ContinuationKind
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.packet.receipt import verify_receipt
from zcf_inspector.core.reading import read_json
from zcf_inspector.present import asif
from zcf_inspector.present.recognise import recognise
from zcf_inspector.present.registry import verdict_of
from zcf_inspector.present.vocabulary import CheckStatus, Chip, Trust, fold_sections

PRESENT = Path(zcf_inspector.present.__file__).parent
PUB = REPO / "goldens" / "publication"
CLOCK = datetime(2026, 9, 26, 12, 30, tzinfo=UTC)
FORBIDDEN = ("PySide6", "shiboken6", "zcf_inspector.gui", "zcf_inspector.cli")


def test_no_presenter_imports_qt_the_window_or_the_cli() -> None:
    offenders = []
    for path in sorted(PRESENT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(FORBIDDEN)]
    assert offenders == []
    script = (
        "import sys, zcf_inspector.present.registry, zcf_inspector.present.receipt_match\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'zcf_inspector.gui'))))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_continuation_kinds_are_the_cores() -> None:
    assert {str(k) for k in ContinuationKind} <= {str(k) for k in DocumentKind}


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ({"format": "zephr-continuity-receipt"}, DocumentKind.RECEIPT),
        ({"asif_version": "0.4"}, DocumentKind.ASIF_SESSION),
        ({"asif_version": "9.9"}, DocumentKind.ASIF_SESSION),  # refused later, by its reader
        ({"report_version": "0.2"}, DocumentKind.CONTINUATION_REPORT),
        ({"profile_version": "0.2"}, DocumentKind.CONTINUATION_PROFILE),
        ({"asif_version": "0.4", "report_version": "0.2"}, DocumentKind.ASIF_SESSION),
        ({"format": "zephr-continuity-packet"}, DocumentKind.PACKET),
        ([1, 2], DocumentKind.PACKET),
        (None, DocumentKind.PACKET),  # refused at the byte stage: a packet's refusal
    ],
)
def test_recognise(value: object, kind: DocumentKind) -> None:
    assert recognise(value) is kind  # type: ignore[arg-type]


def test_the_registry_gives_every_result_its_presenter() -> None:
    minimal = (PUB / "minimal.json").read_bytes()
    receipt = read_json((PUB / "minimal.receipt.json").read_bytes())
    session = (EXAMPLES / "another-computer.session.json").read_bytes()
    kinds = [
        verdict_of(inspect_bytes(minimal)).kind,
        verdict_of(verify_receipt(receipt)).kind,
        verdict_of(inspect_continuation(session, now=CLOCK)).kind,
        verdict_of(compare(minimal, minimal)).kind,
    ]
    assert kinds == ["packet", "receipt", "asif-session", "comparison"]
    with pytest.raises(TypeError):
        verdict_of(object())  # type: ignore[arg-type]


def test_matching_sections_fold_into_one_chip_where_the_first_stood() -> None:
    rows = [
        Chip("bytes", CheckStatus.PASS, "passed", ""),
        Chip("section a", CheckStatus.PASS, "digest matches", "da"),
        Chip("section b", CheckStatus.FAIL, "digest mismatch", "db"),
        Chip("section c", CheckStatus.PASS, "digest matches", "dc"),
    ]
    folded = fold_sections(rows)
    assert [c.text for c in folded] == [
        "bytes: pass",
        "2 sections: pass · digests match",
        "section b: fail · digest mismatch",
    ]
    assert folded[1].detail == "section a: da\nsection c: dc"


@pytest.fixture
def extra_rows() -> Iterator[list[asif.RowBuilder]]:
    kept = list(asif.ROWS)
    yield asif.ROWS
    asif.ROWS[:] = kept


def test_an_asif_chip_is_one_more_builder(extra_rows: list[asif.RowBuilder]) -> None:
    def snapshots(result: InspectionResult) -> Iterable[Chip]:
        yield Chip("snapshot s1", CheckStatus.PASS, "passed", f"{len(result.plans)} plans")

    extra_rows.append(snapshots)
    result = inspect_continuation(
        (EXAMPLES / "another-computer.session.json").read_bytes(), now=CLOCK
    )
    assert verdict_of(result).chips[-1].text == "snapshot s1: pass"


def test_the_exit_code_follows_the_trust_level() -> None:
    assert [exitcodes.for_trust(t) for t in Trust] == [0, 0, 3, 1]
    assert exitcodes.worst([0, 3, 1]) == 1
    assert exitcodes.worst([0, 3]) == 3
    assert exitcodes.worst([]) == 0
