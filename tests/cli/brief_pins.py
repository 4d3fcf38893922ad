"""Write the pinned briefings tests/cli/test_brief.py compares against (issue 20).

    .venv/bin/python -m tests.cli.brief_pins

For every golden packet, `zcf-inspector brief PACKET --destination D` as text and as
--json, run from the repository root (so the paths printed are relative), where D is the
golden's own destination file if it has one, else goldens/destination.json. Review the
diff before committing it: a pin is a promise about what a reviewer reads.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

from zcf_inspector.cli import main as cli_main

REPO = Path(__file__).resolve().parents[2]
PINS = REPO / "tests" / "cli" / "data" / "brief"


def golden_packets() -> list[Path]:
    found = []
    for folder in ("publication", "negative"):
        for path in sorted((REPO / "goldens" / folder).glob("*.json")):
            if not path.name.endswith((".receipt.json", ".expect.json", ".destination.json")):
                found.append(path.relative_to(REPO))
    return found


def destination_of(packet: Path) -> Path:
    own = packet.with_name(packet.name.removesuffix(".json") + ".destination.json")
    return own if (REPO / own).exists() else Path("goldens") / "destination.json"


def pin_name(packet: Path, suffix: str) -> str:
    return f"{packet.parent.name}-{packet.name.removesuffix('.json')}.{suffix}"


def brief_output(packet: Path, *, as_json: bool) -> str:
    argv = ["brief", str(packet), "--destination", str(destination_of(packet))]
    if as_json:
        argv.append("--json")
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            cli_main(argv)
    finally:
        os.chdir(cwd)
    return out.getvalue()


def main() -> int:
    PINS.mkdir(parents=True, exist_ok=True)
    for packet in golden_packets():
        for as_json, suffix in ((False, "txt"), (True, "json")):
            (PINS / pin_name(packet, suffix)).write_text(
                brief_output(packet, as_json=as_json), encoding="utf-8"
            )
    print(f"wrote {len(golden_packets()) * 2} pins to {PINS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
