"""A lazy tree over a parsed JSON document: rows are made only when the view asks.

Nodes are created the first time an index for them is requested and kept (so Qt's
internal pointers stay valid); a 200,000-element array costs nothing until a row of it
is shown. Columns: key, value, type, status, and the canonical digest of every covered
section and of each of its elements (`element_digests`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, overload

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont, QFontDatabase, QIcon
from PySide6.QtWidgets import QTreeView

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.masking import mask_text
from zcf_inspector.core.secrets.scan import SecretHit, masked_text
from zcf_inspector.gui.element_digests import COMPUTING, ElementDigests, Runner, short
from zcf_inspector.gui.icons import IconName, icon
from zcf_inspector.gui.plain_text import (
    TOOLTIP_CHARS,
    clip,
    masked_visible,
    preview,
    type_name,
    visible,
)
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE, POINTER_ROLE
from zcf_inspector.gui.tree_annotations import Mark, NodeStatus, TreeAnnotations

ModelIndex = QModelIndex | QPersistentModelIndex
PathPart = str | int

KEY_COLUMN: Final = 0
VALUE_COLUMN: Final = 1
TYPE_COLUMN: Final = 2
STATUS_COLUMN: Final = 3
DIGEST_COLUMN: Final = 4
_HEADERS: Final = ("Key", "Value", "Type", "Status", "Digest")
_COLUMNS: Final = len(_HEADERS)
RANGE_LIMIT: Final = 1000
KEY_LABEL_CHARS: Final = 40

_MARK_ICONS: Final = {
    Mark.PASS: IconName.PASS,
    Mark.UNPROTECTED: IconName.UNPROTECTED,
    Mark.INFO: IconName.INFO,
    Mark.WARNING: IconName.WARNING,
    Mark.FAIL: IconName.FAIL,
}


class JsonNode:
    """One value in the document, with its key and a lazily filled table of children.

    An array or object with more than `RANGE_LIMIT` children is shown through *range*
    nodes ("[1000 … 1999]", "{"k1000" … "k1999"}"), so no node ever has more than
    `RANGE_LIMIT` rows: expanding 200,000 beliefs or a 100,000-member object lays out
    200 or 100 rows, not all of them (Qt asks every row of an expanded node for its flags
    and children, which costs seconds at that size). A range node's value is the slice it
    covers; it is not a value of the document, and its pointer is its container's.
    """

    __slots__ = (
        "_children",
        "_keys",
        "_pointer",
        "_positions",
        "is_range",
        "key",
        "offset",
        "parent",
        "row",
        "value",
    )

    def __init__(
        self,
        parent: JsonNode | None,
        key: PathPart,
        value: JsonValue,
        row: int,
        *,
        offset: int = 0,
        is_range: bool = False,
    ) -> None:
        self.parent = parent
        self.key = key
        self.value = value
        self.row = row
        self.offset = offset  # index in the array of this node's first element (ranges)
        self.is_range = is_range
        self._children: dict[int, JsonNode] = {}
        self._keys: list[str] | None = None
        self._positions: dict[str, int] | None = None  # key -> index, for wide objects
        self._pointer: str | None = None

    def forget(self) -> None:
        """Let go of the value of this node and of every node made under it: they refer to
        each other (parent and children), and a range node holds a slice of its array, so
        without this the document would live until a cycle collection."""
        stack = [self]
        while stack:
            node = stack.pop()
            stack.extend(node._children.values())
            node._children = {}
            node.parent = None
            node.value = None
            node._keys = node._positions = None

    def _step(self) -> int:
        """How many members each child covers: 1, or RANGE_LIMIT^k for range children."""
        count = len(self.value) if isinstance(self.value, list | dict) else 0
        step = 1
        while count > RANGE_LIMIT * step:
            step *= RANGE_LIMIT
        return step

    def child_count(self) -> int:
        value = self.value
        if isinstance(value, dict | list):
            step = self._step()
            return (len(value) + step - 1) // step
        return 0

    def _key_list(self) -> list[str]:
        if self._keys is None:
            assert isinstance(self.value, dict)
            self._keys = list(self.value)
        return self._keys

    def child(self, row: int) -> JsonNode:
        node = self._children.get(row)
        if node is None:
            value = self.value
            if isinstance(value, dict):
                keys = self._key_list()
                step = self._step()
                if step == 1:
                    node = JsonNode(self, keys[row], value[keys[row]], row)
                else:
                    names = keys[row * step : (row + 1) * step]
                    members: JsonValue = {name: value[name] for name in names}
                    label = f"{{{_key_label(names[0])} … {_key_label(names[-1])}}}"
                    node = JsonNode(self, label, members, row, is_range=True)
            else:
                assert isinstance(value, list)
                step = self._step()
                if step == 1:
                    node = JsonNode(self, self.offset + row, value[row], row)
                else:
                    start = row * step
                    part = value[start : start + step]
                    first = self.offset + start
                    label = f"[{first:,} … {first + len(part) - 1:,}]"
                    node = JsonNode(self, label, part, row, offset=first, is_range=True)
            self._children[row] = node
        return node

    def child_row(self, part: str) -> int | None:
        """The row of the child named by the pointer token ``part`` — for a long array,
        of the range node holding it (None if there is no such child)."""
        value = self.value
        if isinstance(value, dict):
            if part not in value:
                return None
            if self._positions is None:
                self._positions = {key: i for i, key in enumerate(self._key_list())}
            return self._positions[part] // self._step()
        if isinstance(value, list) and part.isdigit() and part.isascii() and str(int(part)) == part:
            index = int(part) - self.offset
            return index // self._step() if 0 <= index < len(value) else None
        return None

    @property
    def pointer(self) -> str:
        if self._pointer is None:
            if self.parent is None:
                self._pointer = ""
            elif self.is_range:
                self._pointer = self.parent.pointer
            else:
                self._pointer = jpointer.child(self.parent.pointer, self.key)
        return self._pointer

    @property
    def top_level_key(self) -> str | None:
        """The key of the document's member this node lies in (ranges are skipped)."""
        top: JsonNode | None = None
        node = self
        while node.parent is not None:
            if not node.is_range:
                top = node
            node = node.parent
        return top.key if top is not None and isinstance(top.key, str) else None

    def path(self) -> tuple[PathPart, ...]:
        parts: list[PathPart] = []
        node: JsonNode | None = self
        while node is not None and node.parent is not None:
            if not node.is_range:
                parts.append(node.key)
            node = node.parent
        return tuple(reversed(parts))


class PacketTreeModel(QAbstractItemModel):
    """The document tree; the invisible root is the document's top-level value."""

    def __init__(
        self,
        document: JsonValue,
        annotations: TreeAnnotations | None = None,
        parent: QObject | None = None,
        *,
        run: Runner | None = None,
        masks: Mapping[str, Sequence[SecretHit]] | None = None,
    ) -> None:
        super().__init__(parent)
        self._root = JsonNode(None, "", document, 0)
        # The texts the secret scan flagged, by pointer: shown masked. The value as the
        # packet holds it is one explicit action away (Show Full Value, Copy value).
        self._masks = masks or {}
        self._annotations = annotations or TreeAnnotations()
        # ``run`` takes large elements' digests off the UI thread; without it (tests of
        # the model alone) every digest is taken when its row is shown.
        self.digests = ElementDigests(self._annotations.digests, run, self._digest_arrived)
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._bold = QFont()
        self._bold.setBold(True)

    def close(self) -> JsonValue:
        """No view shows this model any more: drop digests still on their way, and let go
        of the document (returned, for `release.Releaser`), which Qt would keep until the
        model is deleted (a deferred delete, after the event loop's turn)."""
        self.digests.close()
        old = self._root
        document = old.value
        self.beginResetModel()
        self._root = JsonNode(None, "", {}, 0)
        self.endResetModel()
        old.forget()
        return document

    # --- Qt model API -------------------------------------------------------------

    def index(self, row: int, column: int, parent: ModelIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        node = parent.internalPointer() if parent.isValid() else self._root
        if 0 <= row < node.child_count() and 0 <= column < _COLUMNS:
            return self.createIndex(row, column, node.child(row))
        return QModelIndex()

    @overload
    def parent(self) -> QObject | None: ...
    @overload
    def parent(self, child: ModelIndex) -> QModelIndex: ...
    def parent(self, child: ModelIndex | None = None) -> QObject | QModelIndex | None:
        if child is None:
            return super().parent()
        if not child.isValid():
            return QModelIndex()
        node: JsonNode = child.internalPointer()
        up = node.parent
        if up is None or up is self._root:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        if parent.isValid() and parent.column() != 0:
            return 0
        return self._node(parent).child_count()

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return len(_HEADERS)

    def hasChildren(self, parent: ModelIndex = QModelIndex()) -> bool:  # noqa: B008, N802
        return self.rowCount(parent) > 0

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(_HEADERS)
        ):
            return _HEADERS[section]
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        node: JsonNode = index.internalPointer()
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(node, column)
        if role == Qt.ItemDataRole.DecorationRole and column == STATUS_COLUMN:
            return self._status_icon(self.status(node))
        if role == Qt.ItemDataRole.FontRole:
            if column in (VALUE_COLUMN, DIGEST_COLUMN):
                return self._mono
            if column == KEY_COLUMN and self.status(node).mark is Mark.FAIL:
                return self._bold
            return None
        if role == PLAIN_TOOLTIP_ROLE:
            return self.tooltip(node)
        if role == POINTER_ROLE:
            return node.pointer
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._display(node, column)
        return None

    # --- lookups for the views ----------------------------------------------------

    @property
    def document(self) -> JsonValue:
        return self._root.value

    def node(self, index: ModelIndex) -> JsonNode | None:
        return index.internalPointer() if index.isValid() else None

    def status(self, node: JsonNode) -> NodeStatus:
        if node.is_range:
            return NodeStatus(Mark.NONE, "")
        return self._annotations.status(node.pointer, node.top_level_key)

    def index_for_pointer(self, pointer: str, *, nearest: bool = True) -> QModelIndex:
        """The index of the node ``pointer`` names; with ``nearest``, of its deepest
        existing ancestor when it names nothing (root pointer: an invalid index)."""
        try:
            parts = jpointer.split(pointer)
        except ValueError:
            return QModelIndex()
        index = QModelIndex()
        node = self._root
        for part in parts:
            while True:
                row = node.child_row(part)
                if row is None:
                    return index if nearest else QModelIndex()
                index = self.index(row, 0, index)
                node = node.child(row)
                if not node.is_range:
                    break
        return index

    def digest(self, node: JsonNode) -> str | None:
        """The canonical digest shown for ``node`` (a covered section or one of its
        elements), `COMPUTING` while a worker makes it, else None."""
        if node.is_range:
            return None
        container = node.parent
        while container is not None and container.is_range:
            container = container.parent
        return self.digests.digest(
            node.pointer, None if container is None else container.pointer, node.value
        )

    def _digest_arrived(self, pointer: str) -> None:
        index = self.index_for_pointer(pointer, nearest=False)
        if index.isValid():
            cell = index.siblingAtColumn(DIGEST_COLUMN)
            self.dataChanged.emit(cell, cell)

    def index_for_path(self, path: tuple[PathPart, ...]) -> QModelIndex:
        return self.index_for_pointer(jpointer.join(*path), nearest=False)

    # --- rendering ---------------------------------------------------------------

    def _node(self, index: ModelIndex) -> JsonNode:
        return index.internalPointer() if index.isValid() else self._root

    def _display(self, node: JsonNode, column: int) -> str:
        if node.is_range:
            return _range_display(node, column)
        if column == KEY_COLUMN:
            return masked_visible(str(node.key))
        if column == VALUE_COLUMN:
            return preview(self.shown_value(node))
        if column == TYPE_COLUMN:
            return type_name(node.value)
        if column == DIGEST_COLUMN:
            digest = self.digest(node)
            return "" if digest is None else digest if digest == COMPUTING else short(digest)
        return masked_visible(self.status(node).text)  # its words may quote a key (`unknown_field`)

    def shown_value(self, node: JsonNode) -> JsonValue:
        """``node``'s value as the tree shows it: a text the secret scan flagged, masked."""
        hits = self._masks.get(node.pointer) if self._masks else None
        if hits and isinstance(node.value, str):
            return masked_text(node.value, hits)
        return node.value

    def holds_secret(self, node: JsonNode) -> bool:
        """Whether ``node``, or a text inside it, is one the secret scan flagged."""
        pointer = node.pointer
        inside = pointer + "/"
        return any(p == pointer or p.startswith(inside) for p in self._masks)

    def tooltip(self, node: JsonNode) -> str:
        if node.is_range:
            what = "members" if isinstance(node.value, dict) else "elements"
            return f"{node.pointer or '/'}: {what} {_range_display(node, KEY_COLUMN)}"
        status = self.status(node)
        lines = [
            node.pointer or "/",
            f"{type_name(node.value)}: {preview(self.shown_value(node), TOOLTIP_CHARS)}",
        ]
        if status.text:
            lines.append(status.text)
        digest = self.digest(node)
        if digest is not None and digest != COMPUTING:
            lines.append(f"canonical digest: {digest}")
        lines.extend(status.reasons)
        # Masked as a whole: the pointer, the status and its reasons may quote a key.
        return clip(mask_text("\n".join(lines)), TOOLTIP_CHARS)

    @staticmethod
    def _status_icon(status: NodeStatus) -> QIcon | None:
        name = _MARK_ICONS.get(status.mark)
        return None if name is None else icon(name)


def _key_label(key: str) -> str:
    """A key as a range's bound: quoted, visible, and short (keys may be megabytes)."""
    return '"' + visible(clip(key, KEY_LABEL_CHARS)) + '"'


def _range_display(node: JsonNode, column: int) -> str:
    if column == KEY_COLUMN:
        return str(node.key)
    if column == VALUE_COLUMN:
        if isinstance(node.value, dict):
            return f"{len(node.value):,} members"
        count = len(node.value) if isinstance(node.value, list) else 0
        return f"{count:,} elements"
    if column == TYPE_COLUMN:
        return "range"
    return ""


__all__ = ["JsonNode", "PacketTreeModel", "clip"]


RowPath = tuple[int, ...]  # a node by its row under each ancestor, from the root


def expanded_rows(view: QTreeView) -> list[RowPath]:
    """The nodes ``view`` has expanded, by row path: only expanded nodes are descended
    into, so this costs what is shown, not the document's size."""
    model = view.model()
    found: list[RowPath] = []
    if model is None:
        return found
    stack: list[tuple[QModelIndex, RowPath]] = [(QModelIndex(), ())]
    while stack:
        parent, path = stack.pop()
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if view.isExpanded(index):
                found.append((*path, row))
                stack.append((index, (*path, row)))
    return found


def expand_rows(view: QTreeView, paths: list[RowPath]) -> None:
    """Expand the nodes at ``paths`` (`expanded_rows` of the same document shown before)
    as far as they exist."""
    model = view.model()
    if model is None:
        return
    for path in sorted(paths, key=len):
        index = QModelIndex()
        for row in path:
            index = model.index(row, 0, index)
            if not index.isValid():
                break
        else:
            view.expand(index)
