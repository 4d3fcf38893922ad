"""The documentation site names real files: every repository path a page of docs/ gives in
backticks exists (so a moved module fails here, not in a newcomer's hands), and the pages
hold what the README used to (the two commands stay on the README's first lines)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

DOCS = REPO / "docs"
# Where a path written in the docs may start: the repository, the package, the core and
# the continuation package (pages name modules the way the code's own docstrings do), and
# docs/ itself for the site's own files.
BASES = ("", "docs/", "zcf_inspector/", "zcf_inspector/core/", "zcf_inspector/core/continuation/")
# Folders whose files a bare file name (`journal.py`) may name.
TREES = ("zcf_inspector", "tests", "scripts", "goldens", "packaging", "docs")
PATH = re.compile(r"[\w.-]+(?:/[\w.*-]+)+/?")
PLACEHOLDER = re.compile(r"\b(?:NAME|PACKET|ID|PLAN|DIR|FILE|TYPE|OWNER)\b")
FILE = re.compile(r"[\w.-]+\.(?:py|sh|md|json|toml|yml|txt|spec)")


def pages() -> list[Path]:
    # codes.md is generated and spec/ is the profile's own text; notes/ are drafts.
    return [
        page
        for page in sorted(DOCS.rglob("*.md"))
        if page.name != "codes.md" and not {"spec", "notes"} & set(page.relative_to(DOCS).parts)
    ]


def named_paths(text: str) -> set[str]:
    tokens = set(re.findall(r"`([^`\s]+)`", text))
    return {
        token
        for token in tokens
        # NAME, PACKET-ID…: a placeholder; zcf-inspector/…: a folder under the user's data.
        if (PATH.fullmatch(token) or FILE.fullmatch(token))
        and not PLACEHOLDER.search(token)
        and not token.startswith(("zcf-inspector/", "tests/test_docs.py"))
    }


def exists(token: str) -> bool:
    name = token.rstrip("/")
    if "/" in name:
        return any(any(REPO.glob(base + name)) for base in BASES)
    return (REPO / name).is_file() or any(any((REPO / tree).rglob(name)) for tree in TREES)


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_every_path_a_page_names_exists(page: Path) -> None:
    missing = sorted(t for t in named_paths(page.read_text(encoding="utf-8")) if not exists(t))
    assert missing == [], f"{page.relative_to(REPO)} names paths that are not there: {missing}"


def test_a_moved_module_is_caught() -> None:
    assert not exists("core/structure.py")  # the stale path the README once gave
    assert exists("core/packet/structure.py")
    assert exists("journal.py")
    assert not exists("no_such_module.py")


def test_readme_starts_with_the_two_commands() -> None:
    first = (REPO / "README.md").read_text(encoding="utf-8").splitlines()[:2]
    assert first[0].split("#")[0].split() == ["bash", "scripts/run-app.sh"]
    assert first[1].split("#")[0].split() == ["bash", "scripts/test.sh"]
    for line in first:
        assert (REPO / line.split()[1]).is_file()


def test_every_page_is_in_the_nav() -> None:
    # mkdocs --strict fails on a page left out of the nav too; this says which, quickly.
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted(DOCS.rglob("*.md")):
        relative = page.relative_to(DOCS).as_posix()
        if not relative.startswith("notes/"):
            assert f": {relative}" in nav, relative


def test_what_packet_too_large_exits_with_is_said_once_and_is_what_validate_does(
    tmp_path: Path,
) -> None:
    """Issue 34: docs/api.md listed "too large" under UnreadableFileError (exit 2) while
    validate of an oversized packet exits 1 with packet_too_large (a §1 refusal)."""
    from zcf_inspector.cli import main
    from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

    said = [
        page.relative_to(DOCS).as_posix()
        for page in pages()
        if re.search(r"`packet_too_large`[^.]*\*\*exit 1\*\*", page.read_text(encoding="utf-8"))
    ]
    assert said == ["cli.md"]
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    (row,) = [line for line in api.splitlines() if line.startswith("| `UnreadableFileError`")]
    assert "packet_too_large" in row
    assert "too large |" not in row
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(DEFAULT_MAX_BYTES + 4096)  # sparse: nothing is written
    assert main(["validate", str(big)]) == 1
