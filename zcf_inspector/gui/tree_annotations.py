"""What the tree's status column says about each node, derived from core results.

Nothing here checks anything: it indexes findings by pointer, the manifest report by
section pointer and what admission did by belief (the core's `Admission`: which beliefs
it cut, which it dropped), so the tree model can answer per node in O(1).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.findings import FINDINGS_LIMIT, Finding, OmittedFindings, Severity
from zcf_inspector.core.packet.ingest import Admission, BeliefCut
from zcf_inspector.core.packet.manifest import ManifestReport
from zcf_inspector.core.secrets.masking import masked_shown


class Mark(IntEnum):
    """A node's status, worst last (the icon and sort order follow it)."""

    NONE = 0
    PASS = 1
    UNPROTECTED = 2
    INFO = 3
    WARNING = 4
    FAIL = 5


_SEVERITY_MARK = {
    Severity.INFO: Mark.INFO,
    Severity.WARNING: Mark.WARNING,
    Severity.ERROR: Mark.FAIL,
}


@dataclass(frozen=True)
class NodeStatus:
    mark: Mark
    text: str
    reasons: tuple[str, ...] = ()


@dataclass
class TreeAnnotations:
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    sections: dict[str, tuple[str, bool]] = field(default_factory=dict)  # pointer -> (name, match)
    unprotected: frozenset[str] = frozenset()  # top-level keys the manifest root does not cover
    below: dict[str, int] = field(default_factory=dict)  # pointer -> findings strictly inside
    # Findings past the document's budget, shown where the first of each code is: at the
    # node holding it (the first often names a member that is missing, so has no node of
    # its own) and at the top-level member holding that.
    cut: dict[str, list[OmittedFindings]] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)  # section pointer -> computed digest
    # What admission did (with a destination in force): the beliefs it cut, by the
    # pointer of the belief and of its content, and those it dropped (the tail).
    cuts: dict[str, BeliefCut] = field(default_factory=dict)
    dropped: range = range(0)
    max_beliefs: int = 0

    @classmethod
    def build(
        cls,
        findings: Iterable[Finding],
        manifest: ManifestReport | None = None,
        *,
        omitted: Iterable[OmittedFindings] = (),
        admission: Admission | None = None,
    ) -> TreeAnnotations:
        result = cls()
        if admission is not None:
            for cut in admission.cuts:
                belief = jpointer.join("content", "beliefs", str(cut.index))
                result.cuts[belief] = cut
                result.cuts[belief + "/content"] = cut
            result.dropped = admission.dropped
            result.max_beliefs = admission.max_beliefs
        for finding in findings:
            result.findings.setdefault(finding.pointer, []).append(finding)
            for ancestor in _ancestors(finding.pointer):
                result.below[ancestor] = result.below.get(ancestor, 0) + 1
        for item in omitted:
            ancestors = _ancestors(item.first_pointer)
            holders = {ancestors[0], ancestors[-2]} if len(ancestors) > 1 else {""}
            for holder in holders:
                result.cut.setdefault(holder, []).append(item)
        if manifest is not None:
            result.sections = {
                s.pointer: (s.name, s.match) for s in manifest.sections if s.pointer is not None
            }
            result.unprotected = frozenset(manifest.uncovered)
            result.digests = {
                s.pointer: s.computed
                for s in manifest.sections
                if s.pointer is not None and s.computed is not None
            }
        return result

    def status(self, pointer: str, top_level_key: str | None) -> NodeStatus:
        mark = Mark.NONE
        parts: list[str] = []
        reasons: list[str] = []
        own = self.findings.get(pointer, ())
        for finding in own:
            mark = max(mark, _SEVERITY_MARK[finding.severity])
            reasons.append(f"{finding.severity} {finding.code}: {finding.message}")
        if own:
            parts.append(", ".join(dict.fromkeys(str(f.code) for f in own)))
        section = self.sections.get(pointer)
        if section is not None:
            name, match = section
            mark = max(mark, Mark.PASS if match else Mark.FAIL)
            parts.append(f"digest {'matches' if match else 'MISMATCH'} ({name})")
        if top_level_key is not None and top_level_key in self.unprotected:
            if pointer == jpointer.join(top_level_key):
                mark = max(mark, Mark.UNPROTECTED)
                parts.append("not integrity-protected")
            reasons.append("not covered by the manifest root (profile §4): not integrity-protected")
        inside = self.below.get(pointer, 0)
        if inside and not own:
            parts.append(f"{inside} finding{'s' if inside != 1 else ''} inside")
        for item in self.cut.get(pointer, ()):
            mark = max(mark, _SEVERITY_MARK[item.severity])
            where = masked_shown(item.first_pointer, 120)
            parts.append(f"{item.count:,} more {item.code} not listed, from {where}")
            reasons.append(
                f"{item.severity} {item.code}: {item.count:,} more past the first "
                f"{FINDINGS_LIMIT:,} findings were counted, not listed; the first at {where}"
            )
        self._admission_status(pointer, parts, reasons)
        if pointer in self.cuts or self._dropped_index(pointer) is not None:
            mark = max(mark, Mark.INFO)
        return NodeStatus(mark, "; ".join(parts), tuple(reasons))

    def _admission_status(self, pointer: str, parts: list[str], reasons: list[str]) -> None:
        cut = self.cuts.get(pointer)
        if cut is not None:
            parts.append(cut.text)
            reasons.append(
                f"admission: {cut.text} (maxBeliefBytes {cut.limit:,}); the rest of the "
                "content is not admitted, not reviewed and not in the receipt"
            )
        if self._dropped_index(pointer) is not None:
            parts.append(f"dropped by maxBeliefs {self.max_beliefs:,}")
            reasons.append(
                f"admission: past maxBeliefs {self.max_beliefs:,}, this belief was not "
                "admitted: it is not reviewed and not in the receipt"
            )

    def _dropped_index(self, pointer: str) -> int | None:
        """The index of the belief ``pointer`` names when admission dropped it."""
        if not self.dropped or not pointer.startswith(_BELIEFS):
            return None
        rest = pointer[len(_BELIEFS) :]
        if not rest.isdigit() or (len(rest) > 1 and rest[0] == "0"):
            return None
        index = int(rest)
        return index if index in self.dropped else None


_BELIEFS = "/content/beliefs/"


def _ancestors(pointer: str) -> list[str]:
    """Strict ancestors of ``pointer``, root ("") included."""
    out: list[str] = []
    while pointer:
        pointer = pointer[: pointer.rfind("/")]
        out.append(pointer)
    return out
