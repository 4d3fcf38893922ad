"""The secret scan (issue 20): planted credentials flagged at their pointer, masked, never
echoed; detect-secrets (the oracle) flags the same plants; the goldens' and the test data's
ordinary text flags nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from detect_secrets.core.scan import scan_line
from detect_secrets.settings import default_settings
from hypothesis import given
from hypothesis import strategies as st

from goldens import generate as g
from tests.conftest import REPO
from zcf_inspector.core.codes import AdvisoryCode
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.reading import ReadError, read_packet
from zcf_inspector.core.secrets.detectors import looks_random, mask
from zcf_inspector.core.secrets.scan import SecretScan, packet_texts, scan_packet, scan_texts

# Made-up credentials in the published shapes (the AWS one is AWS's documented example).
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
GITHUB_TOKEN = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
    "-----END RSA PRIVATE KEY-----"
)
URL_PASSWORD = "Hunter2Secret9"
API_KEY = "f3a9c1e0b7d24a6e8c5f1b2d3e4a5c6f"
RANDOM_KEY = "q7Rk2Lm9Xv4Tn8Bw3Zc6Yp1Jh5Gd0Fs"


class Plant(NamedTuple):
    path: tuple[str | int, ...]  # where it is planted
    text: str  # the text around it
    value: str
    kind: str  # the kind our scan names
    plugin: str  # the detect-secrets plugin that flags the same text


PLANTS: list[Plant] = [
    Plant(
        ("content", "beliefs", 0, "content"),
        f"The deploy uses {AWS_KEY} for the bucket.",
        AWS_KEY,
        "aws-access-key-id",
        "AWS Access Key",
    ),
    Plant(
        ("content", "capsule", "risks", 0),
        f"CI pushes with token {GITHUB_TOKEN} until rotated",
        GITHUB_TOKEN,
        "github-token",
        "GitHub Token",
    ),
    Plant(
        ("content", "evidenceAnchors", 0, "excerpt"),
        f"Authorization: Bearer {JWT}",
        JWT,
        "jwt",
        "JSON Web Token",
    ),
    Plant(
        ("content", "receipts", 0, "summary"),
        f"key material found:\n{PEM}\n",
        PEM,
        "private-key",
        "Private Key",
    ),
    Plant(
        ("content", "evidenceSources", 0, "locator"),
        f"postgres://admin:{URL_PASSWORD}@db.internal.example:5432/app",
        URL_PASSWORD,
        "url-password",
        "Basic Auth Credentials",
    ),
    Plant(
        ("content", "capsule", "constraints", 0),
        f'config has api_key = "{API_KEY}" for the staging service',
        API_KEY,
        "keyword",
        "Secret Keyword",
    ),
    Plant(
        ("content", "verification", 0, "summary"),
        f"deployed with {RANDOM_KEY} as the session's signing material",
        RANDOM_KEY,
        "high-entropy",
        "Base64 High Entropy String",
    ),
]


def planted_packet() -> dict[str, Any]:
    packet = g.handoff("secrets")
    c = packet["content"]
    c["beliefs"] = [g.belief("b-1", "x"), g.belief("b-2", "An ordinary belief about keys.")]
    c["evidenceSources"] = [{"id": "s-1", "kind": "external", "locator": "x"}]
    c["evidenceAnchors"] = [{"id": "a-1", "beliefRef": "b-1", "sourceRef": "s-1", "excerpt": ""}]
    c["receipts"] = [{"id": "r-1", "kind": "patch", "digest": "sha256:" + "0" * 64, "summary": ""}]
    c["verification"] = [{"id": "v-1", "kind": "pytest", "status": "passed", "summary": ""}]
    c["capsule"]["risks"] = [""]
    c["capsule"]["constraints"] = [""]
    for plant in PLANTS:
        target: Any = packet
        for part in plant.path[:-1]:
            target = target[part]
        target[plant.path[-1]] = plant.text
    return packet


def pointer_of(path: tuple[str | int, ...]) -> str:
    return "".join(f"/{part}" for part in path)


@pytest.fixture(scope="module")
def planted() -> SecretScan:
    return scan_packet(planted_packet())


@pytest.mark.parametrize("plant", PLANTS, ids=[p.kind for p in PLANTS])
def test_each_planted_credential_is_flagged_at_its_pointer(
    planted: SecretScan, plant: Plant
) -> None:
    hits = [h for h in planted.hits if h.pointer == pointer_of(plant.path)]
    assert [h.kind for h in hits] == [plant.kind]
    hit = hits[0]
    assert plant.text[hit.start : hit.end] == plant.value
    assert hit.masked.endswith(f"…({len(plant.value):,} characters, hidden)")


@pytest.mark.parametrize("plant", PLANTS, ids=[p.kind for p in PLANTS])
def test_detect_secrets_flags_the_same_plants(plant: Plant) -> None:
    # The oracle: the well-kept library agrees each plant is a credential of that kind.
    with default_settings():
        found = {s.type for line in plant.text.splitlines() for s in scan_line(line)}
    assert plant.plugin in found


def test_no_value_is_echoed_anywhere(planted: SecretScan) -> None:
    shown = json.dumps(planted.to_json()) + "".join(h.message for h in planted.hits)
    findings, _ = planted.findings()
    shown += json.dumps([f.to_json() for f in findings])
    for plant in PLANTS:
        # At most the kind's public prefix (ghp_, AKIA, a PEM header) appears, never the rest.
        value = plant.value
        assert (value.splitlines()[1] if plant.kind == "private-key" else value[-8:]) not in shown


def test_findings_are_warnings_with_the_advisory_code(planted: SecretScan) -> None:
    findings, omitted = planted.findings()
    assert len(findings) == len(PLANTS)
    assert omitted == ()
    assert {f.code for f in findings} == {AdvisoryCode.SECRET_SUSPECTED}
    assert {f.severity for f in findings} == {Severity.WARNING}
    assert {f.pointer for f in findings} == {pointer_of(p.path) for p in PLANTS}
    assert planted.flagged_pointers == {pointer_of(p.path) for p in PLANTS}
    assert "/content/beliefs/1/content" not in planted.flagged_pointers


def test_past_the_budget_hits_are_counted_with_the_first_pointer() -> None:
    texts = [f"id {AWS_KEY}"] * 30
    scan = scan_texts([("t", i) for i in range(30)], texts)
    findings, omitted = scan.findings(limit=10)
    assert len(findings) == 10
    assert [(o.code, o.count, o.first_pointer) for o in omitted] == [
        (AdvisoryCode.SECRET_SUSPECTED, 20, "/t/10")
    ]


def test_offsets_are_characters_in_non_ascii_text() -> None:
    text = f"clé «{AWS_KEY}» ✓"
    (hit,) = scan_texts([("t",)], [text]).hits
    assert text[hit.start : hit.end] == AWS_KEY


def test_the_private_key_span_runs_to_its_end_line() -> None:
    text = f"before {PEM} after"
    (hit,) = scan_texts([("t",)], [text]).hits
    assert text[hit.start : hit.end] == PEM
    assert hit.masked.startswith("-----BEGIN RSA PRIVATE KEY-----…")


@pytest.mark.parametrize(
    "text",
    [
        "Keys are sorted by code point: not by UTF-16 unit.",
        "token: the lexer's next one",
        "password: see the team vault",
        "412 passed: all of them",
        "secret = ${DB_PASSWORD}",
        'password = "<redacted>"',
        "https://user@example.com/path and https://example.com:8443/x",
        "sha256:a4895eb44afc336fecbba6e520cd67e178dace0276655d102fceffa8e5f70570",
        "commit 4fc6347528f6f4e773d0a30a835d445c137ab164 on main",
        "zcf_inspector/core/packet/structure_models.py and tests/core/test_reading_paths.py",
        "The monkey: bananas2026 is not a credential name",
        "AKIAIOSFODNN7EXAMPLEMORE is glued to more letters",
        "eyJ alone is not a token, nor eyJhbGciOi.eyJzdWIi without a JSON header",
        "-----BEGIN PUBLIC KEY-----",
    ],
)
def test_ordinary_text_is_not_flagged(text: str) -> None:
    assert scan_texts([("t",)], [text]).hits == ()


def test_random_looking_pieces_need_mixed_classes() -> None:
    assert looks_random(RANDOM_KEY.encode())
    assert not looks_random(b"a4895eb44afc336fecbba6e520cd67e178dace02")  # hex digest
    assert not looks_random(b"EvidenceBackedNoteAboutTheParser")  # words
    assert not looks_random(b"Ab1" * 10)  # too regular


def test_mask_keeps_only_a_public_prefix() -> None:
    assert mask(GITHUB_TOKEN, 4) == "ghp_…(40 characters, hidden)"
    assert mask("hunter2", 0) == "…(7 characters, hidden)"
    assert mask("abc", 8) == "…(3 characters, hidden)"  # never the whole value


def test_ids_digests_and_nonces_are_not_read() -> None:
    packet = planted_packet()
    paths, _ = packet_texts(packet)
    names = {p[-1] for p in paths}
    assert not names & {"id", "portableRef", "sourceId", "digest", "nonce", "beliefRef"}
    assert ("packet", "intent") in paths


def test_hostile_texts_are_read_once_without_a_flag() -> None:
    # A long run of token bytes, many colons and many keywords: linear, nothing flagged.
    texts = ["a" * 1_000_000, "key: " * 100_000, "://" * 100_000, "PRIVATE KEY " * 50_000]
    assert scan_texts([("t", i) for i in range(4)], texts).hits == ()


def test_a_cancelled_monitor_stops_the_scan() -> None:
    monitor = Monitor()
    monitor.cancel()
    with pytest.raises(Cancelled):
        scan_packet(planted_packet(), monitor)


def _packets() -> list[Path]:
    roots = [REPO / "goldens", REPO / "tests" / "data"]
    return sorted(p for root in roots for p in root.rglob("*.json"))


def test_no_flag_on_the_goldens_or_the_test_data() -> None:
    scanned = 0
    for path in _packets():
        try:
            value = read_packet(path.read_bytes())
        except ReadError:
            continue
        if not isinstance(value, dict):
            continue
        scan = scan_packet(value)
        assert scan.hits == (), (path, [(h.pointer, h.kind) for h in scan.hits])
        scanned += scan.texts
    assert scanned > 100  # the goldens' texts were there to be read


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Authorization: Bearer abcDEF123456ghiJKL", "abcDEF123456ghiJKL"),
        ("db_password=hunter22x", "hunter22x"),
        ("AUTH_TOKEN: sk9Xk2mP0q", "sk9Xk2mP0q"),
        ("client_secret => 'Zq8!mmw2'", "Zq8!mmw2"),
    ],
)
def test_credential_assignments_in_their_usual_spellings(text: str, value: str) -> None:
    (hit,) = scan_texts([("t",)], [text]).hits
    assert hit.kind == "keyword"
    assert text[hit.start : hit.end] == value


TOKENISH = st.text(alphabet="AKIghp_xob-:=/@'\" aZ09eyJ.\n-----BEGIN PRIVATE KEY", max_size=80)


@given(st.lists(st.one_of(st.text(max_size=60), TOKENISH), max_size=8))
def test_any_texts_are_scanned_into_spans_inside_them(texts: list[str]) -> None:
    scan = scan_texts([("t", i) for i in range(len(texts))], texts)
    assert scan.texts == len(texts)
    for hit in scan.hits:
        index = int(hit.pointer.rsplit("/", 1)[1])
        assert 0 <= hit.start < hit.end <= len(texts[index])
        assert hit.masked.endswith(f"…({hit.end - hit.start:,} characters, hidden)")
    # At most one hit per span of one text.
    spans: dict[str, list[tuple[int, int]]] = {}
    for hit in scan.hits:
        for start, end in spans.get(hit.pointer, []):
            assert hit.end <= start or hit.start >= end
        spans.setdefault(hit.pointer, []).append((hit.start, hit.end))


def test_entropy_checks_agree_with_their_definitions() -> None:
    # looks_random's C-level passes (class switches by XOR, counts by bytes.count) give what
    # the per-byte definitions give, on pieces of every mix of classes and lengths.
    import itertools
    import math
    import random
    from collections import Counter

    from zcf_inspector.core.secrets import detectors

    def classes_of(piece: bytes) -> list[int]:
        return [
            0 if 65 <= b <= 90 else 1 if 97 <= b <= 122 else 2 if 48 <= b <= 57 else 3
            for b in piece
        ]

    rng = random.Random(19)
    for _ in range(3000):
        piece = bytes(rng.choice(b"aZ09-_.=xQ") for _ in range(rng.randint(0, 80)))
        switches = sum(1 for a, b in itertools.pairwise(classes_of(piece)) if a != b)
        assert detectors._switches(piece.translate(detectors._CLASSES)) == switches
        counts = Counter(piece).values()
        bits = -sum((n / len(piece)) * math.log2(n / len(piece)) for n in counts) if piece else 0.0
        assert detectors.shannon_entropy(piece) == bits
    assert not looks_random(b"a" * 100_000)  # one letter: turned down by its classes


def test_the_summary_counts_in_words_that_agree() -> None:
    one = scan_packet({"content": {"beliefs": [{"content": f"key {RANDOM_KEY}"}]}})
    assert one.summary().startswith("1 suspected credential in 1 of 1 text ")
    two = scan_packet(
        {"content": {"beliefs": [{"content": f"key {RANDOM_KEY}"}, {"content": RANDOM_KEY}]}}
    )
    assert two.summary().startswith("2 suspected credentials in 2 of 2 texts ")
