"""The review journal: every decision on disk as it is made, so nothing is ever lost.

One SQLite file per review (per receipt ``correlationId``) in a folder the caller names —
the window passes its user data folder. WAL mode with ``synchronous=FULL``: a committed row
survives a crash or a power cut. Every operation is one row or, for a bulk decision, several
rows in one transaction, so a crash never leaves half of a step. Undo, redo and export are
rows too: the journal is a log, replayed in order to rebuild the review.

Nothing read back is trusted: the file must pass ``PRAGMA integrity_check``, carry this
application's id and a known schema version, name the packet under review, and every row
must name it too and carry its checksum. Anything else is refused, never applied.

The checksums are keyed and chained: each row's is HMAC-SHA-256, under a key of this
journal alone, over the previous row's checksum (the first row's over the journal's
identity) and the row itself. The key lives outside the journal — in a key folder the
caller names, beside the user's settings (`JournalKeys`), one file per journal, 0600 —
with the number of rows last acknowledged and the last checksum (the *head*). So a row
edited or forged (even with a recomputed unkeyed checksum), deleted (the last one too),
or moved, a journal cut short, emptied or removed where one existed, are all refused as
``journal_corrupt``. A head that lags (a crash between the commit and its update) is no
fault: the rows after it are chained like the rest. Every SQLite and decoding failure is a
`ReviewError`: ``journal_unavailable`` for what says nothing about the rows (no
permission, no space, a lock held too long), ``journal_corrupt`` for the rest.

Schema version 1 journals (unkeyed checksums, written before issue 15) are refused with
``journal_unsupported_version``, not upgraded: their rows cannot be verified, and
accepting them once would make a forged journal trusted from then on. The window offers
to set such a journal aside (kept, renamed) and start over.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.review.admitted_digest import decision_detail
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.journal_files import JournalIdentity, journal_path, unavailable
from zcf_inspector.core.review.journal_keys import JournalKeys
from zcf_inspector.core.review.journal_replay import replay
from zcf_inspector.core.review.journal_store import Entry, ReviewJournal
from zcf_inspector.core.review.session import Prepared, ReviewSession, Step
from zcf_inspector.core.review.target import ReviewTarget


@dataclass(frozen=True, slots=True)
class ExportRecord:
    """The last receipt exported: when (its completedAt), where, and its digest."""

    completed_at: str
    path: str
    receipt_digest: str


def _export_record(detail: str | None) -> ExportRecord | None:
    """An export row's detail, for display only (the replay does not depend on it)."""
    try:
        value = json.loads(detail or "")
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    fields = [value.get(k) for k in ("completedAt", "path", "receiptDigest")]
    if not all(isinstance(f, str) for f in fields):
        return None
    return ExportRecord(*(str(f) for f in fields))


class JournaledReview:
    """A review session whose every change is journalled before it is applied."""

    def __init__(
        self,
        session: ReviewSession,
        journal: ReviewJournal,
        last_export: ExportRecord | None = None,
    ) -> None:
        self.session = session
        self.journal = journal
        self.last_export = last_export

    @property
    def stale_export(self) -> ExportRecord | None:
        """The last export, when decisions were taken after it (its receipt is out of date)."""
        if self.last_export is None or len(self.session.applied) <= self.session.sealed:
            return None
        return self.last_export

    @classmethod
    def open(
        cls,
        directory: str | Path,
        target: ReviewTarget,
        *,
        keys: str | Path | JournalKeys,
        monitor: Monitor = NULL_MONITOR,
    ) -> JournaledReview:
        """Restore the review of ``target`` from its journal in ``directory`` (or start
        one), verified with its key in ``keys`` (a folder outside ``directory``, beside
        the user's settings); may refuse. A worker may run it (``monitor`` can stop it:
        nothing is written)."""
        identity = JournalIdentity.of(target)
        key_folder = keys if isinstance(keys, JournalKeys) else JournalKeys(keys)
        path = journal_path(directory, identity.correlation_id)
        if Path(os.path.abspath(key_folder.folder)) == Path(os.path.abspath(path.parent)):
            raise unavailable(path, ValueError("its key may not be kept beside it"))
        journal = ReviewJournal(path, identity, 0, key_folder)
        rows = journal.read(monitor)
        session = replay(rows, target, monitor)
        journal.last_seq = len(rows)
        exports = [row for row in rows if row[4] == "export"]
        return cls(session, journal, _export_record(exports[-1][12]) if exports else None)

    def decide(self, requests: Sequence[DecisionRequest], reviewer: str, at: str) -> Step:
        step = self.session.plan(requests, reviewer, at)
        self.journal.append(self._entries(step))
        self.session.apply(step)
        return step

    def _entries(self, step: Step) -> list[Entry]:
        """A step's rows, each recording the belief as admitted now (`admitted_digest`):
        what lets the decision be carried over when the settings change what is admitted."""
        target = self.session.target
        return [
            Entry("decide", step.number, d, decision_detail(target, d.portable_ref))
            for d in step.decisions
        ]

    def undo(self) -> Step:
        step = self.session.undo_candidate()
        self.journal.append([Entry("undo", step.number)])
        return self.session.undo(step.number)

    def redo(self) -> Step:
        step = self.session.redo_candidate()
        self.journal.append([Entry("redo", step.number)])
        return self.session.redo(step.number)

    # -- a large step, journalled off the UI thread ------------------------------------
    #
    # A worker calls `write_decision`, `write_undo` or `write_redo`: the step is checked,
    # the index after it made on a copy, and the step journalled (one transaction). The
    # session is not touched, so the window may keep reading it; `install` then applies
    # the journalled step at once, on the window's thread. Until the commit ``monitor``
    # may stop it all, and nothing is written; after it the step is durable and must be
    # installed (it is in the journal either way: a restore replays it).

    def write_decision(
        self,
        requests: Sequence[DecisionRequest],
        reviewer: str,
        at: str,
        monitor: Monitor = NULL_MONITOR,
    ) -> Prepared:
        monitor.step("checking the decisions", 0.0)
        step = self.session.plan(requests, reviewer, at, monitor)
        monitor.step("the review after them", 0.4)
        prepared = self.session.prepare("apply", step, monitor)
        monitor.step("journalling", 0.7)
        self.journal.append(self._entries(step), monitor)
        return prepared

    def write_undo(self, monitor: Monitor = NULL_MONITOR) -> Prepared:
        return self._write_history("undo", self.session.undo_candidate(), monitor)

    def write_redo(self, monitor: Monitor = NULL_MONITOR) -> Prepared:
        return self._write_history("redo", self.session.redo_candidate(), monitor)

    def _write_history(self, kind: str, step: Step, monitor: Monitor) -> Prepared:
        monitor.step("the review after it", 0.0)
        prepared = self.session.prepare(kind, step, monitor)
        monitor.step("journalling", 0.9)
        self.journal.append([Entry(kind, step.number)], monitor)
        return prepared

    def install(self, prepared: Prepared) -> Step:
        """Apply a step a worker journalled (constant time)."""
        return self.session.commit(prepared)

    def mark_exported(self, completed_at: str, receipt_digest: str, path: str) -> None:
        detail = canonical(
            {"completedAt": completed_at, "receiptDigest": receipt_digest, "path": path}
        ).decode("utf-8")
        last = self.session.applied[-1].number if self.session.applied else 0
        self.journal.append([Entry("export", last, None, detail)])
        self.session.seal()
        self.last_export = ExportRecord(completed_at, path, receipt_digest)
