"""The audit report's words (issue 32): what a lead or an auditor reads of a reviewed
packet — the packet's verdict and trust level and the receipt's in the presenters' own
words, who reviewed and when, the counts, every decision with its note, each belief's
evidence and workspace statuses, what the secret scan suspects (masked) and hostile
text, and what was carried over from a previous generation.

Every document string is made visible by the one rule (`core.visible_text`) and masked
where the secret scan flags it (`present.review.secrets`): the report never holds a
suspected credential's value, and a writer only has to escape for its own markup.
A receipt that does not belong to the packet gets a report that says so and stops.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import PurePath
from typing import Final

from zcf_inspector.core.findings import Finding
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.hostile.scan import TextScan
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.review.audit import AuditFacts
from zcf_inspector.core.review.previous import earlier_decisions
from zcf_inspector.core.review.previous_trust import UNSIGNED_ORIGIN, signer_fingerprint
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.core.secrets.masking import masked_shown, masked_visible
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.core.visible_text import clip, visible
from zcf_inspector.present import packet as packet_words
from zcf_inspector.present import receipt as receipt_words
from zcf_inspector.present.audit_model import AuditReport, Entry, Fact, Line, Section, Table, Tone
from zcf_inspector.present.review.evidence import (
    NO_WORKSPACE,
    DetailIndex,
    LineStyle,
    WorkspaceFacts,
    detail_index,
    evidence_lines,
    workspace_facts,
)
from zcf_inspector.present.review.secrets import hit_words, masked, masked_note
from zcf_inspector.present.vocabulary import SEPARATOR, CheckStatus, Chip, Trust, weakest

SHOWN_FINDINGS: Final = 100  # differences listed when a receipt is of another packet
NOTE_CHARS: Final = 4000  # of a note shown (a longer one says how long it was)
CONTENT_CHARS: Final = 4000  # of a belief's content shown
MISMATCH_HEADLINE: Final = "RECEIPT DOES NOT MATCH THE PACKET"
NOT_A_REVIEW: Final = "NO REPORT"
NO_WORKSPACE_REPORT: Final = "Claims vs workspace: not checked (no workspace folder was named)"
# The note a carried-over decision has (`core.review.carry_over.repeat_note`): "repeated
# from receipt DIGEST" or, from a receipt no trusted key signed, "repeated from an
# unsigned receipt DIGEST".
_UNSIGNED_SOURCE: Final = UNSIGNED_ORIGIN.removeprefix("from ")
_REPEATED: Final = re.compile(
    rf"repeated from ({re.escape(_UNSIGNED_SOURCE)}|receipt) (sha256:[0-9a-f]{{64}})"
)
_STYLE_TONE: Final = {
    LineStyle.GOOD: Tone.GOOD,
    LineStyle.CAUTION: Tone.CAUTION,
    LineStyle.DETAIL: Tone.DETAIL,
}
_STATE_TONE: Final = {
    ReviewState.CONFIRMED: Tone.GOOD,
    ReviewState.REJECTED: Tone.BAD,
    ReviewState.SUPERSEDED: Tone.CAUTION,
    ReviewState.UNREVIEWED: Tone.DETAIL,
}
_CHECK_TONE: Final = {
    CheckStatus.PASS: Tone.GOOD,
    CheckStatus.FAIL: Tone.BAD,
    CheckStatus.NOT_CHECKABLE: Tone.CAUTION,
    CheckStatus.NOT_RUN: Tone.DETAIL,
    CheckStatus.CHANGED: Tone.CAUTION,  # admission dropped, cut or demoted something
}
TRUST_TONE: Final = {
    Trust.VERIFIED: Tone.GOOD,
    Trust.UNSIGNED: Tone.PLAIN,  # neutral, never green
    Trust.UNCHECKED: Tone.CAUTION,
    Trust.REFUSED: Tone.BAD,
}


def text(value: JsonValue, limit: int = CONTENT_CHARS) -> str:
    """A document string as the report shows it: masked and cut, then made visible. Every
    string, not only those the packet scan flags by pointer: a portable ref, an id or a
    finding's message is a text that scan does not read (issue 34, point 1)."""
    return masked_shown(value, limit) if isinstance(value, str) else ""


def note_text(note: str | None) -> str:
    return "" if not note else visible(clip(masked_note(note), NOTE_CHARS))


def build_report(
    facts: AuditFacts,
    packet_name: str,
    receipt_name: str,
    *,
    secrets: SecretScan | None = None,
    hostile: TextScan | None = None,
) -> AuditReport:
    """The report of ``facts`` (`core.review.audit.audit_facts`); the names are what the
    caller calls the two files (shown as given, made visible). ``secrets`` and
    ``hostile``: the packet's scans, made by the opener (the one place a packet is
    scanned), counted on the packet verdict's admission chip as every front end does and
    listed among the flags."""
    title = f"Audit report — {visible(PurePath(packet_name).name or packet_name)}"
    files = (Fact("packet file", visible(packet_name)), Fact("receipt file", visible(receipt_name)))
    inspection = facts.ingest.inspection
    target = facts.target
    notice = target.notice if target is not None else None
    shown_packet = packet_words.verdict(inspection, notice, secrets, hostile)
    shown_receipt = receipt_words.verdict(facts.report)
    trust = weakest(shown_packet.trust, shown_receipt.trust)
    verdicts = _verdicts(
        files,
        facts,
        packet=shown_packet.words,
        packet_trust=shown_packet.trust,
        receipt=shown_receipt.words,
        receipt_trust=shown_receipt.trust,
    )
    if target is None or facts.receipt is None:
        if target is None:
            head = "The packet was refused at this destination: it has no admitted beliefs."
            reasons: tuple[Finding, ...] = (*facts.refusal, *facts.ingest.findings[:20])
        else:
            head = "The receipt could not be read as strict JSON."
            reasons = facts.report.findings
        why = [f"{f.code}: {text(f.message)}" for f in reasons]
        stop = Section("No review to report", (head, *why))
        return AuditReport(title, NOT_A_REVIEW, Trust.REFUSED, (verdicts, stop), True)
    if facts.mismatch:
        stop = Section(
            "This receipt does not belong to this packet",
            ("The receipt was not made for this packet as admitted at this destination. "
             "Nothing of its review is reported.",),
            table=_findings_table(facts.mismatch),
        )  # fmt: skip
        return AuditReport(title, MISMATCH_HEADLINE, Trust.REFUSED, (verdicts, stop), True)
    receipt = facts.receipt
    index = detail_index(target.packet, target.beliefs)
    headline = SEPARATOR.join(("AUDIT REPORT", shown_packet.words, shown_receipt.words))
    sections = (
        verdicts,
        _review_section(receipt),
        _counts_section(target, receipt),
        _decisions_section(receipt),
        _flags_section(target, index, receipt, secrets),
        _beliefs_section(facts, target, index, receipt),
        _previous_section(receipt),
        _checks_section(shown_packet.rows, shown_receipt.rows),
    )
    return AuditReport(title, headline, trust, sections)


def _verdicts(
    files: tuple[Fact, ...],
    facts: AuditFacts,
    *,
    packet: str,
    packet_trust: Trust,
    receipt: str,
    receipt_trust: Trust,
) -> Section:
    value = facts.receipt or {}
    signer = signer_fingerprint(value)
    if signer is None:
        signed_by = "not signed"
    elif facts.signer_is_own is True:
        signed_by = f"{signer} (this destination's signingKey)"
    elif facts.signer_is_own is False:
        signed_by = f"{signer} (one of this destination's trustedKeys)"
    else:
        signed_by = f"{signer} (no key this destination trusts: not checked)"
    digest = facts.report.listed_digest or "(none listed)"
    if facts.report.valid and not facts.report.digest_matches:
        digest += f" (computed {facts.report.computed_digest})"
    return Section(
        "Packet and receipt",
        facts=(
            *files,
            Fact("packet verdict", packet, TRUST_TONE[packet_trust]),
            Fact("packet trust level", str(packet_trust), TRUST_TONE[packet_trust]),
            Fact("receipt verdict", receipt, TRUST_TONE[receipt_trust]),
            Fact("receipt trust level", str(receipt_trust), TRUST_TONE[receipt_trust]),
            Fact("receipt digest", text(digest)),
            Fact("signature", text(facts.trust_words)),
            Fact("signed by", text(signed_by)),
        ),
    )


def _review_section(receipt: dict[str, JsonValue]) -> Section:
    decisions = _decisions(receipt)
    reviewers = list(dict.fromkeys(text(d.get("reviewer"), 300) for d in decisions))
    times = sorted(t for t in (text(d.get("at"), 64) for d in decisions) if t)
    review = receipt.get("review")
    completed = review.get("completedAt") if isinstance(review, dict) else None
    return Section(
        "Review",
        facts=(
            Fact("packet", text(receipt.get("packetId"), 300)),
            Fact("destination", text(receipt.get("destinationInstallationKeyId"), 300)),
            Fact("correlation id", text(receipt.get("correlationId"), 100)),
            Fact("admitted at", text(receipt.get("importedAt"), 64)),
            Fact("reviewer" if len(reviewers) == 1 else "reviewers",
                 ", ".join(reviewers) or "nobody: the receipt holds no decision"),
            Fact("first decision", times[0] if times else "—"),
            Fact("last decision", times[-1] if times else "—"),
            Fact("review completed at", text(completed, 64) or "not completed"),
        ),
    )  # fmt: skip


def _decisions(receipt: dict[str, JsonValue]) -> list[dict[str, JsonValue]]:
    review = receipt.get("review")
    listed = review.get("decisions") if isinstance(review, dict) else None
    return [d for d in listed if isinstance(d, dict)] if isinstance(listed, list) else []


def _counts_section(target: ReviewTarget, receipt: dict[str, JsonValue]) -> Section:
    last = earlier_decisions(receipt)
    refs = list(dict.fromkeys(b.portable_ref for b in target.beliefs))
    states = Counter(last[ref].state if ref in last else ReviewState.UNREVIEWED for ref in refs)
    admission = target.admission
    cut = len(admission.cuts) if admission is not None else 0
    demoted = sum(1 for b in target.beliefs if b.demoted)
    dropped = len(admission.dropped) if admission is not None else 0
    rows = (
        ("admitted", f"{len(target.beliefs):,}"),
        *((str(s), f"{states.get(s, 0):,}") for s in
          (ReviewState.CONFIRMED, ReviewState.REJECTED, ReviewState.SUPERSEDED,
           ReviewState.UNREVIEWED)),
        ("cut (content cut to maxBeliefBytes)", f"{cut:,}"),
        ("demoted (arrived reviewed, admitted unreviewed)", f"{demoted:,}"),
        ("dropped (past maxBeliefs)", f"{dropped:,}"),
    )  # fmt: skip
    return Section(
        "Counts",
        ("Each admitted belief's state is its last decision in the receipt.",),
        table=Table(("what", "beliefs"), rows),
    )


def _decisions_section(receipt: dict[str, JsonValue]) -> Section:
    rows: list[tuple[str, ...]] = []
    tones: list[Tone] = []
    for number, d in enumerate(_decisions(receipt), 1):
        state = text(d.get("state"), 20)
        replaced = d.get("supersededBy")
        shown_state = state + (f" by {text(replaced, 300)}" if isinstance(replaced, str) else "")
        note = d.get("note")
        rows.append(
            (
                f"{number:,}",
                text(d.get("portableRef"), 300),
                shown_state,
                text(d.get("reviewer"), 300),
                text(d.get("at"), 64),
                note_text(note if isinstance(note, str) else None),
            )
        )
        tones.append(_STATE_TONE.get(ReviewState(state), Tone.PLAIN) if state in _STATES
                     else Tone.PLAIN)  # fmt: skip
    if not rows:
        return Section("Decisions", ("The receipt holds no decision: nothing was reviewed.",))
    return Section(
        "Decisions",
        ("Every decision in the order made (the last for a belief is its state); notes with "
         "suspected credentials masked.",),
        table=Table(("#", "belief", "state", "reviewer", "at", "note"), tuple(rows),
                    tuple(tones)),
    )  # fmt: skip


_STATES: Final = frozenset(s.value for s in ReviewState)


def _hostile(value: str) -> bool:
    """The text holds a character the policy writes as an escape (invisible, reordering)."""
    return visible(value) != value


def _flags_section(
    target: ReviewTarget,
    index: DetailIndex,
    receipt: dict[str, JsonValue],
    secrets: SecretScan | None,
) -> Section:
    rows: list[tuple[str, ...]] = []
    # The review's scan (what the beliefs' entries show masked), then the rest of the
    # packet's: a credential in the capsule is named too, though the report never shows
    # the capsule.
    shown_masked = index.secrets.by_pointer
    hits_at = dict(shown_masked)
    for pointer, more in (secrets.by_pointer() if secrets is not None else {}).items():
        hits_at.setdefault(pointer, more)
    for pointer, hits in sorted(hits_at.items()):
        words = hit_words(hits)
        if pointer not in shown_masked:
            words = words.removesuffix("; shown masked") + "; not shown in this report"
        rows.append(("suspected credential", masked_visible(pointer), text(words, 300)))
    for row, belief in enumerate(target.beliefs):
        if _hostile(belief.content):
            rows.append(("hostile text", f"/content/beliefs/{row}/content",
                         f"belief {text(belief.portable_ref, 300)}: invisible or reordering "
                         "characters, shown escaped"))  # fmt: skip
    for number, d in enumerate(_decisions(receipt)):
        note = d.get("note")
        if isinstance(note, str) and masked_note(note) != note:
            rows.append(("suspected credential", f"/review/decisions/{number}/note",
                         "a decision's note; shown masked"))  # fmt: skip
        if isinstance(note, str) and _hostile(note):
            rows.append(("hostile text", f"/review/decisions/{number}/note",
                         "invisible or reordering characters, shown escaped"))  # fmt: skip
    if not rows:
        return Section(
            "Suspected credentials and hostile text",
            ("The secret scan flagged nothing, and no belief or note holds invisible or "
             "reordering characters.",),
        )  # fmt: skip
    return Section(
        "Suspected credentials and hostile text",
        ("Values are masked: this report never holds a suspected credential.",),
        table=Table(("flag", "where", "what"), tuple(rows), tuple(Tone.CAUTION for _ in rows)),
    )


def _beliefs_section(
    facts: AuditFacts, target: ReviewTarget, index: DetailIndex, receipt: dict[str, JsonValue]
) -> Section:
    last = earlier_decisions(receipt)
    workspace = None if facts.workspace is None else workspace_facts(facts.workspace, index)
    entries = []
    for belief in target.beliefs:
        ref = belief.portable_ref
        decision = last.get(ref)
        state = decision.state if decision is not None else ReviewState.UNREVIEWED
        hits = index.secrets.by_ref.get(ref, ())
        content = text(masked(belief.content, hits))
        lines = [Line(f"content: {content}")]
        if hits:
            lines.append(Line(f"suspected credential: {hit_words(hits)}", Tone.CAUTION))
        if belief.cut is not None:
            lines.append(Line("content cut by admission to maxBeliefBytes", Tone.CAUTION))
        if belief.demoted:
            lines.append(Line(f"arrived {text(belief.incoming_state, 20)}, admitted unreviewed",
                              Tone.CAUTION))  # fmt: skip
        lines += _evidence(index, ref, workspace)
        title = f"{text(ref, 300)} — {state}"
        entries.append(Entry(title, tuple(lines), _STATE_TONE[state]))
    return Section(
        "Beliefs, their evidence and the workspace",
        ("Each admitted belief in packet order, with the evidence it cites and, when a "
         "workspace folder was named, the claims checked against it.",),
        entries=tuple(entries),
    )  # fmt: skip


def _evidence(index: DetailIndex, ref: str, workspace: WorkspaceFacts | None) -> Iterable[Line]:
    for line in evidence_lines(index, ref, workspace):
        shown = NO_WORKSPACE_REPORT if line.text == NO_WORKSPACE else line.text
        indent = 1 if line.text.startswith(" ") else 0
        yield Line(shown.strip(), _STYLE_TONE.get(line.style, Tone.PLAIN), indent)


def _previous_section(receipt: dict[str, JsonValue]) -> Section:
    carried: dict[str, list[str]] = {}
    unsigned: set[str] = set()
    for d in _decisions(receipt):
        note = d.get("note")
        found = _REPEATED.search(note) if isinstance(note, str) else None
        if found is None:
            continue
        carried.setdefault(found.group(2), []).append(text(d.get("portableRef"), 300))
        if found.group(1) == _UNSIGNED_SOURCE:
            unsigned.add(found.group(2))
    if not carried:
        return Section(
            "Previous generation",
            ("No decision was carried over from a previous generation's receipt.",),
        )
    rows = tuple(
        (digest, "unsigned (accepted by the reviewer)" if digest in unsigned else "signed",
         f"{len(refs):,}", ", ".join(refs[:50]) + (" …" if len(refs) > 50 else ""))
        for digest, refs in carried.items()
    )  # fmt: skip
    return Section(
        "Previous generation",
        ("Decisions repeated from an earlier receipt on beliefs whose admitted content was "
         "unchanged (each note names it).",),
        table=Table(("earlier receipt", "its signature", "decisions", "beliefs"), rows),
    )  # fmt: skip


def _checks_section(packet_rows: Iterable[Chip], receipt_rows: Iterable[Chip]) -> Section:
    rows: list[tuple[str, ...]] = []
    tones: list[Tone] = []
    for what, chips in (("packet", packet_rows), ("receipt", receipt_rows)):
        for chip in chips:
            rows.append((what, text(chip.check, 300), text(chip.summary, 600),
                         text(chip.detail, 2000)))  # fmt: skip
            tones.append(_CHECK_TONE[chip.state])
    return Section("Checks", table=Table(("of", "check", "result", "detail"), tuple(rows),
                                         tuple(tones)))  # fmt: skip


def _findings_table(findings: Sequence[Finding]) -> Table:
    """The first `SHOWN_FINDINGS`, then how many more: a receipt of another packet differs
    in every decision, and it may hold a million."""
    rows = [
        (str(f.code), masked_visible(f.pointer or "(document)"), text(f.message))
        for f in findings[:SHOWN_FINDINGS]
    ]
    if len(findings) > SHOWN_FINDINGS:
        rows.append(("…", "", f"and {len(findings) - SHOWN_FINDINGS:,} more differences"))
    return Table(("code", "where", "what"), tuple(rows))
