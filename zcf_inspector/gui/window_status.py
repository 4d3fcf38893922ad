"""The window's status bar: the work in progress (what, how far, Cancel), the "Assess
at" clock and the destination in force."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Final

from PySide6.QtWidgets import QMainWindow, QMessageBox, QProgressBar, QPushButton, QStatusBar

from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.review.journal_move import JournalMove
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.plain_text import plain_label, set_tooltip, visible
from zcf_inspector.gui.review.storage import default_data_dir
from zcf_inspector.gui.settings_dialog import clock_text
from zcf_inspector.gui.task_runner import TaskRunner

CANCELLING: Final = "Cancelling… (the work in progress stops at its next check)"


class WorkStatus:
    """The status bar's widgets, following ``runner``."""

    def __init__(self, bar: QStatusBar, runner: TaskRunner) -> None:
        self._bar = bar
        self._runner = runner
        self._user_cancelled = False
        self.progress_label = plain_label()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        set_tooltip(self.cancel_button, "Stop waiting for the work in progress (Ctrl+.)")
        self.cancel_button.clicked.connect(self.cancel)
        self.destination_label = plain_label()
        self.clock_label = plain_label()
        bar.addWidget(self.progress_label, 1)
        bar.addWidget(self.progress)
        bar.addWidget(self.cancel_button)
        bar.addPermanentWidget(self.clock_label)
        bar.addPermanentWidget(self.destination_label)
        runner.busyChanged.connect(self._busy_changed)
        runner.stoppingChanged.connect(self._stopping_changed)
        runner.progressChanged.connect(self._progress)
        self._busy_changed(False)

    def cancel(self) -> None:
        if self._runner.busy:
            self._runner.cancel_all()
            self._user_cancelled = True
            self._stopping_changed(self._runner.stopping)

    def _stopping_changed(self, stopping: bool) -> None:
        """After Cancel: "cancelling…" while a cancelled worker still runs (it stops at
        its next cancellation point), "Cancelled." once it has."""
        if not self._user_cancelled:
            return  # a cancel the window made itself (a closed tab, a stale filter)
        if stopping:
            self._bar.showMessage(CANCELLING)
        else:
            self._user_cancelled = False
            self._bar.showMessage("Cancelled.", 4000)

    def _busy_changed(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.progress_label.setVisible(busy)
        if not busy:
            self.progress.setValue(0)
            self.progress_label.setText("")

    def _progress(self, what: str, fraction: float) -> None:
        self.progress_label.setText(visible(what))
        self.progress.setValue(int(fraction * 1000))

    def show_clock(self, assess_at: datetime | None) -> None:
        when = "now" if assess_at is None else clock_text(assess_at)
        self.clock_label.setText(f"assess at: {when}")

    def show_destination(
        self, path: str | None, destination: Destination | None, problem: str | None
    ) -> None:
        if destination is not None:
            name = visible(Path(path or "").name)
            text = f"destination: {name} ({visible(destination.installation_key_id)})"
        elif problem is not None:
            text = f"destination: unusable — {visible(problem)}"
        else:
            text = "destination: none — MACs not verifiable, policy not checked"
        self.destination_label.setText(text)


def problems_text(problems: Sequence[str], count: int) -> str:
    """One message for every file of one open (of ``count``) that could not be opened."""
    if len(problems) == 1 and count == 1:
        return problems[0]
    opened = count - len(problems)
    also = {0: "", 1: "; the other one opened"}.get(opened, f"; the other {opened} opened")
    return f"{len(problems)} of {count} files could not be opened{also}:\n\n" + (
        "\n".join(f"• {p}" for p in problems)
    )


def journal_move_notice(window: QMainWindow, move: JournalMove) -> QMessageBox | None:
    """Say where the saved reviews went at start-up: a warning (opened, returned) when
    some stayed in the old folder, else a note in the status bar when any moved."""
    if move.kept:
        box = message_box(
            window,
            QMessageBox.Icon.Warning,
            "Saved reviews",
            "Some saved reviews could not be moved to the new folder "
            f"({default_data_dir()}); they are still in the old one:\n" + move.message,
        )
        box.open()
        return box
    if move.moved:
        window.statusBar().showMessage(
            f"Saved reviews: {move.message} ({default_data_dir()})", 10_000
        )
    return None


def internal_error_box(window: QMainWindow, label: str, details: str) -> QMessageBox:
    """A task that failed unexpectedly: its last line, the whole trace under Details."""
    last_line = details.strip().splitlines()[-1] if details.strip() else "unknown error"
    box = message_box(
        window,
        QMessageBox.Icon.Critical,
        "Internal error",
        f"{label} failed: {last_line}",
        details=details,
    )
    box.open()
    return box


def about_box(window: QMainWindow, title: str, version: str) -> QMessageBox:
    box = message_box(
        window,
        QMessageBox.Icon.Information,
        f"About {title}",
        f"{title} {version}\nInspects ZCF v1 packets, transfer receipts and ASIF "
        "continuation plans. Everything shown comes from the same core as the CLI.",
    )
    box.open()
    return box
