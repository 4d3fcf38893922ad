"""Where the review journals and their keys live, and bringing old journals to the new folder.

The journals are kept in ``<user data>/zcf-inspector/review-journals``; earlier versions
kept them in QStandardPaths' application folder (which named zcf-inspector twice), and
the window moves them once at start (`move_old_journals`; nothing is lost: a journal
already at the new place is kept where it was). The keys that chain each journal live
beside the user's settings, never in the journal folder. A refused journal is set aside
(renamed with its key, never deleted) so a new review of its packet can start.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths

from zcf_inspector.core.review.journal import JournalKeys, journal_path, set_aside
from zcf_inspector.core.review.journal_move import JournalMove, move_journals
from zcf_inspector.gui.settings import APPLICATION, ORGANIZATION

JOURNAL_FOLDER = "review-journals"
KEY_FOLDER = "review-journal-keys"


def default_data_dir() -> Path:
    """``<user data>/zcf-inspector/review-journals`` (e.g. ~/.local/share/zcf-inspector/…)."""
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(location) / APPLICATION / JOURNAL_FOLDER


def old_data_dirs() -> list[Path]:
    """Where journals were kept before: QStandardPaths' application folder, which named
    zcf-inspector twice (organisation and application)."""
    generic = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    folders = [Path(generic) / ORGANIZATION / APPLICATION / JOURNAL_FOLDER]
    app = QCoreApplication.instance()
    if app is not None and (app.organizationName(), app.applicationName()) == (
        ORGANIZATION,
        APPLICATION,
    ):  # where the platform put it (Windows: the roaming folder)
        location = QStandardPaths.StandardLocation.AppDataLocation
        folders.append(Path(QStandardPaths.writableLocation(location)) / JOURNAL_FOLDER)
    return list(dict.fromkeys(folders))


def move_old_journals() -> JournalMove:
    """Bring journals from the old folder(s) to `default_data_dir` (nothing is lost)."""
    new = default_data_dir()
    moves = [move_journals(old, new) for old in old_data_dirs()]
    return JournalMove(
        tuple(n for m in moves for n in m.moved), tuple(k for m in moves for k in m.kept)
    )


def default_key_dir(settings: QSettings) -> Path:
    """Where the journals' keys live: beside the user's settings file, so never in the
    journal folder (a key kept with what it protects protects nothing)."""
    name = settings.fileName()
    if name and Path(name).is_absolute():
        return Path(name).parent / KEY_FOLDER
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    return Path(location) / KEY_FOLDER


def set_aside_journal(data_dir: Path, key_dir: Path, correlation_id: str) -> Path | str:
    """Rename the journal of ``correlation_id`` (and its key) out of the way, keeping it:
    the name it is kept under, or why it could not be renamed."""
    path = journal_path(data_dir, correlation_id)
    try:
        return set_aside(path, JournalKeys(key_dir))
    except OSError as exc:
        return f"{path} could not be renamed: {exc}"
