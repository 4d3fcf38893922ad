"""Build an `.asif.zip` deterministically: byte for byte what the reference writer makes.

The reference (`package_bytes`) validates the session, takes `session.json` and each
embedded `path` resource's bytes, writes the inventory as sorted compact JSON with a final
newline, and stores every member with `zipfile` (names sorted, 1980-01-01 00:00:00, a
regular file of mode 0600 made on Unix, no compression). The archive is written with the
same standard-library writer and the same fields, so the bytes are the same (the tests
hold the digests the reference gave for every example session).

The resource files are read from the session's folder: each path portable and contained,
no symbolic link on the way, a regular file, at most 64 MiB (`read_resources`).
"""

from __future__ import annotations

import hashlib
import io
import json
import stat
import zipfile
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import cast

from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.continuation.rules.paths import path_problem
from zcf_inspector.core.errors import RefusalError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.jsontypes import JsonObject, JsonValue
from zcf_inspector.core.package.limits import (
    MANIFEST,
    MAX_ARCHIVE,
    MAX_MEMBERS,
    MAX_RESOURCE,
    PACKAGE_VERSION,
    RESERVED,
    SESSION,
)
from zcf_inspector.core.reading import ReadError, read_json

_EPOCH = (1980, 1, 1, 0, 0, 0)
_UNIX = 3
_MODE = (stat.S_IFREG | 0o600) << 16


class PackageBuildError(RefusalError):
    """The session cannot be packaged: it is refused, or a resource file is unfit."""

    code = "package_refused"


def encode_manifest(value: JsonValue) -> bytes:
    """Sorted keys, compact separators, UTF-8 as is, one final newline (the reference's)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (text + "\n").encode("utf-8")


def _file_paths(session: bytes) -> list[str]:
    try:
        value = read_json(session, exact=True)
    except ReadError as exc:
        raise PackageBuildError(f"the session is not JSON: {exc.message}") from exc
    resources = value.get("resources") if isinstance(value, dict) else None
    out: list[str] = []
    for item in resources if isinstance(resources, list) else []:
        if isinstance(item, dict) and item.get("availability") == "embedded":
            path = item.get("path")
            if isinstance(path, str):
                out.append(path)
    return out


def read_resources(session: bytes, folder: Path) -> dict[str, bytes]:
    """The bytes of every file the session's embedded resources name, read from ``folder``:
    a path that is not portable, passes through a symbolic link or is not a regular file
    is refused (the reference's `contained` and `read`)."""
    out: dict[str, bytes] = {}
    for name in _file_paths(session):
        if name in out:
            continue
        problem = path_problem(name) if name else "the path is empty"
        if problem is not None:
            raise PackageBuildError(f"resource path {name!r}: {problem}")
        current = folder
        for part in name.split("/"):
            current = current / part
            if current.is_symlink():
                raise PackageBuildError(f"resource path {name!r} passes through a symbolic link")
        if not current.is_file():
            raise PackageBuildError(f"resource file {shown_path(current)} is not there")
        out[name] = read_bounded(current, MAX_RESOURCE, refuse_larger=True)
    return out


def _refusal(result: InspectionResult) -> str | None:
    first = next((f for f in result.all_findings() if f.severity is Severity.ERROR), None)
    if first is None:
        return None if result.ok else "findings past the budget"
    return f"{first.code} at {first.pointer or '(document)'}: {first.message}"


def package_bytes(session: bytes, files: Mapping[str, bytes], *, now: datetime) -> bytes:
    """The package of ``session`` with the bytes of its ``path`` resources (``files``)."""
    checked = inspect_continuation(session, now=now, files=files)
    refused = _refusal(checked)
    if refused is not None or checked.kind is None or str(checked.kind) != "asif-session":
        raise PackageBuildError(f"the session is refused: {refused or 'not an ASIF session'}")
    members: dict[str, bytes] = {SESSION: session}
    value = cast(JsonObject, read_json(session, exact=True))
    for record in cast(list[JsonValue], value["resources"]):
        resource = cast(JsonObject, record)
        if resource["availability"] == "embedded" and "path" in resource:
            name = cast(str, resource["path"])
            if name.casefold() in RESERVED:
                raise PackageBuildError(f"resource path {name!r} is a reserved package path")
            members[name] = files[name]
    if len(members) + 1 > MAX_MEMBERS:
        raise PackageBuildError(f"more than {MAX_MEMBERS} members (package member limit)")
    inventory: list[JsonValue] = [
        {"path": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        for name, data in sorted(members.items())
    ]
    members[MANIFEST] = encode_manifest(
        {"package_version": PACKAGE_VERSION, "session": SESSION, "files": inventory}
    )
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in sorted(members.items()):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.create_system = _UNIX
            info.external_attr = _MODE
            archive.writestr(info, data)
    out = stream.getvalue()
    if len(out) > MAX_ARCHIVE:
        raise PackageBuildError(
            f"the package would have {len(out):,} bytes (at most {MAX_ARCHIVE:,})"
        )
    return out


def build_from_folder(session_path: Path, *, now: datetime, max_session: int) -> bytes:
    """The package of the session file at ``session_path`` with its resources beside it."""
    session = read_bounded(session_path, max_session, refuse_larger=True)
    return package_bytes(session, read_resources(session, session_path.parent), now=now)
