"""Copying from a document tab: the key, pointer, value, canonical JSON or digest of
what is selected in the view the user last worked in (the tree, the findings, the
manifest, or another table of the tab). A large value is made on the runner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from PySide6.QtWidgets import QAbstractItemView, QTreeView, QWidget

from zcf_inspector.core.monitor import NULL_MONITOR
from zcf_inspector.core.secrets.masking import mask_text
from zcf_inspector.gui import messages
from zcf_inspector.gui.clipboard import CopyKind, set_clipboard, slow_copy_work
from zcf_inspector.gui.findings_pane import FindingsPane, finding_line
from zcf_inspector.gui.manifest_pane import ManifestPane
from zcf_inspector.gui.packet_tree_model import JsonNode, PacketTreeModel
from zcf_inspector.gui.plain_text import clip, masked_visible, visible
from zcf_inspector.gui.roles import POINTER_ROLE
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.present.review.secrets import copy_secret_question

STATUS_CHARS: Final = 120  # of a copied text, echoed in the status bar
Confirm = Callable[[QWidget, str, str], bool]  # parent, title, text: yes or no
NOT_COPIED: Final = "Nothing copied: the value holds a suspected credential"


class CopySource(Protocol):
    """What copying reads of a document tab."""

    copy_view: QAbstractItemView
    tree: QTreeView
    model: PacketTreeModel
    findings_pane: FindingsPane
    manifest_pane: ManifestPane
    runner: TaskRunner

    def selected_node(self) -> JsonNode | None: ...


class TabCopier:
    def __init__(
        self, tab: CopySource, status: Callable[[str], object], parent: QWidget | None = None
    ) -> None:
        self.tab = tab
        self._status = status  # a short note for the window's status bar
        self._parent = parent  # the questions' parent (the tab)
        # Asked before a flagged value reaches the clipboard; a test answers it.
        self.confirm: Confirm = messages.confirm

    def copy(self, kind: CopyKind) -> None:
        """Copy from the view the user last worked in: the tree, the findings, the
        manifest, or another table of this tab (the review's beliefs, a plan's findings)."""
        view = self.tab.copy_view
        if view is not self.tab.tree and not view.isVisible():
            view = self.tab.tree  # its pane was switched away: the tree is what is in view
        if view is self.tab.tree:
            self._copy_node(kind, self.tab.selected_node())
        elif view is self.tab.findings_pane.table:
            self._copy_finding(kind)
        elif view is self.tab.manifest_pane.table:
            self._copy_manifest_row(kind)
        else:
            self._copy_row(view, kind)

    def _put(self, what: str, text: str, *, secret: bool = False) -> None:
        set_clipboard(text)
        if secret:  # copying is the explicit action; echoing it would show it unasked
            self._status(f"Copied {what}: it holds a suspected credential, not shown here")
        else:
            self._status(f"Copied {what}: {clip(visible(text), STATUS_CHARS)}")

    def _put_asked(self, what: str, text: str, where: str | None) -> None:
        """Copy ``text`` (a key, a pointer, a name: short, copied at once); one holding a
        suspected credential — a member named by a token, a pointer through it — only
        once the user says so, as Copy Value asks. One look at the text, as the views
        that show it masked take it."""
        if mask_text(text) == text:
            self._put(what, text)
            return
        place = f" at {masked_visible(where or '/')}" if where is not None else ""
        question = copy_secret_question(f"The {what}{place}", f"the {what}")
        if not self.confirm(self._parent or self.tab.tree, *question):
            self._status(f"Nothing copied: the {what} holds a suspected credential")
            return
        self._put(what, text, secret=True)

    def _copy_node(self, kind: CopyKind, node: JsonNode | None) -> None:
        if node is None or (node.is_range and kind is not CopyKind.POINTER):
            return  # a range of a long array is not a value of the document
        if kind is CopyKind.KEY:
            self._put_asked("key", str(node.key), node.pointer)
            return
        if kind is CopyKind.POINTER:
            self._put_asked("pointer", node.pointer, None)
            return
        # A digest shows nothing of the text; a value or its canonical JSON would. The
        # tree shows it masked, so it reaches the clipboard — read by every program on
        # the desktop — only once the user says so (the review detail's question).
        # A string the scan did not read (an id, a tool name) that the tree shows masked
        # counts too: one look at the text, as the tree's own.
        secret = kind in (CopyKind.VALUE, CopyKind.CANONICAL) and (
            self.tab.model.holds_secret(node)
            or (isinstance(node.value, str) and mask_text(node.value) != node.value)
        )
        if secret:
            it = "the value" if kind is CopyKind.VALUE else "its canonical JSON"
            question = copy_secret_question(
                f"The value at {masked_visible(node.pointer or '/')}", it
            )
            if not self.confirm(self._parent or self.tab.tree, *question):
                self._status(NOT_COPIED)
                return
        if kind is CopyKind.VALUE and not isinstance(node.value, dict | list):
            text = slow_copy_work(kind, node.pointer, node.value)(NULL_MONITOR)
            self._put("value", text, secret=secret)
        else:
            what = "value" if kind is CopyKind.VALUE else kind.name.lower()
            self.tab.runner.start(
                kind.value.lower(),
                slow_copy_work(kind, node.pointer, node.value),
                lambda text: self._put(what, str(text), secret=secret),
            )

    def _node_at(self, pointer: str | None) -> JsonNode | None:
        if pointer is None:
            return None
        return self.tab.model.node(self.tab.model.index_for_pointer(pointer, nearest=False))

    def _copy_finding(self, kind: CopyKind) -> None:
        pane = self.tab.findings_pane
        current = pane.table.currentIndex()
        if not current.isValid():
            return
        row = pane.proxy.mapToSource(current).row()
        finding, other = pane.model.finding(row), pane.model.elsewhere(row)
        if kind is CopyKind.VALUE:
            self._put("finding", (f"in {other}: " if other else "") + finding_line(finding))
        elif kind is CopyKind.KEY:
            self._put("code", str(finding.code))
        elif kind is CopyKind.POINTER:
            self._put_asked("pointer", finding.pointer, None)
        elif other:
            self._status(f"That finding points into {visible(other)}, not this file.")
        else:  # canonical JSON and digest: of the node the finding points at
            self._copy_node(kind, self._node_at(finding.pointer))

    def _copy_manifest_row(self, kind: CopyKind) -> None:
        pane = self.tab.manifest_pane
        current = pane.table.currentIndex()
        if not current.isValid():
            return
        row = pane.model.row(current.row())
        if kind is CopyKind.VALUE:
            verdict = "match" if row.match else "MISMATCH"
            self._put(
                "section", f"{row.name}: {verdict}, listed {row.listed}, computed {row.computed}"
            )
        elif kind is CopyKind.KEY:
            self._put_asked("section name", row.name, row.pointer)
        elif kind is CopyKind.POINTER:
            self._put_asked("pointer", row.pointer or "", None)
        elif kind is CopyKind.DIGEST and row.computed is not None:
            self._put("computed digest", row.computed)
        else:
            self._copy_node(kind, self._node_at(row.pointer))

    def _copy_row(self, view: QAbstractItemView, kind: CopyKind) -> None:
        current = view.currentIndex()
        model = view.model()
        if not current.isValid() or model is None:
            return
        cells = [
            model.index(current.row(), column, current.parent())
            for column in range(model.columnCount(current.parent()))
        ]
        texts = [str(c.data() if c.data() is not None else "") for c in cells]
        if kind is CopyKind.VALUE:
            self._put("row", "\t".join(texts))
        elif kind is CopyKind.KEY and texts:
            self._put("first column", texts[0])  # a cell as shown: masked by its model
        elif kind is CopyKind.POINTER and isinstance(current.data(POINTER_ROLE), str):
            self._put_asked("pointer", str(current.data(POINTER_ROLE)), None)
        else:
            self._status(
                "Canonical JSON and digests are copied from the tree, the findings or the manifest."
            )
