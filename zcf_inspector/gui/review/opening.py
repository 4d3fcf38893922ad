"""Opening a review, on the runner: the review target, the journal, the comparison again.

Every open of a packet's review — the first, a reload, a re-check under other settings,
a journal set aside — runs `open_review` on the window's runner: `prepare_review` (when
the load did not), `JournaledReview.open` (restoring 200,000 decisions takes seconds)
and, when the pane was comparing with a previous generation, that comparison made again
against the new target. The pane shows the answer in one go (`ReviewPane`), so the
reviewer never sees a half-restored review, and puts back what the reviewer was looking
at (`ReviewView`): the current and selected beliefs, the scroll position, the comparison
and its "since" filter.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.reading import fast_path_limit
from zcf_inspector.core.review.admission_carry import AdmissionCarry, carry_across_admission
from zcf_inspector.core.review.decisions import ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_keys import JournalKeys
from zcf_inspector.core.review.previous import PreviousGeneration, load_previous
from zcf_inspector.core.review.target import ReviewPreparation, prepare_review
from zcf_inspector.gui.calm import wait_until_calm
from zcf_inspector.gui.documents import FAST_READ_MAX_BYTES
from zcf_inspector.present.review.evidence import DetailIndex, detail_index
from zcf_inspector.present.review.table import (
    Filters,
    TableFacts,
    evidence_counts,
    next_unreviewed,
    position,
    shown_rows,
)


@dataclass(frozen=True, slots=True)
class ReviewView:
    """What the reviewer was looking at, put back after the same packet is opened again."""

    current: str | None  # the highlighted belief's portableRef
    selected: tuple[tuple[str, str], ...]  # each selected range, as its first and last ref
    scroll: int  # the table's vertical scroll position
    previous_paths: tuple[str, str] | None  # the previous generation compared with
    since_index: int  # the "since that receipt" filter's choice


@dataclass(frozen=True, slots=True)
class ReviewOpen:
    """One open of a packet's review (made on the UI thread, run on the runner)."""

    path: str
    data: bytes
    inspection: PacketInspection
    destination: Destination
    prepared: ReviewPreparation | None  # made by the load; None: made here
    data_dir: Path
    key_dir: Path
    filters: Filters  # the table's, when the open was asked for
    view: ReviewView | None = None  # the same packet shown again: what to put back


@dataclass(frozen=True, slots=True)
class OpenedReview:
    request: ReviewOpen
    prepared: ReviewPreparation
    evidence: dict[str, int]  # the table's Evidence column
    review: JournaledReview | ReviewError | None  # None: nothing to review
    previous: PreviousGeneration | ZcfError | None  # the comparison, made again
    detail: DetailIndex | None = None  # each belief's evidence and history, for the detail
    filters: Filters = field(default_factory=Filters)  # those ``rows`` pass (as far as apply)
    rows: tuple[int, ...] | None = None  # the table's rows for them
    start: int | None = None  # the shown row to continue at (first unreviewed after the last)
    carried: AdmissionCarry | None = None  # the review was carried over from another admission


def open_review(
    request: ReviewOpen, monitor: Monitor, *, ready: threading.Event | None = None
) -> OpenedReview:
    """Worker-thread work: everything a review pane needs before it shows the review.
    With ``ready``, it first waits until the UI thread is calm (`gui/calm.py`): an open
    follows a load, and the new tab's first paints come first."""
    wait_until_calm(ready, monitor)
    monitor.step("preparing the review", 0.0)
    prepared = request.prepared
    if prepared is None:
        prepared = prepare_review(request.data, request.inspection, request.destination)
    target = prepared.target
    if target is None:
        return OpenedReview(request, prepared, {}, None, None)
    evidence = evidence_counts(target.packet)
    detail = detail_index(target.packet, target.beliefs, monitor)  # with the secret scan
    monitor.step("restoring the saved review", 0.1)
    carried: AdmissionCarry | None = None
    try:
        review = JournaledReview.open(
            request.data_dir, target, keys=request.key_dir, monitor=monitor
        )
    except ReviewError as exc:
        if exc.code != ReviewCode.JOURNAL_MISMATCH:
            return OpenedReview(request, prepared, evidence, exc, None, detail)
        # Made under other settings (issue 31): carried over, never hidden.
        monitor.step("carrying the review over to these settings", 0.2)
        try:
            review, carried = carry_across_admission(
                request.data_dir, target, JournalKeys(request.key_dir), monitor
            )
        except ReviewError as again:
            return OpenedReview(request, prepared, evidence, again, None, detail)
    previous: PreviousGeneration | ZcfError | None = None
    paths = request.view.previous_paths if request.view is not None else None
    if paths is not None:
        monitor.step("comparing with the previous generation again", 0.7)
        try:
            with fast_path_limit(FAST_READ_MAX_BYTES):
                previous = load_previous(*paths, request.destination, target, monitor)
        except ZcfError as exc:
            if isinstance(exc, Cancelled):
                raise
            previous = exc  # said beside the review, which is shown all the same
    # The table's rows and where to continue, here too: over 200,000 beliefs either takes
    # longer than a frame.
    monitor.step("the table's rows", 0.9)
    comparing = isinstance(previous, PreviousGeneration)
    filters = request.filters if comparing else replace(request.filters, since=None)
    last = review.session.last_decisions()
    changes = previous.classification.changes if isinstance(previous, PreviousGeneration) else None
    secrets = detail.secrets
    facts = TableFacts(target.beliefs, last, evidence, changes, secrets.flagged, secrets.by_ref)
    rows = shown_rows(facts, filters, monitor)
    decided = review.session.last_decision
    after = None
    if decided is not None:
        row = target.rows.get(decided.portable_ref)
        at = position(rows, row) if row is not None else len(rows)
        after = at if at < len(rows) and rows[at] == row else None
    start = next_unreviewed(facts, rows, after, monitor) if rows else None
    if start is None:
        start = after if after is not None else 0
    return OpenedReview(
        request, prepared, evidence, review, previous, detail, filters, rows, start, carried
    )
