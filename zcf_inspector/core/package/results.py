"""The frozen results of reading an ASIF package: what every front end renders.

A `PackageResult` holds the package's findings (each with the member it is about as its
``subject``, a JSON pointer into that member when it is JSON, and the archive offset
for a container refusal), the inventory as rows a pane can list (`InventoryEntry`: a
member's path, bytes, SHA-256 and status), the resource closure (`ClosureEntry`: each
embedded file resource of the session and whether its member is there and matches), the
session's own inspection (the core rules of `core.continuation`), and the detached
signature's check when one was given.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.findings import Finding, OmittedFindings, has_error
from zcf_inspector.core.jsontypes import JsonValue


class MemberStatus(StrEnum):
    MATCHES = "matches"  # listed, and its bytes are the record's count and SHA-256
    DIFFERS = "differs"  # listed, but its bytes are not what the record says
    MISSING = "missing"  # listed, but the archive does not hold it
    UNLISTED = "unlisted"  # held, but the inventory does not list it
    UNRELATED = "unrelated"  # held and listed, but no embedded resource names it


class ClosureState(StrEnum):
    PRESENT = "present"  # the member is there with the resource's bytes and SHA-256
    MISSING = "missing"
    MISMATCH = "mismatch"
    RESERVED = "reserved"  # the resource names session.json or asif-package.json
    UNSAFE = "unsafe"  # the path is not portable


@dataclass(frozen=True, slots=True)
class InventoryEntry:
    path: str
    status: MemberStatus
    bytes: int | None  # the member's actual byte count (None: missing)
    sha256: str | None  # the member's actual SHA-256 (None: missing)
    listed_bytes: int | None = None  # what its inventory record says (None: unlisted)
    listed_sha256: str | None = None
    pointer: str | None = None  # its record in asif-package.json

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "path": self.path,
            "status": str(self.status),
            "bytes": self.bytes,
            "sha256": self.sha256,
            "listedBytes": self.listed_bytes,
            "listedSha256": self.listed_sha256,
            "pointer": self.pointer,
        }


@dataclass(frozen=True, slots=True)
class ClosureEntry:
    resource_id: str
    path: str
    state: ClosureState
    pointer: str  # the resource in session.json

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "resourceId": self.resource_id,
            "path": self.path,
            "state": str(self.state),
            "pointer": self.pointer,
        }


class SignatureStatus(StrEnum):
    VERIFIED = "verified"  # Ed25519 verified over the manifest digest under the trusted key
    NOT_CHECKED = "not checked"  # a signature was given, but no key to check it with
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class SignatureResult:
    status: SignatureStatus
    key_id: str | None  # what the signature names (only trusted once VERIFIED)
    manifest_sha256: str | None  # what the signature says it signs
    findings: tuple[Finding, ...] = ()

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "status": str(self.status),
            "keyId": self.key_id,
            "manifestSha256": self.manifest_sha256,
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass(frozen=True, slots=True)
class PackageResult:
    findings: tuple[Finding, ...]  # the package's own (container, inventory, closure)
    inventory: tuple[InventoryEntry, ...]
    closure: tuple[ClosureEntry, ...]
    session: InspectionResult | None  # None: session.json could not be had or read
    signature: SignatureResult | None  # None: no signature was given
    archive_sha256: str
    manifest_sha256: str | None  # None: no manifest member
    members: int  # how many members the archive holds (0 when the container is refused)
    # Findings past the budget, counted per code (every package finding is an error, so
    # any counted here comes after a thousand kept).
    omitted: tuple[OmittedFindings, ...] = ()

    @property
    def container_ok(self) -> bool:
        """The container, inventory and closure hold (what the reference reader checks)."""
        return not has_error(self.findings)

    @property
    def session_ok(self) -> bool:
        return self.session is not None and self.session.ok

    @property
    def ok(self) -> bool:
        """Nothing refused: the package, its session and (when given) its signature."""
        signed = self.signature is None or self.signature.status is not SignatureStatus.REFUSED
        return self.container_ok and self.session_ok and signed

    def first_problem(self) -> Finding | None:
        for finding in (*self.findings, *(self.signature.findings if self.signature else ())):
            if finding.severity.value == "error":
                return finding
        return None

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "ok": self.ok,
            "archiveSha256": self.archive_sha256,
            "manifestSha256": self.manifest_sha256,
            "members": self.members,
            "inventory": [e.to_json() for e in self.inventory],
            "closure": [e.to_json() for e in self.closure],
            "findings": [f.to_json() | {"member": f.subject} for f in self.findings],
            "findingsOmitted": [o.to_json() for o in self.omitted],
            "signature": None if self.signature is None else self.signature.to_json(),
        }
