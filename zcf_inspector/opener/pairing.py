"""Which opened report goes with which opened session: the one place they are paired.

A report names the SHA-256 of the session bytes it binds; failing that, the session id.
A lone session and a lone report opened together are paired as well, so that the core
reports any binding mismatch rather than the opener hiding it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Protocol

from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.present.recognise import recognise


class Opened(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    @property
    def value(self) -> JsonValue | None: ...


_SESSIONS = (DocumentKind.ASIF_SESSION, DocumentKind.CONTINUATION_PROFILE)


def pair_reports(reads: Sequence[Opened], known: Mapping[str, str]) -> dict[str, str]:
    """session path -> report path, for reports opened together with their session
    (``known``: pairs kept from before, a reload's)."""
    sessions = [r for r in reads if recognise(r.value) in _SESSIONS]
    reports = [r for r in reads if recognise(r.value) is DocumentKind.CONTINUATION_REPORT]
    pairs = {s: r for s, r in known.items() if any(x.path == r for x in reports)}
    digests = {hashlib.sha256(s.data).hexdigest(): s for s in sessions}
    ids = {_session_id(s.value): s for s in sessions}
    for report in reports:
        source = report.value.get("source") if isinstance(report.value, dict) else None
        bound = source if isinstance(source, dict) else {}
        session = digests.get(str(bound.get("document_sha256"))) or ids.get(
            str(bound.get("session_id"))
        )
        if session is not None and session.path not in pairs:
            pairs[session.path] = report.path
    free_sessions = [s for s in sessions if s.path not in pairs]
    free_reports = [r for r in reports if r.path not in pairs.values()]
    if len(free_sessions) == 1 and len(free_reports) == 1:
        pairs[free_sessions[0].path] = free_reports[0].path
    return pairs


def _session_id(value: JsonValue | None) -> str | None:
    if isinstance(value, dict):
        session = value.get("session")
        if isinstance(session, dict) and isinstance(session.get("id"), str):
            return str(session["id"])
    return None
