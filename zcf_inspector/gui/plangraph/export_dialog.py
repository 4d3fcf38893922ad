"""The plan graph's export dialog: a free name beside the document, a question before
replacing a file, and one message when writing fails (the writers are `export.py`'s)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from zcf_inspector.core.secrets.masking import mask_text
from zcf_inspector.gui.file_names import free_name, safe_part
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.plain_text import visible
from zcf_inspector.gui.plangraph import export

_FILTERS = {"svg": "SVG image (*.svg)", "png": "PNG image (*.png)", "dot": "Graphviz (*.dot)"}


def ask_save_path(parent: QWidget, title: str, suggested: str, filters: str) -> str | None:
    name, _ = QFileDialog.getSaveFileName(
        parent,
        title,
        suggested,
        filters,
        options=QFileDialog.Option.DontConfirmOverwrite,  # asked below, as every export asks
    )
    return name or None


def ask_open_path(parent: QWidget, title: str) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, title, "", "JSON (*.json);;All files (*)")
    return path or None


def export_stem(document_path: str | None, plan_id: str) -> str:
    """Named after the session and the plan: ``NAME.json`` and plan ``p`` give
    ``NAME.plan-p`` (``plan-p`` with no document path)."""
    # Masked first: a file name is an output too, and it outlives the window.
    plan_part = f"plan-{safe_part(mask_text(plan_id)) or 'graph'}"
    if not document_path:
        return plan_part
    name = Path(document_path).name
    session = safe_part(name.removesuffix(".json"))
    return f"{session}.{plan_part}" if session else plan_part


def export_with_dialog(
    parent: QWidget,
    kind: str,
    plan_id: str,
    document_path: str | None,
    *,
    ask_save_path: Callable[[QWidget, str, str, str], str | None],
    confirm: Callable[[QWidget, str, str], bool],
    write: Callable[[Path], None],
) -> str | None:
    """Ask where to export plan ``plan_id`` as ``kind`` (a free name beside the
    document), ask before replacing, write; the path written, or None."""
    folder = Path(document_path).parent if document_path else Path.cwd()
    suggested = free_name(folder, export_stem(document_path, plan_id), f".{kind}")
    name = ask_save_path(parent, f"Export plan as {kind.upper()}", str(suggested), _FILTERS[kind])
    if not name:
        return None
    if Path(name).exists() and not confirm(
        parent, "Replace file?", f"{visible(name)} already exists. Replace it?"
    ):
        return None
    try:
        write(Path(name))
    except export.ExportError as exc:
        box = message_box(parent, QMessageBox.Icon.Warning, "Export failed", str(exc))
        try:
            box.exec()
        finally:
            box.deleteLater()
        return None
    return name
