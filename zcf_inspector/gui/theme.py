"""The window's colour theme: System (follow the desktop), Light or Dark, and the few
colours the window adds to the palette (good / caution / bad), chosen per theme.

Custom-painted widgets take their colours from the palette (`QPalette` roles) or from
`tone_colour` with the palette they paint with, never from fixed light colours, so a
dark palette never leaves a light canvas or unreadable text behind.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QLabel, QWidget

THEME_KEY = "view/theme"


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


class Tone(StrEnum):
    GOOD = "good"  # everything claimed was checked
    CAUTION = "caution"  # something was not checked
    BAD = "bad"  # refused


# Readable on the theme's window and base colours (contrast >= 4.5:1 on both).
_TONES_LIGHT = {Tone.GOOD: "#116329", Tone.CAUTION: "#7d4e00", Tone.BAD: "#b3261e"}
_TONES_DARK = {Tone.GOOD: "#56d364", Tone.CAUTION: "#e3b341", Tone.BAD: "#ff7b72"}

# Behind text, marking characters (the compare view's removed and added runs): the theme's
# text colour stays readable on them (contrast >= 4.5:1), and each is told from the base.
_MARKS_LIGHT = {Tone.GOOD: "#b4ebc2", Tone.CAUTION: "#f5dfa8", Tone.BAD: "#ffc1bd"}
_MARKS_DARK = {Tone.GOOD: "#1d4d2b", Tone.CAUTION: "#4d3b12", Tone.BAD: "#6a2420"}

Role = QPalette.ColorRole
Group = QPalette.ColorGroup


def is_dark(palette: QPalette) -> bool:
    """A dark palette: its window colour is in the dark half."""
    return palette.color(Role.Window).lightness() < 128


def tone_colour(tone: Tone, palette: QPalette) -> QColor:
    """A tone's text colour, readable on the palette's window and base colours."""
    return QColor((_TONES_DARK if is_dark(palette) else _TONES_LIGHT)[tone])


def tone_background(tone: Tone, palette: QPalette) -> QColor:
    """A tone's colour behind text in the palette's text colour (a marked run)."""
    return QColor((_MARKS_DARK if is_dark(palette) else _MARKS_LIGHT)[tone])


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG contrast ratio of two colours (1 to 21; text wants at least 4.5)."""

    def luminance(colour: QColor) -> float:
        def channel(value: float) -> float:
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        return (
            0.2126 * channel(colour.redF())
            + 0.7152 * channel(colour.greenF())
            + 0.0722 * channel(colour.blueF())
        )

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


class ToneLabel(QLabel):
    """A plain-text label in a tone's colour for the palette in force (recoloured when
    the theme changes), e.g. a refusal in red that stays readable on a dark window."""

    def __init__(
        self, tone: Tone, *, wrap: bool = False, bold: bool = False, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.tone = tone
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(wrap)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        if bold:
            font = self.font()
            font.setBold(True)
            self.setFont(font)
        self._recolour()

    def _recolour(self) -> None:
        palette = self.palette()
        colour = tone_colour(self.tone, palette)
        if palette.color(Role.WindowText) != colour:
            palette.setColor(Role.WindowText, colour)
            self.setPalette(palette)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._recolour()


def _palette(colours: dict[Role, str], disabled: dict[Role, str]) -> QPalette:
    palette = QPalette()
    for role, value in colours.items():
        palette.setColor(role, QColor(value))
    for role, value in disabled.items():
        palette.setColor(Group.Disabled, role, QColor(value))
    return palette


def light_palette() -> QPalette:
    return _palette(
        {
            Role.Window: "#efefef",
            Role.WindowText: "#1f1f1f",
            Role.Base: "#ffffff",
            Role.AlternateBase: "#f5f5f5",
            Role.ToolTipBase: "#ffffdc",
            Role.ToolTipText: "#1f1f1f",
            Role.PlaceholderText: "#6b6b6b",
            Role.Text: "#1f1f1f",
            Role.Button: "#efefef",
            Role.ButtonText: "#1f1f1f",
            Role.BrightText: "#ffffff",
            Role.Light: "#ffffff",
            Role.Midlight: "#e3e3e3",
            Role.Mid: "#b8b8b8",
            Role.Dark: "#9f9f9f",
            Role.Shadow: "#767676",
            Role.Highlight: "#2f65ca",
            Role.HighlightedText: "#ffffff",
            Role.Link: "#1a56c4",
            Role.LinkVisited: "#6a3fb5",
        },
        {Role.WindowText: "#8c8c8c", Role.Text: "#8c8c8c", Role.ButtonText: "#8c8c8c"},
    )


def dark_palette() -> QPalette:
    return _palette(
        {
            Role.Window: "#2b2b2b",
            Role.WindowText: "#e6e6e6",
            Role.Base: "#1e1e1e",
            Role.AlternateBase: "#262626",
            Role.ToolTipBase: "#3c3c3c",
            Role.ToolTipText: "#e6e6e6",
            Role.PlaceholderText: "#9a9a9a",
            Role.Text: "#e6e6e6",
            Role.Button: "#353535",
            Role.ButtonText: "#e6e6e6",
            Role.BrightText: "#ffffff",
            Role.Light: "#4a4a4a",
            Role.Midlight: "#3c3c3c",
            Role.Mid: "#5c5c5c",
            Role.Dark: "#1a1a1a",
            Role.Shadow: "#000000",
            Role.Highlight: "#3d6fd1",
            Role.HighlightedText: "#ffffff",
            Role.Link: "#79a6ff",
            Role.LinkVisited: "#b394f0",
        },
        {Role.WindowText: "#7a7a7a", Role.Text: "#7a7a7a", Role.ButtonText: "#7a7a7a"},
    )


def system_wants_dark() -> bool:
    """The desktop asks for dark (Qt >= 6.5 reports the colour scheme)."""
    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        return False
    hints = app.styleHints()
    return bool(hints.colorScheme() == Qt.ColorScheme.Dark)


def saved_theme(settings: QSettings) -> Theme:
    value = settings.value(THEME_KEY, Theme.SYSTEM.value)
    return Theme(value) if isinstance(value, str) and value in set(Theme) else Theme.SYSTEM


class ThemeController(QObject):
    """Applies a theme to the application and keeps System in step with the desktop."""

    changed = Signal(str)  # the theme now in force

    def __init__(self, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.theme = saved_theme(settings)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.styleHints().colorSchemeChanged.connect(self._system_changed)

    def apply(self, theme: Theme | None = None, *, remember: bool = True) -> None:
        if theme is not None:
            self.theme = theme
            if remember:
                self.settings.setValue(THEME_KEY, theme.value)
                self.settings.sync()
        app = QGuiApplication.instance()
        if not isinstance(app, QGuiApplication):
            return
        if self.theme is Theme.LIGHT:
            app.setPalette(light_palette())
        elif self.theme is Theme.DARK:
            app.setPalette(dark_palette())
        else:
            # The platform's own palette; a desktop that asks for dark but whose style
            # gives a light palette (Fusion without a platform theme) gets ours.
            app.setPalette(QPalette())
            if system_wants_dark() and not is_dark(app.palette()):
                app.setPalette(dark_palette())
        self.changed.emit(self.theme.value)

    def _system_changed(self, _scheme: object) -> None:
        if self.theme is Theme.SYSTEM:
            self.apply()

    def disconnect_system(self) -> None:
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.styleHints().colorSchemeChanged.disconnect(self._system_changed)


# An escaped character's token (`escape_tokens`): its own colour, frame and background,
# told from text and from the compare marks; text on it readable (contrast >= 4.5:1).
_TOKEN_LIGHT = ("#5b2a86", "#efe4fa")  # text and frame, background
_TOKEN_DARK = ("#d8b4fe", "#3b2556")


def token_colours(palette: QPalette) -> tuple[QColor, QColor]:
    """(text and frame, background) of an escaped character's token."""
    fore, back = _TOKEN_DARK if is_dark(palette) else _TOKEN_LIGHT
    return QColor(fore), QColor(back)
