"""The secret scan's engine (RE2) against its standard-library scan (issue 29): the same
findings on generated texts of planted credentials, near misses and every script; every
detector's plant found by both (and by detect-secrets, the oracle, where it has a plugin);
prose that names credentials not flagged; runs of near matches scanned whole."""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import pytest
from detect_secrets.core.scan import scan_line
from detect_secrets.settings import default_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from zcf_inspector.core.secrets import engine
from zcf_inspector.core.secrets.detectors import TOKEN_DETECTORS
from zcf_inspector.core.secrets.scan import SecretScan, packet_texts, scan_packet, scan_texts

_MIXED = "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF" * 8


def body(n: int) -> str:
    return _MIXED[:n]


class Plant(NamedTuple):
    value: str
    kind: str
    plugin: str | None  # the detect-secrets plugin that flags it, where one does
    around: str = "{}"  # the text around the value


JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
    "-----END OPENSSH PRIVATE KEY-----"
)
PLANTS = [
    Plant("AKIAIOSFODNN7EXAMPLE", "aws-access-key-id", "AWS Access Key"),
    Plant("ghp_" + body(36), "github-token", "GitHub Token"),
    Plant("github_pat_" + body(82), "github-token", None),  # newer than detect-secrets 1.5
    Plant("glpat-" + body(20), "gitlab-token", "GitLab Token"),
    Plant("xoxb-123456789012-1234567890123-" + body(24), "slack-token", "Slack Token"),
    Plant("sk_live_" + body(24), "stripe-key", "Stripe Access Key"),
    Plant("sk-" + body(20) + "T3BlbkFJ" + body(20), "openai-key", "OpenAI Token"),
    Plant("sk-ant-api03-" + body(95), "anthropic-key", None),
    Plant("AIza" + body(35), "google-api-key", None),
    Plant("pypi-AgEIcHlwaS5vcmc" + body(70), "pypi-token", "PyPI Token"),
    Plant("npm_" + body(36), "npm-token", "NPM tokens", "//registry.npmjs.org/:_authToken={}"),
    Plant("SG." + body(22) + "." + body(43), "sendgrid-key", "SendGrid API Key"),
    Plant(JWT, "jwt", "JSON Web Token", "Authorization: Bearer {}"),
    Plant(PEM, "private-key", "Private Key", "key:\n{}\n"),
    Plant(
        "Hunter2Secret9", "url-password", "Basic Auth Credentials", "https://ann:{}@db.example/x"
    ),
    Plant("f3a9c1e0b7d24a6e", "keyword", "Secret Keyword", 'db_password = "{}" here'),
    Plant("q7Rk2Lm9Xv4Tn8Bw3Zc6Yp1Jh5Gd0Fs", "high-entropy", "Base64 High Entropy String"),
]
SCRIPTS = ["", "clé «", "Straße ", "日本語の", "пароль ", "كلمة المرور ", "🔐 ", "e\u0301 "]

# What texts are made of: plants, their near misses, the shapes of attack runs, every script.
NEAR = [
    "api_key: ",
    "password=",
    "Authorization: Bearer ",
    "ghp_",
    "eyJhbGciOiJIUzI1NiJ9.",
    "eyJ",
    "-----BEGIN PRIVATE KEY-----\n",
    "-----END PRIVATE KEY-----",
    "PuTTY-User-Key-File-2",
    "://",
    "ann:pw@",
    "token: ",
    'secret="',
    "key=",
    "AKIA",
    "sk-",
    "xoxb-1-",
    "SG.",
    "npm_",
    "_",
    "-",
    ".",
    "=",
    ":",
    " ",
    "\n",
    "\x00",
]
FRAGMENTS = st.one_of(
    st.sampled_from([p.value for p in PLANTS]),
    st.sampled_from([p.value[: len(p.value) // 2] for p in PLANTS]),  # cut short
    st.sampled_from(NEAR),
    st.sampled_from(SCRIPTS),
    st.text(alphabet="aB3_-.=:/ ", max_size=24),
    st.text(max_size=12),
)
TEXTS = st.lists(st.lists(FRAGMENTS, max_size=10).map("".join), max_size=6)


def both(texts: list[str]) -> tuple[SecretScan, SecretScan]:
    paths = [("t", i) for i in range(len(texts))]
    return scan_texts(paths, texts, use_engine=True), scan_texts(paths, texts, use_engine=False)


def test_the_engine_is_installed_here() -> None:
    # A dependency of the package: a development install without it would measure and
    # test the standard-library scan alone.
    assert engine.available()


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_the_engine_and_the_standard_library_find_the_same(texts: list[str]) -> None:
    ours, stdlib = both(texts)
    assert ours == stdlib


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NEAR), st.integers(1, 3000), st.sampled_from(SCRIPTS))
def test_runs_of_near_matches_agree(unit: str, times: int, script: str) -> None:
    ours, stdlib = both([script + unit * times + script])
    assert ours == stdlib


@pytest.mark.parametrize("script", SCRIPTS, ids=range(len(SCRIPTS)))
@pytest.mark.parametrize("plant", PLANTS, ids=[f"{p.kind}-{i}" for i, p in enumerate(PLANTS)])
def test_every_detector_finds_its_plant_in_every_script(plant: Plant, script: str) -> None:
    text = f"{script}{plant.around.format(plant.value)} {script}"
    for scan in both([text]):
        assert [h.kind for h in scan.hits] == [plant.kind]
        (hit,) = scan.hits
        assert text[hit.start : hit.end] == plant.value


@pytest.mark.parametrize("plant", [p for p in PLANTS if p.plugin], ids=lambda p: p.kind)
def test_detect_secrets_flags_each_plant(plant: Plant) -> None:
    with default_settings():
        lines = plant.around.format(plant.value).splitlines()
        found = {s.type for line in lines for s in scan_line(line)}
    assert plant.plugin in found


def test_every_token_detector_has_a_plant() -> None:
    assert {t.kind for t in TOKEN_DETECTORS} <= {p.kind for p in PLANTS}


@pytest.mark.parametrize(
    "text",
    [
        "rotate the api_key and password before the token expires",
        "the api key lives in the vault 🔐 and the CI token in its settings",
        "смените api_key и пароль до истечения токена",
        "لا تضع مفتاح api_key في الملاحظات 🙂",
        "credentials: see the team vault",
        "password: ask Maria",
        "api_key: api_key: api_key: api_key: api_key: ",
        "Authorization: Bearer Authorization: Bearer Authorization: Bearer ",
        "password=password=password=password=password=",
        "the token: expired, the secret: rotated, the key: revoked",
    ],
)
def test_prose_that_names_credentials_is_not_flagged(text: str) -> None:
    for scan in both([text]):
        assert scan.hits == ()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("api_key: 9f8e7d6c5b4a3210", "9f8e7d6c5b4a3210"),
        ('password = "c0rrect-h0rse"', "c0rrect-h0rse"),
        ("пароль: token=Zx9!mmw2kk", "Zx9!mmw2kk"),
        ("SECRET_KEY='s3cr3t-v4lue'", "s3cr3t-v4lue"),
    ],
)
def test_a_value_assigned_to_a_credential_name_is_flagged(text: str, value: str) -> None:
    for scan in both([text]):
        (hit,) = scan.hits
        assert hit.kind == "keyword"
        assert text[hit.start : hit.end] == value


@pytest.mark.parametrize(
    ("unit", "kind"),
    [
        ("-----BEGIN PRIVATE KEY-----\n", "private-key"),
        ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.", "jwt"),
        ("ghp_", "github-token"),
    ],
)
def test_a_run_of_real_shapes_is_flagged_once_per_place(unit: str, kind: str) -> None:
    # Each header of a run of headers is a key (its body runs to the next header); a run
    # of JWT heads holds tokens of three heads each: the spans never overlap.
    text = unit * 2000
    for scan in both([text]):
        assert scan.hits
        assert {h.kind for h in scan.hits} == {kind}
        spans = [(h.start, h.end) for h in scan.hits]
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


def test_offsets_are_characters_after_many_hits_in_one_text() -> None:
    text = "é ghp_" + body(36) + " ü " * 3 + ("日本 AKIAIOSFODNN7EXAMPLE " * 500)
    for scan in both([text]):
        assert len(scan.hits) == 501
        assert {text[h.start : h.end] for h in scan.hits} == {
            "ghp_" + body(36),
            "AKIAIOSFODNN7EXAMPLE",
        }


def test_the_paths_are_made_lazily_and_agree_with_the_texts() -> None:
    beliefs = [{"content": f"belief {i}"} for i in range(10_000)]
    beliefs[7_777] = {"content": "x", "reviewState": "confirmed"}
    packet = {
        "packet": {"intent": "hand over"},
        "content": {
            "beliefs": beliefs,
            "evidenceAnchors": [{"excerpt": "e"}, {"locator": "l"}, 3, {"excerpt": 4}],
            "capsule": {"risks": ["r"]},
        },
    }
    paths, texts = packet_texts(packet)  # type: ignore[arg-type]
    assert len(paths) == len(texts) == 10_000 + 4
    assert (paths[0], texts[0]) == (("packet", "intent"), "hand over")
    assert (paths[2], texts[2]) == (("content", "beliefs", 0, "content"), "belief 0")
    assert paths[-2:] == [
        ("content", "evidenceAnchors", 1, "locator"),
        ("content", "evidenceAnchors", 0, "excerpt"),
    ]
    beliefs[9_999]["content"] = "key AKIAIOSFODNN7EXAMPLE"
    (hit,) = scan_packet(packet).hits  # type: ignore[arg-type]
    assert hit.pointer == "/content/beliefs/9999/content"


def test_an_inspected_packet_is_scanned_from_the_structure_stages_columns() -> None:
    # One walk: inspect_value lends the columns its structure stage took (the beliefs'
    # contents) to the first scan of that packet; the findings are those of a fresh walk.
    from goldens import generate as g
    from zcf_inspector.core.packet.inspection import inspect_value
    from zcf_inspector.core.secrets import texts as t

    packet = g.handoff("lent")
    packet["content"]["beliefs"] = [g.belief(f"b-{i}", f"belief {i}") for i in range(5000)]
    packet["content"]["beliefs"][4321]["content"] = "deploy key AKIAIOSFODNN7EXAMPLE"
    value = g.unsigned(packet)
    inspection = inspect_value(value)
    lent = inspection.lent
    assert lent is not None
    assert lent.blocks(("content", "beliefs"), value["content"]["beliefs"], "content")
    assert t._LENT.get(id(value)) is lent
    first = scan_packet(value)
    assert id(value) not in t._LENT  # taken once: a later scan walks again
    assert first == scan_packet(value)
    assert [h.pointer for h in first.hits] == ["/content/beliefs/4321/content"]
    # An array that is not the one the stage checked is not read from its columns.
    other = [*value["content"]["beliefs"][:-1], {"content": "x"}]
    assert lent.blocks(("content", "beliefs"), other, "content") is None


SPANS = st.lists(
    st.tuples(
        st.integers(0, 60),
        st.integers(1, 12),
        st.sampled_from(["private-key", "token", "url-password", "keyword", "entropy"]),
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(SPANS)
def test_overlaps_are_settled_as_the_one_by_one_rule_settles_them(spans: list[Any]) -> None:
    # The sweep keeps what taking the spans by (priority, start), each kept unless it
    # overlaps one kept before it, keeps.
    from zcf_inspector.core.secrets.scan import _PRIORITY, _resolve
    from zcf_inspector.core.secrets.verify import Raw

    raws = [Raw(s, s + n, f, f, f, 0, "") for s, n, f in spans]
    expected: list[Raw] = []
    for raw in sorted(raws, key=lambda r: (_PRIORITY[r.family], r.start)):
        if all(raw.end <= k.start or raw.start >= k.end for k in expected):
            expected.append(raw)
    got = _resolve(list(raws))
    assert [(r.start, r.end, r.family) for r in got] == sorted(
        (r.start, r.end, r.family) for r in expected
    )


def test_without_the_wheel_the_standard_library_scans_alike() -> None:
    # A fresh interpreter where `import re2` fails, as on a platform without the wheel.
    import json
    import subprocess
    import sys

    texts = [f"{p.around.format(p.value)} · пароль: ask" for p in PLANTS]
    script = (
        "import json, sys\n"
        "sys.modules['re2'] = None  # no wheel: the import fails\n"
        "from zcf_inspector.core.secrets import engine\n"
        "from zcf_inspector.core.secrets.scan import scan_texts\n"
        "texts = json.loads(sys.stdin.read())\n"
        "scan = scan_texts([('t', i) for i in range(len(texts))], texts)\n"
        "print(json.dumps([engine.available(), scan.to_json()]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    available, found = json.loads(run.stdout)
    assert available is False
    ours = scan_texts([("t", i) for i in range(len(texts))], texts, use_engine=True)
    assert found == json.loads(json.dumps(ours.to_json()))
    assert len(ours.hits) == len(PLANTS)
