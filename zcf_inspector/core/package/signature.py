"""The detached signature of an ASIF package's manifest (TRANSPORT.md).

The signed message is exactly ``b"ASIF-PACKAGE-MANIFEST-v1" || 0x00 || SHA-256(manifest
bytes)`` — the manifest's exact bytes as the archive holds them, never a re-serialisation
— verified with Ed25519 under a public key the *caller* trusts. The signature's own
``key_id`` only has to name that key: a signature never brings its own trust.

Keys as files: 32 raw bytes, or their hex (64 digits) or base64 text (a trailing newline
allowed) — the same three forms for a public key and for a signing seed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from zcf_inspector.core.codes import PackageCode
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.package.inventory import read_member_json
from zcf_inspector.core.package.limits import ALGORITHM, DOMAIN, MAX_SIGNATURE, SIGNATURE_VERSION
from zcf_inspector.core.package.results import SignatureResult, SignatureStatus

SIGNATURE = "signature"  # the subject of a signature's findings (it is not a member)
_HEX = re.compile(r"[0-9a-fA-F]{64}")


class PackageKeyError(InputError):
    """A key file that is not 32 bytes in one of the accepted forms."""

    code = "package_key_invalid"


def key_bytes(data: bytes, what: str = "key") -> bytes:
    """The 32 bytes of a key given as raw bytes, hex text or base64 text."""
    if len(data) == 32:
        return data
    text = data.strip()
    if _HEX.fullmatch(text.decode("ascii", "replace")):
        return bytes.fromhex(text.decode("ascii"))
    try:
        decoded = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        decoded = b""
    if len(decoded) != 32:
        raise PackageKeyError(
            f"the {what} is not 32 bytes as raw bytes, 64 hex digits or base64 text"
        )
    return decoded


def key_id(public_key: bytes) -> str:
    return "sha256:" + hashlib.sha256(public_key).hexdigest()


def signed_message(manifest: bytes) -> bytes:
    return DOMAIN + hashlib.sha256(manifest).digest()


def encode(value: dict[str, str]) -> bytes:
    """The reference writer's JSON: sorted keys, compact, UTF-8, one final newline."""
    return (
        json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    ).encode()


def sign_manifest(manifest: bytes, seed: bytes) -> bytes:
    """The detached signature file of ``manifest`` under the Ed25519 ``seed``."""
    key = Ed25519PrivateKey.from_private_bytes(seed)
    public = key.public_key().public_bytes_raw()
    return encode(
        {
            "signature_version": SIGNATURE_VERSION,
            "algorithm": ALGORITHM,
            "manifest_sha256": hashlib.sha256(manifest).hexdigest(),
            "key_id": key_id(public),
            "signature": base64.b64encode(key.sign(signed_message(manifest))).decode("ascii"),
        }
    )


def _refused(
    code: PackageCode, pointer: str, message: str, kid: str | None, digest: str | None
) -> SignatureResult:
    finding = Finding(code, Severity.ERROR, pointer, message, subject=SIGNATURE)
    return SignatureResult(SignatureStatus.REFUSED, kid, digest, (finding,))


def check_signature(raw: bytes, manifest: bytes, trusted: bytes | None) -> SignatureResult:
    """The signature file ``raw`` over ``manifest`` under the ``trusted`` public key (None:
    no key, so the signature's shape and digest are read but it is NOT CHECKED)."""
    if len(raw) > MAX_SIGNATURE:
        return _refused(
            PackageCode.SIGNATURE_UNSUPPORTED, "", f"over {MAX_SIGNATURE} bytes", None, None
        )
    value = read_member_json(raw, SIGNATURE, PackageCode.SIGNATURE_UNSUPPORTED)
    if isinstance(value, Finding):
        return SignatureResult(SignatureStatus.REFUSED, None, None, (value,))
    if not isinstance(value, dict):
        return _refused(PackageCode.SIGNATURE_UNSUPPORTED, "", "not a JSON object", None, None)
    kid = value.get("key_id")
    kid = kid if isinstance(kid, str) else None
    listed = value.get("manifest_sha256")
    listed = listed if isinstance(listed, str) else None
    if value.get("signature_version") != SIGNATURE_VERSION or value.get("algorithm") != ALGORITHM:
        return _refused(
            PackageCode.SIGNATURE_UNSUPPORTED,
            "",
            f"not signature_version {SIGNATURE_VERSION} with algorithm {ALGORITHM}",
            kid,
            listed,
        )
    digest = hashlib.sha256(manifest).hexdigest()
    if listed != digest:
        return _refused(
            PackageCode.SIGNED_MANIFEST_MISMATCH,
            "/manifest_sha256",
            f"the signature is over manifest {listed!r}; this package's manifest is {digest}",
            kid,
            listed,
        )
    if trusted is None:
        return SignatureResult(SignatureStatus.NOT_CHECKED, kid, listed)
    if kid != key_id(trusted):
        return _refused(
            PackageCode.SIGNING_KEY_UNTRUSTED,
            "/key_id",
            f"signed by {kid!r}; the trusted key is {key_id(trusted)}",
            kid,
            listed,
        )
    signature = value.get("signature")
    try:
        sig = base64.b64decode(signature if isinstance(signature, str) else "", validate=True)
        Ed25519PublicKey.from_public_bytes(trusted).verify(sig, signed_message(manifest))
    except (InvalidSignature, ValueError, binascii.Error):
        return _refused(
            PackageCode.PACKAGE_SIGNATURE_INVALID,
            "/signature",
            "the Ed25519 signature does not verify over this manifest under the trusted key",
            kid,
            listed,
        )
    return SignatureResult(SignatureStatus.VERIFIED, kid, listed)


def trusted_key_for(raw: bytes, keys: tuple[bytes, ...]) -> bytes | None:
    """Of the caller's trusted ``keys``, the one the signature file ``raw`` names by its
    ``key_id`` — or, when it names none of them, the first (so the check refuses it as
    signed by an untrusted key); None when no key is trusted (NOT CHECKED)."""
    if not keys:
        return None
    value = None
    if len(raw) <= MAX_SIGNATURE:
        value = read_member_json(raw, SIGNATURE, PackageCode.SIGNATURE_UNSUPPORTED)
    named = value.get("key_id") if isinstance(value, dict) else None
    return next((k for k in keys if key_id(k) == named), keys[0])
