"""Packets for tests, made by the goldens generator's builders (fixed keys, fixed clock)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

from goldens import generate
from zcf_inspector.core.packet.destination import Destination, parse_destination

GOLDENS = Path(generate.__file__).resolve().parent


def golden_bytes(name: str) -> bytes:
    return (GOLDENS / "publication" / f"{name}.json").read_bytes()


def golden(name: str) -> dict[str, Any]:
    value = json.loads(golden_bytes(name))
    assert isinstance(value, dict)
    return value


def destination(**overrides: Any) -> Destination:
    return parse_destination({**copy.deepcopy(generate.DESTINATION), **overrides})


def to_bytes(packet: dict[str, Any]) -> bytes:
    return json.dumps(packet, ensure_ascii=False).encode("utf-8")


def plain_canonical(value: Any) -> bytes:
    """An independent canonical form for values without non-integral numbers: the
    stdlib encoder with sorted keys and no whitespace matches profile §2 for them."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def lp(data: bytes | str) -> bytes:
    raw = data.encode() if isinstance(data, str) else data
    return len(raw).to_bytes(8, "big") + raw


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()
