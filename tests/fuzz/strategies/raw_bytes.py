"""Raw-byte mutation of whole files: bit flips, cut and spliced segments, repeated lines,
encoding traps (BOM, CESU-8 surrogates, overlong forms) and nesting around the limit."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.fuzz.strategies.trees import Blob

BOM = b"\xef\xbb\xbf"
TOKENS = [
    BOM,
    b"\xff\xfe",
    b"\\ud800",
    b"\\udc00",
    b"\\ud83d\\ude00",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xf4\x90\x80\x80",
    b"\x80",
    b"\xff",
    b"\x00",
    b"\x1f",
    b"\x7f",
    b"\t",
    b"\r\n",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"-0",
    b"1e400",
    b"9007199254740993",
    b"9007199254740992.5",
    b"//",
    b"/*x*/",
    b"'",
    b'"',
    b"\\",
    b"\\\\",
    b'\\"',
    b",",
    b":",
    b"[",
    b"]",
    b"{",
    b"}",
    b"null",
    b"true",
    b'"a":1,',
    b'{"a":1,"a":2}',
    "é".encode(),
    "😀".encode(),
    "\u2028".encode(),
]


def _positions(data: bytes | bytearray) -> st.SearchStrategy[int]:
    return st.integers(0, len(data))


@st.composite
def byte_mutation(draw: st.DrawFn, data: bytearray, corpus: list[bytes]) -> bytearray:
    op = draw(
        st.sampled_from(
            [
                "flip",
                "set",
                "delete",
                "truncate",
                "insert",
                "dup_segment",
                "splice",
                "dup_line",
                "drop_line",
                "swap_lines",
                "brackets",
            ]
        )
    )
    if not data:
        return bytearray(draw(st.sampled_from(TOKENS)))
    at = draw(st.integers(0, len(data) - 1))
    if op == "flip":
        data[at] ^= 1 << draw(st.integers(0, 7))
    elif op == "set":
        data[at] = draw(st.sampled_from(b'\x00\x1f\x7f\x80\xbf\xc0\xed\xff"\\[]{},:0- '))
    elif op == "delete":
        end = min(len(data), at + draw(st.integers(1, 16)))
        del data[at:end]
    elif op == "truncate":
        del data[at:]
    elif op == "insert":
        data[at:at] = draw(st.sampled_from(TOKENS))
    elif op == "dup_segment":
        end = min(len(data), at + draw(st.integers(1, 200)))
        target = draw(_positions(data))
        data[target:target] = data[at:end]
    elif op == "splice":
        other = draw(st.sampled_from(corpus))
        cut = draw(st.integers(0, len(other)))
        data[at:] = other[cut:]
    elif op in ("dup_line", "drop_line", "swap_lines"):
        lines = data.split(b"\n")
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        if op == "dup_line":
            lines.insert(j, lines[i])
        elif op == "drop_line":
            del lines[i]
        else:
            lines[i], lines[j] = lines[j], lines[i]
        data[:] = b"\n".join(lines)
    else:  # brackets: nesting right around the 128 limit
        count = draw(st.integers(120, 135))
        opener = draw(st.sampled_from([b"[", b'{"a":', b'[{"a":']))
        data[at:at] = opener * count
    return data


@st.composite
def mutated_bytes(draw: st.DrawFn, corpus: list[bytes], max_mutations: int = 4) -> Blob:
    data = bytearray(draw(st.sampled_from(corpus)))
    for _ in range(draw(st.integers(1, max_mutations))):
        data = draw(byte_mutation(data, corpus))
    return Blob(data)
