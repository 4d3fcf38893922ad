"""zcf_inspector.core.crypto against published vectors: Wycheproof, RFC 8032/5869/4231, SUPERCOP.

The vectors are read from shared/external/vectors (see its SOURCES.md); none are copied here.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from tests.conftest import VECTORS
from zcf_inspector.core.crypto import (
    constant_time_equal,
    ed25519_public_key,
    ed25519_sign,
    ed25519_verify_strict,
    hkdf_sha256,
    hmac_sha256,
)

WYCHEPROOF = VECTORS / "wycheproof"
RFC = VECTORS / "rfc"
PYCA = VECTORS / "pyca-cryptography-vectors"


def _load(path: Any) -> Any:
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def _wycheproof_cases(name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    data = _load(WYCHEPROOF / name)
    return [(group, test) for group in data["testGroups"] for test in group["tests"]]


def _params(cases: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[Any]:
    return [
        pytest.param(group, test, id=f"tcId{test['tcId']}-{test['result']}")
        for group, test in cases
    ]


# --- Wycheproof Ed25519 -------------------------------------------------------------------

ED25519_CASES = _wycheproof_cases("ed25519_test.json")


def test_wycheproof_ed25519_result_counts() -> None:
    # Pins the vector set this suite was reviewed against. Wycheproof marks lenient-but-harmless
    # cases "acceptable"; this file has none. If a future copy adds some, the strict profile
    # (§5: non-canonical S and small-order keys are invalid) must be applied to each one by
    # hand before this count is updated, rather than inheriting Wycheproof's "either is fine".
    counts = Counter(test["result"] for _, test in ED25519_CASES)
    assert counts == {"valid": 88, "invalid": 63}


@pytest.mark.parametrize(("group", "test"), _params(ED25519_CASES))
def test_wycheproof_ed25519(group: dict[str, Any], test: dict[str, Any]) -> None:
    public_key = bytes.fromhex(group["publicKey"]["pk"])
    verdict = ed25519_verify_strict(
        public_key, bytes.fromhex(test["sig"]), bytes.fromhex(test["msg"])
    )
    assert verdict is (test["result"] == "valid"), test["comment"]


# --- Wycheproof HKDF-SHA-256 --------------------------------------------------------------

HKDF_CASES = _wycheproof_cases("hkdf_sha256_test.json")


@pytest.mark.parametrize(("group", "test"), _params(HKDF_CASES))
def test_wycheproof_hkdf_sha256(group: dict[str, Any], test: dict[str, Any]) -> None:
    del group
    ikm, salt, info = (bytes.fromhex(test[k]) for k in ("ikm", "salt", "info"))
    if test["result"] == "valid":
        assert hkdf_sha256(ikm, salt, info, test["size"]) == bytes.fromhex(test["okm"])
    else:
        # The only invalid cases are sizes above 255 * HashLen (flag SizeTooLarge).
        assert test["result"] == "invalid"
        with pytest.raises(ValueError, match="length"):
            hkdf_sha256(ikm, salt, info, test["size"])


# --- Wycheproof HMAC-SHA-256 --------------------------------------------------------------

HMAC_CASES = _wycheproof_cases("hmac_sha256_test.json")


@pytest.mark.parametrize(("group", "test"), _params(HMAC_CASES))
def test_wycheproof_hmac_sha256(group: dict[str, Any], test: dict[str, Any]) -> None:
    tag_bytes = group["tagSize"] // 8
    tag = bytes.fromhex(test["tag"])
    assert len(tag) == tag_bytes
    computed = hmac_sha256(bytes.fromhex(test["key"]), bytes.fromhex(test["msg"]))
    assert len(computed) == 32
    # A truncated tag (RFC 2104 §5) is the leftmost tagSize bits of the full tag.
    assert constant_time_equal(computed[:tag_bytes], tag) is (test["result"] == "valid")


# --- RFC 8032 §7.1 ------------------------------------------------------------------------

RFC8032_CASES = _load(RFC / "rfc8032_ed25519_sec7_1.json")["cases"]


def _flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


@pytest.mark.parametrize("case", RFC8032_CASES, ids=[c["name"] for c in RFC8032_CASES])
def test_rfc8032_sign_and_verify(case: dict[str, str]) -> None:
    seed = bytes.fromhex(case["secret_key"])
    public_key = bytes.fromhex(case["public_key"])
    message = bytes.fromhex(case["message"])
    signature = bytes.fromhex(case["signature"])

    assert ed25519_public_key(seed) == public_key
    assert ed25519_sign(seed, message) == signature
    assert ed25519_verify_strict(public_key, signature, message) is True


@pytest.mark.parametrize("case", RFC8032_CASES, ids=[c["name"] for c in RFC8032_CASES])
# Bits in R, in the low and high bytes of S, and the top bit (which pushes S past L).
@pytest.mark.parametrize("bit", [0, 7, 255, 256, 300, 511])
def test_rfc8032_signature_bit_flip_fails(case: dict[str, str], bit: int) -> None:
    public_key = bytes.fromhex(case["public_key"])
    message = bytes.fromhex(case["message"])
    signature = _flip(bytes.fromhex(case["signature"]), bit)
    assert ed25519_verify_strict(public_key, signature, message) is False


@pytest.mark.parametrize("case", RFC8032_CASES, ids=[c["name"] for c in RFC8032_CASES])
def test_rfc8032_message_bit_flip_fails(case: dict[str, str]) -> None:
    public_key = bytes.fromhex(case["public_key"])
    message = bytes.fromhex(case["message"])
    signature = bytes.fromhex(case["signature"])
    # TEST 1 signs the empty message, which has no bit to flip: a one-byte message stands in.
    altered = [_flip(message, 0), _flip(message, len(message) * 8 - 1)] if message else [b"\x00"]
    for candidate in altered:
        assert ed25519_verify_strict(public_key, signature, candidate) is False


# --- RFC 5869 -----------------------------------------------------------------------------

RFC5869_CASES = _load(RFC / "rfc5869_hkdf_sha256.json")["cases"]


@pytest.mark.parametrize("case", RFC5869_CASES, ids=[c["name"] for c in RFC5869_CASES])
def test_rfc5869_hkdf_sha256(case: dict[str, Any]) -> None:
    ikm, salt, info = (bytes.fromhex(case[k]) for k in ("ikm", "salt", "info"))
    assert hkdf_sha256(ikm, salt, info, case["length"]) == bytes.fromhex(case["okm"])
    # The extract step on its own: PRK = HMAC(salt, IKM), an absent salt being 32 zero bytes.
    assert hmac_sha256(salt or bytes(32), ikm) == bytes.fromhex(case["prk"])


# --- RFC 4231 -----------------------------------------------------------------------------

RFC4231_CASES = _load(RFC / "rfc4231_hmac_sha256.json")["cases"]


@pytest.mark.parametrize("case", RFC4231_CASES, ids=[c["name"] for c in RFC4231_CASES])
def test_rfc4231_hmac_sha256(case: dict[str, str]) -> None:
    computed = hmac_sha256(bytes.fromhex(case["key"]), bytes.fromhex(case["data"]))
    if "hmac_sha256" in case:
        assert computed == bytes.fromhex(case["hmac_sha256"])
    else:
        # Test Case 5 publishes only the leftmost 128 bits.
        expected = bytes.fromhex(case["hmac_sha256_truncated_128"])
        assert len(expected) == 16
        assert constant_time_equal(computed[:16], expected)


def test_rfc4231_has_all_seven_cases() -> None:
    assert len(RFC4231_CASES) == 7


# --- SUPERCOP / pyca sign.input -----------------------------------------------------------


def _sign_input_lines() -> list[Any]:
    lines = (PYCA / "sign.input").read_text(encoding="ascii").splitlines()
    return [pytest.param(line, id=f"line{number}") for number, line in enumerate(lines, 1)]


SIGN_INPUT = _sign_input_lines()


def test_sign_input_has_1024_lines() -> None:
    assert len(SIGN_INPUT) == 1024


@pytest.mark.parametrize("line", SIGN_INPUT)
def test_sign_input(line: str) -> None:
    # Format: sk||pk : pk : msg : sig||msg : (hex, trailing empty field).
    fields = line.split(":")
    assert len(fields) == 5
    assert fields[4] == ""
    secret_and_public, public_hex, message_hex, signed_hex = fields[:4]
    secret_and_public_bytes = bytes.fromhex(secret_and_public)
    assert len(secret_and_public_bytes) == 64
    seed, public_key = secret_and_public_bytes[:32], secret_and_public_bytes[32:]
    assert public_key == bytes.fromhex(public_hex)
    message = bytes.fromhex(message_hex)
    signed = bytes.fromhex(signed_hex)
    signature = signed[:64]
    assert signed[64:] == message

    assert ed25519_public_key(seed) == public_key
    assert ed25519_sign(seed, message) == signature
    assert ed25519_verify_strict(public_key, signature, message) is True
