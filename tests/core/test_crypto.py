"""Unit tests for zcf_inspector.core.crypto: strictness edges, pinned outputs, input checks."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zcf_inspector.core import crypto
from zcf_inspector.core.crypto import (
    ED25519_PUBLIC_KEY_BYTES,
    ED25519_SEED_BYTES,
    ED25519_SIGNATURE_BYTES,
    constant_time_equal,
    ed25519_public_key,
    ed25519_sign,
    ed25519_verify_strict,
    generate_seed,
    hkdf_sha256,
    hmac_sha256,
    public_key_fingerprint,
    recipient_mac_key,
)

# RFC 8032 §7.1 TEST 1.
SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
PUBLIC_KEY = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
MESSAGE = b""
SIGNATURE = bytes.fromhex(
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)

# Independent edwards25519 constants and affine arithmetic, used only to derive and check
# the small-order points the module refuses (test-side; the module does no point arithmetic).
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = (-121665 * pow(121666, -1, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
IDENTITY = (0, 1)
Point = tuple[int, int]


def _sqrt(a: int) -> int | None:
    a %= P
    root = pow(a, (P + 3) // 8, P)
    if root * root % P != a:
        root = root * SQRT_M1 % P
    return root if root * root % P == a else None


def _on_curve(point: Point) -> bool:
    x, y = point
    return (-x * x + y * y - 1 - D * x * x * y * y) % P == 0


def _add(p1: Point, p2: Point) -> Point:
    (x1, y1), (x2, y2) = p1, p2
    t = D * x1 * x2 * y1 * y2 % P
    x3 = (x1 * y2 + x2 * y1) * pow(1 + t, -1, P) % P
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, -1, P) % P
    return (x3, y3)


def _mul(k: int, point: Point) -> Point:
    result, addend = IDENTITY, point
    while k:
        if k & 1:
            result = _add(result, addend)
        addend = _add(addend, addend)
        k >>= 1
    return result


def _encode(point: Point) -> bytes:
    x, y = point
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _decode_lenient(encoding: bytes) -> Point | None:
    """Decoding as a lenient verifier does it: y reduced mod p, the sign of x = 0 ignored."""
    value = int.from_bytes(encoding, "little")
    y, sign = (value & ((1 << 255) - 1)) % P, value >> 255
    x = _sqrt((y * y - 1) * pow(D * y * y + 1, -1, P))
    if x is None:
        return None
    if x and (x & 1) != sign:
        x = P - x
    return (x, y)


def _small_order_points() -> list[Point]:
    """All points whose order divides 8, solved for from the curve equation."""
    points = [IDENTITY, (0, P - 1), (SQRT_M1, 0), (P - SQRT_M1, 0)]
    # Doubling on -x^2 + y^2 = 1 + d x^2 y^2 gives y(2Q) = (x^2 + y^2) / (2 + x^2 - y^2), so Q
    # doubles to an order-4 point (y = 0) iff x^2 = -y^2, i.e. d y^4 + 2 y^2 - 1 = 0.
    disc = _sqrt(1 + D)
    assert disc is not None
    for y_squared in ((-1 + disc) * pow(D, -1, P) % P, (-1 - disc) * pow(D, -1, P) % P):
        y = _sqrt(y_squared)
        if y is None:
            continue
        x = _sqrt(-y_squared)
        assert x is not None
        points += [(x, y), (P - x, y), (x, P - y), (P - x, P - y)]
    return points


# Canonical encodings of the 8 small-order points, as published in libsodium's and
# Chalkias et al. ("Taming the many EdDSAs") blocklists.
CANONICAL_SMALL_ORDER = {
    "0100000000000000000000000000000000000000000000000000000000000000": "order 1: (0, 1)",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f": "order 2: (0, -1)",
    "0000000000000000000000000000000000000000000000000000000000000000": "order 4: (+i, 0)",
    "0000000000000000000000000000000000000000000000000000000000000080": "order 4: (-i, 0)",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05": "order 8: (x, y8)",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85": "order 8: (-x, y8)",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a": "order 8: (x, -y8)",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa": "order 8: (-x, -y8)",
}
# Encodings a lenient decoder maps onto those same points: y + p (possible only for y < 19,
# i.e. y = 0 and y = 1, each with either sign bit) and the sign bit set where x = 0.
NON_CANONICAL_SMALL_ORDER = {
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f": "y = 0 + p, sign 0",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff": "y = 0 + p, sign 1",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f": "y = 1 + p, sign 0",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff": "y = 1 + p, sign 1",
    "0100000000000000000000000000000000000000000000000000000000000080": "y = 1, x = 0, sign 1",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff": "y = -1, x = 0, sign 1",
}
ALL_SMALL_ORDER = {**CANONICAL_SMALL_ORDER, **NON_CANONICAL_SMALL_ORDER}


def test_small_order_list_is_exactly_the_8_torsion_points() -> None:
    points = _small_order_points()
    assert len(set(points)) == 8
    for point in points:
        assert _on_curve(point)
        assert _mul(8, point) == IDENTITY
    # Orders 1, 2, 4, 4, 8, 8, 8, 8: the full torsion subgroup, nothing missing.
    orders = sorted(next(n for n in (1, 2, 4, 8) if _mul(n, pt) == IDENTITY) for pt in points)
    assert orders == [1, 2, 4, 4, 8, 8, 8, 8]
    assert {_encode(pt).hex() for pt in points} == set(CANONICAL_SMALL_ORDER)


def test_non_canonical_list_decodes_leniently_onto_small_order_points() -> None:
    torsion = set(_small_order_points())
    for encoding in NON_CANONICAL_SMALL_ORDER:
        raw = bytes.fromhex(encoding)
        assert _decode_lenient(raw) in torsion
        assert _encode(_decode_lenient(raw) or IDENTITY) != raw
    # And y + p is representable in 255 bits for no other small-order y.
    ys = {y for _, y in torsion}
    assert {y for y in ys if y + P < 2**255} == {0, 1}


def _forgeries(encoding: bytes) -> Iterator[tuple[bytes, bytes]]:
    """(signature, message) pairs with S = 0 that satisfy [S]B = R + [k]A for small-order A.

    With S = 0 the equation is R = -[k]A, and [k]A only takes a few values, so trying the
    8 torsion points as R over a handful of messages finds forgeries without any secret.
    """
    public_point = _decode_lenient(encoding)
    assert public_point is not None
    for counter in range(64):
        message = b"forged message %d" % counter
        for r_point in _small_order_points():
            r_bytes = _encode(r_point)
            k = int.from_bytes(hashlib.sha512(r_bytes + encoding + message).digest(), "little") % L
            if _add(r_point, _mul(k % 8, public_point)) == IDENTITY:
                yield r_bytes + bytes(32), message


@pytest.mark.parametrize("encoding", list(ALL_SMALL_ORDER), ids=list(ALL_SMALL_ORDER.values()))
def test_small_order_public_keys_are_refused(encoding: str) -> None:
    raw = bytes.fromhex(encoding)
    forgeries = list(_forgeries(raw))
    # The forgeries are real solutions of the cofactorless equation, so only the key check
    # stands between them and acceptance (cryptography 50 / OpenSSL accepts them).
    assert forgeries
    for signature, message in forgeries:
        assert ed25519_verify_strict(raw, signature, message) is False
    assert ed25519_verify_strict(raw, SIGNATURE, MESSAGE) is False


def _on_curve_small_ys() -> list[int]:
    return [y for y in range(2, 19) if _decode_lenient(y.to_bytes(32, "little")) is not None]


def test_non_canonical_y_is_refused_for_ordinary_points() -> None:
    # y in [p, 2^255) re-encodes y - p; for y - p in 2..18 that is an ordinary point.
    ys = _on_curve_small_ys()
    assert ys
    for y in ys:
        for sign in (0, 1):
            canonical = (y | (sign << 255)).to_bytes(32, "little")
            non_canonical = (y + P | (sign << 255)).to_bytes(32, "little")
            # The key rule, not the signature, is what refuses the non-canonical spelling.
            assert crypto._is_strict_public_key(canonical) is True
            assert crypto._is_strict_public_key(non_canonical) is False
            assert ed25519_verify_strict(non_canonical, SIGNATURE, MESSAGE) is False


def test_rfc8032_test1_verifies() -> None:
    assert ed25519_verify_strict(PUBLIC_KEY, SIGNATURE, MESSAGE) is True


@pytest.mark.parametrize("length", [0, 31, 33, 64])
def test_verify_strict_wrong_public_key_length(length: int) -> None:
    key = (PUBLIC_KEY * 2)[:length]
    assert ed25519_verify_strict(key, SIGNATURE, MESSAGE) is False


@pytest.mark.parametrize("length", [0, 32, 63, 65, 128])
def test_verify_strict_wrong_signature_length(length: int) -> None:
    signature = (SIGNATURE + b"\x00" * 64)[:length]
    assert ed25519_verify_strict(PUBLIC_KEY, signature, MESSAGE) is False


@pytest.mark.parametrize("multiple", [1, 2, 3])
def test_verify_strict_refuses_s_plus_multiples_of_l(multiple: int) -> None:
    s = int.from_bytes(SIGNATURE[32:], "little")
    assert s < L
    malleated = SIGNATURE[:32] + (s + multiple * L).to_bytes(32, "little")
    assert ed25519_verify_strict(PUBLIC_KEY, malleated, MESSAGE) is False


def test_verify_strict_refuses_s_equal_to_l_and_max() -> None:
    for s in (L, 2**256 - 1):
        signature = SIGNATURE[:32] + s.to_bytes(32, "little")
        assert ed25519_verify_strict(PUBLIC_KEY, signature, MESSAGE) is False
    # and S = L - 1 gets past the S rule (the signature is then simply wrong).
    assert crypto._is_canonical_s(bytes(32) + (L - 1).to_bytes(32, "little")) is True


def test_verify_strict_refuses_off_curve_public_key() -> None:
    y = next(y for y in range(2, 100) if _decode_lenient(y.to_bytes(32, "little")) is None)
    assert ed25519_verify_strict(y.to_bytes(32, "little"), SIGNATURE, MESSAGE) is False


@given(
    public_key=st.binary(min_size=0, max_size=40),
    signature=st.binary(min_size=0, max_size=70),
    message=st.binary(max_size=64),
)
def test_verify_strict_never_raises(public_key: bytes, signature: bytes, message: bytes) -> None:
    assert ed25519_verify_strict(public_key, signature, message) in (True, False)


@given(
    public_key=st.binary(min_size=32, max_size=32),
    signature=st.binary(min_size=64, max_size=64),
)
def test_verify_strict_never_raises_on_well_sized_garbage(
    public_key: bytes, signature: bytes
) -> None:
    assert ed25519_verify_strict(public_key, signature, b"m") is False


def test_sign_and_verify_round_trip_with_generated_seed() -> None:
    seed = generate_seed()
    assert len(seed) == ED25519_SEED_BYTES
    assert generate_seed() != seed
    public_key = ed25519_public_key(seed)
    assert len(public_key) == ED25519_PUBLIC_KEY_BYTES
    signature = ed25519_sign(seed, b"hello")
    assert len(signature) == ED25519_SIGNATURE_BYTES
    assert ed25519_verify_strict(public_key, signature, b"hello") is True
    assert ed25519_verify_strict(public_key, signature, b"hellO") is False


@pytest.mark.parametrize("length", [0, 31, 33, 64])
def test_seed_must_be_32_bytes(length: int) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        ed25519_public_key(bytes(length))
    with pytest.raises(ValueError, match="32 bytes"):
        ed25519_sign(bytes(length), b"")


def test_public_key_fingerprint_is_pinned() -> None:
    assert public_key_fingerprint(PUBLIC_KEY) == (
        "sha256:21fe31dfa154a261626bf854046fd2271b7bed4b6abe45aa58877ef47f9721b9"
    )
    assert public_key_fingerprint(PUBLIC_KEY) == "sha256:" + hashlib.sha256(PUBLIC_KEY).hexdigest()


@pytest.mark.parametrize("length", [0, 31, 33, 44])
def test_public_key_fingerprint_requires_a_raw_key(length: int) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        public_key_fingerprint(bytes(length))


def _rfc5869_reference(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 §2.2-2.3 written out with the standard library, independent of the module."""
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    block, okm = b"", b""
    counter = 1
    while len(okm) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        okm += block
        counter += 1
    return okm[:length]


SOURCE_KEY = bytes(range(32))
DESTINATION_KEY = bytes(range(32, 64))
NONCE = bytes(range(0xA0, 0xB0))
DESTINATION_KEY_ID = "dest-installation-ü"
PINNED_MAC_KEY = bytes.fromhex("80166c470d700331c83745878ccc83d1e70e0dc3ee21a9ccefc2bffdefd19912")


def test_recipient_mac_key_is_pinned_and_matches_rfc5869() -> None:
    derived = recipient_mac_key(SOURCE_KEY, DESTINATION_KEY, NONCE, DESTINATION_KEY_ID)
    reference = _rfc5869_reference(
        SOURCE_KEY + DESTINATION_KEY,
        NONCE,
        b"zephr-continuity-recipient-mac-v1\x00" + DESTINATION_KEY_ID.encode("utf-8"),
        32,
    )
    assert derived == reference == PINNED_MAC_KEY


def test_recipient_mac_key_binds_every_input() -> None:
    base = recipient_mac_key(SOURCE_KEY, DESTINATION_KEY, NONCE, DESTINATION_KEY_ID)
    variants = [
        recipient_mac_key(DESTINATION_KEY, SOURCE_KEY, NONCE, DESTINATION_KEY_ID),
        recipient_mac_key(SOURCE_KEY, DESTINATION_KEY, NONCE[::-1], DESTINATION_KEY_ID),
        recipient_mac_key(SOURCE_KEY, DESTINATION_KEY, NONCE, "dest-installation-u"),
        recipient_mac_key(SOURCE_KEY, DESTINATION_KEY, NONCE, DESTINATION_KEY_ID + "\x00"),
    ]
    assert all(len(v) == 32 for v in variants)
    assert len({base, *variants}) == 5


@pytest.mark.parametrize(("source_len", "destination_len"), [(31, 33), (33, 31), (0, 32), (32, 64)])
def test_recipient_mac_key_requires_32_byte_installation_keys(
    source_len: int, destination_len: int
) -> None:
    with pytest.raises(ValueError, match="installation key"):
        recipient_mac_key(bytes(source_len), bytes(destination_len), NONCE, "id")


@pytest.mark.parametrize("length", [1, 31, 32, 33, 8160])
def test_hkdf_sha256_matches_reference(length: int) -> None:
    assert hkdf_sha256(b"ikm", b"salt", b"info", length) == _rfc5869_reference(
        b"ikm", b"salt", b"info", length
    )


def test_hkdf_sha256_empty_salt_means_hashlen_zeros() -> None:
    assert hkdf_sha256(b"ikm", b"", b"i", 42) == hkdf_sha256(b"ikm", bytes(32), b"i", 42)


@pytest.mark.parametrize("length", [-1, 0, 8161, 2**40])
def test_hkdf_sha256_refuses_out_of_range_lengths(length: int) -> None:
    with pytest.raises(ValueError, match="length"):
        hkdf_sha256(b"ikm", b"salt", b"info", length)


def test_hmac_sha256_matches_stdlib() -> None:
    for key in (b"", b"k", bytes(64), bytes(65)):
        assert hmac_sha256(key, b"message") == hmac.new(key, b"message", hashlib.sha256).digest()


def test_constant_time_equal() -> None:
    assert constant_time_equal(b"abc", b"abc") is True
    assert constant_time_equal(b"abc", b"abd") is False
    assert constant_time_equal(b"abc", b"ab") is False
    assert constant_time_equal(b"", b"") is True
