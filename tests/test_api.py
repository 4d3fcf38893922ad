"""The library interface: the example of its documentation page (docs/api.md) runs as
written, the docstring example too, and `__all__` names exactly what the module offers."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

from tests.conftest import REPO
from zcf_inspector import api


def docs_example() -> str:
    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    return str(code)


def test_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    cwd = Path.cwd()
    os.chdir(REPO)  # the example names files relative to the repository
    try:
        exec(compile(docs_example(), "docs/api.md", "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "['passed', 'passed', 'passed', 'passed', 'not_checkable']"
    assert "('section_digest_mismatch', '/manifest/sections/capsule')" in out[1]
    assert out[2].startswith("sha256:")
    assert "no/such/file.json: no such file" in out[-1]


def test_docstring_example_runs() -> None:
    cwd = Path.cwd()
    os.chdir(REPO)
    try:
        result = doctest.testmod(api, raise_on_error=False)
    finally:
        os.chdir(cwd)
    assert result.attempted >= 3
    assert result.failed == 0


def test_all_names_what_the_module_offers() -> None:
    for name in api.__all__:
        assert hasattr(api, name), name
    assert sorted(api.__all__) == sorted(set(api.__all__))
    public = {n for n, v in vars(api).items() if not n.startswith("_") and callable(v)}
    assert {"inspect_packet", "ingest", "verify_receipt", "seal", "canonicalize"} <= public
    assert {"inspect_continuation", "load_destination", "describe"} <= set(api.__all__)


def test_seal_then_inspect_round_trip(tmp_path: Path) -> None:
    from goldens import generate as g

    sealed = api.seal(g.full_handoff(), "unsigned")
    path = tmp_path / "sealed.json"
    path.write_bytes(api.canonicalize(sealed))
    assert api.inspect_packet(path).valid
    assert api.inspect_packet(path.read_bytes()).valid
    with pytest.raises(api.SealError):
        api.seal(g.full_handoff(), api.AuthKind.SOURCE_SIGNATURE)  # no signing key


def test_verify_receipt_from_a_path_and_from_bytes() -> None:
    from goldens import generate as g
    from zcf_inspector.core.crypto import ed25519_public_key

    receipt = REPO / "goldens/publication/full-handoff.receipt.json"
    unchecked = api.verify_receipt(receipt)
    assert unchecked.status is api.ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED
    signer = ed25519_public_key(g.RECEIPT_SEED)
    assert api.verify_receipt(receipt.read_bytes(), signer).status is api.ReceiptStatus.VALID_SIGNED
    broken = api.verify_receipt(b'{"a": 1, "a": 2}')
    assert broken.status is api.ReceiptStatus.INVALID
    assert [str(f.code) for f in broken.findings] == ["duplicate_key"]


def test_compare_names_what_changed() -> None:
    same = api.compare(
        REPO / "goldens/publication/full-handoff.json",
        REPO / "goldens/publication/full-handoff.json",
    )
    assert same.readable
    assert same.identical
    changed = api.compare(
        REPO / "goldens/publication/full-handoff.json",
        REPO / "goldens/negative/tampered-capsule.json",
    )
    assert not changed.identical
    capsule = [c for c in changed.changes if c.section == "capsule"]
    assert capsule
    assert {c.change for c in capsule} == {api.ChangeKind.CHANGED}
