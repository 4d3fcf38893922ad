"""Trust and secret files others could have written are refused (issue 19, defect 8).

A 0666 signing key owned by `nobody`, a world-writable destination file whose
``trustedKeys`` are the trust anchors: on main any local user could add a trusted key and
get "VALID · SIGNED (trusted)". As OpenSSH does, such files are refused with the fix in
the message, unless the check is switched off for a CI sandbox.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination, golden_bytes
from zcf_inspector.cli import main
from zcf_inspector.core import file_trust
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.file_trust import ALLOW_ENV
from zcf_inspector.core.keyfile import (
    KeyFileError,
    load_ed25519_key,
    load_installation_key,
    new_ed25519_key,
    new_installation_key,
)
from zcf_inspector.core.packet.conformance import check_goldens
from zcf_inspector.core.packet.destination import DestinationError, load_destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt_keys import load_public_key
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_keys import JournalKeys
from zcf_inspector.core.review.target import ReviewTarget

NOBODY = 65534
UNSAFE_MODES = (0o666, 0o662, 0o620, 0o602)
SAFE_MODES = (0o600, 0o400)  # the goldens' destination holds secrets: owner-only


@pytest.fixture(autouse=True)
def checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ALLOW_ENV, raising=False)


def dest_file(tmp_path: Path, mode: int) -> Path:
    path = tmp_path / "destination.json"
    shutil.copyfile(GOLDENS / "destination.json", path)
    os.chmod(path, mode)
    return path


def public_destination(tmp_path: Path) -> Path:
    """The goldens' destination without its two secrets (installationKey, signingKey)."""
    value = json.loads((GOLDENS / "destination.json").read_text(encoding="utf-8"))
    value.pop("installationKey")
    value.pop("signingKey")
    path = tmp_path / "public-destination.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def key_files(tmp_path: Path) -> dict[str, Path]:
    ed = new_ed25519_key()
    made = {
        "seed": ed.to_json(),
        "public": ed.to_json(include_seed=False),
        "installation": new_installation_key("inst-a").to_json(),
    }
    paths = {}
    for name, value in made.items():
        paths[name] = tmp_path / f"{name}.key.json"
        paths[name].write_text(json.dumps(value), encoding="utf-8")
        os.chmod(paths[name], 0o600)
    return paths


@pytest.mark.parametrize("mode", UNSAFE_MODES, ids=oct)
def test_a_destination_others_may_write_is_refused_with_the_fix(tmp_path: Path, mode: int) -> None:
    path = dest_file(tmp_path, mode)
    with pytest.raises(DestinationError) as caught:
        load_destination(path)
    message = str(caught.value)
    assert message.startswith("trust_file_unsafe: destination file ")
    assert f"chmod 600 {path}" in message
    assert f"(mode {mode:04o})" in message


@pytest.mark.parametrize("mode", SAFE_MODES, ids=oct)
def test_a_destination_only_its_owner_may_write_is_used(tmp_path: Path, mode: int) -> None:
    assert load_destination(dest_file(tmp_path, mode)).installation_key_id


def test_a_file_of_another_user_is_refused_and_roots_are_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Run by anyone: the file is made someone else's by giving it away where that can be
    # done (root), else by the check standing in for another user (its idea of its uid).
    path = dest_file(tmp_path, 0o600)
    owner = path.stat().st_uid
    if owner == 0:
        os.chown(path, NOBODY, NOBODY)
        owner = NOBODY
    monkeypatch.setattr(file_trust, "_uid", lambda: owner + 1)
    with pytest.raises(DestinationError, match=rf"owned by another user \(uid {owner}\)"):
        load_destination(path)
    # root's own: as trusted as the system (a status of a root-owned 0600 file)
    roots = os.stat_result((0o100600, 0, 0, 1, 0, 0, 0, 0, 0, 0))
    assert file_trust.problem(roots) is None
    assert file_trust.problem(path.stat()) is not None


@pytest.mark.parametrize("name", ["seed", "public", "installation"])
def test_key_files_others_may_write_are_refused(tmp_path: Path, name: str) -> None:
    path = key_files(tmp_path)[name]
    os.chmod(path, 0o666)
    loaders: dict[str, Callable[[], object]] = {
        "seed": lambda: load_ed25519_key(path, need_seed=True),
        "public": lambda: load_public_key(path),
        "installation": lambda: load_installation_key(path),
    }
    with pytest.raises(KeyFileError, match=r"trust_file_unsafe: key file .* chmod 600"):
        loaders[name]()
    os.chmod(path, 0o600)
    loaders[name]()


def test_the_environment_switches_the_check_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = dest_file(tmp_path, 0o666)
    monkeypatch.setenv(ALLOW_ENV, "1")
    assert load_destination(path).installation_key_id
    monkeypatch.setenv(ALLOW_ENV, "0")  # only "1" switches it off
    with pytest.raises(DestinationError):
        load_destination(path)


def test_a_world_writable_destination_no_longer_makes_a_packet_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = dest_file(tmp_path, 0o666)
    signed = str(GOLDENS / "publication" / "full-handoff.json")
    assert main(["validate", "--destination", str(path), signed]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("zcf-inspector: trust_file_unsafe: destination file ")
    assert len(err.splitlines()) == 1
    # The documented opt-out, for a CI sandbox: one flag on the command.
    code = main(["validate", "--allow-unsafe-permissions", "--destination", str(path), signed])
    assert code == 0
    assert "VALID" in capsys.readouterr()[0]
    # ... for that command only.
    assert main(["validate", "--destination", str(path), signed]) == 2
    capsys.readouterr()


@pytest.mark.parametrize(
    "argv",
    [
        ["ingest", "PACKET", "--destination", "DEST"],
        ["receipt", "verify", "RECEIPT", "--destination", "DEST"],
        ["receipt", "verify", "RECEIPT", "--key", "PUBLIC"],
        ["seal", "PACKET", "--kind", "source-signature", "--signing-key", "SEED"],
        ["keygen", "--public-of", "DEST"],
        ["brief", "PACKET", "--destination", "DEST"],
        ["review", "PACKET", "--destination", "DEST", "--reviewer", "carol",
         "--decisions", "DECISIONS"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)  # fmt: skip
def test_every_command_refuses_them_and_takes_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    keys = key_files(tmp_path)
    decisions = tmp_path / "decisions.json"
    decisions.write_text('[{"portableRef": "b-reader", "state": "confirmed"}]')
    names = {
        "PACKET": str(GOLDENS / "publication" / "full-handoff.json"),
        "RECEIPT": str(GOLDENS / "publication" / "full-handoff.receipt.json"),
        "DEST": str(dest_file(tmp_path, 0o600)),
        "PUBLIC": str(keys["public"]),
        "SEED": str(keys["seed"]),
        "DECISIONS": str(decisions),
    }
    real = [names.get(a, a) for a in argv]
    for name in ("DEST", "PUBLIC", "SEED"):
        os.chmod(names[name], 0o646)
    assert main(real) == 2
    err = capsys.readouterr()[1]
    assert "trust_file_unsafe" in err
    assert "chmod 600" in err
    flagged = [real[0], *(real[1:2] if real[0] == "receipt" else []), "--allow-unsafe-permissions"]
    flagged += real[2:] if real[0] == "receipt" else real[1:]
    assert main(flagged) in (0, 1)  # used: judged, whatever the verdict
    # ... and never silently: each file let through is named in a warning (issue 34).
    warnings = [line for line in capsys.readouterr()[1].splitlines() if "trust_file_unsafe" in line]
    assert warnings
    assert all(
        w.startswith("zcf-inspector: warning: trust_file_unsafe overridden: ") for w in warnings
    )


def test_an_unsafe_journal_key_is_unavailable_never_damage(tmp_path: Path) -> None:
    target = ReviewTarget.from_ingest(ingest_bytes(golden_bytes("full-handoff"), destination()))
    folder, keys = tmp_path / "journals", tmp_path / "keys"
    review = JournaledReview.open(folder, target, keys=keys)
    review.decide([DecisionRequest("b-reader", "confirmed")], "carol", g.NOW)
    key = JournalKeys(keys).path_for(target.correlation_id)
    assert key.stat().st_mode & 0o777 == 0o600  # written so
    os.chmod(key, 0o660)
    with pytest.raises(ReviewError) as caught:
        JournaledReview.open(folder, target, keys=keys)
    assert caught.value.code is ReviewCode.JOURNAL_UNAVAILABLE
    assert "trust_file_unsafe: review journal key" in str(caught.value)
    assert f"chmod 600 {key}" in str(caught.value)
    os.chmod(key, 0o600)
    assert len(JournaledReview.open(folder, target, keys=keys).session.decisions) == 1


def test_conformance_vectors_are_data_not_trust_anchors(tmp_path: Path) -> None:
    # A goldens folder's destination.json holds published keys: a checkout made under
    # umask 002 must still run the vectors.
    copy = tmp_path / "goldens"
    shutil.copytree(GOLDENS, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    os.chmod(copy / "destination.json", 0o666)
    results = check_goldens(copy)
    assert results
    assert all(r.passed for r in results), [r.problems for r in results if not r.passed]


# --- secrets others may read (issue 19, item 6: as OpenSSH refuses a private key) ---------

READABLE_MODES = (0o644, 0o640, 0o604, 0o444)


@pytest.mark.parametrize("mode", READABLE_MODES, ids=oct)
@pytest.mark.parametrize("name", ["seed", "installation"])
def test_a_secret_key_file_others_may_read_is_refused(tmp_path: Path, name: str, mode: int) -> None:
    path = key_files(tmp_path)[name]
    os.chmod(path, mode)
    loaders: list[Callable[[], object]] = (
        [
            lambda: load_ed25519_key(path, need_seed=True),
            lambda: load_ed25519_key(path, need_seed=False),  # the reviewer's key
            lambda: load_public_key(path),  # receipt verify --key with a private key file
        ]
        if name == "seed"
        else [lambda: load_installation_key(path)]
    )
    for load in loaders:
        with pytest.raises(KeyFileError) as caught:
            load()
        message = str(caught.value)
        assert message.startswith(f"trust_file_unsafe: key file {path} is not used: ")
        assert "it is readable by " in message
        assert f"(mode {mode:04o})" in message
        assert "could have read the secret in it" in message
        assert f"Fix: chmod 600 {path} " in message
    os.chmod(path, 0o600)
    for load in loaders:
        load()


def test_who_may_read_is_said() -> None:
    def why(mode: int) -> str | None:
        return file_trust.secret_problem(
            os.stat_result((0o100000 | mode, 0, 0, 1, 0, 0, 0, 0, 0, 0))
        )

    assert why(0o600) is None
    assert why(0o644) == "it is readable by its group and others (mode 0644)"
    assert why(0o640) == "it is readable by its group (mode 0640)"
    assert why(0o604) == "it is readable by others (mode 0604)"
    assert why(0o622) == "it is writable by its group and others (mode 0622)"  # worse first


@pytest.mark.parametrize("mode", [0o644, 0o444])
def test_public_keys_and_destinations_may_be_read_by_anyone(tmp_path: Path, mode: int) -> None:
    # A public key is meant to be handed out; a destination file without a secret is a
    # trust file, refused only when others could have written it.
    public = key_files(tmp_path)["public"]
    os.chmod(public, mode)
    assert load_ed25519_key(public, need_seed=False).public_key
    assert load_public_key(public).public_key
    path = public_destination(tmp_path)
    os.chmod(path, mode)
    assert load_destination(path).installation_key_id
    os.chmod(path, 0o600)


def test_a_journal_key_others_may_read_is_unavailable(tmp_path: Path) -> None:
    target = ReviewTarget.from_ingest(ingest_bytes(golden_bytes("full-handoff"), destination()))
    folder, keys = tmp_path / "journals", tmp_path / "keys"
    JournaledReview.open(folder, target, keys=keys).decide(
        [DecisionRequest("b-reader", "confirmed")], "carol", g.NOW
    )
    key = JournalKeys(keys).path_for(target.correlation_id)
    os.chmod(key, 0o640)
    with pytest.raises(ReviewError) as caught:
        JournaledReview.open(folder, target, keys=keys)
    assert caught.value.code is ReviewCode.JOURNAL_UNAVAILABLE
    assert "trust_file_unsafe: review journal key" in str(caught.value)
    assert "readable by its group (mode 0640)" in str(caught.value)
    assert f"chmod 600 {key}" in str(caught.value)


def test_the_opt_out_covers_secrets_others_may_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = key_files(tmp_path)["seed"]
    os.chmod(seed, 0o644)
    packet = str(GOLDENS / "publication" / "full-handoff.json")
    argv = ["seal", packet, "--kind", "source-signature", "--signing-key", str(seed)]
    assert main(argv) == 2
    err = capsys.readouterr()[1]
    assert err.startswith("zcf-inspector: trust_file_unsafe: key file ")
    assert f"chmod 600 {seed}" in err
    assert len(err.splitlines()) == 1
    assert main([argv[0], "--allow-unsafe-permissions", *argv[1:]]) == 0
    assert capsys.readouterr()[1] == (
        f"zcf-inspector: warning: trust_file_unsafe overridden: key file {seed} is used "
        "although it is readable by its group and others (mode 0644) "
        f"(--allow-unsafe-permissions or {ALLOW_ENV}=1)\n"
    )
    monkeypatch.setenv(ALLOW_ENV, "1")
    assert load_ed25519_key(seed, need_seed=True).seed is not None


# --- a destination file holding a secret is a secret file (clarification of 2026-12-07) --


@pytest.mark.parametrize("mode", READABLE_MODES, ids=oct)
@pytest.mark.parametrize("secret", ["installationKey", "signingKey"])
def test_a_destination_holding_a_secret_others_may_read_is_refused(
    tmp_path: Path, secret: str, mode: int
) -> None:
    value = json.loads(public_destination(tmp_path).read_text(encoding="utf-8"))
    golden = json.loads((GOLDENS / "destination.json").read_text(encoding="utf-8"))
    value[secret] = golden[secret]
    path = tmp_path / "destination.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    os.chmod(path, mode)
    with pytest.raises(DestinationError) as caught:
        load_destination(path)
    message = str(caught.value)
    assert message.startswith(f"trust_file_unsafe: destination file {path} is not used: ")
    assert "it is readable by " in message
    assert "could have read the secret in it" in message
    assert f"Fix: chmod 600 {path} " in message
    os.chmod(path, 0o600)
    assert load_destination(path).installation_key_id


def test_a_readable_destination_with_a_secret_exits_2_and_the_flag_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = dest_file(tmp_path, 0o644)
    packet = str(GOLDENS / "publication" / "full-handoff.json")
    assert main(["validate", packet, "--destination", str(path)]) == 2
    assert "trust_file_unsafe: destination file" in capsys.readouterr()[1]
    assert main(["validate", "--allow-unsafe-permissions", packet, "--destination", str(path)]) == 0
    err = capsys.readouterr()[1]
    assert err == (
        f"zcf-inspector: warning: trust_file_unsafe overridden: destination file {path} is "
        "used although it is readable by its group and others (mode 0644) "
        f"(--allow-unsafe-permissions or {ALLOW_ENV}=1)\n"
    )
