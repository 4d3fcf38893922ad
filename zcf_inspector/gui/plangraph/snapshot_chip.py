"""The destination snapshot chip of the plan graph pane, and the drop target for the
caller's current snapshot (CAPABILITIES.md: is the destination still what was assessed?).

`chip_state` is plain data from the core's `SnapshotResult`, so the words and tones are
tested without a window. The snapshot is unsigned evidence: its exact bytes and bindings
holding is never shown green (validity is not authenticity); a refusal is red, an
unavailable snapshot or a report that could not be compared amber.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from zcf_inspector.core.continuation.results import (
    CurrentState,
    InspectionResult,
    SnapshotResult,
    SnapshotState,
)
from zcf_inspector.gui.plain_text import set_tooltip, visible
from zcf_inspector.gui.theme import Tone, ToneLabel


@dataclass(frozen=True, slots=True)
class ChipState:
    text: str
    tone: Tone | None  # None: neutral (the window's text colour)
    tip: str


_NOT_AUTHENTICATED = (
    "The fingerprint binds these bytes; it does not authenticate their producer or prove "
    "the destination still has that state."
)


def chip_state(result: InspectionResult | None) -> ChipState | None:
    """The chip for an ASIF 0.5 report's snapshot, or None (no 0.5 report: no chip)."""
    report = None if result is None else result.report
    snapshot = None if report is None else report.snapshot
    if snapshot is None:
        return None
    return _state(snapshot)


def _state(snapshot: SnapshotResult) -> ChipState:
    size = "" if snapshot.size is None else f"{snapshot.size:,} bytes, "
    if snapshot.current is CurrentState.DIFFERS:
        changes = "; ".join(snapshot.changes)
        return ChipState(
            "Snapshot: current differs — report stale",
            Tone.BAD,
            f"REPORT STALE: destination changed since assessment — {changes}. Any "
            "difference in the exact bytes invalidates every assessment of the report.",
        )
    if snapshot.state is SnapshotState.UNAVAILABLE:
        return ChipState(
            "Snapshot: unavailable",
            Tone.CAUTION,
            f"No supported snapshot bytes ({snapshot.format}, {snapshot.availability}): the "
            "destination state the report was assessed against cannot be verified.",
        )
    if snapshot.state is SnapshotState.REFUSED:
        return ChipState(
            "Snapshot: refused",
            Tone.BAD,
            "The snapshot the report binds breaks the capability snapshot contract: see the "
            "report's findings.",
        )
    components = f"{len(snapshot.components)} components"
    if snapshot.current is CurrentState.MATCHES:
        return ChipState(
            "Snapshot: current matches",
            None,
            f"The current snapshot is byte for byte the one assessed ({size}{components}). "
            "This compares bytes; it does not probe, authenticate or authorise the "
            "destination.",
        )
    return ChipState(
        f"Snapshot: verified ({components})",
        None,
        f"Exact bytes ({size}SHA-256 {snapshot.digest}), object, times, evidence and "
        f"component bindings hold. {_NOT_AUTHENTICATED} Drop the destination's current "
        "snapshot here (or use Current snapshot…) to check it is still what was assessed.",
    )


class SnapshotChip(ToneLabel):
    """The chip; a snapshot file dropped on it is offered as the current snapshot."""

    dropped = Signal(str)  # the path of a dropped file

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Tone.GOOD, bold=True, parent=parent)
        self.state: ChipState | None = None
        self.setAcceptDrops(True)
        self.setVisible(False)

    def show_state(self, state: ChipState | None) -> None:
        self.state = state
        self.setVisible(state is not None)
        self.setText("" if state is None else visible(state.text))
        set_tooltip(self, "" if state is None else visible(state.tip))
        if state is not None and state.tone is not None:
            self.tone = state.tone
        self._recolour()

    def _recolour(self) -> None:
        state = getattr(self, "state", None)  # ToneLabel recolours before __init__ ends
        if state is not None and state.tone is None:
            # Neutral: the window's own text colour, whatever the theme.
            palette = self.palette()
            wanted = QApplication.palette().color(QPalette.ColorRole.WindowText)
            if palette.color(QPalette.ColorRole.WindowText) != wanted:
                palette.setColor(QPalette.ColorRole.WindowText, wanted)
                self.setPalette(palette)
            return
        super()._recolour()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt virtual)
        if self.state is not None and _dropped_file(event) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt virtual)
        path = _dropped_file(event)
        if path is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.dropped.emit(path)


def _dropped_file(event: QDragEnterEvent | QDropEvent) -> str | None:
    urls = event.mimeData().urls()
    if len(urls) != 1 or not urls[0].isLocalFile():
        return None
    return str(Path(urls[0].toLocalFile()))
