"""Moving review journals from an old folder to the current one, losing none.

Journals used to live in a doubled folder (``zcf-inspector/zcf-inspector/review-journals``,
QStandardPaths' application folder with the organisation and application both named
zcf-inspector). The window now keeps them one level up; on start it moves what it finds
in the old folder, so a review in progress there is restored as before.

Each journal moves with its SQLite sidecars (``-wal``, ``-shm``), the sidecars first: a
crash halfway leaves the database in the old folder, moved on the next start to join
them. A journal whose name is already taken in the new folder is left where it is, and
said so — never overwritten.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core.review.journal_files import FILE_PREFIX, FILE_SUFFIX

SIDECARS = ("-wal", "-shm")


@dataclass(frozen=True, slots=True)
class JournalMove:
    moved: tuple[str, ...] = ()  # file names now in the new folder
    kept: tuple[tuple[str, str], ...] = ()  # (file name, why it stayed in the old folder)

    @property
    def message(self) -> str:
        parts = []
        if self.moved:
            count = len(self.moved)
            parts.append(f"moved {count} saved review{'s' if count != 1 else ''} to the new folder")
        for name, why in self.kept:
            parts.append(f"{name} stayed in the old folder: {why}")
        return "; ".join(parts)


def _journals(folder: Path) -> list[Path]:
    """Journals and journals set aside (``….sqlite3.refused-…``), not their sidecars."""
    found = []
    for path in sorted(folder.glob(f"{FILE_PREFIX}*")):
        if not path.is_file() or path.name.endswith(SIDECARS):
            continue
        if FILE_SUFFIX in path.name:
            found.append(path)
    return found


def move_journals(old: Path, new: Path) -> JournalMove:
    """Move every journal of ``old`` into ``new`` (made if needed); ``old`` is left in
    place, removed only when nothing is left in it."""
    if old.resolve() == new.resolve() or not old.is_dir():
        return JournalMove()
    journals = _journals(old)
    if not journals:
        return JournalMove()
    try:
        new.mkdir(mode=0o700, parents=True, exist_ok=True)  # journals hold notes
    except OSError as exc:
        return JournalMove((), tuple((p.name, f"cannot make {new}: {exc}") for p in journals))
    moved: list[str] = []
    kept: list[tuple[str, str]] = []
    for journal in journals:
        target = new / journal.name
        if target.exists() or any(target.with_name(target.name + s).exists() for s in SIDECARS):
            kept.append((journal.name, f"{target} already exists"))
            continue
        try:
            for suffix in SIDECARS:
                side = journal.with_name(journal.name + suffix)
                if side.exists():
                    shutil.move(side, target.with_name(target.name + suffix))
            shutil.move(journal, target)
        except OSError as exc:
            kept.append((journal.name, str(exc)))
            continue
        moved.append(journal.name)
    try:
        old.rmdir()  # only when empty; its parents are the old application folders
        old.parent.rmdir()
    except OSError:
        pass  # something is left there: keep the folder
    return JournalMove(tuple(moved), tuple(kept))
