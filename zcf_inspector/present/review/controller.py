"""The review's state machine, without Qt: what is reviewed, what may be done now, each step.

A `ReviewController` holds one pane's review: the packet and destination in force, the
review target, the journaled review, the previous generation compared with, and whether a
step or an open is under way. It decides — which steps may start (`enabled`), whether a
decision changes anything, which step undo or redo would take, whether a step is large
enough for the runner, what the carry-over repeats — and says it in words (the summary,
the signer, the out-of-date receipt, the questions before a bulk step or a close). The
window's pane (`gui.review.pane`) asks the reviewer, runs large steps on its runner and
renders what this says; it decides nothing itself.

While a step runs on the runner no other step starts, and nothing that reads the
review's steps (an export); while an open is under way nothing is decided at all.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.receipt_keys import ReceiptSigner, receipt_signer
from zcf_inspector.core.packet.trust import short_fingerprint
from zcf_inspector.core.review.admission_carry import AdmissionCarry
from zcf_inspector.core.review.carry_over import RepeatCounts, plan_carry_over, repeat_counts
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.previous import PreviousGeneration
from zcf_inspector.core.review.session import Step
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.core.visible_text import visible
from zcf_inspector.present.review.export import ExportPlan, summary_text
from zcf_inspector.present.review.previous_texts import previous_text
from zcf_inspector.present.review.rows import choice_text
from zcf_inspector.present.review.secrets import NO_SECRETS, ReviewSecrets

# Steps of up to this many decisions are made on the UI thread (a few milliseconds);
# larger ones on the runner.
SYNC_DECISIONS = 500
# Refusals of a journal that say nothing against its rows: it is not offered to be set aside.
SOUND_JOURNAL = frozenset({ReviewCode.JOURNAL_CONFLICT, ReviewCode.JOURNAL_UNAVAILABLE})
NO_DESTINATION = (
    "No destination is in force. Reviewing needs one: it admits the beliefs, "
    "keeps the clock and signs the receipt. Choose a destination file and "
    "reopen the packet."
)
COMPARISON_CLEARED = (
    "The comparison with the previous generation was cleared; compare again (Ctrl+Shift+P)."
)


@dataclass(frozen=True, slots=True)
class Enabled:
    """What may be done now, for the pane's actions and buttons."""

    decide: bool  # decide, bulk, export, compare with a previous generation
    set_aside: bool  # set a refused journal aside
    cancel: bool  # cancel the step or open in progress
    undo: bool
    redo: bool
    comparing: bool  # a comparison is shown: its banner, Repeat and Stop
    stop_previous: bool
    repeat: bool


@dataclass(frozen=True, slots=True)
class JournalRefusal:
    """Why the saved review was not opened, and whether it may be set aside."""

    title: str
    message: str
    set_aside: bool  # the journal was refused for what it holds: offered to be set aside


def plural(count: int, what: str) -> str:
    return f"{count:,} {what}{'s' if count != 1 else ''}"


class ReviewController:
    """One pane's review: its state, the steps it may take, and their words."""

    def __init__(self) -> None:
        self.packet_path = ""
        self.destination: Destination | None = None
        self.target: ReviewTarget | None = None
        self.review: JournaledReview | None = None
        self.previous: PreviousGeneration | None = None
        self.previous_paths: tuple[str, str] = ("", "")
        self.previous_ticket = 0  # a newer comparison (or packet) makes older ones stale
        self._repeat_counts: tuple[int, RepeatCounts] | None = None  # (session version, …)
        self.step_task: int | None = None  # the large step on the runner, if one is
        self.opening = False  # an open is under way (its review is not shown yet)

    # -- what is reviewed ------------------------------------------------------------------

    def show(self, path: str, destination: Destination | None) -> None:
        """A packet's open is being shown: nothing of the last review is left."""
        self.packet_path, self.destination = path, destination
        self.target, self.review = None, None

    def journal_opened(self, review: JournaledReview | ReviewError | None) -> JournalRefusal | None:
        """The review restored from the journal, or why the journal was refused."""
        if isinstance(review, ReviewError) or review is None:
            self.review = None
            if isinstance(review, ReviewError) and review.code in SOUND_JOURNAL:
                # Nothing is wrong with the saved review: another window has it, or the
                # file or its key cannot be used as things are. Never offer to set a
                # healthy journal aside.
                return JournalRefusal(
                    "Saved review not opened",
                    f"The saved review of this packet cannot be opened now; nothing was "
                    f"changed.\n{review}",
                    set_aside=False,
                )
            return JournalRefusal(
                "Saved review refused",
                f"The saved review of this packet was refused; nothing from it was applied.\n"
                f"{review}\nYou can set the saved review aside (it is kept, renamed) and start "
                "over.",
                set_aside=True,
            )
        self.review = review
        return None

    def restored_text(self) -> str:
        """Said once a review is restored ("" when it had no decision yet)."""
        restored = self.review.session.index.decision_count if self.review is not None else 0
        if not restored:
            return ""
        return f"Restored {plural(restored, 'decision')} from the review journal."

    @property
    def idle(self) -> bool:
        """No step runs on the runner and no open is under way."""
        return self.step_task is None and not self.opening

    @property
    def signer(self) -> ReceiptSigner | None:
        return None if self.destination is None else receipt_signer(self.destination)

    def enabled(self) -> Enabled:
        review = self.review
        idle = self.idle
        active = review is not None and idle
        counts = self.repeat_counts()
        # Stop and Repeat wait for a step only: an open replaces the comparison anyway.
        stepless = self.step_task is None
        return Enabled(
            decide=active,
            set_aside=idle,
            cancel=not idle,
            undo=active and review is not None and review.session.can_undo,
            redo=active and review is not None and review.session.can_redo,
            comparing=counts is not None,
            stop_previous=counts is not None and stepless,
            repeat=counts is not None and bool(counts.pending) and stepless,
        )

    # -- words about the review ------------------------------------------------------------

    def signer_label(self) -> tuple[str, str]:
        """Who will sign the receipt: a label's text and its tooltip (in full)."""
        signer = self.signer
        described = "" if signer is None else signer.describe()
        tooltip = described
        if signer is not None and signer.fingerprint is not None:
            # A wrapped label cannot break a 71-character fingerprint: shortened here,
            # in full in the tooltip, the export summary and Settings.
            described = described.replace(signer.fingerprint, short_fingerprint(signer.fingerprint))
        return described[:1].upper() + described[1:], tooltip

    def stale_text(self) -> str | None:
        """The exported receipt is out of date (None: it is not, or there is none)."""
        stale = self.review.stale_export if self.review is not None else None
        if stale is None:
            return None
        return (
            f"The receipt exported at {stale.completed_at} ({visible(stale.path)}) is out "
            "of date — export again (Ctrl+E)."
        )

    def summary_line(self) -> str:
        """The counts of the review on one line, and whether its receipt was exported."""
        review = self.review
        if review is None:
            return ""
        stale = review.stale_export
        exported = review.last_export
        sealed = ""
        if exported is not None and stale is None:
            sealed = f" — receipt exported at {exported.completed_at}"
        elif review.session.sealed and stale is None:
            sealed = " — receipt exported"
        return summary_text(review.session.summary()).replace("\n", " ") + sealed

    def unexported_count(self) -> int:
        """The decisions taken since the last export (all of them when none was made):
        those no receipt on disk holds."""
        review = self.review
        if review is None:
            return 0
        session = review.session
        return sum(len(step.decisions) for step in session.applied[session.sealed :])

    def close_question(self) -> str | None:
        """Asked before closing when decisions are in no exported receipt (None: close)."""
        count = self.unexported_count()
        if not count:
            return None
        stale = self.review.stale_export if self.review is not None else None
        held = (
            f"The receipt exported at {stale.completed_at} to {visible(stale.path)} is out "
            f"of date: {plural(count, 'decision')} {'was' if count == 1 else 'were'} taken "
            "after it."
            if stale is not None
            else f"This review holds {plural(count, 'decision')} that no exported receipt has."
        )
        return (
            f"{held}\n\nExport… writes the receipt first. Keep for later closes: the review "
            "journal keeps the decisions and the next open of this packet restores them. "
            "Discard sets the saved review aside (kept on disk, renamed) and the next open "
            "starts over."
        )

    @staticmethod
    def carried_text(carry: AdmissionCarry) -> str:
        """What carrying the review over to new settings did, with how many of each."""
        reopened = [
            plural(n, what)
            for n, what in (
                (carry.cut, "newly cut belief"),
                (carry.demoted, "newly demoted belief"),
                (carry.changed, "changed belief"),
            )
            if n
        ]
        text = (
            f"The settings changed what is admitted: {plural(carry.carried, 'decision')} "
            "on beliefs admitted byte for byte as before "
            f"{'was' if carry.carried == 1 else 'were'} kept (the journal records them as "
            "carried under these settings)"
        )
        text += f"; reopened: {', '.join(reopened)}" if reopened else "; none reopened"
        if carry.dropped:
            text += f"; {plural(carry.dropped, 'decided belief')} no longer admitted"
        if carry.reopened_refs:
            named = ", ".join(
                f"{visible(ref)} (was {state} by {visible(reviewer)})"
                for ref, state, reviewer in carry.reopened_refs
            )
            more = carry.reopened - len(carry.reopened_refs)
            text += f". Reopened: {named}" + (f" and {more:,} more" if more > 0 else "")
        return text + f". The earlier review is kept as {visible(carry.kept_as)}."

    def admission_text(self) -> str | None:
        """What admission changed, above the table (None when it changed nothing)."""
        notice = self.target.notice if self.target is not None else None
        return notice.text if notice is not None and notice.changed else None

    @property
    def dropped_count(self) -> int:
        dropped = self.target.dropped if self.target is not None else None
        return len(dropped) if dropped is not None else 0

    def dropped_text(self) -> str | None:
        """The heading of the dropped beliefs' window (None: admission dropped none)."""
        notice = self.target.notice if self.target is not None else None
        if not self.dropped_count or notice is None:
            return None
        return (
            f"{notice.lines[0]}. These beliefs were not admitted: they are not reviewed and "
            "not in the receipt. Shown as the packet wrote them."
        )

    def source_fingerprint(self) -> str | None:
        """The key that authenticated the packet, if one did."""
        auth = self.target.packet.get("authentication") if self.target else None
        value = auth.get("publicKeyFingerprint") if isinstance(auth, dict) else None
        return value if isinstance(value, str) else None

    def self_review_text(self, reviewer_fingerprint: str | None) -> str:
        """A warning when the reviewer's key is the packet's own ("" when it is not)."""
        source = self.source_fingerprint()
        if reviewer_fingerprint is None or reviewer_fingerprint != source:
            return ""
        return (
            f"Self-review: your reviewer key {source} is the key that authenticated this "
            "packet. Beliefs should be reviewed by someone other than their source."
        )

    # -- steps -------------------------------------------------------------------------------

    def unchanged(self, request: DecisionRequest) -> bool:
        """Re-deciding a belief's current state with no note adds nothing to the receipt."""
        assert self.review is not None
        last = self.review.session.last_decisions().get(request.portable_ref)
        return request.note is None and (
            request.state is ReviewState.UNREVIEWED if last is None else last.state is request.state
        )

    def replacements(self, ref: str, secrets: ReviewSecrets = NO_SECRETS) -> list[tuple[str, str]]:
        """The beliefs that may supersede ``ref``: (portableRef, content) of every other,
        a suspected credential (``secrets``: the review's scan) masked as in its row."""
        assert self.target is not None
        by_ref = secrets.by_ref
        return [
            (b.portable_ref, choice_text(b, by_ref.get(b.portable_ref, ())))
            for b in self.target.beliefs
            if b.portable_ref != ref
        ]

    def record(self, requests: list[DecisionRequest], reviewer: str) -> Step:
        """A small step, now (raises `ReviewError` when a rule or the journal refuses)."""
        assert self.review is not None
        assert self.destination is not None
        return self.review.decide(requests, reviewer, self.destination.now_text())

    @staticmethod
    def on_runner(count: int) -> bool:
        """Whether a step of ``count`` decisions is large enough for the runner."""
        return count > SYNC_DECISIONS

    @staticmethod
    def bulk_question(state: ReviewState, asked: int, refs: Sequence[str]) -> str:
        """Asked before marking ``refs`` (of ``asked`` rows) ``state``."""
        skipped = asked - len(refs)
        text = f"Mark {len(refs):,} belief{'s' if len(refs) != 1 else ''} as {state}?"
        if skipped:
            text += f"\n{skipped:,} already {state} " + (
                "is left as it is." if skipped == 1 else "are left as they are."
            )
        return text

    def history_candidate(self, *, redo: bool) -> Step:
        """The step undo (or redo) would take (raises `ReviewError` when there is none)."""
        assert self.review is not None
        session = self.review.session
        return session.redo_candidate() if redo else session.undo_candidate()

    # -- the previous generation -------------------------------------------------------------

    def new_previous_ticket(self) -> int:
        """A comparison starts: any older one still coming is stale."""
        self.previous_ticket += 1
        return self.previous_ticket

    def accepts_previous(self, ticket: int, previous: PreviousGeneration) -> bool:
        """Whether a comparison that came back is still the one wanted, for this packet."""
        return (
            ticket == self.previous_ticket
            and self.target is not None
            and previous.current_correlation_id == self.target.correlation_id
        )

    def install_previous(self, previous: PreviousGeneration, paths: tuple[str, str]) -> None:
        self.previous, self.previous_paths = previous, paths
        self._repeat_counts = None

    def forget_previous(self) -> bool:
        """Stop comparing; whether a comparison was shown."""
        self.previous_ticket += 1
        had = self.previous is not None
        self.previous = None
        self._repeat_counts = None
        return had

    def repeat_counts(self) -> RepeatCounts | None:
        """What the carry-over would repeat now; counted once per change of the review."""
        previous, review = self.previous, self.review
        if previous is None or review is None:
            return None
        version = review.session.version
        if self._repeat_counts is None or self._repeat_counts[0] != version:
            counts = repeat_counts(previous, review.session.last_decisions())
            self._repeat_counts = (version, counts)
        return self._repeat_counts[1]

    def previous_banner(self) -> str:
        """What is compared with ("" when nothing is)."""
        counts = self.repeat_counts()
        if self.previous is None or counts is None:
            return ""
        return previous_text(self.previous, self.previous_paths, counts)

    def repeat_button_text(self) -> str:
        counts = self.repeat_counts()
        return f"Repeat {counts.pending:,} earlier decisions…" if counts is not None else ""

    def carry_over(
        self, note: str, *, accept_untrusted: bool, leave_out: Collection[str] = frozenset()
    ) -> Callable[[Monitor], Sequence[DecisionRequest]]:
        """The carry-over's requests, made by a worker from the decisions as they are now;
        none for the beliefs of ``leave_out`` (flagged ones the reviewer would not confirm
        again: they stay as they are)."""
        previous, review = self.previous, self.review
        assert previous is not None
        assert review is not None
        # Read by the worker: the session's index is replaced whole by a step, never
        # changed in place while a step runs (no other step starts meanwhile).
        last = review.session.last_decisions()

        def requests(monitor: Monitor) -> Sequence[DecisionRequest]:
            planned = plan_carry_over(
                previous, last, note, monitor, accept_untrusted=accept_untrusted
            ).requests
            if not leave_out:
                return planned
            return [r for r in planned if r.portable_ref not in leave_out]

        return requests

    @staticmethod
    def repeated_text(step: Step, reviewer: str) -> str:
        count = len(step.decisions)
        return (
            f"Repeated {count:,} earlier decision{'s' if count != 1 else ''} as "
            f"{visible(reviewer)}, in one step (Ctrl+Z undoes them together)."
        )

    # -- export ------------------------------------------------------------------------------

    def export_plan(self) -> ExportPlan | None:
        """The export of the review as it is now (None: there is no review to export)."""
        review, destination, target = self.review, self.destination, self.target
        if review is None or destination is None:
            return None
        assert target is not None
        return ExportPlan(review, destination, target)
