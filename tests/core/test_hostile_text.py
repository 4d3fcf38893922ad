"""The hostile-text scan (``hostile_text``) and the look-alike identifiers
(``confusable_identifier``): at the right pointers for a bidi override, a zero-width
space in a command and a confusable pair; never for typed backslashes or for text
written in one script, whatever the language."""

from __future__ import annotations

import copy
import string
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goldens import generate as g
from zcf_inspector.core.codes import AdvisoryCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import Closure, PlanNode, PlanResult
from zcf_inspector.core.hostile.confusables import (
    Identifiers,
    identifier_pairs,
    skeleton,
    subject_pairs,
)
from zcf_inspector.core.hostile.scan import HITS_LIMIT, scan_packet, scan_text, text_hit
from zcf_inspector.core.hostile.scripts import allowed, script_of
from zcf_inspector.core.jsontypes import JsonValue

ROOT = Path(__file__).resolve().parents[2]


def hostile_packet() -> dict[str, Any]:
    packet = copy.deepcopy(g.full_handoff())
    content = packet["content"]
    content["beliefs"][0]["content"] = "Ship invoice \u202egnp.exe\u202c to the client"
    content["capsule"]["nextActions"][0] = "run: rm -rf build\u200b /"
    source = content["evidenceSources"][0]
    source["locator"] = "https://github.com/acme/tools"
    content["evidenceSources"].append(
        {**source, "id": "src-lookalike", "locator": "https://github.com/\u0430cme/tools"}
    )
    return packet


def pointers(packet: dict[str, Any], code: AdvisoryCode) -> list[str]:
    findings, _ = scan_packet(packet).findings()
    return [f.pointer for f in findings if f.code is code]


def test_each_hostile_text_is_a_warning_at_its_pointer() -> None:
    packet = hostile_packet()
    assert pointers(packet, AdvisoryCode.HOSTILE_TEXT) == [
        "/content/capsule/nextActions/0",
        "/content/beliefs/0/content",
        "/content/evidenceSources/2/locator",  # the word with U+0430 mixes Cyrillic and Latin
    ]
    findings, _ = scan_packet(packet).findings()
    messages = {f.pointer: f.message for f in findings if f.code is AdvisoryCode.HOSTILE_TEXT}
    assert (
        "2 bidi controls (the first: U+202E RIGHT-TO-LEFT OVERRIDE at character 13)"
        in (messages["/content/beliefs/0/content"])
    )
    assert "U+200B ZERO WIDTH SPACE at character 17" in messages["/content/capsule/nextActions/0"]
    assert "mixes Cyrillic and Latin" in messages["/content/evidenceSources/2/locator"]


def test_a_confusable_pair_names_both_pointers() -> None:
    findings, _ = scan_packet(hostile_packet()).findings()
    (pair,) = [f for f in findings if f.code is AdvisoryCode.CONFUSABLE_IDENTIFIER]
    assert pair.pointer == "/content/evidenceSources/2/locator"
    assert "/content/evidenceSources/0/locator" in pair.message
    assert "U+0430 CYRILLIC SMALL LETTER A at character 19" in pair.message


def test_a_clean_packet_has_no_warning() -> None:
    scan = scan_packet(g.full_handoff())
    assert scan.count == 0
    assert scan.findings() == ((), ())


@given(st.text(alphabet=string.printable))
def test_typed_ascii_backslashes_and_escapes_are_never_hostile(text: str) -> None:
    text = text.replace("\x0b", "").replace("\x0c", "")  # the two controls printable holds
    assert text_hit(text + "\\u202e\\u200b\\x1b", "/t") is None


ONE_SCRIPT = [
    "日本語のテキストとカタカナ、漢字",  # Japanese: Han, Hiragana, Katakana in one word
    "中文文本和注音ㄅㄆㄇ",  # Chinese
    "한국어 텍스트와 漢字",  # Korean
    "Русский текст без латиницы",
    "Ελληνικά κείμενα",
    "النص العربي مع أرقام ١٢٣",
    "טקסט בעברית",
    "हिन्दी पाठ क्‍ष",  # a ZWJ in a Devanagari conjunct
    "ภาษาไทย",
    "می‌خواهم",  # Persian, with its zero-width non-joiner
    "Ça coûte 12 € — déjà vu, naïve façade",
    "release v2.1.0 build42 x86_64",
    "UTF-8 résumé Übergröße",
    "❤️ emoji 👨‍👩‍👧 family",  # a variation selector and ZWJs of emoji
    "Tab\tand line\nbreaks\r\n",
    "東京Tower2024",  # Latin with Han: allowed (highly restrictive)
]


@pytest.mark.parametrize("text", ONE_SCRIPT)
def test_text_of_one_script_in_any_language_is_not_hostile(text: str) -> None:
    assert text_hit(text, "/t") is None
    assert scan_text({"a": [text], text: 1}).count == 0


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("a\u202eb", "bidi"),
        ("\u2066isolate", "bidi"),
        ("zero\u200bwidth", "invisible"),
        ("joiner\u200dascii", "invisible"),  # a joiner between Latin letters: hidden
        ("tag\U000e0041", "invisible"),
        ("line\u2028separator", "invisible"),
        ("esc\x1b[31m", "controls"),
        ("c1\x9b", "controls"),
        ("del\x7f", "controls"),
    ],
)
def test_each_kind_of_hidden_character_is_counted(text: str, kind: str) -> None:
    hit = text_hit(text, "/t")
    assert hit is not None
    assert getattr(hit, kind) == 1


def test_mixed_scripts_in_one_word_beyond_the_moderate_level() -> None:
    assert script_of("\u0430") == "CYRILLIC"
    assert not allowed(frozenset({"LATIN", "CYRILLIC"}))
    assert not allowed(frozenset({"LATIN", "GREEK"}))
    assert allowed(frozenset({"LATIN", "ARABIC"}))
    hit = text_hit("pay p\u0430ypal now", "/t")
    assert hit is not None
    assert hit.mixed_words == 1
    assert "character 4 mixes Cyrillic and Latin" in hit.mixed


def test_a_member_name_is_read_too() -> None:
    scan = scan_text({"extensions": {"k\u202e": "v"}})
    assert [(h.pointer, h.in_name) for h in scan.hits] == [("/extensions/k\u202e", True)]


def test_skeletons_and_pairs() -> None:
    assert skeleton("\u0430cme") == skeleton("acme")
    assert skeleton("paypal") == skeleton("paypaI")  # capital I, as UTS #39 says
    assert skeleton("rn") == skeleton("m")
    pairs = identifier_pairs(
        Identifiers.of([(("a", 0), "acme"), (("b", 0), "acme"), (("c", 0), "\u0430cme")])
    )
    assert [(p.pointer, p.other_pointer) for p in pairs] == [("/c/0", "/a/0")]  # same text: no


def test_the_tables_are_those_the_generator_writes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "hostile_tables.py"), "--check"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_past_the_kept_texts_each_is_still_counted() -> None:
    texts: list[JsonValue] = [f"t{i}\u202e" for i in range(HITS_LIMIT + 5)]
    texts += ["m\u0456\u200d\u0456x", "ok"]
    scan = scan_text({"texts": texts})
    assert (len(scan.hits), scan.more) == (HITS_LIMIT, 6)  # a joiner among Cyrillic: mixed
    findings, omitted = scan.findings(limit=10)
    assert len(findings) == 10
    assert sum(o.count for o in omitted) == HITS_LIMIT + 6 - 10


def test_look_alike_plan_subject_ids_name_both_declarations() -> None:
    def node(subject: str, pointer: str) -> PlanNode:
        return PlanNode(
            f"context:{subject}", "context", subject, None, True, True, False, pointer, ()
        )

    nodes = (
        node("ctx-acme", "/contexts/0"),
        node("ctx-\u0430cme", "/contexts/1"),
        node("ctx-acme", "/contexts/0"),  # named twice: one text
    )
    plan = PlanResult("p", "", "resume_native", (), nodes, (), Closure((), ()), (), ())
    (pair,) = subject_pairs([plan])
    assert (pair.pointer, pair.other_pointer) == ("/contexts/1", "/contexts/0")


@pytest.mark.parametrize(
    "session",
    sorted((ROOT / "tests" / "data" / "asif-0.5" / "examples").rglob("*.session.json"))[:6],
    ids=lambda p: p.name,
)
def test_the_public_asif_examples_have_no_look_alike_subjects(session: Path) -> None:
    result = inspect_continuation(session.read_bytes(), now=datetime(2026, 10, 6, tzinfo=UTC))
    assert result.plans  # the examples hold plans whose subjects were compared
    codes = {f.code for f in result.findings}
    assert AdvisoryCode.CONFUSABLE_IDENTIFIER not in codes
