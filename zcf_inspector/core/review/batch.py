"""A whole review in one call: ingest, the previous generation, the decisions, the receipt.

What the `review` command does between reading its files and printing — the command runs
through it, and so does `zcf_inspector.api.review`: the same steps in the same order as
the window — compare with the previous generation, repeat its decisions on unchanged
beliefs as one step, then apply the decisions in order — so that the receipt is byte for
byte the one the window and the command write. Refusals are results, not exceptions: a
refused packet, a refused previous generation or any refused decision leaves ``receipt``
None with every reason.

Memory: a decisions file may be 64 MiB (about 1.4 million decisions). Given as its bytes,
it is parsed here and the parsed value let go of once the requests are made from it, and
the requests once they are applied, so that the JSON, the requests and the receipt are
never all held at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zcf_inspector.core.errors import InputError
from zcf_inspector.core.findings import Finding, FindingBudget, OmittedFindings
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import IngestResult, ingest_bytes
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES, ReadError, read_json
from zcf_inspector.core.review.carry_over import plan_carry_over
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.decisions_file import parse_decision_requests
from zcf_inspector.core.review.previous import PreviousGeneration, load_previous
from zcf_inspector.core.review.session import ReviewSession, apply_decisions
from zcf_inspector.core.review.target import ReviewTarget

# The largest decisions file a review reads (the command's --decisions, the API's).
DECISIONS_MAX_BYTES = 64 * 1024 * 1024


class DecisionsFileError(InputError):
    """A decisions file that is not strict JSON; ``reason`` is the reader's refusal (the
    command names the file with it)."""

    code = "decisions_file_invalid"

    def __init__(self, reason: ReadError) -> None:
        super().__init__(f"the decisions file is not strict JSON: {reason}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """What a review produced: the receipt, or why there is none.

    ``ingest`` is the packet's admission (its own findings are there: a packet refused at
    the destination has ``ingest.receipt`` None too); ``findings`` and ``omitted`` are the
    refusals of the previous generation and of the decisions; ``previous`` is the previous
    generation as compared (None when it was refused), ``repeated`` how many of its
    decisions were repeated and ``carried_over`` whether that step was made (it is not when
    the carry-over was refused)."""

    ingest: IngestResult
    receipt: dict[str, JsonValue] | None
    findings: tuple[Finding, ...] = ()
    omitted: tuple[OmittedFindings, ...] = ()
    previous: PreviousGeneration | None = None
    repeated: int = 0
    carried_over: bool = False

    @property
    def refused(self) -> bool:
        """True when no receipt was made (the packet, the previous generation or a
        decision was refused)."""
        return self.receipt is None


def check_review_options(
    *,
    has_decisions: bool,
    previous: object | None,
    previous_receipt: object | None,
    repeat_unchanged: bool,
    repeat_note: str | None,
) -> None:
    """The combinations the `review` command refuses as usage errors, as `InputError`."""
    if (previous is None) != (previous_receipt is None):
        raise InputError("previous and previous_receipt are given together")
    if repeat_unchanged and previous is None:
        raise InputError("repeat_unchanged needs previous and previous_receipt")
    if repeat_unchanged and (repeat_note is None or not repeat_note.strip()):
        raise InputError(
            "repeat_unchanged needs a repeat_note: the repeated decisions become the "
            "reviewer's, so say why"
        )
    if repeat_note is not None and not repeat_unchanged:
        raise InputError("repeat_note is only used with repeat_unchanged")
    if not has_decisions and not repeat_unchanged:
        raise InputError("give decisions, or repeat_unchanged, or both")


def review_packet(
    data: bytes,
    destination: Destination,
    decisions: JsonValue | bytes | None,
    *,
    reviewer: str,
    previous: str | os.PathLike[str] | None = None,
    previous_receipt: str | os.PathLike[str] | None = None,
    repeat_unchanged: bool = False,
    repeat_note: str | None = None,
    accept_unsigned_previous: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    on_admitted: Callable[[IngestResult], None] | None = None,
) -> ReviewResult:
    """Review the packet ``data`` at ``destination`` as ``reviewer``.

    ``decisions`` is the decisions file (``[{"portableRef", "state", "note"?,
    "supersededBy"?}, …]``, applied in order): its bytes (read strictly, at most
    `DECISIONS_MAX_BYTES`, before the packet is ingested) or its parsed value.
    ``accept_unsigned_previous``: repeat the earlier decisions even when no key the
    destination trusts signed the previous receipt. ``on_admitted`` is called with the
    ingest result once the packet is admitted, before the previous generation is read
    (the command prints the packet's warnings there).

    Raises:
        InputError: a usage error (see `check_review_options`) or a previous-generation
            file that cannot be read.
        DecisionsFileError: the decisions bytes are not strict JSON (an `InputError`).
    """
    check_review_options(
        has_decisions=decisions is not None,
        previous=previous,
        previous_receipt=previous_receipt,
        repeat_unchanged=repeat_unchanged,
        repeat_note=repeat_note,
    )
    if isinstance(decisions, bytes):
        try:
            decisions = read_json(decisions, max_bytes=DECISIONS_MAX_BYTES)
        except ReadError as exc:
            raise DecisionsFileError(exc) from exc
    admitted = ingest_bytes(data, destination, max_bytes=max_bytes)
    if admitted.receipt is None:
        return ReviewResult(admitted, None)
    if on_admitted is not None:
        on_admitted(admitted)
    session = ReviewSession(ReviewTarget.from_ingest(admitted))
    problems = FindingBudget()
    earlier: PreviousGeneration | None = None
    repeated, carried_over = 0, False
    if previous is not None and previous_receipt is not None:
        try:
            earlier = load_previous(
                os.fspath(previous), os.fspath(previous_receipt), destination, session.target
            )
        except ReviewError as exc:
            problems.extend(exc.findings)  # nothing else is applied after a refusal
            return ReviewResult(admitted, None, tuple(problems.kept), problems.omitted())
        if repeat_unchanged:
            count, found = _repeat(
                session, earlier, reviewer, repeat_note or "", destination,
                accept_untrusted=accept_unsigned_previous,
            )  # fmt: skip
            problems += found
            carried_over, repeated = count is not None, count or 0
    requests: Sequence[DecisionRequest | None] = []
    if decisions is not None:
        requests, _ = parse_decision_requests(decisions, problems)
        decisions = None  # the parsed file, let go of: the requests hold what it said
    try:
        apply_decisions(session, requests, reviewer, destination.now_text, problems)
    except ReviewError as exc:
        problems.extend(exc.findings)
    requests = []  # applied: the session holds the decisions
    if problems.kept or problems.omitted():
        return ReviewResult(
            admitted, None, tuple(problems.kept), problems.omitted(), earlier, repeated,
            carried_over,
        )  # fmt: skip
    receipt = session.receipt(destination.now_text(), destination.signing_key)
    return ReviewResult(admitted, receipt, (), (), earlier, repeated, carried_over)


def _repeat(
    session: ReviewSession,
    previous: PreviousGeneration,
    reviewer: str,
    note: str,
    destination: Destination,
    *,
    accept_untrusted: bool,
) -> tuple[int | None, list[Finding]]:
    """The carry-over as one step, before the decisions (the window's order: compare,
    repeat, then review what changed): how many decisions it repeated (None: it was
    refused), and its refusals."""
    try:
        plan = plan_carry_over(
            previous, session.last_decisions(), note, accept_untrusted=accept_untrusted
        )
    except ReviewError as exc:
        return None, list(exc.findings)
    if plan.requests:
        try:
            step = session.plan(list(plan.requests), reviewer, destination.now_text())
        except ReviewError as exc:
            return None, list(exc.findings)
        session.apply(step)
    return len(plan.requests), []
