"""The always-visible answer to "can I trust this?": a headline, one chip per check, and
a details table with every row and its full reason."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QIcon, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.gui.escape_tokens import install_tokens
from zcf_inspector.gui.flow_layout import FlowLayout
from zcf_inspector.gui.icons import IconName, icon
from zcf_inspector.gui.plain_text import ElidedLabel, plain_label, set_tooltip, visible
from zcf_inspector.gui.plain_tooltip import install_on_view, set_plain_tooltip
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE, POINTER_ROLE
from zcf_inspector.gui.row_table_model import ModelIndex, RowTableModel
from zcf_inspector.gui.theme import Tone, tone_colour
from zcf_inspector.present.vocabulary import CheckStatus, Chip, Trust, Verdict

STATE_ICONS: Final = {
    CheckStatus.PASS: IconName.PASS,
    CheckStatus.FAIL: IconName.FAIL,
    CheckStatus.NOT_CHECKABLE: IconName.NOT_CHECKABLE,
    CheckStatus.NOT_RUN: IconName.NOT_RUN,
    CheckStatus.CHANGED: IconName.WARNING,
}


LEVEL_ICONS: Final = {
    Trust.VERIFIED: IconName.PASS,
    Trust.UNSIGNED: IconName.INFO,  # neutral: valid, but anyone could have written it
    Trust.UNCHECKED: IconName.NOT_CHECKABLE,
    Trust.REFUSED: IconName.FAIL,
}
# The headline's colour; None: the palette's own text colour (unsigned is never green).
LEVEL_TONES: Final[dict[Trust, Tone | None]] = {
    Trust.VERIFIED: Tone.GOOD,
    Trust.UNSIGNED: None,
    Trust.UNCHECKED: Tone.CAUTION,
    Trust.REFUSED: Tone.BAD,
}


def level_icon(level: Trust) -> QIcon:
    return icon(LEVEL_ICONS[level])


def state_icon(state: CheckStatus) -> QIcon:
    return icon(STATE_ICONS[state])


class VerdictTableModel(RowTableModel[Chip]):
    """Every verdict row: check, result (icon and word), reason."""

    HEADERS = ("Check", "Result", "Reason")

    def set_rows(self, rows: tuple[Chip, ...]) -> None:
        self.replace_rows(rows)

    @property
    def rows(self) -> tuple[Chip, ...]:
        return tuple(self._rows)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.row_at(index)
        if row is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (visible(row.check), str(row.state), visible(row.detail))[column]
        if role == Qt.ItemDataRole.DecorationRole and column == 1:
            return state_icon(row.state)
        if role == PLAIN_TOOLTIP_ROLE:
            return f"{row.check}: {row.state}\n{row.detail}"
        if role == POINTER_ROLE:
            return row.pointer
        return None


def chip_text(row: Chip) -> str:
    # A tool button reads '&' as a mnemonic marker; double it to show it literally.
    return visible(row.text).replace("&", "&&")


class VerdictHeader(QFrame):
    """Headline and chips; clicking a chip selects what it refers to."""

    pointerActivated = Signal(str)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("verdictHeader")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(self.palette().ColorRole.AlternateBase)
        self.model = VerdictTableModel(self)
        self._icon = QLabel()
        self.headline = plain_label()
        font = QFont(self.headline.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.headline.setFont(font)
        self.level = Trust.UNSIGNED
        self.subject = ElidedLabel()
        self.details_button = QToolButton()
        self.details_button.setText("Details")
        self.details_button.setCheckable(True)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setArrowType(Qt.ArrowType.DownArrow)
        self.details_button.toggled.connect(self._toggle_details)
        top = QHBoxLayout()
        top.addWidget(self._icon)
        top.addWidget(self.headline)
        top.addSpacing(12)
        top.addWidget(self.subject, 1)
        top.addWidget(self.details_button)
        self._chips_box = QWidget()
        self._chips = FlowLayout(self._chips_box)
        self.chips: list[QToolButton] = []
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.table.horizontalHeader().setSectionResizeMode(
            1, QHeaderView.ResizeMode.ResizeToContents
        )
        self.table.setWordWrap(False)
        self.table.setMaximumHeight(220)
        self.table.hide()
        self.table.activated.connect(self._row_activated)
        self.table.clicked.connect(self._row_activated)
        install_on_view(self.table)
        install_tokens(self.table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(6)
        # A fixed clock in force (the destination's "now"): said under the headline, as
        # the present layer words it (`present.clock`), never in the verdict's own words.
        self.clock = plain_label(wrap=True)
        self.clock.setObjectName("fixedClock")
        self.clock.hide()
        layout.addLayout(top)
        layout.addWidget(self.clock)
        layout.addWidget(self._chips_box)
        layout.addWidget(self.table)

    def set_verdict(self, verdict: Verdict, subject: str, clock: str | None = None) -> None:
        """``clock``: `present.clock.fixed_clock_words` of the destination in force."""
        self.clock.setText(clock or "")
        self.clock.setVisible(bool(clock))
        self.headline.setText(visible(verdict.headline))  # a signer a packet names, too
        set_tooltip(self.headline, verdict.tooltip)
        self.headline.setAccessibleName(f"Verdict: {verdict.tooltip}")
        self.level = verdict.level
        self._icon.setPixmap(level_icon(verdict.level).pixmap(22, 22))
        self._colour_headline()
        self.subject.set_full_text(visible(subject))  # a file name may hold any character
        self.model.set_rows(verdict.rows)
        for chip in self.chips:
            self._chips.removeWidget(chip)
            chip.deleteLater()
        self.chips = []
        for row in verdict.chips:
            chip = QToolButton()
            chip.setObjectName("verdictChip")
            chip.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            chip.setIcon(state_icon(row.state))
            chip.setText(chip_text(row))
            chip.setAccessibleName(f"{row.check}: {row.state}. {row.detail}")
            set_plain_tooltip(chip, f"{row.check}: {row.state}\n{row.detail}")
            chip.clicked.connect(lambda _=False, r=row: self._chip_clicked(r))
            self._chips.addWidget(chip)
            self.chips.append(chip)
        self._chips_box.updateGeometry()

    def _colour_headline(self) -> None:
        """Green only when valid and authenticated; amber when a claim was not checked;
        an unsigned document in the ordinary text colour."""
        palette = self.headline.palette()
        tone = LEVEL_TONES[self.level]
        colour = (
            self.palette().color(QPalette.ColorRole.WindowText)
            if tone is None
            else tone_colour(tone, self.palette())
        )
        palette.setColor(QPalette.ColorRole.WindowText, colour)
        self.headline.setPalette(palette)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "headline"):
            self._colour_headline()

    def _chip_clicked(self, row: Chip) -> None:
        if row.pointer is not None:
            self.pointerActivated.emit(row.pointer)
        else:
            self.details_button.setChecked(True)

    def _toggle_details(self, shown: bool) -> None:
        self.table.setVisible(shown)
        self.details_button.setArrowType(Qt.ArrowType.UpArrow if shown else Qt.ArrowType.DownArrow)

    def _row_activated(self, index: QModelIndex) -> None:
        pointer = index.data(POINTER_ROLE)
        if isinstance(pointer, str):
            self.pointerActivated.emit(pointer)
