"""What an export of a review says and does: the summary the reviewer confirms, then the
signed receipt written atomically and journalled.

An `ExportPlan` is made when the export is asked for and holds the review and destination
as they were then; the window asks its questions (`gui.review.export_flow`) and the plan
writes. Every word here is the reviewer's to read before and after the export.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zcf_inspector.core.atomic import (
    TargetExistsError,
    TargetNotAFileError,
    UnwritableFileError,
    write_atomic,
)
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.admission import AdmissionNotice
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.packet.receipt_keys import ReceiptSigner, receipt_signer
from zcf_inspector.core.review.decisions import ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.session import ReviewSummary
from zcf_inspector.core.review.target import AdmittedBelief, ReviewTarget
from zcf_inspector.core.visible_text import shown
from zcf_inspector.present.clock import fixed_clock_words

CUT_LISTED = 20  # cut beliefs named in an export summary before "and N more"
REF_CHARS = 80


def summary_text(summary: ReviewSummary) -> str:
    counts = ", ".join(f"{summary.counts[s]:,} {s}" for s in ReviewState)
    return (
        f"{summary.total:,} admitted beliefs: {counts}.\n"
        f"{summary.decisions:,} decision{'s' if summary.decisions != 1 else ''} recorded."
    )


def export_summary_text(
    summary: ReviewSummary,
    notice: AdmissionNotice | None,
    signer: ReceiptSigner,
    cut: Sequence[AdmittedBelief] = (),
    clock: str | None = None,
) -> str:
    """What the reviewer confirms before an export: the decisions, everything admission
    changed (each belief it cut, by name), which key will sign the receipt (and how to
    check it), and ``clock``, a fixed clock in force (`present.clock`)."""
    parts = [summary_text(summary)]
    if clock:
        parts.append(clock + ".")
    if notice is not None and notice.changed:
        parts.append(
            "Admission (the receipt records it):\n"
            + "\n".join(f"• {line}" for line in notice.lines)
        )
    if cut:
        lines = [
            f"• {shown(b.portable_ref, REF_CHARS)}: {b.cut.text}"
            for b in cut[:CUT_LISTED]
            if b.cut is not None
        ]
        if len(cut) > CUT_LISTED:
            lines.append(f"• … and {len(cut) - CUT_LISTED:,} more")
        parts.append(
            "Cut beliefs (reviewed, and in the receipt, as admitted — not as written):\n"
            + "\n".join(lines)
        )
    if signer.fingerprint is None:
        parts.append(
            f"The receipt will be UNSIGNED: destination {signer.destination_id} has no "
            "signingKey, so nothing proves who wrote it."
        )
    else:
        parts.append(
            f"The receipt will be signed by destination {signer.destination_id}'s signingKey\n"
            f"{signer.fingerprint}\n"
            "(not by your reviewer key). Check it with: zcf-inspector receipt verify "
            "--destination DESTINATION.json, or --key with the public key from Settings."
        )
    return "\n\n".join(parts)


@dataclass(frozen=True, slots=True)
class Exported:
    """A receipt written: its digest, who signed it, and whether the journal has it."""

    path: str
    digest: str
    signed: str  # who signed the receipt, in words (or that nobody did)
    not_journalled: str | None  # the receipt was written, but the journal refused to say so

    @property
    def text(self) -> str:
        """What the reviewer is told once it is written."""
        return f"Receipt written to {self.path}\n{self.signed}\nreceiptDigest {self.digest}"


class ExportPlan:
    """One export, from its summary to the receipt on disk, of the review as it was when
    the export was asked for."""

    def __init__(
        self, review: JournaledReview, destination: Destination, target: ReviewTarget
    ) -> None:
        self.review = review
        self.destination = destination
        self.summary = review.session.summary()
        self.signer = receipt_signer(destination)
        self.summary_text = export_summary_text(
            self.summary,
            target.notice,
            self.signer,
            target.cut_beliefs,
            fixed_clock_words(destination),
        )

    @property
    def unreviewed_question(self) -> str | None:
        """Asked when beliefs are left unreviewed (None: none are)."""
        summary = self.summary
        if not summary.unreviewed:
            return None
        return (
            f"{summary.unreviewed} of {summary.total} beliefs are still unreviewed; they stay "
            "unreviewed in the receipt. Export anyway?"
        )

    def write(self, path: str, *, overwrite: bool) -> Exported | str:
        """Sign the receipt now and write it atomically to ``path``, then journal the export.
        A text instead: why nothing was written (the review is kept as it was)."""
        completed = self.destination.now_text()
        receipt = self.review.session.receipt(completed, self.destination.signing_key)
        try:
            write_atomic(path, receipt_bytes(receipt), overwrite=overwrite)
        except (UnwritableFileError, TargetExistsError, TargetNotAFileError) as exc:
            if isinstance(exc, UnwritableFileError):
                reason = exc.reason
            elif isinstance(exc, TargetNotAFileError):
                reason = "it is not a regular file, so it is not replaced"
            else:
                reason = "a file of that name appeared meanwhile"
            return (
                f"The receipt could not be written to {path}: {reason}.\n"
                "Nothing was written; the review is kept and can be exported again."
            )
        digest = str(receipt["receiptDigest"])
        problem = None
        try:
            self.review.mark_exported(completed, digest, path)
        except ReviewError as exc:
            problem = f"The receipt was written, but {exc}"
        signer = self.signer
        if signer.fingerprint is None:
            signed = f"UNSIGNED (destination {signer.destination_id} has no signingKey)"
        else:
            signed = f"signed by destination {signer.destination_id}'s key {signer.fingerprint}"
        return Exported(path, digest, signed, problem)
