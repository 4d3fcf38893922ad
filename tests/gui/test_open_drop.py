"""Issue 19: one file of a drop whose check raised (a tool schema's regex bomb) stopped
every file of the drop from opening, behind an "Internal error" dialog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.corpus import by_name, path_of
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation import inspection as continuation_module
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.gui.documents import open_documents
from zcf_inspector.opener.documents import ContinuationDocument, UnreadableDocument
from zcf_inspector.opener.open import OpenRequest


def test_one_bad_file_of_a_drop_does_not_stop_the_others(tmp_path: Path) -> None:
    """The window opens every file of a drop; the regex bombs used to raise out of the
    open and stop them all (an "Internal error" dialog)."""
    bombs = tmp_path / "bombs.json"
    bombs.write_bytes(path_of(by_name("regex-bombs")).read_bytes())
    other = tmp_path / "other.json"
    other.write_bytes(path_of(by_name("delta-chain")).read_bytes())
    documents = open_documents(OpenRequest((str(bombs), str(other)), None), Monitor())
    assert [type(d) for d in documents] == [ContinuationDocument, ContinuationDocument]
    (first, second) = documents
    assert isinstance(first, ContinuationDocument)
    assert isinstance(second, ContinuationDocument)
    assert PlanCode.PATTERN_TOO_COMPLEX in {f.code for f in first.result.findings}
    assert json.loads(second.data)["asif_version"]


def test_a_file_whose_check_fails_is_reported_and_the_others_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any failure of one file's check (here a defect simulated in the continuation
    check) costs that file its tab with a message, never the drop; Cancel still stops."""
    first = tmp_path / "first.json"
    first.write_bytes(path_of(by_name("delta-chain")).read_bytes())
    second = tmp_path / "second.json"
    second.write_bytes(path_of(by_name("delta-chain")).read_bytes())
    seen: list[bytes] = []

    def failing_once(data: bytes, **kwargs: Any) -> InspectionResult:
        seen.append(data)
        if len(seen) == 1:
            raise OverflowError("the repetition number is too large")
        return inspect_continuation(data, **kwargs)

    monkeypatch.setattr(continuation_module, "inspect_continuation", failing_once)
    opened = open_documents(OpenRequest((str(first), str(second)), None), Monitor())
    assert isinstance(opened[0], UnreadableDocument)
    assert "OverflowError" in opened[0].message
    assert isinstance(opened[1], ContinuationDocument)

    def cancelled(data: bytes, **kwargs: Any) -> InspectionResult:
        raise Cancelled("cancelled")

    monkeypatch.setattr(continuation_module, "inspect_continuation", cancelled)
    with pytest.raises(Cancelled):
        open_documents(OpenRequest((str(first),), None), Monitor())
