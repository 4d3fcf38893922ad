"""One error model: the profile's codes exactly, every code registered with a severity and
a meaning (docs/codes.md generated from it), one exception root, one exit-code mapping."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from enum import StrEnum
from pathlib import Path
from typing import get_args

import pytest

from tests.conftest import PROFILE, REPO
from zcf_inspector.cli import exitcodes
from zcf_inspector.core.code_registry import codes_markdown, describe, registry
from zcf_inspector.core.codes import (
    AdvisoryCode,
    CodeFamily,
    ErrorCode,
    FileCode,
    PackageCode,
    PlanCode,
    ReviewCode,
)
from zcf_inspector.core.errors import FormatError, InputError, RefusalError, ZcfError
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.formats import ReviewState, ReviewStateName

PACKAGE = REPO / "zcf_inspector"


def profile_codes() -> set[str]:
    text = PROFILE.read_text(encoding="utf-8")
    # Every code in the profile is written in backticks and snake_case.
    candidates = set(re.findall(r"`([a-z]+(?:_[a-z0-9]+)+)`", text))
    # The only other snake_case names in backticks are the two high-risk tool names.
    return {c for c in candidates if not c.startswith("zephr_")}


def test_enum_is_exactly_the_profile_codes() -> None:
    # The clarifications of 2026-12-07 name the trust-file refusal (a destination file
    # holding a secret is a secret file), a code of the files the program trusts.
    file_codes = {c.value for c in FileCode}
    assert {c.value for c in ErrorCode} == profile_codes() - file_codes
    assert profile_codes() & file_codes == {"trust_file_unsafe"}


@pytest.mark.parametrize(
    "enum", [ErrorCode, PlanCode, ReviewCode, AdvisoryCode, FileCode, PackageCode]
)
def test_values_are_their_names_in_lower_case(enum: type[StrEnum]) -> None:
    for code in enum:
        assert code.value == code.name.lower()
        assert str(code) == code.value


def test_every_code_is_registered_with_a_severity_and_a_meaning() -> None:
    infos = list(registry())
    assert len(infos) == (
        len(ErrorCode)
        + len(PlanCode)
        + len(ReviewCode)
        + len(AdvisoryCode)
        + len(FileCode)
        + len(PackageCode)
    )
    for info in infos:
        assert isinstance(info.severity, Severity)
        assert info.meaning
        assert "\n" not in info.meaning
        assert len(info.meaning) <= 100
        assert not info.meaning.endswith(".")
    assert describe(ErrorCode.INSTALLATION_KEY_UNAVAILABLE).severity is Severity.INFO


def test_shared_spellings_stay_apart_by_family() -> None:
    # "duplicate_id" is both a packet and a continuation code: equal strings, two entries.
    assert str(ErrorCode.DUPLICATE_ID) == str(PlanCode.DUPLICATE_ID)
    assert describe(ErrorCode.DUPLICATE_ID).family is CodeFamily.PACKET
    assert describe(PlanCode.DUPLICATE_ID).family is CodeFamily.CONTINUATION


def test_docs_codes_md_is_generated_from_the_registry() -> None:
    text = codes_markdown()
    assert (REPO / "docs" / "codes.md").read_text(encoding="utf-8") == text, (
        "docs/codes.md is out of date: run python scripts/codes_doc.py"
    )
    for info in registry():
        assert f"| `{info.code}` | {info.severity} |" in text


def _exception_classes() -> list[type[BaseException]]:
    """Every exception class the package defines (module by module, by its source)."""
    found: list[type[BaseException]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "goldens" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
        if not names:
            continue
        module_name = ".".join(path.relative_to(REPO).with_suffix("").parts)
        module = importlib.import_module(module_name.removesuffix(".__init__"))
        found += [
            obj
            for name in names
            if inspect.isclass(obj := getattr(module, name)) and issubclass(obj, BaseException)
        ]
    return found


def test_every_exception_the_program_raises_has_one_root() -> None:
    classes = _exception_classes()
    assert len(classes) >= 10
    assert [c.__qualname__ for c in classes if not issubclass(c, ZcfError)] == []
    names = [c.__name__ for c in classes]
    assert len(names) == len(set(names)), "an exception class is defined twice"


def test_format_errors_are_value_errors_for_pydantic_validators() -> None:
    assert issubclass(FormatError, ValueError)
    assert issubclass(FormatError, InputError)


def test_one_place_maps_errors_to_exit_codes() -> None:
    assert exitcodes.for_error(RefusalError("refused")) == exitcodes.REFUSED
    assert exitcodes.for_error(InputError("unusable")) == exitcodes.USAGE
    assert exitcodes.for_error(FormatError("bad")) == exitcodes.USAGE
    for path in (PACKAGE / "cli").glob("*.py"):
        if path.name in ("exitcodes.py", "__init__.py"):  # the mapping, and main() using it
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # Commands raise; no handler turns an exception into an exit status by itself.
        for handler in ast.walk(tree):
            if not isinstance(handler, ast.ExceptHandler):
                continue
            for node in ast.walk(handler):
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Attribute):
                    assert not (
                        isinstance(node.value.value, ast.Name)
                        and node.value.value.id == "exitcodes"
                    ), f"{path.name}:{node.lineno}"


def test_review_state_is_defined_once() -> None:
    assert get_args(ReviewStateName) == tuple(s.value for s in ReviewState)
    sources = "\n".join(p.read_text(encoding="utf-8") for p in Path(PACKAGE).rglob("*.py"))
    assert len(re.findall(r"class ReviewState\b", sources)) == 1
    assert len(re.findall(r"^MAX_SAFE_INTEGER\b|^_MAX_SAFE_INTEGER\b", sources, re.M)) == 1
