"""An ASIF package (`.asif.zip`) opened: the one call to `inspect_package` on an open.

The read step recognises a package by content (`looks_like_package`, never by name) and
hands its bytes here: the detached signature beside it (``NAME.asif.zip`` →
``NAME.asif.zip.sig.json`` or ``package-signature.json`` in its folder) is checked under
the trusted package public keys the request names (the window's Settings), and the
session member is outlined for the session view. A signature never brings its own
trust: with no trusted key it is read and said NOT CHECKED.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Final

from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.file_trust import guard
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.opener.documents import PackageDocument

KEY_FILE_MAX_BYTES: Final = 8 * 1024
SIGNATURE_NAMES: Final = ("{name}.sig.json", "package-signature.json")  # beside the package


def is_package(data: bytes) -> bool:
    """Whether bytes an open read are a package (by content, never by name)."""
    if not data.startswith(b"PK"):  # both of a ZIP's first records: a JSON file never is
        return False
    # Imported here: `validate` of a packet never loads the package checks.
    from zcf_inspector.core.package.container import looks_like_package  # noqa: PLC0415

    return looks_like_package(data[:4])


def trusted_keys(paths: tuple[str, ...]) -> tuple[tuple[bytes, ...], tuple[str, ...]]:
    """The trusted package public keys at ``paths``, read under the trust-file rule (a key
    others may write is no trust anchor), and why any could not be read."""
    from zcf_inspector.core.package.signature import PackageKeyError, key_bytes  # noqa: PLC0415

    keys: list[bytes] = []
    problems: list[str] = []
    for path in paths:
        what = "trusted package key"
        try:
            data = read_bounded(
                Path(path), KEY_FILE_MAX_BYTES, guard=guard(path, what, PackageKeyError)
            )
            keys.append(key_bytes(data, what))
        except (UnreadableFileError, ZcfError, OSError) as exc:
            problems.append(f"{path}: {exc}")
    return tuple(keys), tuple(problems)


def signature_beside(path: str) -> str | None:
    """The detached signature file beside the package at ``path``, if there is one."""
    folder, name = os.path.split(path)
    for pattern in SIGNATURE_NAMES:
        candidate = os.path.join(folder, pattern.format(name=name))
        if os.path.isfile(candidate):
            return candidate
    return None


def open_package(
    path: str,
    data: bytes,
    *,
    now: datetime,
    key_paths: tuple[str, ...] = (),
    signature_path: str | None = None,
    monitor: Monitor,
) -> PackageDocument:
    """The package ``data`` (read from ``path``) checked at ``now``: its container,
    inventory, closure and session, and its detached signature (``signature_path``, or
    the one beside it) under the trusted keys in ``key_paths``."""
    from zcf_inspector.core.codes import PackageCode  # noqa: PLC0415
    from zcf_inspector.core.continuation.outline import session_outline  # noqa: PLC0415
    from zcf_inspector.core.package.container import read_container  # noqa: PLC0415
    from zcf_inspector.core.package.inventory import read_member_json  # noqa: PLC0415
    from zcf_inspector.core.package.limits import MANIFEST, MAX_SIGNATURE, SESSION  # noqa: PLC0415
    from zcf_inspector.core.package.signature import trusted_key_for  # noqa: PLC0415
    from zcf_inspector.core.package.verify import inspect_package  # noqa: PLC0415

    keys, problems = trusted_keys(key_paths)
    # bytes given without a file (the API's sources) have nothing beside them
    beside = signature_beside(path) if os.path.isfile(path) else None
    chosen = signature_path or beside
    signature = None
    if chosen is not None:
        try:
            signature = read_bounded(Path(chosen), MAX_SIGNATURE)
        except UnreadableFileError as exc:
            problems = (*problems, f"{chosen}: {exc}")
            chosen = None
    trusted = None if signature is None else trusted_key_for(signature, keys)
    result = inspect_package(
        data, now=now, signature=signature, trusted_key=trusted, monitor=monitor
    )
    monitor.step("outlining the session", 0.9)
    container = read_container(data)
    files = {m.name: m.data for m in container.members if m.name != MANIFEST}
    value: JsonValue = None
    if container.refusal is None and SESSION in files:
        parsed = read_member_json(files[SESSION], SESSION, PackageCode.SESSION_INVALID)
        value = parsed if isinstance(parsed, dict) else None
    return PackageDocument(
        path, data, result, value, session_outline(value, files), chosen, problems
    )
