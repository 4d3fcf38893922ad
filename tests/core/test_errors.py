"""The refusal codes are exactly the profile's, as stable strings."""

from __future__ import annotations

import re

from tests.conftest import PROFILE
from zcf_inspector.core.errors import ErrorCode


def profile_codes() -> set[str]:
    text = PROFILE.read_text(encoding="utf-8")
    # Every code in the profile is written in backticks and snake_case.
    candidates = set(re.findall(r"`([a-z]+(?:_[a-z0-9]+)+)`", text))
    # The only other snake_case names in backticks are the two high-risk tool names.
    return {c for c in candidates if not c.startswith("zephr_")}


def test_enum_is_exactly_the_profile_codes() -> None:
    assert {c.value for c in ErrorCode} == profile_codes()


def test_values_are_their_names_in_lower_case() -> None:
    for code in ErrorCode:
        assert code.value == code.name.lower()
        assert str(code) == code.value
