"""The library interface keeps its promise: every deliberate error is a `ZcfError` with a
stable code, no secret reaches a ``repr``, `__all__` names every public name, the review
command has its library twin and `verify_receipt` takes a key in every form the CLI does."""

from __future__ import annotations

import base64
import builtins
import dataclasses
import importlib
import inspect
import json
import pkgutil
import re
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, settings
from hypothesis import given as for_all
from hypothesis import strategies as st

import zcf_inspector
from goldens import generate as g
from tests.core.generations import write_generations
from tests.core.helpers import GOLDENS
from zcf_inspector import api
from zcf_inspector.cli import main
from zcf_inspector.core.errors import ZcfError

DEST = GOLDENS / "destination.json"
PACKET = GOLDENS / "publication" / "full-handoff.json"

# The code of every exception class the program raises on purpose. Programs match on these:
# a change here breaks them, so it must be deliberate (and said in the release notes).
STABLE_CODES = {
    "ZcfError": "zcf_error",
    "ArgumentError": "argument_invalid",
    "InputError": "input_unusable",
    "RefusalError": "input_refused",
    "FormatError": "format_invalid",
    "TimestampError": "timestamp_invalid",
    "Base64UrlError": "base64url_invalid",
    "SchemaError": "schema_unsupported",
    "UnreadableFileError": "file_unreadable",
    "TargetExistsError": "output_exists",
    "TargetNotAFileError": "output_not_a_file",
    "UnwritableFileError": "output_unwritable",
    "KeyFileError": "key_file_invalid",
    "DecisionsFileError": "decisions_file_invalid",
    "ChoicesFileError": "choices_file_invalid",
    "DestinationError": "destination_invalid",
    "SealError": "seal_impossible",
    "ReadError": "input_refused",  # per instance: the §1 refusal code (duplicate_key…)
    "ReviewError": "review_refused",  # per instance: the first finding's ReviewCode
    "Cancelled": "cancelled",
    "ExportError": "export_failed",
    "WorkspaceError": "workspace_unusable",
    "PackageKeyError": "package_key_invalid",
    "PackageBuildError": "package_refused",
}


def every_module() -> list[types.ModuleType]:
    names = [
        m.name
        for m in pkgutil.walk_packages(zcf_inspector.__path__, "zcf_inspector.")
        # goldens is a link to the repository's generator; __main__ would run the CLI.
        if not m.name.startswith("zcf_inspector.goldens") and m.name != "zcf_inspector.__main__"
    ]
    return [importlib.import_module(name) for name in names]


def error_classes() -> list[type[ZcfError]]:
    every_module()  # every subclass is defined once its module is imported
    found: list[type[ZcfError]] = []
    stack: list[type[ZcfError]] = [ZcfError]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return [c for c in found if c.__module__.startswith("zcf_inspector")]


def test_every_deliberate_error_has_its_own_stable_code() -> None:
    public = [c for c in error_classes() if not c.__name__.startswith("_")]
    assert {c.__name__: c.code for c in public} == STABLE_CODES
    for cls in public:
        # Its own, not inherited: a new class must choose one (and add it above).
        own = "code" in vars(cls) or "code" in vars(cls).get("__annotations__", {})
        assert own, cls.__name__
        assert re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", cls.code), cls.code
    codes = [c.code for c in public if c.__name__ != "ReadError"]
    assert len(codes) == len(set(codes))  # ReadError alone shares its class's code


def test_instances_carry_the_finer_code() -> None:
    with pytest.raises(api.ReadError) as read:
        api.read_json(b'{"a": 1, "a": 2}')
    assert read.value.code == "duplicate_key"
    with pytest.raises(api.InputError) as missing:
        api.inspect_packet("no/such/file.json")
    assert missing.value.code == "file_unreadable"
    from zcf_inspector.core.codes import ReviewCode
    from zcf_inspector.core.findings import error
    from zcf_inspector.core.review.decisions import ReviewError

    refusal = ReviewError([error(ReviewCode.UNKNOWN_PORTABLE_REF, "/0", "no such belief")])
    assert refusal.code is ReviewCode.UNKNOWN_PORTABLE_REF


def test_the_api_page_lists_every_error_code() -> None:
    page = (Path(__file__).parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    for name in api.__all__:
        value = getattr(api, name)
        if isinstance(value, type) and issubclass(value, ZcfError):
            assert f"| `{name}` | `{value.code}` |" in page, name


def test_ingest_without_a_destination_is_an_input_error() -> None:
    with pytest.raises(api.InputError, match="a destination is required"):
        api.ingest(PACKET, None)  # type: ignore[arg-type]


def test_seal_with_an_unknown_kind_is_a_seal_error() -> None:
    with pytest.raises(api.SealError, match="not an authentication kind: 'bogus'") as raised:
        api.seal(g.full_handoff(), "bogus")
    assert raised.value.code == "seal_impossible"
    assert api.seal(g.full_handoff(), "unsigned")["authentication"] == {"kind": "unsigned"}


# --- secrets out of every repr ------------------------------------------------------------

# Fields named like keys that hold public values only.
PUBLIC_KEYS = {("Destination", "trusted_keys"), ("Ed25519Key", "public_key")}
PUBLIC_KEYS |= {("ReceiptSigner", "public_key")}
SECRET_NAME = re.compile(r"(^|_)(key|keys|seed|secret|secrets)$")


def every_dataclass() -> list[type[Any]]:
    found = []
    for module in every_module():
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and dataclasses.is_dataclass(value)
                and value.__module__ == module.__name__
            ):
                found.append(value)
    return found


def test_no_dataclass_field_that_holds_a_secret_is_in_its_repr() -> None:
    classes = every_dataclass()
    assert len(classes) > 50  # the walk found the package's types
    secret_fields = []
    for cls in classes:
        for f in dataclasses.fields(cls):
            if not SECRET_NAME.search(f.name) or "bytes" not in str(f.type):
                continue
            if (cls.__name__, f.name) in PUBLIC_KEYS:
                continue
            secret_fields.append(f"{cls.__name__}.{f.name}")
            assert not f.repr, f"{cls.__module__}.{cls.__name__}.{f.name} is shown by repr"
    # The walk saw the secrets it must: the destination's three, the key files', the journal's.
    assert {
        "Destination.installation_key",
        "Destination.source_installation_keys",
        "Destination.signing_key",
        "Ed25519Key.seed",
        "InstallationKey.key",
        "KeyState.key",
    } <= set(secret_fields)


def spellings(secret: bytes) -> list[str]:
    """Every way a repr could show ``secret``."""
    b64 = base64.urlsafe_b64encode(secret).decode().rstrip("=")
    return [repr(secret), secret.hex(), b64, repr(secret)[2:-1]]


def public_values() -> list[Any]:
    """One value of every public result type that can hold a destination's keys."""
    destination = api.load_destination(DEST)
    ingested = api.ingest(PACKET, destination)
    reviewed = api.review(
        PACKET,
        destination,
        [{"portableRef": ingested.admitted_beliefs[0]["portableRef"], "state": "confirmed"}],
        reviewer="alice",
    )
    from zcf_inspector.core.keyfile import new_ed25519_key, new_installation_key

    return [
        destination,
        ingested,
        reviewed,
        api.inspect_packet(PACKET, destination),
        api.verify_receipt(GOLDENS / "publication" / "full-handoff.receipt.json", destination),
        new_ed25519_key(g.RECEIPT_SEED),
        new_installation_key("dest-01", b"\x07" * 32),
    ]


def test_no_repr_of_a_public_value_shows_a_secret() -> None:
    destination = api.load_destination(DEST)
    secrets = [destination.installation_key, destination.signing_key, g.RECEIPT_SEED]
    secrets += [*destination.source_installation_keys.values(), b"\x07" * 32]
    assert all(secrets)
    assert len(secrets) >= 4
    for value in public_values():
        shown = repr(value)
        for secret in secrets:
            assert secret is not None
            for spelling in spellings(secret):
                assert spelling not in shown, (type(value).__name__, spelling)
    assert "dest-golden-01" in repr(destination)  # what is not secret is still shown


# --- __all__ ------------------------------------------------------------------------------


def test_all_lists_every_public_name_and_each_resolves() -> None:
    for name in api.__all__:
        assert getattr(api, name) is not None, name
    assert len(api.__all__) == len(set(api.__all__))
    # Every name the module binds without a leading underscore to something of this
    # package is public (internal helpers are imported under an underscore).
    bound = {
        name
        for name, value in vars(api).items()
        if not name.startswith("_")
        and not inspect.ismodule(value)
        and getattr(value, "__module__", "").startswith("zcf_inspector")
    }
    assert bound <= set(api.__all__), bound - set(api.__all__)


def test_every_type_a_public_function_takes_or_returns_is_public() -> None:
    # Annotations are strings (postponed evaluation, and JsonValue is a string alias), so
    # each name in them is looked up where the function was defined: the api module.
    names = set(api.__all__)
    for name in api.__all__:
        value = getattr(api, name)
        if not inspect.isfunction(value) or value.__module__ != api.__name__:
            continue
        for annotation in value.__annotations__.values():
            for word in re.findall(r"[A-Za-z_][\w.]*", str(annotation)):
                if word == "None":
                    continue
                head, *rest = word.split(".")
                used = vars(api).get(head, getattr(builtins, head, None))
                for part in rest:
                    used = getattr(used, part, None)
                assert used is not None, f"{name} names {word}, which api does not bind"
                module = getattr(used, "__module__", "") or ""
                if module.startswith("zcf_inspector") and not inspect.ismodule(used):
                    assert word in names, f"{name} uses {word}, not in __all__"


def test_every_public_function_says_what_it_raises() -> None:
    functions = [n for n in api.__all__ if inspect.isfunction(getattr(api, n))]
    assert len(functions) == 20
    for name in functions:
        doc = inspect.getdoc(getattr(api, name)) or ""
        assert "Raises:" in doc, name


def test_verdict_refuses_what_is_not_a_checked_document() -> None:
    with pytest.raises(
        api.InputError, match="result must be a result of this module's checks, not str"
    ):
        api.verdict("minimal.json")  # type: ignore[arg-type]


def test_describe_refuses_what_is_not_a_finding_code() -> None:
    assert api.describe(api.ErrorCode.DUPLICATE_ID).severity is api.Severity.ERROR
    with pytest.raises(api.InputError, match="not a finding code: 'duplicate_id'"):
        api.describe("duplicate_id")  # type: ignore[arg-type]


# --- verify_receipt takes every form of key -----------------------------------------------


def test_verify_receipt_takes_a_destination_a_key_file_or_key_bytes(tmp_path: Path) -> None:
    from zcf_inspector.core.crypto import ed25519_public_key

    receipt = GOLDENS / "publication" / "full-handoff.receipt.json"
    signed = api.ReceiptStatus.VALID_SIGNED
    destination = api.load_destination(DEST)
    public = tmp_path / "dest.pub.json"
    assert main(["keygen", "--public-of", str(DEST), "--out", str(public)]) == 0
    assert api.verify_receipt(receipt, destination).status is signed
    assert api.verify_receipt(receipt, public).status is signed
    assert api.verify_receipt(receipt, str(public)).status is signed
    assert api.verify_receipt(receipt, DEST).status is signed  # the destination file itself
    assert api.verify_receipt(receipt, ed25519_public_key(g.RECEIPT_SEED)).status is signed
    other = tmp_path / "other.pub.json"
    assert main(["keygen", "--out", str(tmp_path / "other.json"), "--public-out", str(other)]) == 0
    wrong = api.verify_receipt(receipt, other)
    assert wrong.status is api.ReceiptStatus.INVALID
    assert [str(f.code) for f in wrong.findings] == ["source_key_unknown"]


def test_verify_receipt_refuses_a_key_it_cannot_use(tmp_path: Path) -> None:
    receipt = GOLDENS / "publication" / "full-handoff.receipt.json"
    unsigned = api.load_destination(DEST)
    unsigned = dataclasses.replace(unsigned, signing_key=None)
    with pytest.raises(api.InputError, match="has no signingKey"):
        api.verify_receipt(receipt, unsigned)
    not_a_key = tmp_path / "not-a-key.json"
    not_a_key.write_text('{"kind": "something"}')
    with pytest.raises(api.KeyFileError):
        api.verify_receipt(receipt, not_a_key)
    with pytest.raises(api.FormatError):
        api.verify_receipt(receipt, b"\x01" * 31)


# --- review, the library twin of the command ----------------------------------------------


def cli_receipt(capsys: pytest.CaptureFixture[str], *argv: str) -> bytes:
    assert main(["review", *argv]) == 0
    out = capsys.readouterr().out
    return out.encode("utf-8")


def test_review_writes_the_bytes_the_command_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from zcf_inspector.core.packet.receipt import receipt_bytes

    refs = [b["portableRef"] for b in api.ingest(PACKET, DEST).admitted_beliefs]
    decisions = [
        {"portableRef": refs[0], "state": "confirmed", "note": "checked"},
        {"portableRef": refs[1], "state": "rejected", "note": "stale"},
    ]
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(decisions))
    expected = cli_receipt(
        capsys, str(PACKET), "--destination", str(DEST), "--decisions", str(path),
        "--reviewer", "alice",
    )  # fmt: skip
    for given in (decisions, path, path.read_bytes()):
        result = api.review(PACKET, DEST, given, reviewer="alice")
        assert not result.refused
        assert result.receipt is not None
        assert receipt_bytes(result.receipt) == expected


def test_review_with_the_previous_generation_as_the_command_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from zcf_inspector.core.packet.receipt import receipt_bytes

    write_generations(tmp_path)
    gen2, gen1, receipt1 = (tmp_path / n for n in ("gen2.json", "gen1.json", "gen1.receipt.json"))
    expected = cli_receipt(
        capsys, str(gen2), "--destination", str(DEST), "--reviewer", "carol",
        "--previous", str(gen1), "--previous-receipt", str(receipt1),
        "--repeat-unchanged", "--repeat-note", "read the gen2 diff",
    )  # fmt: skip
    result = api.review(
        gen2,
        DEST,
        reviewer="carol",
        previous=gen1,
        previous_receipt=receipt1,
        repeat_unchanged=True,
        repeat_note="read the gen2 diff",
    )
    assert result.receipt is not None
    assert receipt_bytes(result.receipt) == expected
    assert result.repeated == 3
    assert result.previous is not None


def test_review_refusals_are_results_and_usage_errors_are_raised() -> None:
    refused = api.review(PACKET, DEST, [{"portableRef": "no-such", "state": "confirmed"}],
                         reviewer="alice")  # fmt: skip
    assert refused.refused
    assert [str(f.code) for f in refused.findings] == ["unknown_portable_ref"]
    tampered = GOLDENS / "negative" / "tampered-capsule.json"
    not_admitted = api.review(tampered, DEST, [], reviewer="alice")
    assert not_admitted.refused
    assert not not_admitted.ingest.inspection.valid
    with pytest.raises(api.InputError, match="give decisions, or repeat_unchanged"):
        api.review(PACKET, DEST, reviewer="alice")
    with pytest.raises(api.InputError, match="given together"):
        api.review(PACKET, DEST, [], reviewer="alice", previous=PACKET)
    with pytest.raises(api.InputError, match="repeat_note"):
        api.review(PACKET, DEST, [], reviewer="alice", previous=PACKET,
                   previous_receipt=PACKET, repeat_unchanged=True)  # fmt: skip
    with pytest.raises(api.InputError, match="not strict JSON"):
        api.review(PACKET, DEST, b"[1, 1,]", reviewer="alice")


def test_an_unsigned_previous_receipt_is_a_refusal_unless_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The library twin refused it with a raised ReviewError (a refusal must be a result),
    # and had no way to accept it as the command's --accept-unsigned-previous does.
    from tests.core.generations import earlier_receipt
    from zcf_inspector.core.packet.receipt import finish_receipt, receipt_bytes

    gen1, _, gen2 = write_generations(tmp_path)
    unsigned = tmp_path / "gen1.unsigned.receipt.json"
    unsigned.write_bytes(receipt_bytes(finish_receipt(earlier_receipt(), None)))
    options: dict[str, Any] = {
        "reviewer": "carol",
        "previous": gen1,
        "previous_receipt": unsigned,
        "repeat_unchanged": True,
        "repeat_note": "read the gen2 diff",
    }
    refused = api.review(gen2, DEST, **options)
    assert refused.refused
    assert [str(f.code) for f in refused.findings] == ["previous_receipt_untrusted"]
    assert (refused.carried_over, refused.repeated) == (False, 0)
    accepted = api.review(gen2, DEST, accept_unsigned_previous=True, **options)
    assert accepted.receipt is not None
    assert (accepted.carried_over, accepted.repeated) == (True, 3)
    expected = cli_receipt(
        capsys, str(gen2), "--destination", str(DEST), "--reviewer", "carol",
        "--previous", str(gen1), "--previous-receipt", str(unsigned),
        "--repeat-unchanged", "--repeat-note", "read the gen2 diff",
        "--accept-unsigned-previous",
    )  # fmt: skip
    assert receipt_bytes(accepted.receipt) == expected


# --- every argument checked at the edge (issue 28, point 5) ----------------------------

MINIMAL = GOLDENS / "publication" / "minimal.json"
RECEIPT = GOLDENS / "publication" / "minimal.receipt.json"
SESSION = (
    Path(__file__).parent / "data" / "asif-0.5" / "examples" / "continuation"
) / "another-agent.session.json"
FULL = GOLDENS / "publication" / "full-handoff.json"
FULL_RECEIPT = GOLDENS / "publication" / "full-handoff.receipt.json"
PACKAGE_SESSION = (
    Path(__file__).parent
    / "data"
    / "asif-0.5-package"
    / "examples"
    / "awaiting-approval.session.json"
)
PACKAGE_SESSION_BYTES = api.build_package(PACKAGE_SESSION)  # a package built from it

# A valid call of every public function: each argument in turn is then replaced by a
# value of a wrong type, and the call must refuse it as an `InputError` (never a
# built-in exception from inside).
VALID_CALLS: dict[str, dict[str, Any]] = {
    "inspect_packet": {"source": MINIMAL, "destination": None, "max_bytes": 1 << 20},
    "ingest": {"source": MINIMAL, "destination": DEST},
    "verify_receipt": {"source": RECEIPT, "key": None},
    "seal": {"packet": MINIMAL, "kind": "unsigned"},
    "canonicalize": {"value": b"[1]"},
    "compare": {"a": MINIMAL, "b": MINIMAL},
    "describe": {"code": api.ErrorCode.DUPLICATE_KEY},
    "inspect_continuation": {"session": SESSION, "now": "2026-09-26T12:30:00Z", "plan_id": None},
    "verdict": {"result": None},  # replaced below by a real result
    "open_document": {"source": MINIMAL, "destination": None, "now": None},
    "load_destination": {"path": DEST},
    "parse_destination": {"value": json.loads(DEST.read_bytes())},
    "read_json": {"data": b"[1]"},
    "review": {"source": MINIMAL, "destination": DEST, "decisions": [], "reviewer": "r"},
    "audit_report": {"packet": FULL, "receipt": FULL_RECEIPT, "destination": DEST},
    "audit_html": {"report": None},  # replaced below by a real report
    "reconcile": {"packet": FULL, "a": FULL_RECEIPT, "b": FULL_RECEIPT, "destination": DEST},
    "verify_package": {"source": PACKAGE_SESSION_BYTES, "signature": None, "key": None},
    "build_package": {"session": PACKAGE_SESSION},
    "sign_package": {"source": PACKAGE_SESSION_BYTES, "seed": bytes(range(32))},
}
# What is of a wrong type for every argument above (None only where None is not allowed:
# it is left out of the arguments that take it).
WRONG = st.one_of(
    st.integers(),
    st.floats(allow_nan=True),
    st.just(object()),
    st.just(1j),
    st.sets(st.integers(), max_size=2),
    st.just(Path),
    st.just(b"".join),
    st.sampled_from(['{"a": 1}', "[1, 2]", " {", "\x00", ""]),
)
# Arguments where one of these is legitimately a value (canonicalize takes any JSON
# value: an int is one; describe's and the key's str are checked as such).
ACCEPTS_ANY_JSON = {("canonicalize", "value"), ("parse_destination", "value")}


def test_every_public_function_has_a_valid_call_to_vary() -> None:
    functions = {n for n in api.__all__ if inspect.isfunction(getattr(api, n))}
    assert functions == set(VALID_CALLS)
    for name, kwargs in VALID_CALLS.items():
        if name in ("verdict", "audit_html"):
            continue
        getattr(api, name)(**kwargs)  # the baseline is valid


@pytest.mark.parametrize("name", sorted(VALID_CALLS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@for_all(data=st.data())
def test_a_wrong_argument_type_is_an_input_error_never_a_builtin(name: str, data: Any) -> None:
    kwargs = dict(VALID_CALLS[name])
    if name == "verdict":
        kwargs["result"] = api.inspect_packet(MINIMAL)
    if name == "audit_html":
        kwargs["report"] = api.audit_report(**VALID_CALLS["audit_report"])
    argument = data.draw(st.sampled_from(sorted(kwargs)))
    wrong = data.draw(WRONG)
    valid = kwargs[argument]
    # A value of the type the argument takes is no wrong type (max_bytes=1, reviewer="{"):
    # its own checks are other tests'.
    assume(valid is None or not isinstance(wrong, type(valid)))
    assume((name, argument) != ("inspect_continuation", "plan_id") or not isinstance(wrong, str))
    if (name, argument) in ACCEPTS_ANY_JSON and not isinstance(wrong, str | bytes):
        wrong = object()  # not a JSON value: refused as a format, still an InputError
    kwargs[argument] = wrong
    refused: api.ZcfError | None = None
    try:
        getattr(api, name)(**kwargs)
    except api.ZcfError as exc:  # anything else (TypeError…) fails the test as raised
        refused = exc
    if refused is None:  # returned: only where the wrong value is a legitimate one
        assert (name, argument) in ACCEPTS_ANY_JSON, (name, argument, wrong)
    else:
        assert isinstance(refused, api.InputError | api.RefusalError), (name, argument)
        assert refused.code, (name, argument)


def test_json_text_given_as_a_path_is_refused_in_words() -> None:
    with pytest.raises(api.ArgumentError, match="pass bytes for JSON text"):
        api.inspect_packet('{"a":1}')
    for wrong in (None, 123, 1.5):
        with pytest.raises(api.ArgumentError, match="source must be"):
            api.inspect_packet(wrong)  # type: ignore[arg-type]


def test_bytes_like_sources_and_rfc3339_clocks_are_accepted() -> None:
    data = MINIMAL.read_bytes()
    expected = api.inspect_packet(data).valid
    assert api.inspect_packet(bytearray(data)).valid is expected is True
    assert api.inspect_packet(memoryview(data)).valid is True
    text = api.inspect_continuation(SESSION, now="2026-09-26T12:30:00Z")
    aware = api.inspect_continuation(SESSION, now=datetime(2026, 9, 26, 12, 30, tzinfo=UTC))
    assert api.verdict(text).words == api.verdict(aware).words
    with pytest.raises(api.ArgumentError, match="aware datetime"):
        api.inspect_continuation(SESSION, now=datetime(2026, 9, 26, 12, 30))
    with pytest.raises(api.ArgumentError, match="now"):
        api.inspect_continuation(SESSION, now="2026")
