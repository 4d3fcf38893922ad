"""Hypothesis settings profiles of the fuzz harness.

``ZCF_FUZZ_PROFILE`` selects one (default ``ci``):

- ``ci``: bounded; every fuzz test runs a few fixed-seed rounds and stops early once its
  share of a ~40 s budget is spent, so the whole harness stays under about a minute.
- ``long``: random seeds, rounds repeated until ``FUZZ_SECONDS`` (default 600) are spent,
  split evenly between the fuzz tests; ``scripts/fuzz.sh`` selects it.

The profiles are only ever applied to the fuzz tests themselves (``tests.fuzz.harness``
builds each test's settings from them); nothing here changes the settings of other tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_SUPPRESSED = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.filter_too_much,
    HealthCheck.large_base_example,
]

settings.register_profile(
    "zcf-fuzz-ci",
    max_examples=60,
    deadline=15_000,  # ms: generous, a hang is caught by the harness's CPU guard anyway
    suppress_health_check=_SUPPRESSED,
    print_blob=True,
    derandomize=False,  # the harness seeds each round itself (fixed seeds in ci)
    database=None,  # ci is deterministic: it never replays what a long run found
)
settings.register_profile(
    "zcf-fuzz-long",
    max_examples=400,
    deadline=30_000,
    suppress_health_check=_SUPPRESSED,
    print_blob=True,
    derandomize=False,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A falsifying example may be large: its repr must not turn into the failure itself."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.filterwarnings("ignore:Generating overly large repr"))
