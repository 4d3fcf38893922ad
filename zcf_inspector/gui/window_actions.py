"""The window's actions and menus, made from one table.

Each action is a row of `WINDOW_ACTIONS`: its id, its text, its key, the menu and the
block of that menu it goes in, and when it is enabled. The menus are laid out from the
rows (a separator between blocks), and the enabled states are set from them: nothing is
read back from an action's label or key. The Review menu holds the current review pane's
own actions (its objects, with its shortcuts and states), in blocks named here by which
of the pane's actions they are, not by their words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Final, Protocol

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QWidget

from zcf_inspector.gui.clipboard import CopyKind, shortcut
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.document_tab import (
    PANE_BRIEFING,
    PANE_CANONICAL,
    PANE_FINDINGS,
    PANE_MANIFEST,
    PANE_PLAN_GRAPH,
    PANE_REVIEW,
    PANE_SESSION,
    DocumentTab,
)
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.theme import Theme

_STD = QKeySequence.StandardKey


class Menu(StrEnum):
    FILE = "&File"
    EDIT = "&Edit"
    VIEW = "&View"
    HELP = "&Help"


class Needs(StrEnum):
    """When an action is enabled."""

    ALWAYS = "always"
    ANY_TAB = "any tab"  # a document or a comparison is open
    DOCUMENT = "document"  # the current tab shows a document
    COMPARABLE = "comparable"  # … a packet (side A of a comparison)
    COMPARISON = "comparison"  # the current tab is a comparison
    REVIEW = "review"  # the current tab shows a review (the window checks it can export)


@dataclass(frozen=True, slots=True)
class ActionRow:
    id: str
    text: str
    key: QKeySequence | QKeySequence.StandardKey | str | None
    menu: Menu | None
    group: str  # the block of its menu (a separator between blocks)
    needs: Needs = Needs.ALWAYS


def _copy_id(kind: CopyKind) -> str:
    return f"copy {kind.name.lower()}"


def pane_id(name: str) -> str:
    return f"pane {name}"


# Alt+1…7, in this order; each moves the keyboard into its pane.
PANES: Final = (
    (PANE_MANIFEST, "&Manifest"),
    (PANE_CANONICAL, "&Canonical Bytes"),
    (PANE_FINDINGS, "F&indings"),
    (PANE_REVIEW, "Re&view (focus the beliefs)"),
    (PANE_PLAN_GRAPH, "Plan &Graph (focus the graph)"),
    (PANE_BRIEFING, "&Briefing (focus its text)"),
    (PANE_SESSION, "&Session (focus the timeline)"),  # Alt+7: an ASIF session's view
)

F, E, V, H = Menu.FILE, Menu.EDIT, Menu.VIEW, Menu.HELP
WINDOW_ACTIONS: Final[tuple[ActionRow, ...]] = (
    ActionRow("open", "&Open…", _STD.Open, F, "open"),
    # File → Open Recent (a submenu) comes after "open": see `RECENT_AFTER`.
    ActionRow("example", "Open the &Example Packet", None, F, "open"),
    ActionRow("reload", "&Reload", "F5", F, "open", Needs.DOCUMENT),
    ActionRow("compare", "Compare &With…", None, F, "open", Needs.COMPARABLE),
    ActionRow("export", "&Export Receipt…", "Ctrl+E", F, "export", Needs.REVIEW),
    # issue 32: both start from the packet shown (`window_audit`)
    ActionRow("audit report", "Export &Audit Report…", None, F, "export", Needs.COMPARABLE),
    ActionRow("reconcile", "Reconcile T&wo Receipts…", None, F, "export", Needs.COMPARABLE),
    ActionRow("settings", "&Settings…", "Ctrl+,", F, "settings"),
    ActionRow("close", "&Close Tab", _STD.Close, F, "close", Needs.ANY_TAB),
    ActionRow("quit", "&Quit", _STD.Quit, F, "close"),
    *(ActionRow(_copy_id(k), k.value, shortcut(k), E, "copy", Needs.DOCUMENT) for k in CopyKind),
    ActionRow("show value", "Show &Full Value…", "Ctrl+Return", E, "value", Needs.DOCUMENT),
    ActionRow("find", "&Find…", _STD.Find, E, "find", Needs.DOCUMENT),
    ActionRow("find next", "Find &Next", "F3", E, "find", Needs.DOCUMENT),
    ActionRow("find previous", "Find &Previous", "Shift+F3", E, "find", Needs.DOCUMENT),
    ActionRow("tree", "Focus the &Tree", "Alt+0", V, "panes"),
    *(
        ActionRow(pane_id(name), text, f"Alt+{i}", V, "panes")
        for i, (name, text) in enumerate(PANES, 1)
    ),
    ActionRow("next change", "Next C&hange", "F7", V, "changes", Needs.COMPARISON),
    ActionRow("previous change", "Previous Ch&ange", "Shift+F7", V, "changes", Needs.COMPARISON),
    ActionRow("details", "Verdict &Details", "Ctrl+D", V, "tab", Needs.DOCUMENT),
    ActionRow("collapse", "&Collapse All", "Ctrl+Shift+-", V, "tab", Needs.DOCUMENT),
    ActionRow("cancel", "Cancel Background Work", "Ctrl+.", V, "tab"),
    # View → Theme (a submenu) ends the View menu: see `build_menus`.
    ActionRow("shortcuts", "&Keyboard Shortcuts", "F1", H, "help"),
    ActionRow("about", "&About", None, H, "help"),
)
RECENT_AFTER: Final = "open"  # the File menu's Open Recent submenu follows this action
THEMES: Final = ((Theme.SYSTEM, "&System"), (Theme.LIGHT, "&Light"), (Theme.DARK, "&Dark"))
NO_REVIEW: Final = "No packet under review in this tab"


def copy_action_id(kind: CopyKind) -> str:
    return _copy_id(kind)


class ActionHost(Protocol):
    """What the actions' slots call: the window."""

    def with_tab(self, action: Callable[[DocumentTab], object]) -> None: ...
    def with_compare(self, action: Callable[[CompareView], object]) -> None: ...
    def open_dialog(self) -> None: ...
    def open_example(self) -> None: ...
    def reload_current(self) -> None: ...
    def compare_dialog(self) -> None: ...
    def export_receipt(self) -> None: ...
    def export_audit_report(self) -> None: ...
    def reconcile_receipts(self) -> None: ...
    def open_settings(self) -> None: ...
    def close_current(self) -> None: ...
    def close(self) -> bool: ...
    def cancel_work(self) -> None: ...
    def show_shortcuts(self) -> None: ...
    def show_about(self) -> None: ...


def window_slots(host: ActionHost) -> dict[str, Callable[[], object]]:
    """What each row of `WINDOW_ACTIONS` does, by its id."""
    tab = host.with_tab
    slots: dict[str, Callable[[], object]] = {
        "open": host.open_dialog,
        "example": host.open_example,
        "reload": host.reload_current,
        "compare": host.compare_dialog,
        "export": host.export_receipt,
        "audit report": host.export_audit_report,
        "reconcile": host.reconcile_receipts,
        "settings": host.open_settings,
        "close": host.close_current,
        "quit": host.close,
        "show value": lambda: tab(DocumentTab.show_full_value),
        "find": lambda: tab(DocumentTab.open_find),
        "find next": lambda: tab(lambda t: t.find_again(False)),
        "find previous": lambda: tab(lambda t: t.find_again(True)),
        "tree": lambda: tab(lambda t: t.tree.setFocus()),
        "next change": lambda: host.with_compare(CompareView.next_change),
        "previous change": lambda: host.with_compare(CompareView.previous_change),
        "details": lambda: tab(lambda t: t.header.details_button.toggle()),
        "collapse": lambda: tab(lambda t: t.tree.collapseAll()),
        "cancel": host.cancel_work,
        "shortcuts": host.show_shortcuts,
        "about": host.show_about,
    }
    for kind in CopyKind:
        slots[_copy_id(kind)] = partial(tab, partial(DocumentTab.copy, kind=kind))
    for name, _text in PANES:
        slots[pane_id(name)] = partial(tab, partial(DocumentTab.focus_pane, name=name))
    return slots


def make_actions(host: QWidget, slots: Mapping[str, Callable[[], object]]) -> dict[str, QAction]:
    """One action per row, on ``host`` (so its key works anywhere in the window and Help
    → Shortcuts lists it), triggering ``slots[row.id]``."""
    missing = {row.id for row in WINDOW_ACTIONS} ^ set(slots)
    if missing:
        raise KeyError(f"actions without a slot, or slots without an action: {sorted(missing)}")
    actions: dict[str, QAction] = {}
    for row in WINDOW_ACTIONS:
        action = QAction(row.text, host)
        if row.key is not None:
            action.setShortcut(QKeySequence(row.key))
        slot = slots[row.id]
        action.triggered.connect(lambda _=False, s=slot: s())
        host.addAction(action)
        actions[row.id] = action
    return actions


def make_theme_actions(
    host: QWidget, current: Theme, choose: Callable[[Theme], object]
) -> dict[Theme, QAction]:
    group = QActionGroup(host)
    actions: dict[Theme, QAction] = {}
    for theme, text in THEMES:
        action = QAction(text, group)
        action.setCheckable(True)
        action.setChecked(theme is current)
        action.triggered.connect(lambda _=False, t=theme: choose(t))
        actions[theme] = action
    return actions


@dataclass(frozen=True, slots=True)
class Menus:
    recent: QMenu
    review: QMenu


def build_menus(
    bar: QMenuBar,
    actions: Mapping[str, QAction],
    theme_actions: Mapping[Theme, QAction],
    parent: QWidget,
) -> Menus:
    """The menu bar, laid out from the rows' menus and blocks."""
    menus = {menu: bar.addMenu(menu.value) for menu in (Menu.FILE, Menu.EDIT, Menu.VIEW)}
    review = bar.addMenu("&Review")
    menus[Menu.HELP] = bar.addMenu(Menu.HELP.value)
    recent = QMenu("Open &Recent", parent)
    last_group: dict[Menu, str] = {}
    for row in WINDOW_ACTIONS:
        if row.menu is None:
            continue
        menu = menus[row.menu]
        if last_group.get(row.menu, row.group) != row.group:
            menu.addSeparator()
        last_group[row.menu] = row.group
        menu.addAction(actions[row.id])
        if row.id == RECENT_AFTER:
            menu.addMenu(recent)
    view = menus[Menu.VIEW]
    view.addSeparator()
    theme_menu = view.addMenu("&Theme")
    for action in theme_actions.values():
        theme_menu.addAction(action)
    return Menus(recent, review)


def set_enabled(actions: Mapping[str, QAction], state: Mapping[Needs, bool]) -> None:
    """Enable each action by its row's `Needs`."""
    for row in WINDOW_ACTIONS:
        actions[row.id].setEnabled(state[row.needs])


def review_pane_of(tab: DocumentTab | None) -> ReviewPane | None:
    """The review pane of ``tab`` when that tab shows one (packet tabs only)."""
    if tab is None or PANE_REVIEW not in tab.pane_names():
        return None
    return tab.review_pane


def review_blocks(pane: ReviewPane) -> tuple[tuple[QAction, ...], ...]:
    """The review pane's actions in the Review menu's blocks: decide, move, history,
    bulk, the previous generation, the reviewer — named by which action each is."""
    a = pane.pane_actions
    return (
        tuple(a.decide.values()),
        (a.next, a.previous),
        (a.undo, a.redo),
        tuple(a.bulk.values()),
        (a.compare_previous, a.repeat, a.stop_previous),
        tuple(pane.triage_actions),  # F, X, N and back (issue 31)
        (a.settings,),
    )


def fill_review_menu(
    menu: QMenu,
    pane: ReviewPane | None,
    tail: Sequence[QAction],
    empty: QAction,
) -> None:
    """The Review menu: the pane's actions in blocks, then ``tail`` (Export); ``empty``
    alone, and the menu disabled, when the current tab shows no review."""
    for action in menu.actions():
        menu.removeAction(action)
    menu.menuAction().setEnabled(pane is not None)
    if pane is None:
        menu.addAction(empty)
        return
    _add_blocks(menu, (*review_blocks(pane), tuple(tail)))


def _add_blocks(menu: QMenu, blocks: Iterable[Sequence[QAction]]) -> None:
    first = True
    for block in blocks:
        if not block:
            continue
        if not first:
            menu.addSeparator()
        first = False
        for action in block:
            menu.addAction(action)
