"""The words every front end says about a document: four trust levels, one chip per check.

A `Verdict` is what the window's header, the CLI's verdict line and ``--json``, and the
API all show, made once by a presenter (`zcf_inspector.present`) so that they cannot
drift. Trust has four levels, never three:

    verified   green    valid, and authenticated under a key this destination trusts
                        (for an ASIF session: READY, with every claim checked)
    unsigned   neutral  valid, but claims no identity: anyone could have written it
    unchecked  amber    something claimed could not be checked (the headline says what)
    refused    red      a check failed (or, for an ASIF plan, the report says BLOCKED)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core.jsontypes import JsonValue

SEPARATOR = " · "  # between the parts of a headline
CHECK_SEPARATOR = " | "  # between the chips of the CLI's checks line


class Trust(StrEnum):
    """How far a document may be relied on, for each kind (the exit code follows it:
    `cli.exitcodes.for_trust`).

    - packet: *verified* valid and its signature or MAC verified under a key the
      destination trusts; *unsigned* valid and claiming no identity; *unchecked* intact
      but a claim (a recipient MAC, a recipient binding) needs the destination to check;
      *refused* a stage failed.
    - receipt: *verified* digest and signature checked under the given key; *unsigned*
      digest checked, no signature claimed; *unchecked* digest holds but the signature was
      not checked (no key); *refused* shape, digest or signature failed.
    - ASIF session, bare profile, report: *verified* READY with every claim checked;
      *unsigned* a valid session or profile with no report to assess it; *unchecked*
      ADAPTATION REQUIRED, a report without its session or a bare profile; *refused* the
      document is refused, or the report is BLOCKED, EXPIRED or stale.
    - capability snapshot: *unchecked* always: it is checked only through the report
      that binds it (with its session, or as the current snapshot).
    - unknown document: *refused*: not a document this inspector knows.
    - ASIF package: *verified* every member matches its inventory and the detached
      signature verifies under a trusted key; *unsigned* intact with no signature;
      *unchecked* intact but its signature not checked (no trusted key); *refused* a
      container, inventory or signature rule failed.
    - comparison: the weaker of the two sides.
    """

    VERIFIED = "verified"
    UNSIGNED = "unsigned"
    UNCHECKED = "unchecked"
    REFUSED = "refused"


_STRONGEST_FIRST = (Trust.VERIFIED, Trust.UNSIGNED, Trust.UNCHECKED, Trust.REFUSED)


def weakest(*levels: Trust) -> Trust:
    """Of several parts' trust levels, the one the whole may claim."""
    return max(levels, key=_STRONGEST_FIRST.index)


class CheckStatus(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_CHECKABLE = "not checkable"
    NOT_RUN = "not run"
    CHANGED = "changed"  # passed, but something was taken away or altered (admission)


@dataclass(frozen=True, slots=True)
class Chip:
    """One check: what was checked, its status, a few words for the chip, the full reason."""

    check: str  # "bytes", "section capsule", "authentication", "report r1", …
    state: CheckStatus
    summary: str
    detail: str
    pointer: str | None = None  # what the chip refers to in the document, if anything

    @property
    def text(self) -> str:
        """``check: status · summary`` (unescaped: each front end applies its text rule)."""
        if self.summary in ("passed", str(self.state)):
            return f"{self.check}: {self.state}"
        return f"{self.check}: {self.state}{SEPARATOR}{self.summary}"

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "check": self.check,
            "status": str(self.state),
            "summary": self.summary,
            "detail": self.detail,
            "pointer": self.pointer,
        }


SECTION_PREFIX = "section "


def _matching_section(row: Chip) -> bool:
    return row.check.startswith(SECTION_PREFIX) and row.state is CheckStatus.PASS


def fold_sections(rows: Iterable[Chip]) -> tuple[Chip, ...]:
    """The chips a person reads: covered sections whose digests match fold into one chip
    (``6 sections: pass``) where the first of them stood; any other stays single."""
    rows = tuple(rows)
    matching = [r for r in rows if _matching_section(r)]
    folded: list[Chip] = []
    placed = False
    for row in rows:
        if not _matching_section(row):
            folded.append(row)
        elif not placed:
            label = f"{len(matching)} section{'s' if len(matching) != 1 else ''}"
            detail = "\n".join(f"{r.check}: {r.detail}" for r in matching)
            folded.append(Chip(label, CheckStatus.PASS, "digests match", detail))
            placed = True
    return tuple(folded)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A document's verdict: its headline words, its trust level, and every check."""

    kind: str  # "packet", "receipt", "asif-session", … (`recognise.DocumentKind`)
    headline: str  # for a narrow display: a key fingerprint shortened
    trust: Trust
    rows: tuple[Chip, ...]  # every check, in order (the details table)
    full_headline: str = ""  # nothing shortened; empty when the headline is already full
    not_checked: tuple[str, ...] = ()  # each claim that could not be checked, with why

    @property
    def words(self) -> str:
        """The headline in full: what the CLI prints and ``--json`` carries."""
        return self.full_headline or self.headline

    @property
    def tooltip(self) -> str:
        return self.words

    @property
    def chips(self) -> tuple[Chip, ...]:
        return fold_sections(self.rows)

    @property
    def ok(self) -> bool:
        return self.trust is not Trust.REFUSED

    @property
    def level(self) -> Trust:
        """The window's name for the trust level (its colour)."""
        return self.trust

    def with_rows(self, *extra: Chip) -> Verdict:
        """The same verdict with more checks after its own (admission, receipt match)."""
        return Verdict(
            self.kind,
            self.headline,
            self.trust,
            (*self.rows, *extra),
            self.full_headline,
            self.not_checked,
        )

    def checks_line(self) -> str:
        """The CLI's second line: the trust level, then each chip as the window shows it."""
        return CHECK_SEPARATOR.join([str(self.trust), *(c.text for c in self.chips)])

    def to_json(self) -> dict[str, JsonValue]:
        """What ``--json`` carries beside each document's own result (and the API gives)."""
        return {
            "kind": self.kind,
            "verdict": self.words,
            "trust": str(self.trust),
            "notChecked": list(self.not_checked),
            "checks": [c.to_json() for c in self.chips],
        }
