"""The closed shape of a transfer receipt (profile §6), as a frozen strict pydantic model."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from zcf_inspector.core.bounded_validation import prepare, validate_bounded
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.digest import is_digest
from zcf_inspector.core.findings import Finding, FindingBudget, error
from zcf_inspector.core.formats import ReviewStateName, is_b64u, is_id, is_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pydantic_findings import FindingSink


def _check(predicate: object, what: str) -> AfterValidator:
    def validate(value: str) -> str:
        if not predicate(value):  # type: ignore[operator]
            raise ValueError(f"must be {what}")
        return value

    return AfterValidator(validate)


Id = Annotated[str, _check(is_id, "an id (1-256 characters, none below U+0020)")]
Digest = Annotated[str, _check(is_digest, "a digest 'sha256:' + 64 lowercase hex digits")]
Timestamp = Annotated[str, _check(is_timestamp, "a timestamp YYYY-MM-DDTHH:MM:SS[.fraction]Z")]
Signature64 = Annotated[
    str, _check(lambda v: is_b64u(v, min_len=64, max_len=64), "b64u of 64 bytes")
]
Nonce = Annotated[str, _check(lambda v: is_b64u(v, min_len=16, max_len=64), "b64u of 16-64 bytes")]
Count = Annotated[int, Field(ge=0)]
Disposition = Literal[
    "native", "narrated", "dropped", "refused", "omitted", "unsupported", "not_captured", "redacted"
]


class _Closed(BaseModel):
    """A closed wire object whose optional members are absent, never ``null``.

    ``null`` would be digested into the draft and so differ from an absent member.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _no_null_optionals(cls, data: object) -> object:
        if isinstance(data, dict):
            for name, info in cls.model_fields.items():
                if not info.is_required() and name in data and data[name] is None:
                    raise ValueError(f"{name} must be absent rather than null")
        return data


class ReceiptDecision(_Closed):
    """One entry of a receipt's ``review.decisions``: the wire form of a review decision
    (`core.review.decisions.Decision`)."""

    portableRef: Id  # noqa: N815 - wire spelling
    state: ReviewStateName
    reviewer: Id
    at: Timestamp
    note: str | None = None
    supersededBy: Id | None = None  # noqa: N815

    @model_validator(mode="after")
    def _superseded_names_its_replacement(self) -> ReceiptDecision:
        if (self.state == "superseded") != (self.supersededBy is not None):
            raise ValueError("supersededBy is present exactly when state is 'superseded'")
        return self


class Review(_Closed):
    decisions: list[ReceiptDecision]
    completedAt: Timestamp | None = None  # noqa: N815


class Dispositions(_Closed):
    sections: dict[str, Disposition]
    tools: dict[str, Disposition]


class ReceiptSignature(_Closed):
    algorithm: Literal["ed25519"]
    publicKeyFingerprint: Digest  # noqa: N815
    value: Signature64


class TransferReceipt(_Closed):
    """The transfer receipt a destination writes (profile §6), not a packet's ``receipts``
    entry (`structure_models.WorkReceipt`)."""

    format: Literal["zephr-continuity-receipt"]
    formatVersion: Annotated[int, Field(ge=1, le=1)]  # noqa: N815 - strict int: True is not 1
    packetId: Id  # noqa: N815
    packetNonce: Nonce  # noqa: N815
    sourceInstallationKeyId: Id  # noqa: N815
    destinationInstallationKeyId: Id  # noqa: N815
    authentication: Literal["unsigned", "recipient-bound-mac", "source-signature"]
    manifestRootHash: Digest  # noqa: N815
    targetDigest: Digest  # noqa: N815
    correlationId: Digest  # noqa: N815
    importedAt: Timestamp  # noqa: N815
    demotionCount: Count  # noqa: N815
    degradationCount: Count  # noqa: N815
    truncatedBeliefCount: Count  # noqa: N815
    dispositions: Dispositions
    review: Review
    receiptDigest: Digest  # noqa: N815
    signature: ReceiptSignature | None = None


def check_receipt_shape(receipt: JsonValue, budget: FindingBudget | None = None) -> list[Finding]:
    """The shape findings of ``receipt`` (into ``budget`` when given; the kept ones are
    returned), validated in bounded pieces: a receipt may hold millions of decisions."""
    budget = FindingBudget() if budget is None else budget
    if not isinstance(receipt, dict):
        budget.add(error(ErrorCode.NOT_AN_OBJECT, "", "a receipt is a JSON object"))
        return list(budget.kept)
    validate_bounded(TransferReceipt, receipt, FindingSink(budget))
    return list(budget.kept)


prepare(TransferReceipt)  # built at import, before a large receipt takes the memory
