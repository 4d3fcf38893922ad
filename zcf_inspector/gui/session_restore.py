"""The window's session, kept across a restart or a crash (issue 31, point 1).

A small state file beside the review journals (``<user data>/zcf-inspector/session.json``)
names the open tabs — each document's files with their digests, a comparison's two
packets, a review's previous generation and receipt, its filters, highlighted belief and
scroll position — and which tab was current. It is written atomically (`core.atomic`)
whenever it would say something new, checked every `SAVE_EVERY_MS`, so a SIGKILL loses
at most that much of the view (the decisions are in the journals as they are made).

On a bare start the window reopens them through its own open entry points (`open_paths`,
`compare_paths`, the pane's `load_previous`): a file changed on disk since is checked
again as any open is, and said so; a file gone is listed, never dropped silently.
``--no-restore`` and Settings → "Reopen the last session" turn it off.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QTabWidget

from zcf_inspector.core.atomic import write_atomic
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.review.storage import default_data_dir


class WindowHost(Protocol):
    """What the keeper needs of the window: its tabs and its open entry points."""

    tabs: QTabWidget

    def open_paths(self, paths: Sequence[str]) -> None: ...
    def compare_paths(self, tab: DocumentTab, path: str) -> None: ...
    def tab_for_path(self, path: str) -> DocumentTab | None: ...


STATE_NAME: Final = "session.json"
STATE_VERSION: Final = 1
MAX_STATE_BYTES: Final = 1 << 20  # a session of a few hundred tabs; anything larger is not ours
MAX_TABS: Final = 200
SAVE_EVERY_MS: Final = 1000
APPLY_EVERY_MS: Final = 200  # how often a restored review is looked at until it is shown
APPLY_TRIES: Final = 600  # two minutes of opening before a tab's view is given up
MAX_DIGEST_BYTES: Final = 64 << 20  # files larger are compared by size and time only


def state_path() -> Path:
    """Beside the journals' folder, in the user's data folder."""
    return default_data_dir().parent / STATE_NAME


def file_mark(path: str) -> str:
    """What says a file changed: its digest (size and time for a very large one); "" gone."""
    try:
        stat = os.stat(path)
        if stat.st_size > MAX_DIGEST_BYTES:
            return f"size:{stat.st_size}:{stat.st_mtime_ns}"
        with open(path, "rb") as handle:
            return "sha256:" + hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return ""


@dataclass(frozen=True, slots=True)
class TabState:
    kind: str  # "document" or "compare"
    paths: tuple[str, ...]  # a document's file; a comparison's A and B
    marks: tuple[str, ...]  # each path's `file_mark` when it was last saved
    previous: tuple[str, str] | None = None  # a review's previous packet and receipt
    filters: tuple[int, int, int, int] = (0, 0, 0, 0)  # state, admission, evidence, since
    text: str = ""  # the review's text filter
    current: str | None = None  # the highlighted belief
    scroll: int = 0
    pane: str = ""  # the pane shown beside the tree

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "paths": list(self.paths),
            "marks": list(self.marks),
            "previous": list(self.previous) if self.previous else None,
            "filters": list(self.filters),
            "text": self.text,
            "current": self.current,
            "scroll": self.scroll,
            "pane": self.pane,
        }

    @classmethod
    def from_json(cls, value: object) -> TabState | None:
        """A tab read back, or None for anything malformed (the file is not trusted)."""
        if not isinstance(value, dict):
            return None
        paths, marks = value.get("paths"), value.get("marks")
        kind = value.get("kind")
        if kind not in ("document", "compare") or not _strings(paths) or not _strings(marks):
            return None
        assert isinstance(paths, list)
        assert isinstance(marks, list)
        if len(paths) != (2 if kind == "compare" else 1) or len(marks) != len(paths):
            return None
        previous = value.get("previous")
        filters = value.get("filters")
        text, current, scroll, pane = (value.get(k) for k in ("text", "current", "scroll", "pane"))
        if not isinstance(filters, list) or len(filters) != 4:
            filters = [0, 0, 0, 0]
        return cls(
            str(kind),
            tuple(paths),
            tuple(marks),
            (previous[0], previous[1])
            if isinstance(previous, list) and len(previous) == 2 and _strings(previous)
            else None,
            tuple(f if isinstance(f, int) and 0 <= f < 100 else 0 for f in filters),  # type: ignore[arg-type]
            text if isinstance(text, str) else "",
            current if isinstance(current, str) else None,
            scroll if isinstance(scroll, int) and scroll >= 0 else 0,
            pane if isinstance(pane, str) else "",
        )


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


@dataclass(frozen=True, slots=True)
class SessionState:
    tabs: tuple[TabState, ...] = ()
    current: int = 0

    def to_bytes(self) -> bytes:
        value = {
            "version": STATE_VERSION,
            "tabs": [t.to_json() for t in self.tabs],
            "current": self.current,
        }
        return json.dumps(value, ensure_ascii=False, indent=1).encode("utf-8")


def read_state(path: Path) -> SessionState | None:
    """The saved session, or None when there is none or it is not one this window wrote."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_STATE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_STATE_BYTES:
        return None
    try:
        value = json.loads(data)
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("version") != STATE_VERSION:
        return None
    raw = value.get("tabs")
    tabs = list(map(TabState.from_json, raw[:MAX_TABS])) if isinstance(raw, list) else []
    current = value.get("current")
    return SessionState(
        tuple(t for t in tabs if t is not None), current if isinstance(current, int) else 0
    )


def tab_state(widget: object, marks: Callable[[str], str]) -> TabState | None:
    """What of one tab is saved (None: a tab of no file, such as an unsaved example)."""
    if isinstance(widget, CompareView):
        paths = (widget.compared.path_a, widget.compared.path_b)
        return TabState("compare", paths, tuple(marks(p) for p in paths))
    if not isinstance(widget, DocumentTab) or not widget.paths:
        return None
    path = widget.paths[0]
    pane = widget.review_pane
    if pane is None or pane.review is None:
        return TabState("document", (path,), (marks(path),), pane=_pane_name(widget))
    ui = pane.ui
    c = pane.controller
    return TabState(
        "document",
        (path,),
        (marks(path),),
        previous=c.previous_paths if c.previous is not None else None,
        filters=(
            ui.state_filter.currentIndex(),
            ui.admission_filter.currentIndex(),
            ui.evidence_filter.currentIndex(),
            ui.since_filter.currentIndex(),
        ),
        text=ui.text_filter.text(),
        current=pane.current_ref(),
        scroll=pane.table.verticalScrollBar().value(),
        pane=_pane_name(widget),
    )


def _pane_name(tab: DocumentTab) -> str:
    return tab.panes.tabText(tab.panes.currentIndex()) if tab.panes.count() else ""


@dataclass
class Restoring:
    """What is put back once a restored tab's review is shown."""

    state: TabState
    tries: int = 0


@dataclass
class RestoreReport:
    gone: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    def text(self) -> str:
        parts = []
        if self.changed:
            parts.append(
                "Changed on disk since the last session, checked again as it is now:\n"
                + "\n".join(self.changed)
            )
        if self.gone:
            parts.append("Not reopened, no longer there:\n" + "\n".join(self.gone))
        return "\n\n".join(parts)


class SessionKeeper(QObject):
    """Saves the window's session as it changes and puts it back on a bare start."""

    def __init__(self, window: WindowHost, parent: QObject, path: Path | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self.path = path if path is not None else state_path()
        self._last: bytes | None = None
        self._marks: dict[str, str] = {}
        self._pending: dict[str, Restoring] = {}
        self.report = RestoreReport()
        self.enabled = True
        self.timer = QTimer(self)
        self.timer.setInterval(SAVE_EVERY_MS)
        self.timer.timeout.connect(self.save)
        self.apply_timer = QTimer(self)
        self.apply_timer.setInterval(APPLY_EVERY_MS)
        self.apply_timer.timeout.connect(self._apply_pending)

    def start(self) -> None:
        self.timer.start()

    def _mark(self, path: str) -> str:
        if path not in self._marks:
            self._marks[path] = file_mark(path)
        return self._marks[path]

    def state(self) -> SessionState:
        tabs = self.window.tabs
        states: list[TabState] = []
        current = 0
        for i in range(tabs.count()):
            state = tab_state(tabs.widget(i), self._mark)
            if state is None:
                continue
            if i == tabs.currentIndex():
                current = len(states)
            states.append(state)
        # Tabs still being restored are kept as they were saved, not forgotten.
        shown = {t.paths for t in states}
        states.extend(r.state for r in self._pending.values() if r.state.paths not in shown)
        return SessionState(tuple(states), current)

    def save(self) -> bool:
        """Write the state when it says something new; whether it was written."""
        if not self.enabled:
            return False
        data = self.state().to_bytes()
        if data == self._last:
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, data, overwrite=True)
        except OSError:
            return False  # said nowhere: the next change tries again
        self._last = data
        return True

    def forget_marks(self) -> None:
        """A reload read the files again: their marks are taken again."""
        self._marks.clear()

    def restore(self) -> RestoreReport:
        """Reopen the saved tabs through the window's own entry points."""
        state = read_state(self.path)
        report = self.report = RestoreReport()
        if state is None:
            return report
        openable: list[str] = []
        for tab in state.tabs:
            first = tab.paths[0]
            gone = [p for p in tab.paths if not Path(p).is_file()]
            if gone:
                report.gone.extend(p for p in gone if p not in report.gone)
                continue
            for path, mark in zip(tab.paths, tab.marks, strict=True):
                if mark and file_mark(path) != mark and path not in report.changed:
                    report.changed.append(path)
            if first not in openable:
                openable.append(first)
            if tab.kind == "compare" or tab.previous or tab.current or tab.text or tab.pane:
                self._pending[f"{tab.kind}\0{chr(0).join(tab.paths)}"] = Restoring(tab)
        if openable:
            self.window.open_paths(openable)
        if self._pending:
            self.apply_timer.start()
        return report

    def _apply_pending(self) -> None:
        for key, restoring in list(self._pending.items()):
            restoring.tries += 1
            if self._apply(restoring.state) or restoring.tries > APPLY_TRIES:
                del self._pending[key]
        if not self._pending:
            self.apply_timer.stop()

    def _apply(self, state: TabState) -> bool:
        """Put back one tab's view once its document (and review) is shown."""
        tab = self.window.tab_for_path(state.paths[0])
        if tab is None:
            return False
        if state.kind == "compare":
            self.window.compare_paths(tab, state.paths[1])
            return True
        if state.pane:
            tab.show_pane(state.pane)
        pane = tab.review_pane
        if pane is None or not (state.previous or state.current or state.text):
            return True
        if pane.opening or pane.review is None or pane.runner.busy:
            return False
        ui = pane.ui
        for combo, index in zip(
            (ui.state_filter, ui.admission_filter, ui.evidence_filter),
            state.filters,
            strict=False,
        ):
            if index < combo.count():
                combo.setCurrentIndex(index)
        ui.text_filter.setText(state.text)
        if state.previous is not None:
            pane.load_previous(*state.previous)
        if state.current is not None:
            pane.table_cursor.select_ref(state.current)
        pane.table.verticalScrollBar().setValue(state.scroll)
        return True
