"""The conformance run of profile §7 over a goldens folder.

``publication/NAME.json`` must validate, ingest to exactly ``NAME.receipt.json`` under
``destination.json`` and hold no ``x-zephr-*`` key; ``negative/NAME.json`` must be refused
with an error of the code in ``NAME.expect.json``. Two additions of ours, both optional:
``NAME.expect.json`` may carry ``maxBytes`` (the reader limit for that vector, so the
`packet_too_large` vector need not be 64 MiB), and ``negative/NAME.destination.json``
replaces ``destination.json`` for that vector (e.g. ``refuseUnsigned`` or ``strict``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.destination import Destination, DestinationError, load_destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES, ReadError, read_json

EXTENSION_PREFIX = "x-zephr-"
_SIDE_FILES = (".receipt.json", ".expect.json", ".destination.json")


@dataclass(frozen=True, slots=True)
class CaseResult:
    group: str  # "publication" or "negative"
    name: str
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def x_zephr_keys(value: JsonValue) -> list[str]:
    """Pointers-free list of every ``x-zephr-*`` key anywhere in ``value`` (iterative walk)."""
    found: list[str] = []
    stack: list[JsonValue] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.extend(k for k in item if k.startswith(EXTENSION_PREFIX))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _vectors(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.glob("*.json") if not any(p.name.endswith(s) for s in _SIDE_FILES)
    )


def _read_value(path: Path) -> JsonValue:
    return read_json(read_bounded(path))


def check_publication(path: Path, destination: Destination) -> CaseResult:
    problems: list[str] = []
    data = read_bounded(path)
    result = ingest_bytes(data, destination)
    for finding in result.findings:
        if finding.severity == "error":
            problems.append(
                f"refused: {finding.code} at {finding.pointer or '/'}: {finding.message}"
            )
    if result.inspection.value is not None:
        problems.extend(f"contains the key {k!r}" for k in x_zephr_keys(result.inspection.value))
    receipt_path = path.with_name(path.name.removesuffix(".json") + ".receipt.json")
    if result.receipt is not None:
        if not receipt_path.is_file():
            problems.append(f"{receipt_path.name} is missing")
        elif canonical(_read_value(receipt_path)) != canonical(result.receipt):
            problems.append(f"ingest does not produce {receipt_path.name} exactly")
    return CaseResult("publication", path.name, tuple(problems))


def check_negative(path: Path, destination: Destination) -> CaseResult:
    expect_path = path.with_name(path.name.removesuffix(".json") + ".expect.json")
    expect = _read_value(expect_path)
    if not isinstance(expect, dict) or not isinstance(expect.get("code"), str):
        return CaseResult("negative", path.name, (f"{expect_path.name} has no 'code'",))
    max_bytes = expect.get("maxBytes", DEFAULT_MAX_BYTES)
    # Every number a vector gives is bounded before use: a limit only ever lowers the
    # reader's (10^15 would otherwise be asked of the allocator).
    if (
        not isinstance(max_bytes, int)
        or isinstance(max_bytes, bool)
        or not 0 <= max_bytes <= DEFAULT_MAX_BYTES
    ):
        return CaseResult(
            "negative",
            path.name,
            (
                f"{expect_path.name}: bad maxBytes: an integer from 0 to "
                f"{DEFAULT_MAX_BYTES:,} (the reader's limit) is expected",
            ),
        )
    override = path.with_name(path.name.removesuffix(".json") + ".destination.json")
    if override.is_file():
        destination = load_destination(override, trust_file=False)
    inspection = inspect_bytes(read_bounded(path, max_bytes), destination, max_bytes=max_bytes)
    codes = {str(f.code) for f in inspection.findings if f.severity == "error"}
    if expect["code"] in codes:
        return CaseResult("negative", path.name, ())
    got = ", ".join(sorted(codes)) or "no error at all"
    return CaseResult("negative", path.name, (f"expected {expect['code']}, got {got}",))


def check_goldens(directory: Path) -> tuple[CaseResult, ...]:
    """Every vector in ``directory``; a folder problem is itself a failed case."""
    try:
        # A vector's destination is test data with published keys, not a trust anchor.
        destination = load_destination(directory / "destination.json", trust_file=False)
    except DestinationError as exc:
        return (CaseResult("setup", "destination.json", (str(exc),)),)
    results: list[CaseResult] = []
    publication = _vectors(directory / "publication")
    negative = _vectors(directory / "negative")
    if not publication:
        results.append(CaseResult("setup", "publication/", ("no publication vectors",)))
    for path in publication:
        results.append(_guarded(check_publication, path, destination, "publication"))
    for path in negative:
        results.append(_guarded(check_negative, path, destination, "negative"))
    return tuple(results)


def _guarded(
    check: Callable[[Path, Destination], CaseResult],
    path: Path,
    destination: Destination,
    group: str,
) -> CaseResult:
    # A missing or malformed side file fails its own case, not the whole run.
    try:
        result = check(path, destination)
    except (UnreadableFileError, ReadError, DestinationError) as exc:
        message = exc.message if isinstance(exc, ReadError) else str(exc)
        return CaseResult(group, path.name, (f"cannot read a file of this vector: {message}",))
    return result
