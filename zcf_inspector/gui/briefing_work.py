"""The Briefing pane's work, run on the window's TaskRunner (never on the UI thread):
the secret scan, the workspace check, the briefing and its lines; a receipt's digest
against a file. And the workspace folder remembered per packet.

The secret scan of the 200,000-belief packet takes about half a second of CPU and the
workspace check hashes files: both take a monitor, so progress shows and Cancel stops
them between steps.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QSettings

from zcf_inspector.core.briefing.build import build_briefing
from zcf_inspector.core.briefing.model import Briefing
from zcf_inspector.core.claims.workspace import (
    ClaimCheck,
    WorkspaceCheck,
    WorkspaceError,
    check_receipt_file,
    check_workspace,
)
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.pointer import resolve
from zcf_inspector.core.secrets.masking import masked_shown
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.gui.briefing_lines import BriefingText, ReceiptRef, briefing_text
from zcf_inspector.gui.calm import wait_until_calm
from zcf_inspector.opener.open import packet_advisories

if TYPE_CHECKING:
    from zcf_inspector.core.packet.destination import Destination

WORKSPACE_KEY: Final = "briefing/workspace/"  # + a digest of the packet's absolute path
RECEIPT_LABEL_CHARS: Final = 80


@dataclass(frozen=True, slots=True)
class BriefingResult:
    briefing: Briefing
    scan: SecretScan | None
    text: BriefingText
    workspace_note: str  # why the named folder could not be checked ("" when it was)


@dataclass(frozen=True, slots=True)
class ReceiptResult:
    check: ClaimCheck
    text: BriefingText


@dataclass(frozen=True, slots=True)
class BriefingInput:
    """What one briefing is made from; the pane keeps it to re-render after a receipt
    check without scanning again."""

    inspection: PacketInspection
    destination: Destination | None


def receipt_refs(value: JsonValue, briefing: Briefing) -> tuple[ReceiptRef, ...]:
    """The receipts a file can be checked against: those with an id (the core looks a
    receipt up by it)."""
    if not briefing.sections or not any(s.key == "receipts" for s in briefing.sections):
        return ()
    refs = []
    for item in briefing.section("receipts").items:
        entry = item.pointer.rsplit("/", 1)[0]  # …/receipts/i/summary → …/receipts/i
        try:
            rid = resolve(value, entry + "/id")
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        if isinstance(rid, str):
            refs.append(ReceiptRef(rid, entry, masked_shown(item.label, RECEIPT_LABEL_CHARS)))
    return tuple(refs)


def make_briefing(
    source: BriefingInput,
    folder: str | None,
    monitor: Monitor,
    *,
    scan: SecretScan | None = None,
    receipt_checks: Mapping[str, ClaimCheck] | None = None,
    ready: threading.Event | None = None,
) -> BriefingResult:
    """Scan (unless ``scan`` is the packet's scan already), check ``folder`` if one is
    named, build the briefing and its lines. With ``ready``, first wait until the UI
    thread is calm (`gui/calm.py`)."""
    wait_until_calm(ready, monitor)
    monitor.step("reading the packet's texts", 0.0)
    inspection = source.inspection
    value = inspection.value
    workspace: WorkspaceCheck | None = None
    note = ""
    if value is not None:
        if scan is None:  # the opener's scan: the one way a packet's texts are scanned
            scan, _ = packet_advisories(inspection, monitor=monitor)
        if folder is not None:
            try:
                workspace = check_workspace(value, folder, monitor=monitor)
            except WorkspaceError as error:  # the folder went away since it was named
                note = f"not checked: {error}"
    monitor.step("writing the briefing", 0.95)
    briefing = build_briefing(
        inspection, secrets=scan, workspace=workspace, destination=source.destination
    )
    refs = receipt_refs(value, briefing) if value is not None else ()
    text = briefing_text(
        briefing, receipts=refs, receipt_checks=receipt_checks, workspace_note=note
    )
    return BriefingResult(briefing, scan, text, note)


def check_receipt(
    source: BriefingInput,
    briefing: Briefing,
    receipt: ReceiptRef,
    file: str,
    *,
    checks: Mapping[str, ClaimCheck],
    monitor: Monitor,
    workspace_note: str = "",
) -> ReceiptResult:
    value = source.inspection.value
    assert value is not None  # a receipt to check is only offered from a readable packet
    monitor.step("checking the receipt's digest", 0.0)
    check = check_receipt_file(value, receipt.receipt_id, file, monitor=monitor)
    done = {**checks, receipt.pointer: check}
    refs = receipt_refs(value, briefing)
    text = briefing_text(
        briefing, receipts=refs, receipt_checks=done, workspace_note=workspace_note
    )
    return ReceiptResult(check, text)


# --- the workspace folder remembered per packet --------------------------------------


def _key(packet_path: str) -> str:
    absolute = str(Path(packet_path).absolute())
    return (
        WORKSPACE_KEY + hashlib.sha256(absolute.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    )


def remembered_workspace(store: QSettings, packet_path: str) -> str | None:
    value = store.value(_key(packet_path), "")
    return value if isinstance(value, str) and value else None


def remember_workspace(store: QSettings, packet_path: str, folder: str | None) -> None:
    if folder:
        store.setValue(_key(packet_path), folder)
    else:
        store.remove(_key(packet_path))
    store.sync()
