"""The audit report (issue 32), read back with the standard library's HTML parser: the
receipt digest, every decision and the reviewer are there; nothing loads or runs; a note
holding markup is text; a suspected credential's value is never in the file; a receipt
of another packet gives a report that says so and stops."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination, golden_bytes
from tests.present.review_packets import AWS_KEY, HOSTILE, SECRET_KEY, evidence_packet
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.review.audit import audit_facts
from zcf_inspector.core.review.batch import review_packet
from zcf_inspector.opener.open import packet_advisories
from zcf_inspector.present.audit_html import CONTENT_SECURITY_POLICY, html_text
from zcf_inspector.present.audit_model import AuditReport
from zcf_inspector.present.audit_report import MISMATCH_HEADLINE, SHOWN_FINDINGS, build_report

XSS = "<img src=x onerror=alert(1)>"
TOKEN = "ghp_" + "a1B2" * 9  # a GitHub token's shape
DECISIONS: Any = [
    {"portableRef": "b-reader", "state": "confirmed", "note": XSS},
    {"portableRef": "b-spec", "state": "rejected", "note": f"stale; the token was {TOKEN}"},
    {"portableRef": "b-key", "state": "rejected", "note": "holds a key"},
]


class Page(HTMLParser):
    """Every tag with its attributes, and the text, as the parser reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> Page:
    parsed = Page()
    parsed.feed(page)
    parsed.close()
    return parsed


def reviewed(
    decisions: Any = DECISIONS, workspace: Path | None = None
) -> tuple[dict[str, Any], AuditReport]:
    data = json.dumps(evidence_packet()).encode()
    made = review_packet(data, destination(), decisions, reviewer="alice").receipt
    assert made is not None
    facts = audit_facts(data, destination(), receipt_bytes(made), workspace=workspace)
    return made, build_report(facts, "packet.json", "receipt.json")


def test_the_report_holds_the_digest_every_decision_and_the_reviewer() -> None:
    made, report = reviewed()
    page = parse(html_text(report))
    text = "".join(page.text)
    assert made["receiptDigest"] in text
    assert "alice" in text
    rows = [t for t, _ in page.tags if t == "tr"]
    assert len(rows) > len(DECISIONS)
    decisions = next(s for s in report.sections if s.title == "Decisions")
    assert decisions.table is not None
    assert [(r[1], r[2], r[3]) for r in decisions.table.rows] == [
        ("b-reader", "confirmed", "alice"),
        ("b-spec", "rejected", "alice"),
        ("b-key", "rejected", "alice"),
    ]
    for row in decisions.table.rows:
        assert row[1] in text
        assert row[4] in text
    assert "VALID RECEIPT · SIGNED (signature verified)" in text
    assert report.trust.value in text


def test_nothing_loads_and_nothing_runs() -> None:
    _, report = reviewed()
    page = parse(html_text(report))
    names = {t for t, _ in page.tags}
    assert not names & {"script", "img", "iframe", "object", "embed", "link", "base", "form"}
    for tag, attrs in page.tags:
        assert not {"src", "href", "srcset", "action", "data"} & set(attrs), tag
        assert not any(a.startswith("on") for a in attrs), tag
    policy = [a for t, a in page.tags if t == "meta" and a.get("http-equiv")]
    assert policy == [{"http-equiv": "Content-Security-Policy", "content": CONTENT_SECURITY_POLICY}]
    assert "script-src 'none'" in CONTENT_SECURITY_POLICY
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY
    style = [t for t, _ in page.tags if t == "style"]
    assert style == ["style"]  # one inline style sheet, and its print rules
    assert "@media print" in html_text(report)
    assert "break-before: page" in html_text(report)


def test_a_note_holding_markup_is_shown_as_text() -> None:
    _, report = reviewed()
    page_text = html_text(report)
    page = parse(page_text)
    assert XSS in page.text  # one whole text node: the parser saw no tag in it
    assert XSS not in page_text  # escaped in the file
    assert "&lt;img src=x onerror=alert(1)&gt;" in page_text


def test_suspected_credentials_are_flagged_and_never_in_the_file() -> None:
    _, report = reviewed()
    page_text = html_text(report)
    for value in (AWS_KEY, SECRET_KEY, TOKEN):
        assert value not in page_text
    flags = next(s for s in report.sections if s.title.startswith("Suspected credentials"))
    assert flags.table is not None
    where = {row[1] for row in flags.table.rows}
    assert "/content/beliefs/2/content" in where  # the AWS key in b-key's content
    assert "/review/decisions/1/note" in where  # the token in a note


def test_hostile_text_is_escaped() -> None:
    _, report = reviewed()
    page_text = html_text(report)
    assert HOSTILE not in page_text
    assert "zero\\u200bwidth" in page_text
    assert "\\u202eevil" in page_text


def test_counts_and_the_previous_generation() -> None:
    _, report = reviewed()
    counts = next(s for s in report.sections if s.title == "Counts")
    assert counts.table is not None
    table = {row[0]: row[1] for row in counts.table.rows}
    assert (table["admitted"], table["confirmed"], table["rejected"], table["unreviewed"]) == (
        "4",
        "1",
        "2",
        "1",
    )
    previous = next(s for s in report.sections if s.title == "Previous generation")
    assert previous.paragraphs == (
        "No decision was carried over from a previous generation's receipt.",
    )


def test_a_receipt_of_another_packet_says_so_and_stops() -> None:
    other = review_packet(golden_bytes("minimal"), destination(), [], reviewer="x").receipt
    assert other is not None
    data = json.dumps(evidence_packet()).encode()
    facts = audit_facts(data, destination(), receipt_bytes(other))
    report = build_report(facts, "packet.json", "other.json")
    assert report.stopped
    assert report.headline == MISMATCH_HEADLINE
    titles = [s.title for s in report.sections]
    assert titles == ["Packet and receipt", "This receipt does not belong to this packet"]
    text = "".join(parse(html_text(report)).text)
    assert "receipt_mismatch" in text
    assert "Decisions" not in titles


def test_workspace_statuses_per_belief(tmp_path: Path) -> None:
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "a.md").write_bytes(b"the spec\n")
    _, report = reviewed(workspace=tmp_path)
    beliefs = next(s for s in report.sections if s.title.startswith("Beliefs"))
    spec = next(e for e in beliefs.entries if e.title.startswith("b-spec"))
    lines = [line.text for line in spec.lines]
    assert any(line.startswith("Claims vs workspace (") for line in lines)
    assert any(line.startswith("claims vs workspace: matches") for line in lines)


def test_a_demoted_packets_report_counts_the_demotions() -> None:
    data = golden_bytes("demotion")
    made = review_packet(data, destination(), [], reviewer="alice").receipt
    assert made is not None
    report = build_report(audit_facts(data, destination(), receipt_bytes(made)), "d", "r")
    counts = next(s for s in report.sections if s.title == "Counts")
    assert counts.table is not None
    table = {row[0]: row[1] for row in counts.table.rows}
    demoted = "demoted (arrived reviewed, admitted unreviewed)"
    assert table[demoted] == str(made["demotionCount"])
    assert table[demoted] != "0"
    checks = next(s for s in report.sections if s.title == "Checks")
    assert checks.table is not None
    assert any(row[1] == "admission" for row in checks.table.rows)
    decisions = next(s for s in report.sections if s.title == "Decisions")
    assert decisions.paragraphs == ("The receipt holds no decision: nothing was reviewed.",)


def test_a_credential_outside_the_beliefs_is_named_and_not_shown() -> None:
    packet = evidence_packet()
    packet["content"]["capsule"]["risks"] = [f"the key {AWS_KEY} is still in CI"]
    data = json.dumps(g.unsigned(packet)).encode()
    made = review_packet(data, destination(), DECISIONS, reviewer="alice").receipt
    assert made is not None
    facts = audit_facts(data, destination(), receipt_bytes(made))
    secrets, _ = packet_advisories(facts.ingest.inspection)  # the opener's one scan
    report = build_report(facts, "p", "r", secrets=secrets)
    flags = next(s for s in report.sections if s.title.startswith("Suspected credentials"))
    assert flags.table is not None
    row = next(r for r in flags.table.rows if r[1] == "/content/capsule/risks/0")
    assert row[2] == "may hold an AWS access key id; not shown in this report"
    assert AWS_KEY not in html_text(report)


def test_decisions_carried_over_name_the_earlier_receipt(tmp_path: Path) -> None:
    data = golden_bytes("full-handoff")
    earlier = review_packet(
        data, destination(), [{"portableRef": "b-reader", "state": "confirmed"}], reviewer="alice"
    ).receipt
    assert earlier is not None
    packet, receipt = tmp_path / "earlier.json", tmp_path / "earlier.receipt.json"
    packet.write_bytes(data)
    receipt.write_bytes(receipt_bytes(earlier))
    for signing, words in ((True, "signed"), (False, "unsigned (accepted by the reviewer)")):
        dest = destination() if signing else destination(signingKey=None)
        if not signing:  # an earlier receipt no key of this destination signed
            plain = review_packet(
                data, dest, [{"portableRef": "b-reader", "state": "confirmed"}], reviewer="alice"
            ).receipt
            assert plain is not None
            receipt.write_bytes(receipt_bytes(plain))
            earlier = plain
        made = review_packet(
            data, dest, [], reviewer="bob", previous=packet, previous_receipt=receipt,
            repeat_unchanged=True, repeat_note="as before", accept_unsigned_previous=True,
        ).receipt  # fmt: skip
        assert made is not None
        report = build_report(audit_facts(data, dest, receipt_bytes(made)), "p", "r")
        previous = next(s for s in report.sections if s.title == "Previous generation")
        assert previous.table is not None
        assert previous.table.rows == ((earlier["receiptDigest"], words, "1", "b-reader"),)


def test_a_mismatch_lists_a_bounded_number_of_differences() -> None:
    data = json.dumps(evidence_packet()).encode()
    other = golden_bytes("full-handoff")
    many: Any = [
        {"portableRef": "b-order", "state": "confirmed", "note": str(i)} for i in range(150)
    ]
    made = review_packet(other, destination(), many, reviewer="x").receipt
    assert made is not None
    report = build_report(audit_facts(data, destination(), receipt_bytes(made)), "p", "r")
    table = report.sections[-1].table
    assert table is not None
    assert len(table.rows) == SHOWN_FINDINGS + 1
    assert table.rows[-1][2].startswith("and ")


def test_an_unreadable_receipt_gives_a_report_that_stops() -> None:
    data = json.dumps(evidence_packet()).encode()
    report = build_report(audit_facts(data, destination(), b'{"a": 1, "a": 2}'), "p", "r")
    assert report.stopped
    stop = report.sections[-1]
    assert stop.title == "No review to report"
    assert any(p.startswith("duplicate_key: ") for p in stop.paragraphs)


def test_a_packet_refused_here_gives_a_report_that_stops() -> None:
    made = review_packet(golden_bytes("minimal"), destination(), [], reviewer="x").receipt
    assert made is not None
    tampered = (GOLDENS / "negative" / "tampered-capsule.json").read_bytes()
    report = build_report(audit_facts(tampered, destination(), receipt_bytes(made)), "p", "r")
    assert report.stopped
    assert report.trust.value == "refused"
    stop = report.sections[-1]
    assert stop.paragraphs[0].startswith("The packet was refused at this destination")
    assert any(p.startswith("section_digest_mismatch: ") for p in stop.paragraphs)
