"""Findings: what every check reports, one `{code, severity, pointer, message}` each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core.jsontypes import JsonValue


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a check found, pinned to a JSON pointer into the document it read."""

    code: StrEnum  # an ErrorCode for ZCF packets; the continuation checks have their own enum
    severity: Severity
    pointer: str
    message: str
    offset: int | None = None  # byte offset, for refusals made while reading bytes

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "code": str(self.code),
            "severity": str(self.severity),
            "pointer": self.pointer,
            "message": self.message,
        }


def error(code: StrEnum, pointer: str, message: str) -> Finding:
    return Finding(code, Severity.ERROR, pointer, message)


def has_error(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)
