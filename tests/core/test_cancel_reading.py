"""Cancel inside the strict read and the bounded pydantic validation (issue 19).

A monitor that cancels at its first check, or after N checks, must stop the work there
with `Cancelled`: no value, no inspection, no half-made result escapes, and nothing of
the cancelled run (the validation's monitor) lingers for the next call. How soon it stops
on a 64 MiB input is measured in tests/perf/bench_hostile_cancel.py.
"""

from __future__ import annotations

import pytest

from tests.hostile.corpus import by_name
from zcf_inspector.core import bounded_validation, reading
from zcf_inspector.core.bounded_validation import validate_bounded
from zcf_inspector.core.findings import FindingBudget
from zcf_inspector.core.monitor import NULL_MONITOR, Cancelled, Monitor
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.packet.structure import check_structure
from zcf_inspector.core.packet.structure_models import ARRAY_SECTIONS
from zcf_inspector.core.pydantic_findings import FindingSink
from zcf_inspector.core.reading import read_document, read_json

MB = 1024 * 1024


class CancelAfter(Monitor):
    """Cancels itself once it has been checked ``after`` times (0: at the first check)."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after
        self.checks = 0

    def breathe(self) -> None:
        if self.checks >= self.after:
            self.cancel()
        self.checks += 1
        super().breathe()


def counted_checks(work: object) -> int:
    """How many checks ``work(monitor)`` makes when nobody cancels."""
    monitor = CancelAfter(10**12)
    work(monitor)  # type: ignore[operator]
    return monitor.checks


@pytest.fixture(scope="module")
def dense() -> bytes:
    # [{}, {}, ...]: a value per three bytes, which the exact reader reads (no fast path).
    data = by_name("empty-beliefs").build(2 * MB)
    assert reading._dense(data)
    return data


def test_a_read_cancelled_at_the_first_check_returns_nothing(dense: bytes) -> None:
    with pytest.raises(Cancelled):
        read_document(dense, monitor=CancelAfter(0))
    with pytest.raises(Cancelled):
        read_json(b'{"a": 1}', monitor=CancelAfter(0))  # the fast path checks too


def test_a_read_cancelled_midway_stops_inside_the_parse(dense: bytes) -> None:
    total = counted_checks(lambda m: read_document(dense, monitor=m))
    # The parser's hooks check every few thousand objects: many checks inside one parse.
    assert total > 100
    for after in (1, total // 2, total - 1):
        monitor = CancelAfter(after)
        with pytest.raises(Cancelled):
            read_document(dense, monitor=monitor)
        assert monitor.checks == after + 1  # stopped at the very check that saw it
    # Nothing of the cancelled reads is left behind: the same read gives the same value.
    assert read_document(dense, monitor=Monitor()).value == read_document(dense).value


def test_the_depth_check_is_watched() -> None:
    # A deep-but-legal text with no objects or numbers: only the depth check's chunks and
    # the reader's own steps check the monitor; it still stops.
    data = b"[" * 100 + b'"' + b"x" * (3 * MB) + b'"' + b"]" * 100
    total = counted_checks(lambda m: reading._read_exact(data, monitor=m))
    assert total >= 3  # one per MiB chunk, at least
    with pytest.raises(Cancelled):
        reading._read_exact(data, monitor=CancelAfter(1))


def test_bounded_validation_stops_between_pieces() -> None:
    beliefs: list[dict[str, object]] = [{} for _ in range(200_000)]
    schema = ARRAY_SECTIONS["beliefs"].list_type

    def validate(monitor: Monitor) -> tuple[bool, object]:
        return validate_bounded(schema, beliefs, FindingSink(FindingBudget()), monitor=monitor)

    total = counted_checks(validate)
    assert total > 50  # one per piece of a few thousand items, and per block
    for after in (0, total // 2):
        with pytest.raises(Cancelled):
            validate(CancelAfter(after))
        # The cancelled run's monitor does not outlive it: later calls are not watched.
        assert bounded_validation._MONITOR.get() is NULL_MONITOR
    ok, _ = validate(Monitor())
    assert ok is False


def test_structure_and_inspection_stop_when_cancelled(dense: bytes) -> None:
    packet = read_document(dense).value
    assert isinstance(packet, dict)
    total = counted_checks(lambda m: check_structure(packet, FindingBudget(), m))
    assert total > 50
    with pytest.raises(Cancelled):
        check_structure(packet, FindingBudget(), CancelAfter(total // 2))
    inspection_checks = counted_checks(lambda m: inspect_bytes(dense, monitor=m))
    for after in (0, inspection_checks // 4, inspection_checks // 2):
        with pytest.raises(Cancelled):
            inspect_bytes(dense, monitor=CancelAfter(after))
    # Uncancelled, the very same work gives the findings it gave without a monitor.
    assert inspect_bytes(dense, monitor=Monitor()).findings == inspect_bytes(dense).findings
