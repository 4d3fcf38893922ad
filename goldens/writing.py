"""Every golden file as bytes (checked to ingest as it should), and writing them to a
folder or listing which ones a folder has out of date."""

from __future__ import annotations

import copy
from pathlib import Path

from goldens.fixtures import DESTINATION, json_bytes
from goldens.negative_vectors import NEGATIVE
from goldens.publication_packets import PUBLICATION
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.destination import parse_destination
from zcf_inspector.core.packet.ingest import ingest_bytes

# The golden the window's bundled example copies.
BUNDLED_FROM = "publication/full-handoff.json"


def build() -> dict[str, bytes]:
    """Every golden file, by path relative to the goldens folder."""
    files: dict[str, bytes] = {"destination.json": json_bytes(DESTINATION)}
    destination = parse_destination(copy.deepcopy(DESTINATION))
    for name, make_packet in PUBLICATION.items():
        data = json_bytes(make_packet())
        result = ingest_bytes(data, destination)
        if result.receipt is None:
            problems = "; ".join(f"{f.code} {f.pointer}: {f.message}" for f in result.findings)
            raise SystemExit(f"publication golden {name} does not ingest: {problems}")
        files[f"publication/{name}.json"] = data
        files[f"publication/{name}.receipt.json"] = json_bytes(result.receipt)
    for name, (code, make, extra) in NEGATIVE.items():
        files[f"negative/{name}.json"] = make()
        expect: dict[str, JsonValue] = {"code": code}
        if "maxBytes" in extra:
            expect["maxBytes"] = extra["maxBytes"]
        files[f"negative/{name}.expect.json"] = json_bytes(expect)
        override = extra.get("destination")
        if isinstance(override, dict):
            files[f"negative/{name}.destination.json"] = json_bytes({**DESTINATION, **override})
    return files


def files_in(folder: Path) -> dict[str, bytes]:
    """The golden files ``folder`` holds now, by path relative to it."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in [*sorted(folder.glob("*/*.json")), folder / "destination.json"]
        if p.is_file()
    }


def stale_files(wanted: dict[str, bytes], folder: Path, bundled: Path) -> list[str]:
    """The files of ``folder`` that differ from ``wanted``, are missing or are left over, and
    ``bundled`` (named relative to the repository) when it is not the golden it copies."""
    present = files_in(folder)
    stale = sorted(
        {name for name in wanted if present.get(name) != wanted[name]}
        | (present.keys() - wanted.keys())
    )
    if not bundled.is_file() or bundled.read_bytes() != wanted[BUNDLED_FROM]:
        stale.append(str(bundled.relative_to(folder.parent)))
    return stale


def write_files(wanted: dict[str, bytes], folder: Path, bundled: Path) -> None:
    """Make ``folder`` hold exactly ``wanted`` (removing left-over goldens) and ``bundled``
    the golden it copies."""
    for path in set(files_in(folder)) - set(wanted):
        (folder / path).unlink()
    for name, data in wanted.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    bundled.write_bytes(wanted[BUNDLED_FROM])
