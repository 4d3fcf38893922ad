"""The packet presenter: a `PacketInspection` as headline words, a trust level and chips.

The words (kept since issue 12, now for every front end):

    VALID · SIGNED by sha256:… (trusted)            verified   signature (and MAC) checked
    VALID · UNSIGNED                                unsigned   claims no identity
    INTACT · MAC NOT CHECKED (no destination keys)  unchecked  a claim could not be checked
    INTACT · UNSIGNED · RECIPIENT NOT CHECKED (no destination)
    REFUSED at authentication                       refused    the failing stage(s)

Built from the core's results only (stage statuses, the manifest report, the auth
report's reason, the admission notice); nothing is checked again here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.auth import AuthStatus
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageResult, StageStatus
from zcf_inspector.core.packet.manifest import SectionDigest
from zcf_inspector.core.packet.trust import (
    NO_DESTINATION,
    Authenticity,
    PacketTrust,
    Validity,
    packet_trust,
    short_fingerprint,
)

if TYPE_CHECKING:  # admission loads the destination's model: `validate` has none
    from zcf_inspector.core.hostile.scan import TextScan
    from zcf_inspector.core.packet.admission import AdmissionNotice
    from zcf_inspector.core.secrets.scan import SecretScan

from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.present.vocabulary import (
    CheckStatus,
    Chip,
    Trust,
    Verdict,
)

ADMISSION_CHECK = "admission"

_STAGE_STATE = {
    StageStatus.PASSED: CheckStatus.PASS,
    StageStatus.FAILED: CheckStatus.FAIL,
    StageStatus.NOT_RUN: CheckStatus.NOT_RUN,
    StageStatus.NOT_CHECKABLE: CheckStatus.NOT_CHECKABLE,
}


def trust_level(trust: PacketTrust) -> Trust:
    """Green only for a valid packet authenticated under a trusted key; a valid unsigned
    one is neutral (stripping a recipient-bound packet's authentication yields exactly
    that, so it must not look like success)."""
    if trust.validity is Validity.REFUSED:
        return Trust.REFUSED
    if trust.validity is Validity.INTACT:
        return Trust.UNCHECKED
    return Trust.VERIFIED if trust.authenticity is Authenticity.SIGNED else Trust.UNSIGNED


def headline(trust: PacketTrust, key: Callable[[str], str] = str) -> str:
    """The packet's words (`PacketTrust.headline`: the core's briefing quotes them too);
    ``key`` may shorten a fingerprint for a narrow display."""
    return trust.headline(key)


def authenticity_json(trust: PacketTrust) -> dict[str, JsonValue]:
    """``validate --json``'s ``authenticity`` object."""
    return {
        "state": str(trust.authenticity),
        "kind": trust.kind,
        "signer": trust.signer,
        "signerTrusted": trust.signer_trusted,
        "mac": None if trust.mac is None else str(trust.mac),
        "notChecked": list(trust.not_checked),
        "verdict": headline(trust),
        "complete": trust.complete,
    }


def trust_verdict(trust: PacketTrust, rows: tuple[Chip, ...] = ()) -> Verdict:
    """The verdict of a packet known only by its trust facts (a compared side)."""
    return Verdict(
        str(DocumentKind.PACKET),
        headline(trust, short_fingerprint),
        trust_level(trust),
        rows,
        headline(trust),
        trust.not_checked,
    )


def verdict(
    inspection: PacketInspection,
    admission: AdmissionNotice | None = None,
    secrets: SecretScan | None = None,
    hostile: TextScan | None = None,
) -> Verdict:
    """Every check of ``inspection`` (and what admission changed, when it ran; and what
    the secret scan and the hostile-text scan flagged, when they ran and flagged
    anything: said on the admission chip, as it is what a reviewer must look at before
    admitting). None of them changes the packet's validity or its trust level."""
    rows = [_bytes_row(inspection)]
    if inspection.read_error is None:
        structure = inspection.stage(Stage.STRUCTURE)
        rows.append(
            _stage_row(structure, "every field as profile §3 requires", "an earlier stage failed")
        )
        manifest = inspection.manifest
        if manifest is not None:
            informational = structure.status is not StageStatus.PASSED
            rows.extend(_section_row(s, informational) for s in manifest.sections)
            root_state = CheckStatus.PASS if manifest.root_match else CheckStatus.FAIL
            rows.append(
                Chip(
                    "manifest root",
                    root_state,
                    "matches" if manifest.root_match else "mismatch",
                    f"listed {manifest.root_listed}, computed {manifest.root_computed}",
                    jpointer.join("manifest", "rootHash"),
                )
            )
    else:
        rows.extend(
            Chip(s.stage.value, CheckStatus.NOT_RUN, "not run", "the bytes were refused")
            for s in inspection.stages
            if s.stage in (Stage.STRUCTURE, Stage.MANIFEST)
        )
    rows.append(_auth_row(inspection))
    rows.append(_policy_row(inspection))
    flagged = (secrets is not None and bool(secrets.hits)) or bool(hostile and hostile.count)
    if admission is not None or flagged:  # a demotion, a cut or a credential is never hidden
        rows.append(admission_row(admission, secrets, hostile))
    return trust_verdict(packet_trust(inspection), tuple(rows))


def admission_row(
    notice: AdmissionNotice | None,
    secrets: SecretScan | None = None,
    hostile: TextScan | None = None,
) -> Chip:
    """What the destination's admission changed (dropped, cut, demoted, not native), the
    credentials the secret scan suspects (each a ``secret_suspected`` warning), and the
    texts and identifiers the hostile-text scan flagged (``hostile_text``,
    ``confusable_identifier``)."""
    said = _flagged(secrets, hostile)
    if not said:
        assert notice is not None  # no admission and nothing flagged: no chip
        state = CheckStatus.CHANGED if notice.changed else CheckStatus.PASS
        return Chip(ADMISSION_CHECK, state, notice.summary, notice.text, "/content/beliefs")
    words = "; ".join(w for w, _, _ in said)
    detail = "\n\n".join(d for _, d, _ in said)
    if notice is None:
        return Chip(ADMISSION_CHECK, CheckStatus.CHANGED, words, detail, said[0][2])
    return Chip(
        ADMISSION_CHECK,
        CheckStatus.CHANGED,
        f"{notice.summary}; {words}",
        f"{notice.text}\n\n{detail}",
        "/content/beliefs",
    )


def _flagged(secrets: SecretScan | None, hostile: TextScan | None) -> list[tuple[str, str, str]]:
    """(words, detail, first pointer) of each scan that flagged something."""
    said: list[tuple[str, str, str]] = []
    if secrets is not None and secrets.hits:
        said.append((secrets_words(secrets), secrets_detail(secrets), secrets.hits[0].pointer))
    if hostile is not None and hostile.count:
        first = hostile.hits[0].pointer if hostile.hits else hostile.pairs[0].pointer
        said.append((hostile_words(hostile), hostile_detail(hostile), first))
    return said


def hostile_words(hostile: TextScan) -> str:
    """A few words for the chip: how many texts hide something, how many look-alikes."""
    return f"{hostile.summary()} flagged"


def hostile_detail(hostile: TextScan) -> str:
    return (
        f"The hostile-text scan found {hostile.summary()}. Read each before this packet is "
        "admitted or its beliefs are confirmed: each is a hostile_text or "
        "confusable_identifier warning at its pointer, its hidden characters shown "
        "escaped. This says nothing about the packet's validity."
    )


def secrets_words(secrets: SecretScan) -> str:
    """A few words for the chip: how many suspected credentials, never one of them."""
    count = len(secrets.hits)
    return f"{count:,} suspected credential{'' if count == 1 else 's'} flagged (values hidden)"


def secrets_detail(secrets: SecretScan) -> str:
    return (
        f"The secret scan found {secrets.summary()}. Check each before this packet is "
        "admitted or its beliefs are confirmed: each is a secret_suspected warning at its "
        "text's pointer, its value masked. This says nothing about the packet's validity."
    )


def _first_error(findings: tuple[Finding, ...]) -> Finding | None:
    return next((f for f in findings if f.severity is Severity.ERROR), None)


def _stage_row(result: StageResult, passed: str, not_run: str) -> Chip:
    state = _STAGE_STATE[result.status]
    first = _first_error(result.findings)
    if state is CheckStatus.FAIL and first is not None:
        errors = sum(1 for f in result.findings if f.severity is Severity.ERROR)
        errors += sum(o.count for o in result.omitted if o.severity is Severity.ERROR)
        more = f" (+{errors - 1:,} more)" if errors > 1 else ""
        return Chip(
            result.stage.value,
            state,
            f"{first.code}{more}",
            f"{first.code} at {first.pointer or '(document)'}: {first.message}{more}",
            first.pointer,
        )
    if state is CheckStatus.NOT_RUN:
        return Chip(result.stage.value, state, "not run", not_run)
    return Chip(result.stage.value, state, "passed", passed)


def _bytes_row(inspection: PacketInspection) -> Chip:
    error = inspection.read_error
    if error is None:
        return Chip("bytes", CheckStatus.PASS, "passed", "read strictly as profile §1 requires")
    where = f" at byte {error.offset}" if error.offset is not None else ""
    return Chip(
        "bytes",
        CheckStatus.FAIL,
        f"{error.code}{where}",
        f"{error.code}{where}: {error.message}",
        error.pointer,
    )


def _section_row(section: SectionDigest, informational: bool) -> Chip:
    note = " (informational: the structure check failed)" if informational else ""
    pointer = section.pointer or jpointer.join("manifest", "sections", section.name)
    check = f"section {section.name}"
    if section.match:
        return Chip(
            check,
            CheckStatus.PASS,
            "digest matches",
            f"{section.pointer}: listed digest = computed {section.computed}{note}",
            pointer,
        )
    if section.computed is None:
        detail = "listed in the manifest, but the packet does not cover such a section"
    elif section.listed is None:
        detail = f"in the packet but not listed in the manifest; computed {section.computed}"
    else:
        detail = f"listed {section.listed}, computed {section.computed}"
    return Chip(check, CheckStatus.FAIL, "digest mismatch", detail + note, pointer)


def _auth_row(inspection: PacketInspection) -> Chip:
    stage = inspection.stage(Stage.AUTHENTICATION)
    auth = inspection.auth
    state = _STAGE_STATE[stage.status]
    if auth is None or auth.status is AuthStatus.NOT_CHECKED:
        reason = auth.reason if auth is not None else "not checked: an earlier stage failed"
        return Chip("authentication", CheckStatus.NOT_RUN, "not run", reason)
    kind = auth.kind or "unknown kind"
    summaries = {
        AuthStatus.UNSIGNED: "unsigned",
        AuthStatus.VERIFIED: f"{kind}, verified",
        AuthStatus.NOT_VERIFIED: f"{kind}, not verified (no keys)",
    }
    first = _first_error(auth.findings)
    summary = summaries.get(auth.status, f"{kind}: {first.code if first else 'refused'}")
    pointer = first.pointer if first is not None else jpointer.join("authentication")
    return Chip("authentication", state, summary, auth.reason, pointer)


def _policy_row(inspection: PacketInspection) -> Chip:
    policy = inspection.stage(Stage.POLICY)
    if policy.status is StageStatus.NOT_CHECKABLE:
        return Chip(
            "policy",
            CheckStatus.NOT_CHECKABLE,
            NO_DESTINATION,
            "policy needs a destination file (keys, capabilities, limits): choose one in Settings",
        )
    return _stage_row(
        policy, "the destination's policy admits the packet", "an earlier stage failed"
    )
