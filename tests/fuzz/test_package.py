"""Fuzz the ASIF package reader: mutated archives (bit flips, cut and spliced segments of
the example packages and of every rule's mutation) get a result, never an exception, and
a refused container lists no member."""

from __future__ import annotations

from tests.core.package.cases import CASES, NOW, build, buildable
from tests.fuzz.harness import fuzz
from tests.fuzz.strategies.raw_bytes import mutated_bytes
from zcf_inspector.core.package.results import PackageResult
from zcf_inspector.core.package.verify import inspect_package
from zcf_inspector.present.asif_package import verdict
from zcf_inspector.present.vocabulary import Trust

_PACKAGES = [build(p.name.removesuffix(".session.json")) for p in buildable()[:4]]
_CORPUS = [*_PACKAGES, *(c.make() for c in CASES[:12])]


def _check(result: PackageResult) -> None:
    shown = verdict(result)
    if result.members == 0:
        assert result.inventory == ()
        assert result.first_problem() is not None
    if result.ok:
        assert result.first_problem() is None
        assert shown.trust is not Trust.REFUSED
    else:
        assert shown.trust is Trust.REFUSED
        assert shown.words.startswith("REFUSED PACKAGE at ")


@fuzz(mutated_bytes(_CORPUS), weight=2, rounds=3)
def test_mutated_packages_get_a_result_never_an_exception(raw: bytes) -> None:
    _check(inspect_package(raw, now=NOW))
