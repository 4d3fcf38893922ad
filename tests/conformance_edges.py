"""The conformance edges of issue 23 as data, shared by the API, CLI and window tests.

ASIF cases: `tests/data/asif-0.4/conformance-edges.json` (mutations of the public
examples, read exactly so that `27.999999999999999999` stays as written). ZCF cases:
`tests/data/zcf-edges/cases.json` — inputs with several §1 problems (bytes) and edits of
a publication golden, resealed unsigned here so that only the edit is at fault.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from tests.conftest import REPO
from tests.core.continuation.upstream_cases import EDGES, Case, apply_patch, case_bytes, cases
from zcf_inspector.api import seal

ZCF_EDGES = REPO / "tests" / "data" / "zcf-edges" / "cases.json"
GOLDENS = REPO / "goldens" / "publication"


def asif_cases() -> list[Case]:
    return cases(EDGES)


def asif_bytes(case: Case) -> tuple[bytes, bytes | None]:
    return case_bytes(case)


@dataclass(frozen=True)
class ByteCase:
    name: str
    data: bytes
    code: str
    offset: int
    pointer: str


@dataclass(frozen=True)
class PacketCase:
    name: str
    data: bytes
    code: str
    pointer: str


@cache
def _zcf() -> Any:
    return json.loads(ZCF_EDGES.read_text(encoding="utf-8"))


def byte_cases() -> list[ByteCase]:
    out = []
    for c in _zcf()["bytes"]:
        data = bytes.fromhex(c["hex"]) if "hex" in c else c["text"].encode("utf-8")
        expect = c["expect"]
        out.append(
            ByteCase(c["name"], data, expect["code"], expect["offset"], expect.get("pointer", ""))
        )
    return out


def packet_cases() -> list[PacketCase]:
    out = []
    for c in _zcf()["packets"]:
        golden = json.loads((GOLDENS / f"{c['base']}.json").read_text(encoding="utf-8"))
        sealed = seal(apply_patch(golden, c["patch"]), "unsigned")
        data = json.dumps(sealed, ensure_ascii=False).encode("utf-8")
        out.append(PacketCase(c["name"], data, c["expect"]["code"], c["expect"]["pointer"]))
    return out
