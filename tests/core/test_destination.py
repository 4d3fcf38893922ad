from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from zcf_inspector.core.crypto import ed25519_public_key, public_key_fingerprint
from zcf_inspector.core.formats import b64u_encode
from zcf_inspector.core.packet.destination import (
    DestinationError,
    load_destination,
    parse_destination,
)
from zcf_inspector.core.packet.destination_limits import (
    DEFAULT_MAX_BELIEF_BYTES,
    DEFAULT_MAX_BELIEFS,
)


def golden_file() -> dict[str, Any]:
    return copy.deepcopy(g.DESTINATION)


def test_golden_destination_is_decoded() -> None:
    d = parse_destination(golden_file())
    assert d.installation_key_id == g.DEST_ID
    assert d.installation_key == g.DEST_INSTALLATION
    assert d.source_installation_keys == {g.SOURCE_ID: g.SOURCE_INSTALLATION}
    public = ed25519_public_key(g.SOURCE_SEED)
    assert d.trusted_keys == {public_key_fingerprint(public): public}
    assert d.now() == datetime(2026, 10, 1, 12, tzinfo=UTC)
    assert d.signing_public_key == ed25519_public_key(g.RECEIPT_SEED)


def test_only_the_key_id_is_required_and_defaults_apply() -> None:
    d = parse_destination({"installationKeyId": "dest"})
    assert d.installation_key is None
    assert d.capabilities == frozenset()
    assert (d.strict, d.refuse_unsigned) == (False, False)
    assert (d.max_beliefs, d.max_belief_bytes) == (DEFAULT_MAX_BELIEFS, DEFAULT_MAX_BELIEF_BYTES)
    assert d.fixed_now is None
    assert d.now().tzinfo is UTC


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"surprise": 1}, "surprise"),
        ({"installationKeyId": ""}, "installationKeyId"),
        ({"installationKey": "AAAA"}, "32 bytes"),
        ({"installationKey": "not base64!"}, "base64url"),
        ({"sourceInstallationKeys": {"\x01bad": b64u_encode(b"k" * 32)}}, "id"),
        ({"trustedKeys": ["AAAA"]}, "32 bytes"),
        ({"capabilities": ["zephr_teleport"]}, "not a published capability"),
        ({"capabilities": ["zephr_why", "zephr_why"]}, "unique"),
        ({"strict": "yes"}, "strict"),
        ({"maxBeliefs": -1}, "maxBeliefs"),
        ({"maxBeliefs": True}, "maxBeliefs"),
        ({"now": "2026-10-01 12:00:00"}, "timestamp"),
        ({"signingKey": b64u_encode(b"k" * 31)}, "32 bytes"),
    ],
)
def test_invalid_destination_files_are_refused_with_the_field(
    change: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(DestinationError, match=fragment):
        parse_destination({**golden_file(), **change})


@pytest.mark.parametrize("value", [[], "dest", None, 3])
def test_not_an_object(value: Any) -> None:
    with pytest.raises(DestinationError):
        parse_destination(value)


def test_load_refuses_unreadable_oversized_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(DestinationError, match="no such file"):
        load_destination(tmp_path / "missing.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (2 * 1024 * 1024))
    with pytest.raises(DestinationError, match="larger than 1 MiB"):
        load_destination(big)
    dup = tmp_path / "dup.json"
    dup.write_text('{"installationKeyId": "a", "installationKeyId": "b"}')
    with pytest.raises(DestinationError, match="duplicate_key"):
        load_destination(dup)
    with pytest.raises(DestinationError, match="folder"):
        load_destination(tmp_path)
