"""The reader's two paths give one verdict: the fast path (orjson and cheap checks) only ever
says "clean", and only where the exact reader accepts the very same value.

Every vector is read three ways: the fast path alone (``_read_clean``), the exact reader
alone (``_read_exact``) and ``read_document`` (both, as callers get them). The fast path
may decline anything (the exact reader then decides), but what it accepts the exact
reader must accept with an identical value; and ``read_document`` must give exactly the
exact reader's outcome: the same value, or the same refusal with the same code, message,
offset and pointer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import DATA, VECTORS
from tests.core.test_reading_properties import MANY, SETTINGS, mutated_documents, values
from zcf_inspector.core import reading, reading_fast
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import MAX_DEPTH, ReadDocument, ReadError, read_document

REPO = Path(__file__).resolve().parents[2]
SUITE = VECTORS / "jsontestsuite" / "test_parsing"
GOLDENS = REPO / "goldens"
MAX_SAFE = 2**53 - 1
_WIDE = reading_fast._FEW_CONTAINERS + 1

# What the fast path declines on purpose, so that the exact reader reads it: a number
# with a fraction or an exponent (floats), or a surrogate escape (lone or paired).
FLOAT_LITERAL = re.compile(rb"[0-9][.eE]")
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def same_value(left: JsonValue, right: JsonValue) -> bool:
    """Equality that tells ints from floats and bools (``1 == 1.0 == True`` must not pass)
    and keys in a different order apart."""
    if isinstance(left, dict) and isinstance(right, dict):
        return list(left) == list(right) and all(same_value(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(
            same_value(a, b) for a, b in zip(left, right, strict=True)
        )
    return type(left) is type(right) and left == right


def exact_outcome(data: bytes) -> ReadDocument | ReadError:
    try:
        return reading._read_exact(data)
    except ReadError as err:
        return err


def combined_outcome(data: bytes) -> ReadDocument | ReadError:
    try:
        return read_document(data)
    except ReadError as err:
        return err


def assert_paths_agree(data: bytes) -> ReadDocument | None:
    """Check the contract on ``data``; return what the fast path said."""
    fast = reading._read_clean(data)
    exact = exact_outcome(data)
    if fast is not None:
        assert isinstance(exact, ReadDocument), f"the fast path accepted a refusal: {exact}"
        assert same_value(fast.value, exact.value)
        assert fast.has_fractions == exact.has_fractions
    combined = combined_outcome(data)
    if isinstance(exact, ReadError):
        assert isinstance(combined, ReadError), "read_document accepted a refusal"
        assert combined.args == exact.args  # code, message, offset, pointer
    else:
        assert isinstance(combined, ReadDocument), f"read_document refused: {combined}"
        assert same_value(combined.value, exact.value)
        assert combined.has_fractions == exact.has_fractions
    return fast


def declined_on_purpose(data: bytes) -> bool:
    return bool(FLOAT_LITERAL.search(data) or SURROGATE_ESCAPE.search(data))


# --- public vectors, goldens, examples -----------------------------------------------------


def suite_files() -> list[str]:
    return sorted(p.name for p in SUITE.iterdir() if p.name.endswith(".json"))


@pytest.mark.parametrize("name", suite_files())
def test_jsontestsuite_both_paths_agree(name: str) -> None:
    data = (SUITE / name).read_bytes()
    fast = assert_paths_agree(data)
    if name.startswith("n_"):
        assert fast is None, "the fast path accepted a text RFC 8259 refuses"
    # Whatever the exact reader accepts, the fast path accepts too, but for the inputs it
    # leaves to the exact reader on purpose: it is the fast path, not a rare one.
    if isinstance(exact_outcome(data), ReadDocument) and not declined_on_purpose(data):
        assert fast is not None


def corpus() -> dict[str, bytes]:
    files = [
        *sorted(GOLDENS.glob("*/*.json")),
        GOLDENS / "destination.json",
        *sorted((DATA / "asif-0.4").rglob("*.json")),  # examples and schemas
        *sorted((VECTORS / "jcs-cyberphone").rglob("*.json")),
    ]
    return {str(path.relative_to(REPO)): path.read_bytes() for path in files}


CORPUS = corpus()


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_goldens_examples_and_vectors_both_paths_agree(name: str) -> None:
    data = CORPUS[name]
    fast = assert_paths_agree(data)
    if isinstance(exact_outcome(data), ReadDocument) and not declined_on_purpose(data):
        assert fast is not None


def test_every_publication_golden_takes_the_fast_path() -> None:
    for path in sorted((GOLDENS / "publication").glob("*.json")):
        assert reading._read_clean(path.read_bytes()) is not None, path.name


# --- hostile inputs aimed at the fast path's own checks ------------------------------------


def nest(depth: int, inner: bytes = b"0") -> bytes:
    return b"[" * depth + inner + b"]" * depth


HOSTILE: dict[str, bytes] = {
    # repeated keys, which orjson silently collapses
    "repeat": b'{"a":1,"a":1}',
    "repeat at depth": b'{"x":[{"k":{"a":1,"b":2,"a":3}}]}',
    "repeat by escape": b'{"a":1,"\\u0061":2}',
    "repeat of an empty key": b'{"":1,"":2}',
    "repeat with colons in keys": b'{"a:":1,"a:":2}',
    "repeat with colons in values": b'{"a":"x:y","a":":"}',
    "repeat with escaped quotes": b'{"\\":":1,"\\":":2}',
    "repeat with backslash runs": b'{"\\\\":1,"\\\\":{"\\\\\\"":[]}, "\\\\":3}',
    "repeat hidden by a colon in a string": b'{"a":1,"a":2,"pad":"::"}',
    "repeat in the second of two objects": b'[{"a":1},{"b":1,"b":2}]',
    "repeat of a repeat": b'{"a":{"a":1,"a":1},"a":{"a":1}}',
    "no repeat, colons everywhere": b'{"a:b":"c:d",":":":","\\":":"\\":"}',
    "same key in sibling objects": b'[{"a":1},{"a":1}]',
    # nesting around the limit, both kinds
    "depth 128": nest(MAX_DEPTH),
    "depth 129": nest(MAX_DEPTH + 1),
    "depth 128 of objects": b'{"a":' * MAX_DEPTH + b"0" + b"}" * MAX_DEPTH,
    "depth 129 of objects": b'{"a":' * (MAX_DEPTH + 1) + b"0" + b"}" * (MAX_DEPTH + 1),
    "depth 1025": nest(1025),
    "deep and repeated": nest(MAX_DEPTH - 1, b'{"a":1,"a":2}'),
    # numbers
    "largest safe": f"[{MAX_SAFE},{-MAX_SAFE}]".encode(),
    "2^53": f"[{MAX_SAFE + 1}]".encode(),
    "-2^53": f"[{-MAX_SAFE - 1}]".encode(),
    "u64 max": b"[18446744073709551615]",
    "beyond u64": b"[18446744073709551616]",
    "i64 min": b"[-9223372036854775808]",
    "below i64": b"[-9223372036854775809]",
    "huge literal": b"[" + b"9" * 5000 + b"]",
    "minus zero": b"[-0]",
    "minus zero float": b"[-0.0]",
    "integral float": b"[1.0, 1E2, 1e-400]",
    "fraction": b"[0.5, 5e-324]",
    "float beyond 2^53": b"[1e21]",
    "infinite": b"[1e400]",
    "bool among ints": b"[true, 1, false, 0]",
    "big int at depth": b'{"a":[[{"b":[1,2,9007199254740992]}]]}',
    "top-level int": b"9007199254740991",
    "top-level big int": b"9007199254740992",
    # encoding and text
    "BOM": b'\xef\xbb\xbf{"a":1}',
    "invalid UTF-8": b'{"a":"\xff"}',
    "encoded surrogate": b'{"a":"\xed\xa0\x80"}',
    "overlong": b'{"a":"\xc0\xaf"}',
    "lone high surrogate": b'{"a":"\\ud800"}',
    "lone low surrogate": b'{"a":"\\udc00"}',
    "surrogate pair": b'{"a":"\\ud83d\\ude00"}',
    "escaped backslash before u": b'{"a":"\\\\ud800"}',
    "NaN": b"[NaN]",
    "trailing comma": b"[1,]",
    "trailing data": b"{} {}",
    "form feed": b"[1,\x0c2]",
    "empty": b"",
    "only whitespace": b" \n\t\r",
    "top-level string": b'"a:b"',
    "top-level null": b"null",
    "empty object": b"{}",
    "control character": b'["\x01"]',
    # levels held by many containers (the walk takes them as one group)
    "many objects, one repeats": b"[" + b'{"a":1},' * 100 + b'{"b":1,"b":2}]',
    "many objects, none repeats": b"[" + b'{"a":1,"b":[2]},' * 100 + b'{"b":1}]',
    "many objects, one big int": b"[" + b'{"a":1},' * 100 + b'{"b":9007199254740992}]',
    "many arrays, one too deep": b"[" + b"[[1]]," * 100 + nest(MAX_DEPTH) + b"]",
    "many arrays, deepest allowed": b"[" + b"[[1]]," * 100 + nest(MAX_DEPTH - 1) + b"]",
    "many mixed values": b"[" + b'"s",{"a":{"b":[1,null]}},[true,{}],-5,' * 40 + b"0]",
    "many mixed values, one repeats": b"["
    + b'"s",{"a":{"b":[1,null]}},[true,{}],-5,' * 40
    + b'{"a":{"c":1,"c":1}}]',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs_both_paths_agree(name: str) -> None:
    assert_paths_agree(HOSTILE[name])


@pytest.mark.parametrize(
    "name",
    [
        "repeat",
        "repeat at depth",
        "repeat by escape",
        "repeat with colons in keys",
        "repeat with escaped quotes",
        "repeat with backslash runs",
        "repeat hidden by a colon in a string",
        "repeat in the second of two objects",
        "deep and repeated",
        "depth 129",
        "depth 129 of objects",
        "2^53",
        "u64 max",
        "beyond u64",
        "big int at depth",
        "top-level big int",
        "integral float",
        "fraction",
        "surrogate pair",
        "many objects, one repeats",
        "many objects, one big int",
        "many arrays, one too deep",
        "many mixed values, one repeats",
    ],
)
def test_the_fast_path_declines_what_it_cannot_vouch_for(name: str) -> None:
    assert reading._read_clean(HOSTILE[name]) is None


@pytest.mark.parametrize(
    "name",
    [
        "no repeat, colons everywhere",
        "same key in sibling objects",
        "depth 128",
        "depth 128 of objects",
        "largest safe",
        "minus zero",
        "bool among ints",
        "top-level int",
        "top-level string",
        "escaped backslash before u",
        "many objects, none repeats",
        "many arrays, deepest allowed",
        "many mixed values",
    ],
)
def test_the_fast_path_accepts_clean_inputs(name: str) -> None:
    # "escaped backslash before u" looks like a surrogate escape to the byte search, but
    # it is two characters of text: the exact reader accepts it, so the fast path may
    # decline it (and does: a doubt), or accept it. What it must not do is differ.
    fast = assert_paths_agree(HOSTILE[name])
    if name != "escaped backslash before u":
        assert fast is not None


def test_repeats_are_found_across_the_members_chunk_boundary() -> None:
    # The member count runs over 1 MiB chunks; a key right at the edge counts once.
    chunk = 1 << 20
    for shift in range(-3, 4):
        pad = b"x" * (chunk - len(b'{"p":"') - shift)
        clean = b'{"p":"' + pad + b'","a:":1,"b":"\\":"}'
        repeated = b'{"p":"' + pad + b'","a:":1,"a:":2}'
        assert assert_paths_agree(clean) is not None
        assert assert_paths_agree(repeated) is None


# --- properties ------------------------------------------------------------------------------


@SETTINGS
@given(values, st.booleans(), st.sampled_from([None, 0, 2, "\t"]))
def test_both_paths_agree_on_what_json_dumps_writes(
    value: JsonValue, ascii_only: bool, indent: object
) -> None:
    assert_paths_agree(json.dumps(value, ensure_ascii=ascii_only, indent=indent).encode())  # type: ignore[arg-type]


@MANY
@given(mutated_documents())
def test_both_paths_agree_on_mutated_documents(data: bytes) -> None:
    assert_paths_agree(data)


@MANY
@given(st.binary(max_size=200))
def test_both_paths_agree_on_random_bytes(data: bytes) -> None:
    assert_paths_agree(data)


keys = st.sampled_from(["a", "b", "a:", ":", '"', "\\", '\\"', "\\u0061", ""])


@st.composite
def objects_with_repeats(draw: st.DrawFn) -> bytes:
    """Objects written by hand, so that a key may repeat, spelled alike or escaped."""

    def write(depth: int) -> str:
        kind = draw(st.sampled_from(["object", "array", "scalar"] if depth < 4 else ["scalar"]))
        if kind == "scalar":
            return draw(st.sampled_from(["1", '"x:y"', '"\\":"', "true", "null", "[]", "{}"]))
        if kind == "array":
            items = [write(depth + 1) for _ in range(draw(st.integers(0, 3)))]
            return "[" + ",".join(items) + "]"
        members = []
        for _ in range(draw(st.integers(0, 4))):
            key = draw(keys)
            spelled = json.dumps(key) if key != "\\u0061" else '"\\u0061"'
            separator = draw(st.sampled_from([":", " : ", ":\n"]))
            members.append(spelled + separator + write(depth + 1))
        return "{" + ",".join(members) + "}"

    return write(0).encode()


@MANY
@given(objects_with_repeats())
def test_both_paths_agree_on_objects_with_repeated_keys(data: bytes) -> None:
    fast = assert_paths_agree(data)
    # The exact reader's duplicate check, as the oracle for the fast path's count.
    exact = exact_outcome(data)
    if isinstance(exact, ReadError) and exact.code == "duplicate_key":
        assert fast is None


@SETTINGS
@given(
    st.lists(objects_with_repeats(), min_size=1, max_size=4),
    st.integers(_WIDE, _WIDE + 20),
    st.booleans(),
)
def test_both_paths_agree_on_wide_documents(kinds: list[bytes], width: int, keyed: bool) -> None:
    # Levels held by more containers than the walk takes one by one (a few drawn values,
    # repeated: drawing 65 of them each time would make the test slow, not stronger).
    parts = [kinds[i % len(kinds)] for i in range(width)]
    if keyed:
        data = b"{" + b",".join(b'"k%d":%s' % (i, part) for i, part in enumerate(parts)) + b"}"
    else:
        data = b"[" + b",".join(parts) + b"]"
    assert_paths_agree(data)


def test_fast_path_limit_sends_larger_inputs_to_the_exact_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The fast path's parse holds the GIL in one call; under a limit, larger inputs are read
    # by the exact reader alone, with the same results.
    tried: list[int] = []
    real = reading._read_clean

    def spy(data: bytes) -> ReadDocument | None:
        tried.append(len(data))
        return real(data)

    monkeypatch.setattr(reading, "_read_clean", spy)
    small, large = b'{"a":1}', b'{"a":"' + b"x" * 100 + b'"}'
    with reading.fast_path_limit(len(small)):
        assert read_document(small).value == {"a": 1}
        assert read_document(large).value == {"a": "x" * 100}
        with pytest.raises(ReadError):
            read_document(b'{"a":1,"a":2}' + b" " * 100)
    assert read_document(large).value == {"a": "x" * 100}  # the limit is gone again
    assert tried == [len(small), len(large)]
