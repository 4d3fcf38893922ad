"""The audit report as one self-contained HTML page: inline CSS, no script, nothing
remote, a Content-Security-Policy that forbids both, printable (print CSS, a page break
between sections).

Every string of the report is escaped here (`html.escape`, quotes too) on top of the text
policy the report's builder applied: no markup a packet or a note holds can reach the
page as markup. The page is written in pieces (`html_chunks`): a receipt may hold a
million decisions.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Final

from zcf_inspector.present.audit_model import AuditReport, Entry, Fact, Section, Table, Tone
from zcf_inspector.present.vocabulary import Trust

# Nothing may load or run: no script, no connection, no frame, no form, no base; styles
# only from the page's own <style> element, images only inline (none are used).
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'none'; script-src 'none'; connect-src 'none'; img-src 'none'; "
    "font-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; style-src 'unsafe-inline'"
)

STYLE: Final = """
:root { --good: #1b7a35; --bad: #b3261e; --caution: #8a5a00; --neutral: #44474e;
  --detail: #5f6368; --line: #d0d3d8; --soft: #f3f4f6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
  margin: 0 auto; max-width: 72rem; padding: 1.5rem 2rem; background: #fff; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; padding-bottom: .25rem;
  border-bottom: 2px solid var(--line); }
.headline { font-weight: 600; padding: .5rem .75rem; border-radius: 4px; border: 2px solid;
  display: inline-block; margin: .25rem 0 .75rem; }
.trust-verified { color: var(--good); border-color: var(--good); }
.trust-unsigned { color: var(--neutral); border-color: var(--neutral); }
.trust-unchecked { color: var(--caution); border-color: var(--caution); }
.trust-refused { color: var(--bad); border-color: var(--bad); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; color: var(--detail); }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .45rem; text-align: left;
  vertical-align: top; }
th { background: var(--soft); }
td, dd, .line { overflow-wrap: anywhere; white-space: pre-wrap; }
td.token { white-space: nowrap; }
.tone-good { color: var(--good); }
.tone-bad { color: var(--bad); }
.tone-caution { color: var(--caution); }
.tone-detail { color: var(--detail); }
tr.tone-bad td:nth-child(3), tr.tone-good td:nth-child(3) { font-weight: 600; }
.entry { border: 1px solid var(--line); border-radius: 4px; padding: .4rem .6rem;
  margin: .5rem 0; break-inside: avoid; }
.entry h3 { font-size: 1rem; margin: 0 0 .25rem; }
.line.indent { padding-left: 1.5rem; }
footer { margin-top: 2rem; color: var(--detail); font-size: .85rem; }
@media print {
  body { max-width: none; padding: 0 2px; font-size: 11pt; }
  section + section { break-before: page; }
  h2 { break-after: avoid; }
  tr, .entry { break-inside: avoid; }
  thead { display: table-header-group; }
}
@page { margin: 16mm 14mm; }
"""

_TRUST_CLASS: Final = {trust: f"trust-{trust.value}" for trust in Trust}


def esc(value: str) -> str:
    """A report string for HTML text or an attribute: ``& < > " '`` escaped."""
    return html.escape(value, quote=True)


def _tone(tone: Tone) -> str:
    return "" if tone is Tone.PLAIN else f' class="tone-{tone.value}"'


def html_chunks(report: AuditReport) -> Iterator[str]:
    """The page, in pieces of about one section or one table row each."""
    yield (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CONTENT_SECURITY_POLICY)}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(report.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<header>\n<h1>{esc(report.title)}</h1>\n"
        f'<p class="headline {_TRUST_CLASS[report.trust]}">{esc(report.headline)}</p>\n'
        f"<p>trust level: <strong>{esc(report.trust.value)}</strong></p>\n</header>\n"
    )
    for section in report.sections:
        yield from _section(section)
    note = (
        "This report stopped: the receipt does not belong to this packet, or there is no "
        "review to report."
        if report.stopped
        else "Made by zcf-inspector from the packet and the receipt named above. Values the "
        "secret scan suspects are masked; invisible and reordering characters are shown as "
        "escapes."
    )
    yield f"<footer><p>{esc(note)}</p></footer>\n</body>\n</html>\n"


def html_text(report: AuditReport) -> str:
    return "".join(html_chunks(report))


def _section(section: Section) -> Iterator[str]:
    yield f"<section>\n<h2>{esc(section.title)}</h2>\n"
    for paragraph in section.paragraphs:
        yield f"<p>{esc(paragraph)}</p>\n"
    if section.facts:
        yield _facts(section.facts)
    if section.table is not None:
        yield from _table(section.table)
    for entry in section.entries:
        yield _entry(entry)
    yield "</section>\n"


def _facts(facts: tuple[Fact, ...]) -> str:
    items = "".join(
        f"<dt>{esc(f.label)}</dt><dd{_tone(f.tone)}>{esc(f.value)}</dd>\n" for f in facts
    )
    return f'<dl class="facts">\n{items}</dl>\n'


def _table(table: Table) -> Iterator[str]:
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in table.headers)
    yield f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
    for index, row in enumerate(table.rows):
        tone = table.tones[index] if index < len(table.tones) else Tone.PLAIN
        cells = "".join(
            f'<td class="token">{esc(cell)}</td>' if _token(cell) else f"<td>{esc(cell)}</td>"
            for cell in row
        )
        yield f"<tr{_tone(tone)}>{cells}</tr>\n"
    yield "</tbody>\n</table>\n"


TOKEN_CHARS: Final = 24  # a cell this short without a space is kept on one line


def _token(cell: str) -> bool:
    """A short id or a timestamp: breaking it at a hyphen helps nobody read it."""
    return len(cell) <= TOKEN_CHARS and " " not in cell


def _entry(entry: Entry) -> str:
    lines = "".join(
        f'<div class="line{" indent" if line.indent else ""}'
        f'{"" if line.tone is Tone.PLAIN else " tone-" + line.tone.value}">'
        f"{esc(line.text)}</div>\n"
        for line in entry.lines
    )
    return f'<div class="entry">\n<h3{_tone(entry.tone)}>{esc(entry.title)}</h3>\n{lines}</div>\n'
