"""A receipt written in chunks is byte for byte the receipt written whole (issue 19: the
`review` command of a 64 MiB decisions file held the whole text several times over)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zcf_inspector.core.atomic import TargetExistsError, write_atomic
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.receipt import receipt_bytes, receipt_chunks
from zcf_inspector.core.visible_text import json_visible

# Strings a terminal would act on or that hide text, in keys and values, beside plain
# ASCII, at every position a chunk may end.
VALUE: dict[str, JsonValue] = {
    "format": "zephr-continuity-receipt",
    "review": {
        "decisions": [
            {"portableRef": f"b-{i}\u202e\u0085", "state": "confirmed", "note": "é\u2028x" * i}
            for i in range(300)
        ],
        "completedAt": "2026-09-30T18:00:00Z",
    },
    "k\u200b": [1, 2.5, None, True, {}, []],
}


def whole(value: object) -> bytes:
    # What receipt_bytes wrote before it was made of chunks.
    return (json_visible(json.dumps(value, ensure_ascii=False, indent=2)) + "\n").encode()


@pytest.mark.parametrize("chunk_chars", [1, 2, 7, 64, 1000, 1 << 20])
def test_every_chunk_size_gives_the_same_bytes(chunk_chars: int) -> None:
    chunks = list(receipt_chunks(VALUE, chunk_chars))
    assert b"".join(chunks) == whole(VALUE)
    assert receipt_bytes(VALUE) == whole(VALUE)
    if chunk_chars < 1000:
        assert len(chunks) > 10  # really written piece by piece


def test_chunks_are_written_through_the_atomic_writer(tmp_path: Path) -> None:
    out = tmp_path / "receipt.json"
    write_atomic(out, receipt_chunks(VALUE, 64))
    assert out.read_bytes() == whole(VALUE)
    with pytest.raises(TargetExistsError, match="already exists"):
        write_atomic(out, receipt_chunks(VALUE, 64))
    write_atomic(out, iter([b"a", b"", b"bc"]), overwrite=True)
    assert out.read_bytes() == b"abc"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["receipt.json"]  # no temporary left
