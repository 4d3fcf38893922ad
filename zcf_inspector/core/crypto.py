"""The cryptographic primitives of profile §5 and §6: Ed25519, HKDF-SHA-256, HMAC-SHA-256.

Everything is delegated to the ``cryptography`` package. The only arithmetic done here is on
the *encodings* of public keys and of ``S``, to make verification strict in the sense of
RFC 8032 §5.1.7 where the library backend is lenient (see ``ed25519_verify_strict``).

``cryptography`` is imported by the functions that use it, not with this module: most
packets are unsigned, and loading it costs a CLI run about 8 ms of start-up.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from zcf_inspector.core.errors import FormatError

ED25519_PUBLIC_KEY_BYTES = 32
ED25519_SIGNATURE_BYTES = 64
ED25519_SEED_BYTES = 32

INSTALLATION_KEY_BYTES = 32
RECIPIENT_MAC_KEY_BYTES = 32
RECIPIENT_MAC_INFO_PREFIX = b"zephr-continuity-recipient-mac-v1"

_SHA256_BYTES = 32
# RFC 5869 §2.3: L <= 255 * HashLen.
HKDF_SHA256_MAX_LENGTH = 255 * _SHA256_BYTES

# Field prime and group order of edwards25519 (RFC 8032 §5.1).
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_Y_MASK = (1 << 255) - 1

# The y-coordinate of the order-8 points (±x, _Y_ORDER_8) is the canonical encoding
# 26e8958f…6d53fc05 read little-endian; the other pair has y = p - _Y_ORDER_8 (c7176a70…92ac037a).
_Y_ORDER_8 = int.from_bytes(
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"), "little"
)
# A y-coordinate fixes x up to its sign, so these five values are exactly the 8 points whose
# order divides 8: (0, 1) of order 1, (0, -1) of order 2, (±sqrt(-1), 0) of order 4 and the four
# order-8 points. Checking y with the sign bit masked off also catches every sign-bit variant.
_SMALL_ORDER_Y = frozenset({0, 1, _P - 1, _Y_ORDER_8, _P - _Y_ORDER_8})


def _require_length(name: str, value: bytes, length: int) -> None:
    if len(value) != length:
        raise FormatError(f"{name} must be {length} bytes, got {len(value)}")


def ed25519_public_key(seed: bytes) -> bytes:
    """The raw 32-byte public key of a 32-byte private seed (RFC 8032 §5.1.5)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PrivateKey,
    )

    _require_length("Ed25519 seed", seed, ED25519_SEED_BYTES)
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()


def ed25519_sign(seed: bytes, message: bytes) -> bytes:
    """The deterministic 64-byte Ed25519 signature of ``message`` (RFC 8032 §5.1.6)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PrivateKey,
    )

    _require_length("Ed25519 seed", seed, ED25519_SEED_BYTES)
    return Ed25519PrivateKey.from_private_bytes(seed).sign(message)


def _is_strict_public_key(public_key: bytes) -> bool:
    y = int.from_bytes(public_key, "little") & _Y_MASK
    # RFC 8032 §5.1.3 step 1: an encoded y >= p is a decoding failure. The OpenSSL backend
    # reduces it mod p instead, so one key would have several spellings (and several
    # fingerprints); this also refuses y+p re-encodings of small-order points.
    if y >= _P:
        return False
    # The profile demands a strict verifier that refuses small-order keys: with such an A,
    # [k]A takes at most 8 values, so R = -[k]A and S = 0 is a forgery for about 1 message in 8
    # without any secret. The OpenSSL backend accepts all of them, including (0, 1) with the
    # sign bit set, which RFC 8032 §5.1.3 step 4 says must not even decode. x = 0 only for
    # y = ±1, both small-order, so that decoding rule needs no separate check here.
    return y not in _SMALL_ORDER_Y


def _is_canonical_s(signature: bytes) -> bool:
    # RFC 8032 §5.1.7 step 1: S must be < L, or S and S + L would both verify (malleability).
    # The OpenSSL backend already enforces this (Wycheproof tcId 63-70); checking it here keeps
    # the verdict independent of which backend cryptography was built against.
    return int.from_bytes(signature[32:], "little") < _L


def ed25519_verify_strict(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Strict RFC 8032 verification: ``True`` only for a valid signature under a sound key.

    ``False`` (never an exception) for wrong lengths, a non-canonical ``S`` (``S >= L``), a
    small-order public key in any encoding, a non-canonical public-key encoding (``y >= p``)
    and anything the library's verifier rejects (which covers non-canonical ``R``, since it
    compares ``R`` byte-for-byte with a canonical re-encoding).
    """
    if len(public_key) != ED25519_PUBLIC_KEY_BYTES or len(signature) != ED25519_SIGNATURE_BYTES:
        return False
    if not _is_strict_public_key(public_key) or not _is_canonical_s(signature):
        return False
    from cryptography.exceptions import InvalidSignature  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PublicKey,
    )

    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except InvalidSignature:
        return False
    except ValueError:
        # OpenSSL loads any 32 bytes and fails in verify(); a backend that decodes the point
        # at load time reports an undecodable key here instead, which is the same verdict.
        return False
    return True


def public_key_fingerprint(public_key: bytes) -> str:
    """``"sha256:" + hex(SHA-256(raw public key))`` (profile §5)."""
    # Only a raw key has a fingerprint: hashing a DER/PEM or truncated key would silently give
    # a fingerprint no trusted key can ever match.
    _require_length("Ed25519 public key", public_key, ED25519_PUBLIC_KEY_BYTES)
    return "sha256:" + hashlib.sha256(public_key).hexdigest()


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """HKDF-SHA-256 (RFC 5869) of ``length`` bytes; an empty salt means HashLen zero bytes.

    Raises ``ValueError`` unless ``1 <= length <= 8160`` (255 * HashLen).
    """
    if not 1 <= length <= HKDF_SHA256_MAX_LENGTH:
        raise FormatError(f"HKDF-SHA-256 length must be 1..{HKDF_SHA256_MAX_LENGTH}, got {length}")
    # HMAC pads its key with zeros to the block size, so b"" and None (HashLen zero bytes,
    # RFC 5869 §2.2) give the same PRK; None just states the RFC's default explicitly.
    from cryptography.hazmat.primitives import hashes  # noqa: PLC0415
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF  # noqa: PLC0415

    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt or None, info=info).derive(ikm)


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """The full 32-byte HMAC-SHA-256 tag (RFC 2104)."""
    from cryptography.hazmat.primitives import hashes  # noqa: PLC0415
    from cryptography.hazmat.primitives import hmac as crypto_hmac  # noqa: PLC0415

    mac = crypto_hmac.HMAC(key, hashes.SHA256())
    mac.update(message)
    return mac.finalize()


def constant_time_equal(a: bytes, b: bytes) -> bool:
    """Compare MACs without a timing side channel on the position of the first difference."""
    return hmac.compare_digest(a, b)


def recipient_mac_key(
    source_installation_key: bytes,
    destination_installation_key: bytes,
    nonce: bytes,
    destination_installation_key_id: str,
) -> bytes:
    """The recipient-bound MAC key ``K`` of profile §5.

    ``HKDF-SHA-256(ikm = source ‖ destination, salt = nonce,
    info = "zephr-continuity-recipient-mac-v1" ‖ 0x00 ‖ UTF-8(key id), length = 32)``.
    """
    # The ikm is a plain concatenation, so it is only unambiguous while both keys have the
    # profile's fixed length: a 31+33 split must not derive the same K as 32+32.
    _require_length("source installation key", source_installation_key, INSTALLATION_KEY_BYTES)
    _require_length(
        "destination installation key", destination_installation_key, INSTALLATION_KEY_BYTES
    )
    info = RECIPIENT_MAC_INFO_PREFIX + b"\x00" + destination_installation_key_id.encode("utf-8")
    return hkdf_sha256(
        source_installation_key + destination_installation_key,
        nonce,
        info,
        RECIPIENT_MAC_KEY_BYTES,
    )


def generate_seed() -> bytes:
    """A fresh 32-byte Ed25519 private seed from the OS CSPRNG."""
    return os.urandom(ED25519_SEED_BYTES)
