"""How the CLI prints: one verdict line per input, then findings with their pointers."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TextIO

from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonValue


def print_json(value: JsonValue, stream: TextIO | None = None) -> None:
    out = stream or sys.stdout
    out.write(json.dumps(value, ensure_ascii=False, indent=2))
    out.write("\n")


def json_bytes(value: JsonValue) -> bytes:
    """Human-friendly JSON (2-space indent, UTF-8) for files the CLI writes."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def print_findings(findings: Iterable[Finding], stream: TextIO | None = None) -> None:
    out = stream or sys.stdout
    for f in findings:
        where = f.pointer or "(document)"
        offset = f" at byte {f.offset}" if f.offset is not None else ""
        out.write(f"  {f.severity:<7} {f.code}  {where}{offset}\n      {f.message}\n")


def fail(message: str) -> None:
    """A usage or file problem: a message on stderr, never a traceback."""
    sys.stderr.write(f"zcf-inspector: {message}\n")
