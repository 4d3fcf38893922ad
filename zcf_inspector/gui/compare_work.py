"""Comparing an open packet with a file, on a worker: read B once, check it, compare.

The open packet (A) was read and checked when its tab opened; only B is read here,
with the same file checks as any open (folders, pipes, empty or binary files get one
plain message), then `compare_inspections` runs over both. A selected change's field
texts and highlights are made here too (`change_detail`): a field may be megabytes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from zcf_inspector.core.compare.model import Change, Comparison
from zcf_inspector.core.compare.packets import ScaledMonitor, budget_for, compare_inspections
from zcf_inspector.core.compare.render import FieldLine, field_lines
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES
from zcf_inspector.core.visible_text import visible
from zcf_inspector.gui.documents import open_documents
from zcf_inspector.opener.documents import PacketDocument, UnreadableDocument
from zcf_inspector.opener.open import OpenRequest

DETAIL_CHARS: Final = 4_000  # of each side of a field in the detail view
RELEASE_SLICE: Final = 4_096  # array elements freed at a time


@dataclass(frozen=True)
class CompareRequest:
    a: PacketDocument  # the open tab's packet
    path_b: str
    destination: Destination | None = None
    max_bytes: int = DEFAULT_MAX_BYTES
    # B's bytes as read for the comparison shown: a re-check compares what is shown, not
    # what the file may have become since (as a tab's re-check does).
    data_b: bytes | None = None


@dataclass(frozen=True)
class ComparedPackets:
    path_a: str
    path_b: str
    comparison: Comparison
    # The bytes compared, kept so that a re-check (another destination) needs no read.
    data_a: bytes = b""
    data_b: bytes = b""

    @property
    def title(self) -> str:
        return visible(f"{Path(self.path_a).name} ↔ {Path(self.path_b).name}")


def compare_with(request: CompareRequest, monitor: Monitor) -> ComparedPackets | UnreadableDocument:
    path = request.path_b
    name = Path(path).name
    # Opened as every file is (the opener: the same bounds, checks and strict read).
    opened = OpenRequest(
        (path,),
        request.destination,
        max_bytes=request.max_bytes,
        contents=None if request.data_b is None else {path: request.data_b},
        review=False,  # a comparison shows no review
    )
    (b,) = open_documents(opened, ScaledMonitor(monitor, 0.0, 0.7, f"{name}: "))
    if isinstance(b, UnreadableDocument):
        return b
    if not isinstance(b, PacketDocument):
        return UnreadableDocument(path, f"{path} is not a packet: only packets are compared")
    data, inspection = b.data, b.inspection
    del b  # B's parse is let go of below, a slice at a time
    comparison = compare_inspections(
        request.a.inspection,
        inspection,
        budget=budget_for(len(request.a.data), len(data)),
        monitor=ScaledMonitor(monitor, 0.7, 0.95),
    )
    monitor.step(f"letting go of {name}", 0.95)
    if inspection.value is not None:
        release_in_slices(inspection.value, monitor.breathe)
    return ComparedPackets(request.a.path, path, comparison, request.a.data, data)


def recompare(
    compared: ComparedPackets, destination: Destination | None, monitor: Monitor
) -> ComparedPackets | UnreadableDocument:
    """``compared`` checked again under ``destination`` (a Settings change): A by the path
    every open takes (`open_documents`, over the bytes compared), then B compared with it
    as `compare_with` compares a file, over B's bytes compared."""
    request = OpenRequest(
        (compared.path_a,),
        destination,
        contents={compared.path_a: compared.data_a},
        review=False,  # a comparison shows no review
    )
    (a,) = open_documents(request, ScaledMonitor(monitor, 0.0, 0.3, "A: "))
    if isinstance(a, UnreadableDocument):
        return a
    if not isinstance(a, PacketDocument):
        return UnreadableDocument(a.path, f"{a.path} is no longer read as a packet")
    again = CompareRequest(a, compared.path_b, destination, data_b=compared.data_b)
    return compare_with(again, ScaledMonitor(monitor, 0.3, 1.0))


def release_in_slices(packet: dict[str, JsonValue], between: Callable[[], None]) -> None:
    """Free B's long arrays a slice at a time, breathing in between.

    Only the comparison is kept, so B's parsed packet is freed when this work ends, on
    the worker, holding the GIL: 200,000 beliefs take 50-100 ms, a stall the window
    would feel. An array still held by anything but its section (a change's field may
    hold one) is left alone: only this packet's own references are dropped.
    """
    content = packet.get("content")
    if not isinstance(content, dict):
        return
    for key in list(content):
        items = content[key]
        # Held by the content object, ``items`` and getrefcount's argument only.
        if isinstance(items, list) and len(items) > RELEASE_SLICE and sys.getrefcount(items) <= 3:
            while items:
                del items[-RELEASE_SLICE:]
                between()
        del items


def change_detail(change: Change, monitor: Monitor) -> tuple[FieldLine, ...]:
    monitor.step("highlighting", 0.0)
    return field_lines(change, DETAIL_CHARS)
