"""Issue 28: what feeds a verdict is built in one place. The secret scan is called by the
opener alone, the admission notice built by the opener (and the review's own target,
from the same core builder), a plan's counts phrased by the ASIF presenter alone, and no
front end opens a document by a path of its own."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "zcf_inspector"


def calls(pattern: str) -> set[str]:
    """The modules (relative to the package) whose code calls ``pattern``, definitions
    and comments aside."""
    found = set()
    call = re.compile(rf"(?<![\w.]){pattern}\(|\.{pattern}\(")
    for path in PACKAGE.rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            code = line.split("#", 1)[0]
            if call.search(code) and not code.lstrip().startswith("def "):
                found.add(str(path.relative_to(PACKAGE)))
    return found


def test_the_secret_scan_is_called_by_the_opener_alone() -> None:
    assert calls("scan_packet") == {"opener/open.py"}


def test_the_admission_notice_is_built_in_the_opener() -> None:
    # core/review/target.py: the review target's own notice, the same builder's words.
    assert calls("describe_admission") == {"opener/open.py", "core/review/target.py"}


def test_a_plans_counts_are_phrased_by_the_asif_presenter_alone() -> None:
    phrased = set()
    for path in PACKAGE.rglob("*.py"):
        if re.search(r'\} subjects"', path.read_text(encoding="utf-8")):
            phrased.add(str(path.relative_to(PACKAGE)))
    assert phrased == {"present/asif.py"}


def test_no_front_end_reads_or_checks_a_document_itself() -> None:
    front_ends = ("cli/", "gui/", "api.py")  # the API calls its core functions by alias
    for name in ("read_document", "inspect_read", "strict_read", "read_file"):
        assert not {m for m in calls(name) if m.startswith(front_ends)}, name
    # The window's only opener is the opener.
    # (core/package checks a package's session member: core, not a front end)
    outside_core = {m for m in calls("inspect_continuation") if not m.startswith("core/")}
    assert outside_core <= {"opener/open.py", "api.py", "cli/plan.py"}


def test_a_package_is_checked_by_the_opener_alone_on_the_way_to_a_window() -> None:
    # Issue 33: the window renders the opener's package document; it never checks one.
    assert calls("inspect_package") == {"opener/package.py", "api.py"}
    assert not {m for m in calls("looks_like_package") if m.startswith(("gui/", "cli/"))}
