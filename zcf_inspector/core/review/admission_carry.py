"""A review carried across an admission change (issue 31, point 2).

A journal names the admission it was made under (its ``targetDigest``). When the
destination's settings change what is admitted (``maxBeliefBytes``…), the same packet's
journal no longer matches and used to be refused (``journal_mismatch``): every decision
hidden, "start over" the only way on. Instead, decisions on beliefs whose admitted bytes
are unchanged are kept, and the beliefs newly cut, demoted or changed reopen.

Each decision row records the digest of the belief as it was admitted when the decision
was taken (`decision_detail`, in the row's ``detail``: keyed and chained like the rest of
the row). Carrying over reads the earlier journal under the identity it names (verified
with its own key), takes each belief's last decision, and keeps it when the belief's
admitted digest now is the one recorded. The earlier journal is set aside (renamed with
its key, never deleted) and a new one is started for the new admission, holding the kept
decisions as rows marked ``carriedFrom`` the earlier admission: the journal says they
were carried under the new settings. A decision whose row has no digest (written before
this) is reopened, never carried blind.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.review.admitted_digest import ADMITTED, admitted_digest, decision_detail
from zcf_inspector.core.review.decisions import Decision, DecisionRequest, refuse
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import JournalIdentity, Row, journal_path
from zcf_inspector.core.review.journal_keys import JournalKeys
from zcf_inspector.core.review.journal_replay import replay
from zcf_inspector.core.review.journal_store import Entry, ReviewJournal, set_aside
from zcf_inspector.core.review.target import AdmittedBelief, ReviewTarget


@dataclass(frozen=True, slots=True)
class AdmissionCarry:
    """What carrying a review over to a new admission did."""

    carried: int  # decisions kept: the belief's admitted bytes are unchanged
    cut: int  # reopened: newly cut by maxBeliefBytes
    demoted: int  # reopened: newly demoted
    changed: int  # reopened: admitted otherwise than when decided (or not recorded)
    dropped: int  # decided beliefs this admission no longer admits
    kept_as: str  # where the earlier journal is kept
    from_digest: str  # the earlier admission's targetDigest
    # The first reopened beliefs and their earlier decision (ref, state, reviewer), so the
    # pane can say what each was: a decision reopened is never hidden.
    reopened_refs: tuple[tuple[str, str, str], ...] = ()

    @property
    def reopened(self) -> int:
        return self.cut + self.demoted + self.changed


SHOWN_REOPENED = 20  # reopened beliefs named with their earlier decision; the rest counted


def _stored_identity(path: Path) -> JournalIdentity | None:
    """The identity a journal names (read only; the full checks come with its rows)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        rows = conn.execute("SELECT * FROM review").fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    if len(rows) != 1 or len(rows[0]) != 5 or not all(isinstance(v, str) for v in rows[0]):
        return None
    return JournalIdentity(*(str(v) for v in rows[0]))


def _details(rows: list[Row]) -> dict[str, dict[str, object]]:
    """Each decided ref's recorded admission (from its last decision row with one)."""
    found: dict[str, dict[str, object]] = {}
    for row in rows:
        if row[4] != "decide" or row[6] is None or not row[12]:
            continue
        try:
            value = json.loads(row[12])
        except ValueError:
            continue
        if isinstance(value, dict):
            found[row[6]] = value
    return found


def _last_decisions(rows: list[Row], target: ReviewTarget, monitor: Monitor) -> list[Decision]:
    """The earlier review's last decision per belief, in the order they were taken.

    Replayed against this target with a placeholder for each ref it no longer admits,
    so undo and redo are read by the session's own rules."""
    known = target.refs
    missing: dict[str, None] = {}
    for row in rows:
        for ref in (row[6], row[11]):
            if ref is not None and ref not in known:
                missing[ref] = None
    ghosts = tuple(AdmittedBelief(ref, "", "", ReviewState.UNREVIEWED) for ref in missing)
    ghost = ReviewTarget(target.receipt, target.beliefs + ghosts, target.packet)
    session = replay(rows, ghost, monitor)
    last = session.last_decisions()
    return [d for d in session.decisions if last.get(d.portable_ref) is d]


def carry_across_admission(
    directory: str | Path,
    target: ReviewTarget,
    keys: JournalKeys,
    monitor: Monitor = NULL_MONITOR,
) -> tuple[JournaledReview, AdmissionCarry]:
    """The review of ``target`` continued from its journal made under another admission
    of the same packet; raises `ReviewError` (``journal_mismatch`` when it names another
    packet, or what reading it found)."""
    path = journal_path(directory, target.correlation_id)
    identity = JournalIdentity.of(target)
    earlier = _stored_identity(path)
    if earlier is None or earlier.as_tuple()[:4] != identity.as_tuple()[:4] or earlier == identity:
        raise refuse(
            ReviewCode.JOURNAL_MISMATCH,
            "the review journal names another packet; it was not applied",
        )
    rows = ReviewJournal(path, earlier, 0, keys).read(monitor)  # verified under its own key
    decisions = _last_decisions(rows, target, monitor)
    recorded = _details(rows)
    carried: list[Decision] = []
    reopened: list[tuple[str, str, str]] = []
    cut = demoted = changed = dropped = 0
    for decision in decisions:
        belief = target.belief(decision.portable_ref)
        if belief is None:
            dropped += 1
            continue
        if decision.state is ReviewState.UNREVIEWED:
            continue  # nothing to keep: the belief is unreviewed either way
        before = recorded.get(decision.portable_ref, {})
        replacement = decision.superseded_by
        if before.get(ADMITTED) == admitted_digest(belief) and (
            replacement is None or target.belief(replacement) is not None
        ):
            carried.append(decision)
            continue
        if len(reopened) < SHOWN_REOPENED:
            reopened.append((decision.portable_ref, str(decision.state), decision.reviewer))
        if belief.cut is not None and before.get("cut") is not True:
            cut += 1
        elif belief.demoted and before.get("demoted") is not True:
            demoted += 1
        else:
            changed += 1
    monitor.breathe()  # the last point where stopping leaves everything as it was
    kept = set_aside(path, keys)
    review = JournaledReview.open(directory, target, keys=keys, monitor=monitor)
    _write_carried(review, target, carried, earlier.target_digest)
    counts = AdmissionCarry(
        len(carried),
        cut,
        demoted,
        changed,
        dropped,
        str(kept),
        earlier.target_digest,
        tuple(reopened),
    )
    return review, counts


def _write_carried(
    review: JournaledReview, target: ReviewTarget, carried: list[Decision], source: str
) -> None:
    """The kept decisions as steps of the new journal, one per reviewer and time as they
    were taken, written in one transaction (200,000 decisions are one commit)."""
    session = review.session
    entries: list[Entry] = []
    group: list[Decision] = []

    def flush() -> None:
        if not group:
            return
        requests = [
            DecisionRequest(d.portable_ref, d.state, d.note, d.superseded_by) for d in group
        ]
        step = session.plan(requests, group[0].reviewer, group[0].at)
        session.apply(step)
        entries.extend(
            Entry("decide", step.number, d, decision_detail(target, d.portable_ref, source))
            for d in step.decisions
        )
        group.clear()

    for decision in carried:
        if group and (group[0].reviewer, group[0].at) != (decision.reviewer, decision.at):
            flush()
        group.append(decision)
    flush()
    if entries:
        review.journal.append(entries)
