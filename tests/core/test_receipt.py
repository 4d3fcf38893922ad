from __future__ import annotations

import copy
from typing import Any

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.packet.receipt import ReceiptStatus, finish_receipt, verify_receipt
from zcf_inspector.core.reading import read_json

KEY = ed25519_public_key(g.RECEIPT_SEED)


def receipt() -> dict[str, Any]:
    value = read_json((GOLDENS / "publication" / "full-handoff.receipt.json").read_bytes())
    assert isinstance(value, dict)
    return value


def test_golden_receipt_verifies_with_its_key() -> None:
    report = verify_receipt(receipt(), KEY)
    assert report.status is ReceiptStatus.VALID_SIGNED
    assert report.computed_digest == report.listed_digest


def test_signed_receipt_without_key_is_not_checked() -> None:
    report = verify_receipt(receipt())
    assert report.status is ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED
    assert [f.severity.value for f in report.findings] == ["info"]


def test_changed_receipt_fails_its_digest() -> None:
    changed = receipt()
    changed["demotionCount"] = 0 if changed["demotionCount"] else 1
    report = verify_receipt(changed, KEY)
    assert report.status is ReceiptStatus.INVALID
    assert [(f.code, f.pointer) for f in report.findings] == [
        (ErrorCode.INVALID_VALUE, "/receiptDigest")
    ]


def test_other_key_is_refused() -> None:
    report = verify_receipt(receipt(), ed25519_public_key(g.SOURCE_SEED))
    assert [f.code for f in report.findings] == [ErrorCode.SOURCE_KEY_UNKNOWN]


def test_forged_signature_with_right_fingerprint_is_invalid() -> None:
    forged = receipt()
    resigned: dict[str, Any] = finish_receipt(copy.deepcopy(forged), g.SOURCE_SEED)
    forged["signature"]["value"] = resigned["signature"]["value"]
    report = verify_receipt(forged, KEY)
    assert [f.code for f in report.findings] == [ErrorCode.SIGNATURE_INVALID]


def test_key_given_but_unsigned() -> None:
    unsigned = receipt()
    del unsigned["signature"]
    assert verify_receipt(unsigned, KEY).status is ReceiptStatus.INVALID
    assert verify_receipt(unsigned).status is ReceiptStatus.VALID_UNSIGNED


@pytest.mark.parametrize(
    ("mutate", "code", "pointer"),
    [
        (lambda r: r.update(extra=1), ErrorCode.UNKNOWN_FIELD, "/extra"),
        (lambda r: r.pop("packetId"), ErrorCode.MISSING_FIELD, "/packetId"),
        (lambda r: r.update(formatVersion=True), ErrorCode.INVALID_VALUE, "/formatVersion"),
        (lambda r: r.update(demotionCount=-1), ErrorCode.INVALID_VALUE, "/demotionCount"),
        (lambda r: r["review"].update(completedAt=None), ErrorCode.INVALID_VALUE, "/review"),
        (
            lambda r: r["review"]["decisions"].append(
                {
                    "portableRef": "b",
                    "state": "superseded",
                    "reviewer": "x",
                    "at": "2026-01-01T00:00:00Z",
                }
            ),
            ErrorCode.INVALID_VALUE,
            "/review/decisions/0",
        ),
    ],
)
def test_shape_is_closed(mutate: object, code: ErrorCode, pointer: str) -> None:
    value = receipt()
    mutate(value)  # type: ignore[operator]
    report = verify_receipt(value)
    assert report.status is ReceiptStatus.INVALID
    assert (code, pointer) in [(f.code, f.pointer) for f in report.findings]


@pytest.mark.parametrize("value", [[], "receipt", None, 3])
def test_not_an_object(value: object) -> None:
    assert verify_receipt(value).status is ReceiptStatus.INVALID  # type: ignore[arg-type]
