"""`compare(a, b)`: two packets, section by section, then element by element.

Both packets are read and checked strictly (every stage, as `validate` runs them). One
refused at the byte stage cannot be compared: the result says so and holds nothing
else. One refused at a later stage is compared as far as it can be read.

**Parts.** Every covered section (profile §4) is compared by its computed digest —
``same``, ``changed``, ``added`` (only B has it) or ``removed``. So is every field the
manifest root does not cover (``format``, ``authentication``, ``manifest``, unknown
top-level keys, and content members an archive's root leaves out), compared by value
and marked as not integrity-protected.

**Elements.** Inside a part that is not the same, each element is found by identity:
beliefs by ``portableRef``; evidence sources and anchors, receipts, review events and
verification by ``id``; archive refs by ``ref``; ``allowedTools`` by the tool name;
object members (capsule, sourceHandoff, the envelope sections, uncovered objects) by
key. An array without identity (a malformed section) knows its items by content.
Elements lacking their identity are paired in order among themselves; a repeated
identity pairs its n-th occurrences (see `matching`). Each element is then ``added``,
``removed`` or ``changed`` — changed when its canonical bytes differ or when it moved
relative to the others — with each side's canonical digest and, for a change, the
fields that differ. A belief whose ``reviewState`` differs carries both states.

**Bounds.** Listing costs one unit per change plus one per field; ``budget`` units are
listed (by default proportional to the two packets' size) and further changes are
counted, not kept. Digests and fields are computed for listed changes only.

This module reads the packets and finds their parts; the elements of a part are paired
and listed by `core.compare.elements`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.canonical import canonical_chunked
from zcf_inspector.core.compare.elements import Collector, Part
from zcf_inspector.core.compare.model import (
    Comparison,
    PartComparison,
    SideSummary,
)
from zcf_inspector.core.digest import sha256_digest
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection, StageStatus, inspect_bytes
from zcf_inspector.core.packet.manifest import ARCHIVE_SECTION, uncovered_fields
from zcf_inspector.core.packet.trust import packet_trust
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

# Listed units per byte of input, and a floor so that small packets list everything.
BUDGET_BYTES_PER_UNIT: Final = 256
BUDGET_FLOOR: Final = 1_000


def budget_for(size_a: int, size_b: int) -> int:
    """The default listing budget for packets of these sizes (in bytes)."""
    return BUDGET_FLOOR + (size_a + size_b) // BUDGET_BYTES_PER_UNIT


class ScaledMonitor(Monitor):
    """One stretch [start, end] of an outer monitor's progress; cancelling either stops it."""

    def __init__(self, outer: Monitor, start: float, end: float, prefix: str = "") -> None:
        super().__init__()
        self._outer = outer
        self._start = start
        self._end = end
        self._prefix = prefix

    def step(self, what: str, fraction: float) -> None:
        self._outer.step(self._prefix + what, self._start + (self._end - self._start) * fraction)

    def breathe(self) -> None:
        self._outer.breathe()


def compare(
    a: bytes,
    b: bytes,
    *,
    destination: Destination | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    budget: int | None = None,
    monitor: Monitor = NULL_MONITOR,
) -> Comparison:
    """Read, check and compare two packets' bytes; `Cancelled` only if ``monitor`` was."""
    first = inspect_bytes(
        a, destination, max_bytes=max_bytes, monitor=ScaledMonitor(monitor, 0.0, 0.4, "A: ")
    )
    second = inspect_bytes(
        b, destination, max_bytes=max_bytes, monitor=ScaledMonitor(monitor, 0.4, 0.8, "B: ")
    )
    return compare_inspections(
        first,
        second,
        budget=budget_for(len(a), len(b)) if budget is None else budget,
        monitor=ScaledMonitor(monitor, 0.8, 1.0),
    )


def summarize(inspection: PacketInspection) -> SideSummary:
    failed = tuple(str(s.stage) for s in inspection.stages if s.status is StageStatus.FAILED)
    auth = inspection.auth.reason if inspection.auth is not None else ""
    if inspection.value is None:
        refusal = inspection.read_error.to_finding() if inspection.read_error else None
        return SideSummary(False, False, failed, None, auth, refusal, packet_trust(inspection))
    root = inspection.manifest.root_computed if inspection.manifest is not None else None
    return SideSummary(True, inspection.valid, failed, root, auth, None, packet_trust(inspection))


def compare_inspections(
    a: PacketInspection,
    b: PacketInspection,
    *,
    budget: int = BUDGET_FLOOR,
    monitor: Monitor = NULL_MONITOR,
) -> Comparison:
    """Compare two packets already inspected (the window has one of them open)."""
    side_a, side_b = summarize(a), summarize(b)
    if a.value is None or b.value is None:
        return Comparison(side_a, side_b, (), (), (), 0, budget)
    monitor.step("comparing sections", 0.0)
    parts_a, parts_b = _parts(a, monitor), _parts(b, monitor)
    collector = Collector(budget, monitor)
    results: list[PartComparison] = []
    keys = [*parts_a, *(k for k in parts_b if k not in parts_a)]
    keys.sort(key=lambda k: (not k[0], k[1]))  # covered (by name), then uncovered (by pointer)
    for n, key in enumerate(keys):
        monitor.step(f"comparing {key[1]}", n / max(len(keys), 1))
        results.append(collector.part(parts_a.get(key), parts_b.get(key)))
    monitor.step("compared", 1.0)
    return Comparison(
        side_a,
        side_b,
        tuple(r for r in results if r.covered),
        tuple(r for r in results if not r.covered),
        tuple(collector.changes),
        collector.omitted,
        budget,
    )


# --- parts ---------------------------------------------------------------------------


def _parts(inspection: PacketInspection, monitor: Monitor) -> dict[tuple[bool, str], Part]:
    """Covered sections by (True, name); fields outside the root by (False, pointer)."""
    packet = inspection.value
    assert packet is not None
    found: dict[tuple[bool, str], Part] = {}
    if inspection.manifest is not None:
        for section in inspection.manifest.sections:
            if section.pointer is not None:  # listed sections the packet lacks cover nothing
                value = jpointer.resolve(packet, section.pointer)
                found[True, section.name] = Part(
                    section.name, True, section.pointer, value, section.computed
                )
    for pointer in _uncovered_pointers(packet):
        value = jpointer.resolve(packet, pointer)
        found[False, pointer] = Part(
            pointer[1:], False, pointer, value, _digest(value, monitor.breathe)
        )
    return found


def _uncovered_pointers(packet: dict[str, JsonValue]) -> Iterator[str]:
    yield from (jpointer.join(key) for key in uncovered_fields(packet))
    if "content" not in packet:
        return
    content = packet["content"]
    if not isinstance(content, dict):
        yield "/content"  # no section is found in it, so none of it is covered
    elif packet.get("artifactKind") == "continuity-archive":
        # An archive's root covers archiveRefs only (manifest.covered_sections).
        yield from (jpointer.join("content", k) for k in content if k != ARCHIVE_SECTION)


def _digest(value: JsonValue, between: Callable[[], None]) -> str | None:
    """A part's digest, made in pieces (a field outside the root may be megabytes)."""
    try:
        return sha256_digest(canonical_chunked(value, between=between))
    except ValueError:  # not a value the strict reader makes (a caller-built inspection)
        return None
