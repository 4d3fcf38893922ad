"""The review pane's widgets made to say what the controller says; nothing is decided here.

`refresh` sets what may be done (actions, buttons), the comparison's banner, the signer,
the out-of-date receipt and the counts; `show_current` the highlighted belief's detail;
`show_admission` what admission changed; `show_identity` who reviews and whether that is
the packet's own key.
"""

from __future__ import annotations

from collections.abc import Collection

from PySide6.QtCore import QModelIndex

from zcf_inspector.gui.plain_text import ONE_LINE_CHARS, masked_shown, set_tooltip, visible
from zcf_inspector.gui.review.actions import PaneActions
from zcf_inspector.gui.review.detail import SincePrevious
from zcf_inspector.gui.review.layout import PaneWidgets
from zcf_inspector.gui.review.settings import ReviewerIdentity
from zcf_inspector.present.review.controller import ReviewController


def refresh(
    ui: PaneWidgets,
    actions: PaneActions,
    controller: ReviewController,
    changed: Collection[str] | None = None,
) -> None:
    """Actions, texts and counts; ``changed``: the beliefs whose decision changed
    (None: any may have)."""
    enabled = controller.enabled()
    for action in (*actions.decide.values(), *actions.bulk.values()):
        action.setEnabled(enabled.decide)
    for button in ui.bulk_buttons.values():
        button.setEnabled(enabled.decide)
    ui.set_aside.setEnabled(enabled.set_aside)
    actions.export.setEnabled(enabled.decide)
    actions.compare_previous.setEnabled(enabled.decide)
    actions.cancel_step.setEnabled(enabled.cancel)
    for widget in (ui.previous, ui.repeat_button, ui.stop_previous_button):
        widget.setVisible(enabled.comparing)
    actions.stop_previous.setEnabled(enabled.stop_previous)
    ui.stop_previous_button.setEnabled(enabled.stop_previous)
    actions.repeat.setEnabled(enabled.repeat)
    if enabled.comparing:
        ui.repeat_button.setEnabled(enabled.repeat)
        ui.repeat_button.setText(controller.repeat_button_text())
    ui.previous.setText(controller.previous_banner())
    actions.undo.setEnabled(enabled.undo)
    actions.redo.setEnabled(enabled.redo)
    text, tooltip = controller.signer_label()
    set_tooltip(ui.signer, tooltip)
    ui.signer.setText(text)
    stale = controller.stale_text()
    ui.stale.setVisible(stale is not None)
    if stale is not None:
        ui.stale.setText(stale)
    review = controller.review
    if review is None:
        ui.summary.setText("")
        return
    ui.model.update_decisions(review.session.last_decisions(), changed)
    ui.summary.setText(controller.summary_line())
    show_current(ui, controller)


def show_current(ui: PaneWidgets, controller: ReviewController) -> None:
    """The highlighted belief in the detail: its content, history and what changed since
    the previous generation's receipt."""
    index = ui.table.currentIndex()
    source = ui.proxy.mapToSource(index) if index.isValid() else QModelIndex()
    belief = ui.model.belief(source.row()) if source.isValid() else None
    review = controller.review
    history = (
        review.session.history_of(belief.portable_ref)
        if review is not None and belief is not None
        else ()
    )
    since = None
    previous = controller.previous
    if belief is not None and previous is not None:
        ref = belief.portable_ref
        change = previous.classification.changes.get(ref)
        if change is not None:
            since = SincePrevious(
                change,
                previous.earlier.get(ref),
                previous.packet_id,
                previous.earlier_content.get(ref),  # issue 20: old text beside new
            )
    ui.detail.show_belief(belief, history, since)


def show_admission(ui: PaneWidgets, controller: ReviewController) -> None:
    text = controller.admission_text()
    ui.admission.setVisible(text is not None)
    ui.admission.setText(text or "")
    count = controller.dropped_count
    ui.dropped_button.setVisible(count > 0)
    ui.dropped_button.setText(f"Show the {count:,} dropped belief{'s' if count != 1 else ''}…")


def show_identity(
    ui: PaneWidgets, controller: ReviewController, identity: ReviewerIdentity
) -> None:
    name = masked_shown(identity.name, ONE_LINE_CHARS)  # a pasted name may hold bidi controls
    text = f"Reviewer: {name}" if identity.usable else "Reviewer: not set"
    if identity.fingerprint:
        text += f"  (your key {identity.fingerprint}, for the self-review warning)"
    if identity.key_problem:
        text += f"  (key file not usable: {visible(identity.key_problem)})"
    ui.reviewer.setText(text)
    warning = controller.self_review_text(identity.fingerprint)
    ui.self_review.setVisible(bool(warning))
    ui.self_review.setText(warning)
