"""Embedded resources: their bytes, checked against the declared length and SHA-256.

An embedded resource carries its bytes as `text` (UTF-8), `data` (base64) or `path` (a
file beside the session). A `path` is checked for a portable, contained, non-colliding
name; when the caller has the files (a package's members) its bytes are checked like the
others, otherwise (`plan` reads the session's bytes only) it is reported as not checked.
Inline bytes are decoded (bounded) and must match `bytes` and `sha256` exactly. The verified
bytes feed the checks that look inside resources (Git blobs, streams, source locators).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import ResourceBytes
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.paths import path_problem
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, Severity, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

MAX_RESOURCE = 64 * 1024 * 1024
MAX_TOTAL = 256 * 1024 * 1024
MAX_JSON_DEPTH = 128


def inline_bytes(resource: JsonObject) -> bytes | str:
    """The inline bytes of ``resource``, or why they cannot be had."""
    if "text" in resource:
        try:
            return cast(str, resource["text"]).encode("utf-8")
        except UnicodeEncodeError:
            return "its text is not encodable as UTF-8 (a lone surrogate)"
    data = cast(str, resource["data"])
    if len(data) > ((MAX_RESOURCE + 2) // 3) * 4:
        return f"its base64 data is longer than a {MAX_RESOURCE}-byte resource can be"
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as exc:
        return f"its data is not valid base64 ({exc})"


def resource_bytes(
    raw_resources: list[JsonValue],
    findings: list[Finding],
    files: Mapping[str, bytes] | None = None,
) -> ResourceBytes:
    """Every embedded resource checked against its declared length and digest (a `path`
    resource's bytes taken from ``files``, when given, by its exact name)."""
    out = ResourceBytes()
    total = 0
    folded_paths: dict[str, str] = {}
    for i, item in enumerate(raw_resources):
        tick()
        resource = cast(JsonObject, item)
        ident = cast(str, resource["id"])
        where = f"/resources/{i}"
        subject = node_of("resource", ident)  # what each finding below is about
        if ident in out.records:
            continue  # a duplicate ID is reported with the other collections
        out.records[ident] = resource
        out.pointers[ident] = where
        if resource.get("availability") != "embedded":
            continue
        if "path" in resource:
            if not _path_resource(resource, where, folded_paths, findings, subject, files=files):
                continue
            raw: bytes | str = cast(Mapping[str, bytes], files)[cast(str, resource["path"])]
        else:
            raw = inline_bytes(resource)
        if isinstance(raw, str):
            out.refused.add(ident)
            field_name = "text" if "text" in resource else "data"
            findings.append(
                error(PlanCode.RESOURCE_INTEGRITY, f"{where}/{field_name}", raw, subject)
            )
            continue
        total += len(raw)
        problem = None
        if len(raw) > MAX_RESOURCE:
            problem = f"{len(raw)} bytes exceed the {MAX_RESOURCE}-byte resource limit"
        elif total > MAX_TOTAL:
            problem = f"inline resources exceed {MAX_TOTAL} bytes in total"
        if problem is not None:
            out.refused.add(ident)
            findings.append(error(PlanCode.RESOURCE_INTEGRITY, where, problem, subject))
            continue
        declared = resource["bytes"]
        digest = hashlib.sha256(raw).hexdigest()
        if len(raw) != declared:
            out.refused.add(ident)
            findings.append(
                error(
                    PlanCode.RESOURCE_INTEGRITY,
                    where + "/bytes",
                    f"resource {ident!r} declares {declared} bytes; its content has {len(raw)}",
                    subject,
                )
            )
        elif digest != resource["sha256"]:
            out.refused.add(ident)
            findings.append(
                error(
                    PlanCode.RESOURCE_INTEGRITY,
                    where + "/sha256",
                    f"resource {ident!r} declares SHA-256 {resource['sha256']}; its content "
                    f"hashes to {digest}",
                    subject,
                )
            )
        else:
            out.verified[ident] = raw
    return out


def _path_resource(
    resource: JsonObject,
    where: str,
    folded: dict[str, str],
    findings: list[Finding],
    subject: str,
    *,
    files: Mapping[str, bytes] | None,
) -> bool:
    """Whether the bytes of a `path` resource are in ``files`` to be checked (otherwise
    why not is reported here)."""
    path = cast(str, resource["path"])
    problem = path_problem(path)
    if problem is not None:
        findings.append(
            error(PlanCode.UNSAFE_PATH, where + "/path", f"{path!r}: {problem}", subject)
        )
        return False
    key = path.casefold()
    if key in folded and folded[key] != path:
        findings.append(
            error(
                PlanCode.UNSAFE_PATH,
                where + "/path",
                f"{path!r} and {folded[key]!r} name one file on a case-insensitive filesystem",
                subject,
            )
        )
    folded.setdefault(key, path)
    if files is not None:
        if path in files:
            return True
        findings.append(
            error(
                PlanCode.RESOURCE_INTEGRITY,
                where + "/path",
                f"resource {resource['id']!r} names the file {path!r}, which is not there",
                subject,
            )
        )
        return False
    findings.append(
        Finding(
            PlanCode.RESOURCE_NOT_CHECKED,
            Severity.INFO,
            where + "/path",
            f"resource {resource['id']!r} is the file {path!r} beside the session; plan reads "
            "the session's bytes only, so its length and SHA-256 were not checked",
            subject=subject,
        )
    )
    return False


def _no_duplicates(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    out: JsonObject = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _refuse_constant(name: str) -> JsonValue:
    raise ValueError(f"{name} is not JSON")


def _depth(value: JsonValue) -> int:
    deepest = 0
    stack: list[tuple[JsonValue, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def decode_json(raw: bytes) -> JsonValue | str:
    """The JSON inside a resource's bytes, or why it is not JSON (duplicate keys refused)."""
    try:
        value = cast(
            JsonValue,
            json.loads(
                raw.decode("utf-8"),
                object_pairs_hook=_no_duplicates,
                parse_constant=_refuse_constant,
            ),
        )
    except (ValueError, RecursionError) as exc:
        return f"not JSON ({exc})"
    if _depth(value) > MAX_JSON_DEPTH:
        return f"nested deeper than {MAX_JSON_DEPTH} levels"
    return value
