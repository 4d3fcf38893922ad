"""Which contract a document declares (`versions.py`), or why it declares none `plan` reads.

A session is read under the contract of its `asif_version`, and its profile must be that
contract's: `continuation.profile_version` and the `asif.portable-continuation/…` feature
it names in `required_features`. When both of those name the other contract, the profile
is consistent and it is the core version that this profile does not support — refused as
an unsupported version, exactly as the contract of that profile refuses it. When only one
of them does, the session mixes contracts: refused with `version_mixed` at that member —
except a required feature of the other contract beside the session's own one: that is a
feature this checker cannot interpret, reported as such on the plan (issue 34), as the
0.4 reference lists it among its unsupported features.
A report is read under its `report_version`; one bound to a session of the other contract
is a mixed pair (`mixed_report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.versions import CONTRACTS, Contract, by_field, supported
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonValue

_FIELDS = (
    ("asif_version", DocumentKind.ASIF_SESSION),
    ("report_version", DocumentKind.CONTINUATION_REPORT),
    ("profile_version", DocumentKind.CONTINUATION_PROFILE),
)


@dataclass(frozen=True, slots=True)
class Declared:
    kind: DocumentKind | None
    contract: Contract | None
    findings: list[Finding] = field(default_factory=list)


def read_versions(value: dict[str, JsonValue]) -> Declared:
    for name, kind in _FIELDS:
        if name not in value:
            continue
        contract = by_field(name, value[name])
        if contract is None:
            return Declared(
                kind,
                None,
                [
                    error(
                        PlanCode.UNSUPPORTED_VERSION,
                        "/" + name,
                        f"{name} {value[name]!r} is not supported (only {supported(name)})",
                    )
                ],
            )
        if kind is DocumentKind.ASIF_SESSION:
            return Declared(kind, contract, _session_mix(value, contract))
        return Declared(kind, contract)
    return Declared(
        None,
        None,
        [
            error(
                PlanCode.UNRECOGNISED_DOCUMENT,
                "",
                "not an ASIF session, continuation profile or destination report "
                "(no asif_version, profile_version or report_version)",
            )
        ],
    )


def _other(contract: Contract) -> Contract:
    return next(c for c in CONTRACTS if c is not contract)


def _session_mix(value: dict[str, JsonValue], contract: Contract) -> list[Finding]:
    other = _other(contract)
    profile = value.get("continuation")
    profile_version = profile.get("profile_version") if isinstance(profile, dict) else None
    features = value.get("required_features")
    named = (
        [(i, f) for i, f in enumerate(features) if isinstance(f, str) and f == other.feature]
        if isinstance(features, list)
        else []
    )
    own_feature = isinstance(features, list) and contract.feature in features
    other_profile = profile_version == other.profile_version
    if other_profile and named and not own_feature:
        # A profile wholly of the other contract: its core version is the odd one out.
        return [
            error(
                PlanCode.UNSUPPORTED_VERSION,
                "/asif_version",
                f"asif_version {contract.asif_version!r} is not supported with the "
                f"portable-continuation profile {other.profile_version} (only "
                f"{other.asif_version!r}; {contract} carries profile {contract.profile_version})",
            )
        ]
    out: list[Finding] = []
    if own_feature:
        # The session requires its own contract's profile, so it is read under that
        # contract; the other contract's feature beside it is one more required feature
        # this checker cannot interpret (ASIF 0.4 SPEC.md: report that limitation, never
        # claim the continuation) — the plan's `feature_unsupported` blocker, not a mix.
        named = []
    if other_profile:
        out.append(
            error(
                PlanCode.VERSION_MIXED,
                "/continuation/profile_version",
                f"profile_version {profile_version!r} is {other}'s profile; this session "
                f"declares asif_version {contract.asif_version!r}, whose profile is "
                f"{contract.profile_version!r}",
            )
        )
    for i, feature in named:
        out.append(
            error(
                PlanCode.VERSION_MIXED,
                f"/required_features/{i}",
                f"required feature {feature!r} is {other}'s profile; this session declares "
                f"asif_version {contract.asif_version!r}, whose profile feature is "
                f"{contract.feature!r}",
            )
        )
    return out


def mixed_report(report: Contract, session: Contract) -> Finding:
    """A report of one contract bound to a session of the other (MIGRATION.md step 3)."""
    return error(
        PlanCode.VERSION_MIXED,
        "/report_version",
        f"report_version {report.report_version!r} is an {report} report; the session is "
        f"{session} (asif_version {session.asif_version!r}), whose reports are "
        f"{session.report_version!r}",
    )
