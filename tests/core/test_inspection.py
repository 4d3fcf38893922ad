from __future__ import annotations

import pytest

from goldens import generate as g
from tests.core.helpers import destination, golden_bytes, to_bytes
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.packet.inspection import Stage, StageStatus, inspect_bytes


def statuses(data: bytes, with_destination: bool = False) -> dict[str, str]:
    report = inspect_bytes(data, destination() if with_destination else None)
    return {s.stage.value: s.status.value for s in report.stages}


def test_clean_packet_without_destination() -> None:
    assert statuses(golden_bytes("minimal")) == {
        "bytes": "passed",
        "structure": "passed",
        "manifest": "passed",
        "authentication": "passed",
        "policy": "not_checkable",
    }


def test_clean_packet_with_destination_runs_policy() -> None:
    assert statuses(golden_bytes("recipient-bound-mac"), True)["policy"] == "passed"
    assert statuses(golden_bytes("recipient-bound-mac"))["authentication"] == "not_checkable"


def test_byte_refusal_stops_everything() -> None:
    report = inspect_bytes(b"\xef\xbb\xbf{}")
    assert report.value is None
    assert report.manifest is None
    assert report.read_error is not None
    assert report.read_error.offset == 0
    assert [s.status for s in report.stages[1:]] == [StageStatus.NOT_RUN] * 4


def test_structure_failure_keeps_manifest_as_information() -> None:
    packet = g.unsigned(g.handoff("x"))
    packet["content"]["beliefs"] = [
        {"portableRef": "b", "sourceId": "s", "content": "c", "extra": 1}
    ]
    report = inspect_bytes(to_bytes(packet))
    assert report.stage(Stage.STRUCTURE).status is StageStatus.FAILED
    manifest_stage = report.stage(Stage.MANIFEST)
    assert manifest_stage.status is StageStatus.NOT_RUN
    assert {f.code for f in manifest_stage.findings} == {
        ErrorCode.SECTION_DIGEST_MISMATCH,
        ErrorCode.MANIFEST_ROOT_MISMATCH,
    }
    assert all(f.severity is Severity.INFO for f in manifest_stage.findings)
    assert report.manifest is not None
    assert not report.manifest.root_match
    assert [f.code for f in report.findings if f.severity is Severity.ERROR] == [
        ErrorCode.UNKNOWN_FIELD
    ]
    assert report.stage(Stage.AUTHENTICATION).status is StageStatus.NOT_RUN


def test_progress_is_reported_in_order_and_cancel_stops() -> None:
    seen: list[tuple[str, float]] = []
    inspect_bytes(golden_bytes("minimal"), monitor=Monitor(lambda what, f: seen.append((what, f))))
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions)
    assert fractions[0] == 0.0
    assert fractions[-1] == 1.0
    monitor = Monitor()
    monitor.cancel()
    with pytest.raises(Cancelled):
        inspect_bytes(golden_bytes("minimal"), monitor=monitor)


def test_breathe_pauses_and_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)  # what it asks of the clock, not how long
    monitor = Monitor(pause=0.01)
    monitor.breathe()
    assert slept == [0.01]
    monitor.cancel()
    with pytest.raises(Cancelled):
        monitor.breathe()


def test_manifest_breathes_between_chunks_of_a_long_section() -> None:
    packet = g.unsigned(g.handoff("long"))
    packet["content"]["beliefs"] = [
        {"portableRef": f"b{i}", "sourceId": "s", "content": "c"} for i in range(5000)
    ]
    breaths = []

    class Counting(Monitor):
        def breathe(self) -> None:
            breaths.append(1)
            super().breathe()

    report = inspect_bytes(to_bytes(g.unsigned(packet)), monitor=Counting())
    assert report.valid
    assert len(breaths) >= 3  # 5,000 beliefs in slices of 2,048


def test_inspect_read_equals_inspect_bytes() -> None:
    from zcf_inspector.core.packet.inspection import inspect_read
    from zcf_inspector.core.reading import ReadDocument, ReadError, read_document

    for data in (golden_bytes("full-handoff"), b"[1, 2]", b'{"a": 1, "a": 2}'):
        read: ReadDocument | ReadError
        try:
            read = read_document(data)
        except ReadError as exc:
            read = exc
        again = inspect_read(read, data)
        once = inspect_bytes(data)
        assert again.findings == once.findings
        assert again.value == once.value
        assert [s.status for s in again.stages] == [s.status for s in once.stages]
