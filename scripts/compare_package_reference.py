"""Run the upstream ASIF package reference (reader, writer, signature check) and ours on
the same bytes; print every disagreement.

A developer tool, not part of the test run. The reference is an oracle kept outside this
repository: pass the folder of the ASIF 0.5 package transport copy (the one holding
`reference/package.py` and `examples/`); the reference imports `common` and `core` from the
0.5 reference checker, found beside it (`../continuation-spec-0.5/reference-checker`, or
`--checker PATH`), and reads the 0.5 schemas from that checker's parent. For instance

    .venv/bin/python scripts/compare_package_reference.py \\
        /path/to/asif-0.5-package

What it compares:

1. the writer: for every example session whose files are all in this repository's copy,
   the reference's `package_bytes` and our `package build` give the same bytes;
2. the reader: for every such package and every mutation of `tests/core/package/cases.py`
   (one per container, inventory and closure rule), the reference's `inspect_package`
   accepts exactly when ours finds the container, inventory and closure sound, and the
   reason it gives maps to the code we give first;
3. core sessions (issue 33, item 5): the reference's `validate_document` (its files read
   from the examples' folder) and our core rules (the same files given as bytes) accept or
   refuse alike every example session and each session mutation of the cases;
4. the signature: the reference's `verify_signature` and ours agree on the upstream
   example manifest's signature and on a package signed with the test key, with that key,
   another key, a changed manifest, and mangled signature files.

``--record`` also writes the reference writer's digests of every example package to
`tests/data/asif-0.5-package/reference-packages.json` (the golden data the tests hold our
writer to). Exit status 0 when there is no disagreement. Needs `jsonschema` and
`cryptography` (both in the .venv).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from tests.core.package.cases import (  # noqa: E402
    CASES,
    EXAMPLES,
    NOW,
    PACKAGE_DATA,
    TEST_SEED,
    build,
    buildable,
)
from tests.core.package.session_cases import (  # noqa: E402
    SESSION_CASES,
    example_files,
    session_bytes,
)
from zcf_inspector.core.codes import PackageCode  # noqa: E402
from zcf_inspector.core.continuation.inspection import inspect_continuation  # noqa: E402
from zcf_inspector.core.package.signature import (  # noqa: E402
    check_signature,
    key_id,
    sign_manifest,
)
from zcf_inspector.core.package.verify import inspect_package, manifest_bytes  # noqa: E402

GOLDEN = PACKAGE_DATA / "reference-packages.json"

# The reference's reason (its `Invalid` message) -> the code our reader gives for it.
REASONS: dict[str, set[PackageCode]] = {
    "package byte limit": {PackageCode.PACKAGE_TOO_LARGE},
    "invalid ZIP container": {PackageCode.CONTAINER_INVALID},
    "package member limit": {PackageCode.MEMBER_LIMIT},
    "empty path": {PackageCode.MEMBER_NAME_UNSAFE},
    "unsafe path": {PackageCode.MEMBER_NAME_UNSAFE},
    "nonportable path": {PackageCode.MEMBER_NAME_UNSAFE},
    "reserved device path": {PackageCode.MEMBER_NAME_UNSAFE},
    "invalid package name": {PackageCode.MEMBER_NAME_UNSAFE},
    "duplicate/colliding package member": {PackageCode.MEMBER_COLLISION},
    "package file/directory collision": {PackageCode.MEMBER_COLLISION},
    "nonregular package member": {PackageCode.MEMBER_NOT_REGULAR},
    "unsupported package encoding": {PackageCode.MEMBER_ENCODING_UNSUPPORTED},
    "package member byte limit": {PackageCode.MEMBER_TOO_LARGE},
    "package total limit": {PackageCode.MEMBER_TOO_LARGE},
    "package member size mismatch": {PackageCode.MEMBER_SIZE_MISMATCH},
    "missing package metadata": {PackageCode.METADATA_MISSING},
    "unsupported package manifest": {PackageCode.MANIFEST_INVALID},
    "invalid inventory": {PackageCode.MANIFEST_INVALID},
    "invalid inventory record": {PackageCode.MANIFEST_INVALID},
    "duplicate inventory": {PackageCode.MANIFEST_INVALID},
    "missing inventoried member": {PackageCode.INVENTORY_MEMBER_MISSING},
    "inventory length mismatch": {PackageCode.INVENTORY_MISMATCH},
    "inventory digest mismatch": {PackageCode.INVENTORY_MISMATCH},
    "unlisted package member": {PackageCode.MEMBER_UNLISTED},
    "reserved package resource path": {PackageCode.RESOURCE_PATH_RESERVED},
    "missing packaged resource": {PackageCode.RESOURCE_MISSING},
    "packaged resource integrity": {PackageCode.RESOURCE_MISMATCH},
    "package has unrelated files": {PackageCode.MEMBER_UNRELATED},
    "unsupported signature": {PackageCode.SIGNATURE_UNSUPPORTED},
    "signed manifest mismatch": {PackageCode.SIGNED_MANIFEST_MISMATCH},
    "untrusted signing key": {PackageCode.SIGNING_KEY_UNTRUSTED},
    "invalid package signature": {PackageCode.PACKAGE_SIGNATURE_INVALID},
    # decode() of a member that is not JSON, and the session schema's ValidationError
    "invalid JSON": {
        PackageCode.MANIFEST_INVALID,
        PackageCode.SESSION_INVALID,
        PackageCode.SIGNATURE_UNSUPPORTED,
    },
    "duplicate JSON key": {PackageCode.MANIFEST_INVALID, PackageCode.SESSION_INVALID},
    "ValidationError": {PackageCode.SESSION_INVALID},
}


def load_reference(folder: Path, checker: Path, scratch: Path) -> ModuleType:
    """The reference package module, run from a scratch tree (nothing written beside it)."""
    (scratch / "rc").mkdir()
    shutil.copytree(checker / "reference", scratch / "rc" / "reference")
    shutil.copy(folder / "reference" / "package.py", scratch / "rc" / "reference" / "package.py")
    shutil.copytree(checker.parent / "schemas", scratch / "schemas")
    sys.path.insert(0, str(scratch / "rc"))
    sys.dont_write_bytecode = True
    return importlib.import_module("reference.package")


def reference_reason(call: Callable[[], Any]) -> str | None:
    """None when the reference accepts, else the reason it refuses with."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 -- the oracle may raise anything: its reason
        message = str(exc)
        for reason in REASONS:
            if message == reason or message.startswith(reason + ":"):
                return reason
        return (
            type(exc).__name__
            if type(exc).__name__ in REASONS
            else f"{type(exc).__name__}: {message[:80]}"
        )
    return None


def _ours_container(raw: bytes) -> PackageCode | None:
    result = inspect_package(raw, now=NOW)
    # The reference reader checks what our container, inventory and closure check; the
    # session's core rules are its writer's (validate_document), reported on their own.
    first = next(
        (
            f
            for f in result.findings
            if f.severity.value == "error" and f.code is not PackageCode.SESSION_REFUSED
        ),
        None,
    )
    return None if first is None else PackageCode(first.code)


def _agree(reason: str | None, ours: PackageCode | None) -> bool:
    if reason is None or ours is None:
        return reason is None and ours is None
    return ours in REASONS.get(reason, set())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the asif-0.5-package copy")
    parser.add_argument("--checker", type=Path, help="the 0.5 reference-checker folder")
    parser.add_argument("--record", action="store_true", help="write the golden digests")
    args = parser.parse_args()
    checker = args.checker or args.folder.parent / "continuation-spec-0.5" / "reference-checker"
    with tempfile.TemporaryDirectory(prefix="package-reference-") as scratch:
        ref = load_reference(args.folder, checker, Path(scratch))
        return _compare(ref, record=args.record)


def _compare(ref: ModuleType, *, record: bool) -> int:
    disagreements: list[str] = []
    count = 0
    golden: dict[str, str] = {}
    for path in buildable():
        name = path.name.removesuffix(".session.json")
        theirs = ref.package_bytes(path)
        ours = build(name)
        count += 1
        golden[path.name] = hashlib.sha256(theirs).hexdigest()
        if theirs != ours:
            disagreements.append(f"writer {name}: the bytes differ")
        count += 1
        reason = reference_reason(lambda raw=theirs: ref.inspect_package(raw))  # type: ignore[misc]
        mine = _ours_container(theirs)
        if not _agree(reason, mine):
            disagreements.append(f"reader {name}: reference {reason}, ours {mine}")
    for case in CASES:
        raw = case.make()
        count += 1
        reason = reference_reason(lambda raw=raw: ref.inspect_package(raw))  # type: ignore[misc]
        mine = _ours_container(raw)
        if case.differs and reason is not None and mine is case.code:
            print(f"deliberate {case.name}: reference {reason!r}, ours {mine}: {case.differs}")
        elif not _agree(reason, mine):
            disagreements.append(f"reader {case.name}: reference {reason!r}, ours {mine}")
    count += _sessions(disagreements)
    count += _signatures(ref, disagreements)
    for line in disagreements:
        print("DIFFER", line)
    print(f"{count} comparisons, {len(disagreements)} disagreements")
    if record:
        GOLDEN.write_text(json.dumps(golden, indent=2, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN.relative_to(REPO)}")
    return 1 if disagreements else 0


def _sessions(disagreements: list[str]) -> int:
    core = importlib.import_module("reference.core")
    common = importlib.import_module("reference.common")
    inputs = [(p.name, p.read_bytes()) for p in buildable()]
    inputs += [(f"{c.session}/{c.name}", session_bytes(c)) for c in SESSION_CASES]
    for name, raw in inputs:
        reason = reference_reason(lambda r=raw: core.validate_document(common.decode(r), EXAMPLES))  # type: ignore[misc]
        ours = inspect_continuation(raw, now=NOW, files=example_files())
        first = next((f for f in ours.all_findings() if f.severity.value == "error"), None)
        if (reason is None) != (first is None):
            disagreements.append(
                f"session {name}: reference {reason!r}, ours {first and first.code}"
            )
    return len(inputs)


def _signatures(ref: ModuleType, disagreements: list[str]) -> int:
    public = Ed25519PrivateKey.from_private_bytes(TEST_SEED).public_key().public_bytes_raw()
    other = Ed25519PrivateKey.from_private_bytes(bytes(32)).public_key().public_bytes_raw()
    raw = build("tool-generated-files")
    manifest = manifest_bytes(raw)
    good = sign_manifest(manifest, TEST_SEED)
    value = json.loads(good)
    mangled = {
        "signed": good,
        "version": _with(value, signature_version="0.2"),
        "algorithm": _with(value, algorithm="Ed448"),
        "digest": _with(value, manifest_sha256="0" * 64),
        "key-id": _with(value, key_id=key_id(other)),
        "base64": _with(value, signature="not base64!"),
        "bits": _with(value, signature=value["signature"][:-4] + "AAA="),
        "not-json": b"{",
        "reference-writer": ref.signature(raw, TEST_SEED),
    }
    count = 0
    for key_name, key in (("test key", public), ("other key", other)):
        for name, sig in mangled.items():
            count += 1
            reason = reference_reason(lambda s=sig, k=key: ref.verify_signature(raw, s, k))  # type: ignore[misc]
            checked = check_signature(sig, manifest, key)
            mine = PackageCode(checked.findings[0].code) if checked.findings else None
            if not _agree(reason, mine):
                disagreements.append(
                    f"signature {name} / {key_name}: reference {reason!r}, ours {mine}"
                )
    # The upstream example: its manifest's exact bytes and its signature, with the test key.
    example = (EXAMPLES / "package-manifest.json").read_bytes()
    signature = (EXAMPLES / "package-signature.json").read_bytes()
    count += 1
    if check_signature(signature, example, public).findings:
        disagreements.append("the upstream example signature does not verify here")
    return count


def _with(value: dict[str, str], **changes: str) -> bytes:
    return (json.dumps(value | changes, sort_keys=True, separators=(",", ":")) + "\n").encode()


if __name__ == "__main__":
    raise SystemExit(main())
