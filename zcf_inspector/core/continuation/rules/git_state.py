"""Git state of a workspace (§5): object IDs, index stages and embedded blobs.

Object IDs are checked when the object format is one Git defines (`sha1`: 40, `sha256`:
64 lowercase hex digits). The object reference's own Git State example names the format
`"example"`, so another format is accepted as declared and its IDs are taken as opaque
(the ASIF reference checker refuses it; see README, conformance). Index entries keep one
entry per path and stage, never mix a resolved stage 0 with conflict stages, use a Git
file mode and name a blob or an object; an inline blob hashes to its object ID.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import ResourceBytes
from zcf_inspector.core.continuation.models.profile import GitState
from zcf_inspector.core.findings import Finding, Severity, error

OID_LENGTHS = {"sha1": 40, "sha256": 64}
GIT_MODES = frozenset({"100644", "100755", "120000", "160000"})
_HEX = frozenset("0123456789abcdef")


def check_git(
    git: GitState,
    where: str,
    resources: ResourceBytes | None,
    findings: list[Finding],
    subject: str | None = None,
) -> None:
    """A workspace's Git state (``subject``: the workspace's node, which every finding is
    about)."""
    found: list[Finding] = []
    _check_git(git, where, resources, found)
    findings.extend(replace(f, subject=subject) for f in found)


def _check_git(
    git: GitState, where: str, resources: ResourceBytes | None, findings: list[Finding]
) -> None:
    code = PlanCode.GIT_STATE_INVALID
    length = OID_LENGTHS.get(git.object_format)
    if length is None:
        findings.append(
            Finding(
                code,
                Severity.INFO,
                where + "/object_format",
                f"object format {git.object_format!r} is not sha1 or sha256: object IDs are "
                "taken as declared and blobs are not hashed",
            )
        )

    def oid(value: str | None, at: str) -> None:
        if value is None or length is None:
            return
        if len(value) != length or not set(value) <= _HEX:
            findings.append(
                error(
                    code,
                    at,
                    f"{value!r} is not a {git.object_format} object ID ({length} lowercase hex "
                    "digits)",
                )
            )

    oid(git.head, where + "/head")
    stages: dict[str, set[int]] = {}
    for i, entry in enumerate(git.index_entries):
        at = f"{where}/index_entries/{i}"
        oid(entry.object_id, at + "/object_id")
        seen = stages.setdefault(entry.path, set())
        if entry.stage in seen:
            findings.append(
                error(code, at + "/stage", f"path {entry.path!r} has stage {entry.stage} twice")
            )
        seen.add(entry.stage)
        if 0 in seen and len(seen) > 1:
            findings.append(
                error(
                    code,
                    at + "/stage",
                    f"path {entry.path!r} mixes a resolved stage 0 with conflict stages",
                )
            )
        if entry.mode not in GIT_MODES:
            findings.append(
                error(code, at + "/mode", f"{entry.mode!r} is not a Git index file mode")
            )
        if entry.resource_id is None and entry.object_id is None:
            findings.append(error(code, at, f"index entry {entry.path!r} names no content"))
        if (
            resources is not None
            and length is not None
            and entry.resource_id is not None
            and entry.object_id is not None
        ):
            raw = resources.verified.get(entry.resource_id)
            if raw is not None:
                blob = b"blob " + str(len(raw)).encode() + b"\0" + raw
                digest = hashlib.new(git.object_format, blob).hexdigest()
                if digest != entry.object_id:
                    findings.append(
                        error(
                            code,
                            at + "/object_id",
                            f"resource {entry.resource_id!r} is Git blob {digest}, the entry "
                            f"names {entry.object_id}",
                        )
                    )
    for i, prerequisite in enumerate(git.prerequisites):
        oid(prerequisite.object_id, f"{where}/prerequisites/{i}/object_id")
    for i, module in enumerate(git.submodules):
        oid(module.object_id, f"{where}/submodules/{i}/object_id")


def git_blob_ids(raw: bytes, object_format: str) -> str:
    """The Git object ID of ``raw`` as a blob (tests and mutations use it)."""
    return hashlib.new(object_format, b"blob %d\0" % len(raw) + raw).hexdigest()
