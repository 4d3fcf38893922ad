"""Hostile leaves: boundary numbers, odd number and string literals, timestamps, digests and
base64url text that get a format nearly right, and the scalar strategies built from them."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.fuzz.strategies.trees import RawNumber, RawString, Tree

MAX_SAFE = 2**53 - 1

BOUNDARY_INTS = [
    MAX_SAFE,
    -MAX_SAFE,
    MAX_SAFE + 1,
    -(MAX_SAFE + 1),
    MAX_SAFE + 2,
    2**63,
    2**64 + 1,
    0,
    -1,
    1,
    2,
]
NUMBER_LITERALS = [
    "9007199254740991",
    "-9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "9007199254740991.0",
    "9007199254740991.5",
    "9007199254740992.0",
    "9.007199254740991e15",
    "9.007199254740993e15",
    "1e21",
    "1E2",
    "1.0",
    "1.0e0",
    "-0",
    "-0.0",
    "0e-5",
    "1e-400",
    "1e400",
    "-1e400",
    "5e-324",
    "1.7976931348623157e308",
    "0.1",
    "1e-7",
    "1.5e-7",
    "123456789012345678901234567890",
    "NaN",
    "Infinity",
    "-Infinity",
    "01",
    "1.",
    ".5",
    "+1",
    "0x10",
    "1e",
    "-",
]
STRING_BODIES = [
    "\\ud800",
    "\\udc00",
    "\\uD800\\u0041",
    "\\ud83d\\ude00",
    "\\ud83d",
    "\\ude00\\ud83d",
    "\\u0000",
    "\\u001f",
    "\\/",
    "\\u00e9",
    "a\\nb",
    "\\x41",
    "\\u12",
    "\t",
    "\u0000",
    "\\",
    "\\ud800\\ud800\\udc00",
]
TIMESTAMPS = [
    "2026-09-30T10:00:00Z",
    "2026-09-30t10:00:00z",
    "2026-09-30T10:00:60Z",
    "2026-02-30T10:00:00Z",
    "2026-09-30T10:00:00+00:00",
    "2026-09-30T10:00:00.1234567891Z",
    "2026-09-30T10:00:00.Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999999Z",
    "2026-09-30 10:00:00Z",
    "٢٠٢٦-09-30T10:00:00Z",
    # Offsets that move a date past datetime's range (year 1 / year 9999) once in UTC.
    "0001-01-01T00:00:00+01:00",
    "0001-01-01T00:59:59.999999+01:00",
    "9999-12-31T23:59:59-01:00",
    "9999-12-31T23:00:00-23:59",
    "2026-09-30T10:00:00+24:00",
    "2026-09-30T10:00:00-00:00",
    "2026-09-30T24:00:00Z",
]
DIGESTS = [
    "sha256:" + "0" * 64,
    "sha256:" + "A" * 64,
    "sha256:" + "0" * 63,
    "SHA256:" + "0" * 64,
    "0" * 64,
    "f" * 65,
    "sha256:",
]
B64U = ["", "A", "AA", "AAA=", "AAAA====", "AA AA", "AA\nAA", "+/", "-_", "A" * 1000, "é"]
SPECIAL_STRINGS = [
    "",
    " ",
    "\x00",
    "\x1f",
    "\x7f",
    "\u2028\u2029",
    "\ufeff",
    "\ud800",
    "\udfff",
    "😀" * 3,
    "\U0010ffff",
    "e\u0301" * 5,
    "\u202e",
    "~0~1/",
    "/",
    "~",
    "x-zephr-secret",
    "sha256:" + "0" * 64,
    "sha256:" + "A" * 64,
    "sha256:" + "0" * 63,
    "AAAAAAAAAAAAAAAAAAAAAA==",
    "AAAA AAAA",
    "+/+/",
    "a" * 256,
    "a" * 257,
    "a" * 1025,
    "../etc/passwd",
    "/abs/path",
    "a\\b",
    "a/./b",
    "unbound",
    "__proto__",
    "constructor",
    *TIMESTAMPS,
]
HUGE_STRING_CHARS = st.sampled_from(["a", "é", "😀", "\x00", "\\", '"', "\u2028"])


def huge_string() -> st.SearchStrategy[str]:
    return st.builds(lambda ch, n: ch * n, HUGE_STRING_CHARS, st.integers(10_000, 300_000))


def scalars(pool: list[Tree]) -> st.SearchStrategy[Tree]:
    """A hostile scalar: boundary numbers, odd strings, bool-vs-int, null, or a pool value."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from(BOUNDARY_INTS),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([1.0, -0.0, 0.5, 1e-7, 1e21, 9007199254740992.0]),
        st.sampled_from(NUMBER_LITERALS).map(RawNumber),
        st.sampled_from(STRING_BODIES).map(RawString),
        st.sampled_from(SPECIAL_STRINGS),
        st.text(max_size=40),
        st.text(st.characters(codec="utf-8"), max_size=20),
        st.text(st.characters(min_codepoint=0x10000), max_size=10),
        huge_string(),
        st.sampled_from(pool),
    )


def small_values(pool: list[Tree]) -> st.SearchStrategy[Tree]:
    leaf = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-10, 10),
        st.sampled_from(SPECIAL_STRINGS[:20]),
        st.sampled_from(pool),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.text(max_size=8), inner, max_size=4),
        ),
        max_leaves=8,
    )
