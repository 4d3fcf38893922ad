"""The audit report's screenshot (issue 32): a reviewed packet's report rendered by
headless Chromium, and its print preview.

    PYTHONPATH=. .venv/bin/python docs/screenshots/take_audit_report.py OUT_FOLDER [CHROMIUM]

Writes OUT_FOLDER/audit-report.html, audit-report.png (1200x1600, the page as a browser
shows it) and audit-report.pdf (what printing gives; `pdftoppm -png` makes its pages
images). Needs Debian's ``chromium`` (``apt-get install -y chromium poppler-utils``); the
tests never do. The scene is the Briefing's (`take_briefing`): a packet whose capsule
holds an AWS key id, a workspace with one mismatch, and a review whose notes hold markup
and a GitHub token — the page shows the first as text and never holds the second.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from docs.screenshots.take_briefing import scene_packet, scene_workspace
from goldens import generate as g
from zcf_inspector import api
from zcf_inspector.core.atomic import write_atomic
from zcf_inspector.core.packet.receipt import receipt_bytes

DECISIONS = [
    {"portableRef": "b-reader", "state": "confirmed", "note": "<img src=x onerror=alert(1)>"},
    {"portableRef": "b-order", "state": "rejected",
     "note": "stale: the CI token ghp_0123456789abcdefABCDEF0123456789abcd was rotated"},
    {"portableRef": "b-bench", "state": "superseded", "note": "newer numbers",
     "supersededBy": "b-reader"},
]  # fmt: skip
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


def main(argv: list[str]) -> int:
    out = Path(argv[1]).resolve()  # before the chdir below
    chromium = argv[2] if len(argv) > 2 else "chromium"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        packet = scene_packet(folder)
        workspace = scene_workspace(folder)
        destination = api.parse_destination(g.DESTINATION)
        made = api.review(packet, destination, DECISIONS, reviewer="alice").receipt
        assert made is not None
        receipt = folder / "full-handoff-with-key.receipt.json"
        receipt.write_bytes(receipt_bytes(made))
        os.chdir(folder)  # the page names the files as given: short names, not a temp path
        report = api.audit_report(packet.name, receipt.name, destination, workspace=workspace.name)
        page = out / "audit-report.html"
        write_atomic(page, api.audit_html(report).encode("utf-8"), overwrite=True)
        for extra in (
            ["--screenshot=" + str(out / "audit-report.png"), "--window-size=1200,1600"],
            ["--print-to-pdf=" + str(out / "audit-report.pdf"), "--no-pdf-header-footer"],
        ):
            profile = folder / "chromium-profile"
            shutil.rmtree(profile, ignore_errors=True)
            subprocess.run(
                [chromium, *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()],
                check=True,
                capture_output=True,
                timeout=120,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
