"""The digest of one value, and the cheap test that keeps large ones off the UI thread."""

from __future__ import annotations

import hashlib

from tests.core.helpers import plain_canonical
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.value_digest import SMALL_BUDGET, is_small, value_digest


def test_value_digest_is_sha256_of_the_canonical_bytes() -> None:
    belief: dict[str, JsonValue] = {
        "sourceId": "mem-1",
        "portableRef": "b-1",
        "content": "é \u2028",
    }
    expected = "sha256:" + hashlib.sha256(plain_canonical(belief)).hexdigest()
    assert value_digest(belief) == expected
    assert value_digest(dict(reversed(list(belief.items())))) == expected
    assert value_digest(True) != value_digest(1)


def test_value_digest_of_a_value_the_reader_cannot_make_is_none() -> None:
    assert value_digest(float("nan")) is None
    assert value_digest({"n": 2**60}) is None


def test_is_small_counts_values_and_characters_and_stops_early() -> None:
    assert is_small({"portableRef": "b-1", "content": "x" * 200})
    assert not is_small("x" * (SMALL_BUDGET + 1))
    assert not is_small({"k": ["y"] * SMALL_BUDGET})
    assert not is_small({("k" * 10 + str(n)): n for n in range(SMALL_BUDGET // 10)})
    assert is_small([[[[]]]])
    assert is_small(list(range(100)), budget=101)
    assert not is_small(list(range(100)), budget=100)
