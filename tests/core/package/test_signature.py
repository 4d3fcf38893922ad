"""The detached signature: the upstream example verifies over the example manifest with
the public test key (seed = bytes 0..31) and fails with any other; the message is the
manifest's exact bytes' digest, never a re-serialisation; a signature brings no trust."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.core.package.cases import EXAMPLES, NOW, TEST_SEED, build
from zcf_inspector.core.codes import PackageCode
from zcf_inspector.core.package.results import SignatureStatus
from zcf_inspector.core.package.signature import (
    PackageKeyError,
    check_signature,
    key_bytes,
    key_id,
    sign_manifest,
)
from zcf_inspector.core.package.verify import inspect_package, manifest_bytes
from zcf_inspector.present.asif_package import verdict
from zcf_inspector.present.vocabulary import Trust

MANIFEST = (EXAMPLES / "package-manifest.json").read_bytes()
SIGNATURE = (EXAMPLES / "package-signature.json").read_bytes()


def _public(seed: bytes) -> bytes:
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()


TEST_KEY = _public(TEST_SEED)


def test_the_example_signature_verifies_with_the_test_key() -> None:
    result = check_signature(SIGNATURE, MANIFEST, TEST_KEY)
    assert result.status is SignatureStatus.VERIFIED
    assert (
        result.key_id == "sha256:56475aa75463474c0285df5dbf2bcab73da651358839e9b77481b2eab107708c"
    )


@pytest.mark.parametrize("seed", [bytes(32), bytes(range(1, 33)), bytes([255] * 32)])
def test_the_example_signature_fails_with_any_other_key(seed: bytes) -> None:
    result = check_signature(SIGNATURE, MANIFEST, _public(seed))
    assert result.status is SignatureStatus.REFUSED
    assert result.findings[0].code is PackageCode.SIGNING_KEY_UNTRUSTED


def test_a_signature_naming_the_trusted_key_but_made_by_another_fails() -> None:
    forged = json.loads(sign_manifest(MANIFEST, bytes(32)))
    forged["key_id"] = key_id(TEST_KEY)
    raw = json.dumps(forged).encode()
    assert (
        check_signature(raw, MANIFEST, TEST_KEY).findings[0].code
        is PackageCode.PACKAGE_SIGNATURE_INVALID
    )


def test_the_manifests_exact_bytes_are_signed_not_a_reserialisation() -> None:
    reserialised = (json.dumps(json.loads(MANIFEST), indent=1) + "\n").encode()
    assert check_signature(SIGNATURE, reserialised, TEST_KEY).findings[0].code is (
        PackageCode.SIGNED_MANIFEST_MISMATCH
    )
    flipped = bytearray(MANIFEST)
    flipped[10] ^= 1
    assert check_signature(SIGNATURE, bytes(flipped), TEST_KEY).status is SignatureStatus.REFUSED


def test_signing_reproduces_the_example_signature_byte_for_byte() -> None:
    assert sign_manifest(MANIFEST, TEST_SEED) == SIGNATURE


def test_without_a_key_the_signature_is_not_checked() -> None:
    result = check_signature(SIGNATURE, MANIFEST, None)
    assert result.status is SignatureStatus.NOT_CHECKED


@pytest.mark.parametrize(
    "form",
    [
        TEST_KEY,
        TEST_KEY.hex().encode() + b"\n",
        TEST_KEY.hex().upper().encode(),
        base64.b64encode(TEST_KEY) + b"\n",
    ],
    ids=["raw", "hex", "HEX", "base64"],
)
def test_a_key_file_may_be_raw_hex_or_base64(form: bytes) -> None:
    assert key_bytes(form) == TEST_KEY


@pytest.mark.parametrize("bad", [b"", b"x" * 31, b"zz" * 32, base64.b64encode(b"x" * 31)])
def test_a_key_of_another_size_is_refused(bad: bytes) -> None:
    with pytest.raises(PackageKeyError):
        key_bytes(bad)


def test_package_verdicts_in_each_trust_level() -> None:
    raw = build("tool-generated-files")
    signed = sign_manifest(manifest_bytes(raw), TEST_SEED)
    cases = [
        (None, None, "VALID PACKAGE · UNSIGNED", Trust.UNSIGNED),
        (signed, None, "INTACT PACKAGE · SIGNATURE NOT CHECKED (no key)", Trust.UNCHECKED),
        (
            signed,
            TEST_KEY,
            "VALID PACKAGE · SIGNED by sha256:56475aa75463474c… (trusted)",
            Trust.VERIFIED,
        ),
        (
            signed,
            _public(bytes(32)),
            "REFUSED PACKAGE at signature#/key_id: signing_key_untrusted",
            Trust.REFUSED,
        ),
    ]
    for sig, key, words, trust in cases:
        shown = verdict(inspect_package(raw, now=NOW, signature=sig, trusted_key=key))
        assert (shown.headline, shown.trust) == (words, trust)
    full = verdict(inspect_package(raw, now=NOW, signature=signed, trusted_key=TEST_KEY)).words
    assert full == f"VALID PACKAGE · SIGNED by {key_id(TEST_KEY)} (trusted)"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"signature_version": "0.2"}, PackageCode.SIGNATURE_UNSUPPORTED),
        ({"algorithm": "Ed448"}, PackageCode.SIGNATURE_UNSUPPORTED),
        ({"signature": "not base64!"}, PackageCode.PACKAGE_SIGNATURE_INVALID),
    ],
)
def test_mangled_signature_files(change: dict[str, str], code: PackageCode) -> None:
    value = json.loads(SIGNATURE) | change
    result = check_signature(json.dumps(value).encode(), MANIFEST, TEST_KEY)
    assert result.findings[0].code is code
    assert (
        check_signature(b"{", MANIFEST, TEST_KEY).findings[0].code
        is PackageCode.SIGNATURE_UNSUPPORTED
    )
