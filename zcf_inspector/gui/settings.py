"""What the window remembers (QSettings, INI format): the destination file and recent files.

Tests point QSettings at a temp folder with ``QSettings.setPath(IniFormat, UserScope, …)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from PySide6.QtCore import QByteArray, QSettings

ORGANIZATION: Final = "zcf-inspector"
APPLICATION: Final = "zcf-inspector"
RECENT_LIMIT: Final = 10

_DESTINATION = "verification/destinationFile"
_RECENT = "files/recent"
_PACKAGE_KEYS = "packages/trustedKeys"
_GEOMETRY = "window/geometry"
_STATE = "window/state"


def settings_store() -> QSettings:
    """The window's INI store; the review pane keeps the reviewer's identity in it too."""
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION
    )


RESTORE_SESSION = "session/restore"


class AppSettings:
    def __init__(self) -> None:
        self._store = settings_store()

    @property
    def destination_path(self) -> str | None:
        value = self._store.value(_DESTINATION, "")
        return value if isinstance(value, str) and value else None

    @destination_path.setter
    def destination_path(self, path: str | None) -> None:
        if path:
            self._store.setValue(_DESTINATION, path)
        else:
            self._store.remove(_DESTINATION)
        self._store.sync()

    @property
    def recent_files(self) -> list[str]:
        value = self._store.value(_RECENT, [])
        if isinstance(value, str):  # QSettings returns a one-element list as a string
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def add_recent(self, path: str) -> None:
        absolute = str(Path(path).resolve())
        recent = [absolute] + [p for p in self.recent_files if p != absolute]
        self._store.setValue(_RECENT, recent[:RECENT_LIMIT])
        self._store.sync()

    @property
    def package_keys(self) -> list[str]:
        """The trusted package public key files (Settings), in the order added."""
        value = self._store.value(_PACKAGE_KEYS, [])
        if isinstance(value, str):  # QSettings returns a one-element list as a string
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    @package_keys.setter
    def package_keys(self, paths: list[str]) -> None:
        if paths:
            self._store.setValue(_PACKAGE_KEYS, paths)
        else:
            self._store.remove(_PACKAGE_KEYS)
        self._store.sync()

    def clear_recent(self) -> None:
        self._store.remove(_RECENT)
        self._store.sync()

    @property
    def restore_session(self) -> bool:
        """Settings → "Reopen the last session" (issue 31): on unless turned off."""
        value = self._store.value(RESTORE_SESSION, True)
        return value not in (False, "false", "0", 0)

    @restore_session.setter
    def restore_session(self, on: bool) -> None:
        self._store.setValue(RESTORE_SESSION, bool(on))
        self._store.sync()

    def geometry(self) -> tuple[QByteArray | None, QByteArray | None]:
        geometry = self._store.value(_GEOMETRY)
        state = self._store.value(_STATE)
        return (
            geometry if isinstance(geometry, QByteArray) else None,
            state if isinstance(state, QByteArray) else None,
        )

    def save_geometry(self, geometry: QByteArray, state: QByteArray) -> None:
        self._store.setValue(_GEOMETRY, geometry)
        self._store.setValue(_STATE, state)
        self._store.sync()
