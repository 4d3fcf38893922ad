"""Issue 33: the headless opener reads, recognises and checks an ASIF package — by content,
never by name — with the detached signature beside it under the request's trusted package
keys, and outlines an ASIF session for the window's session view (the CLI's open does not).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from zcf_inspector import api
from zcf_inspector.cli import main
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.monitor import NULL_MONITOR
from zcf_inspector.opener.documents import ContinuationDocument, PackageDocument
from zcf_inspector.opener.open import OpenRequest, open_document, open_documents
from zcf_inspector.present.vocabulary import Trust

EXAMPLES = Path(__file__).parent / "data" / "asif-0.5-package" / "examples"
SESSION = EXAMPLES / "compaction-with-attachment.session.json"
SEED = bytes(range(32))  # the example's public test key (TRANSPORT.md)


def _package(folder: Path, name: str = "notes.bin") -> Path:
    path = folder / name  # no .zip in the name: recognised by its bytes
    path.write_bytes(api.build_package(SESSION))
    return path


def _public_key(folder: Path, seed: bytes, name: str = "trusted.key") -> Path:
    public = Ed25519PrivateKey.from_private_bytes(seed).public_key()
    path = folder / name
    path.write_text(public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex())
    return path


def _signed(folder: Path) -> Path:
    package = _package(folder, "notes.asif.zip")
    seed = folder / "seed"
    seed.write_bytes(SEED)
    os.chmod(seed, 0o600)
    (folder / "notes.asif.zip.sig.json").write_bytes(api.sign_package(package, seed))
    return package


def test_a_package_is_recognised_by_its_bytes_and_checked(tmp_path: Path) -> None:
    document = open_document(_package(tmp_path))
    assert isinstance(document, PackageDocument)
    view = document.view
    assert view.kind is DocumentKind.ASIF_PACKAGE
    assert view.headline == "VALID PACKAGE · UNSIGNED"
    assert view.trust is Trust.UNSIGNED
    assert document.result.members == len(document.result.inventory) + 1  # + the manifest
    assert document.outline.resources  # the attachment, outlined from its member
    assert isinstance(document.value, dict)  # the tree: the session member


def test_package_bytes_given_without_a_file_are_checked_too(tmp_path: Path) -> None:
    document = open_document(api.build_package(SESSION))
    assert isinstance(document, PackageDocument)
    assert document.signature_path is None  # nothing is beside bytes
    assert document.view.headline == "VALID PACKAGE · UNSIGNED"


def test_the_signature_beside_is_checked_under_the_trusted_keys(tmp_path: Path) -> None:
    package = _signed(tmp_path)
    (unkeyed,) = open_documents(OpenRequest((str(package),)), NULL_MONITOR)
    assert isinstance(unkeyed, PackageDocument)
    assert unkeyed.signature_path == str(tmp_path / "notes.asif.zip.sig.json")
    assert unkeyed.view.trust is Trust.UNCHECKED
    keys = (str(_public_key(tmp_path, SEED)),)
    (keyed,) = open_documents(OpenRequest((str(package),), package_keys=keys), NULL_MONITOR)
    assert isinstance(keyed, PackageDocument)
    assert keyed.view.headline.startswith("VALID PACKAGE · SIGNED by sha256:")
    assert keyed.view.trust is Trust.VERIFIED
    other = (str(_public_key(tmp_path, bytes(32), "other.key")),)
    (wrong,) = open_documents(OpenRequest((str(package),), package_keys=other), NULL_MONITOR)
    assert isinstance(wrong, PackageDocument)
    assert wrong.view.trust is Trust.REFUSED
    assert "signing_key_untrusted" in wrong.view.headline


def test_a_trusted_key_file_that_cannot_be_read_is_said(tmp_path: Path) -> None:
    package = _signed(tmp_path)
    bad = tmp_path / "bad.key"
    bad.write_text("not a key")
    missing = tmp_path / "missing.key"
    request = OpenRequest((str(package),), package_keys=(str(bad), str(missing)))
    (document,) = open_documents(request, NULL_MONITOR)
    assert isinstance(document, PackageDocument)
    assert [p.split(":")[0] for p in document.key_problems] == [str(bad), str(missing)]
    assert document.view.trust is Trust.UNCHECKED  # no key read: not checked, never green


def test_only_the_windows_open_outlines_a_session() -> None:
    path = str(EXAMPLES / "awaiting-approval.session.json")
    (plain,) = open_documents(OpenRequest((path,)), NULL_MONITOR)
    (outlined,) = open_documents(OpenRequest((path,), outline=True), NULL_MONITOR)
    assert isinstance(plain, ContinuationDocument)
    assert isinstance(outlined, ContinuationDocument)
    assert plain.outline is None
    assert outlined.outline is not None
    assert outlined.outline.events


def test_validate_prints_a_packages_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _package(tmp_path, "notes.asif.zip")
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: VALID PACKAGE · UNSIGNED")


def test_validate_reads_a_signature_beside_but_checks_none_without_a_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _signed(tmp_path)
    assert main(["validate", str(path)]) == 3  # a signature not checked is never exit 0
    assert "INTACT PACKAGE · SIGNATURE NOT CHECKED (no key)" in capsys.readouterr().out
