"""What admission did to a packet, in words, and the beliefs it left out, for reading.

A destination admits at most ``maxBeliefs`` beliefs, cuts each one's content to
``maxBeliefBytes``, demotes every belief to unreviewed and narrates or refuses what it
cannot run (profile §6). Each of those is a decision taken for the reviewer, so each is
said here once — the window's header, its review pane and its export summary all show
these words — and the dropped beliefs stay readable.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.ingest import Admission

NAMES_SHOWN = 4  # degraded sections and tools named in a line before "and N more"


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


@dataclass(frozen=True, slots=True)
class AdmissionNotice:
    """``summary``: one line for a chip or a banner; ``lines``: every change, each once."""

    summary: str
    lines: tuple[str, ...]
    changed: bool  # anything dropped, cut, demoted or degraded

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def describe_admission(
    admission: Admission, degraded: Sequence[tuple[str, str, str]] = ()
) -> AdmissionNotice:
    dropped = len(admission.dropped)
    if dropped:
        first = (
            f"{admission.admitted:,} of {_plural(admission.offered, 'belief')} admitted — "
            f"{dropped:,} dropped by maxBeliefs {admission.max_beliefs:,}"
        )
    elif admission.offered == 0:
        first = "no beliefs to admit"
    elif admission.offered == 1:
        first = "the one belief admitted"
    else:
        first = f"all {admission.offered:,} beliefs admitted"
    lines = [first]
    short = [first]
    if admission.cut:
        count = len(admission.cut)
        lines.append(
            f"{_plural(count, 'admitted belief')} cut to maxBeliefBytes "
            f"{admission.max_belief_bytes:,} (the rest of the content is not admitted)"
        )
        short.append(f"{count:,} cut to {admission.max_belief_bytes:,} bytes")
    if admission.demoted:
        count = len(admission.demoted)
        verb = "was" if count == 1 else "were"
        lines.append(
            f"{_plural(count, 'belief')} arrived already reviewed and {verb} demoted to unreviewed"
        )
        short.append(f"{count:,} demoted")
    if degraded:
        named = [f"{group.removesuffix('s')} {name} {status}" for group, name, status in degraded]
        more = len(named) - NAMES_SHOWN
        shown = ", ".join(named[:NAMES_SHOWN]) + (f", and {more:,} more" if more > 0 else "")
        lines.append(
            f"{_plural(len(degraded), 'section or tool', 'sections or tools')} not native "
            f"here: {shown}"
        )
        short.append(f"{len(degraded):,} not native")
    changed = len(lines) > 1 or dropped > 0
    return AdmissionNotice(" · ".join(short), tuple(lines), changed)


@dataclass(frozen=True, slots=True)
class DroppedBelief:
    """A belief admission left out, as the packet wrote it (read-only, never admitted)."""

    index: int  # in content.beliefs
    portable_ref: str
    source_id: str
    review_state: str
    content: str


class DroppedBeliefs(Sequence[DroppedBelief]):
    """The beliefs past ``maxBeliefs``, read from the packet on demand: 199,960 of them
    are not copied to be shown a screenful at a time."""

    def __init__(self, packet: dict[str, JsonValue], admission: Admission) -> None:
        content = packet.get("content")
        beliefs = content.get("beliefs", []) if isinstance(content, dict) else []
        self._beliefs: list[JsonValue] = beliefs if isinstance(beliefs, list) else []
        self._indices = admission.dropped

    def __len__(self) -> int:
        return len(self._indices)

    @overload
    def __getitem__(self, position: int) -> DroppedBelief: ...
    @overload
    def __getitem__(self, position: slice) -> Sequence[DroppedBelief]: ...
    def __getitem__(self, position: int | slice) -> DroppedBelief | Sequence[DroppedBelief]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        index = self._indices[position]
        belief = self._beliefs[index]
        item = belief if isinstance(belief, dict) else {}
        return DroppedBelief(
            index,
            _text(item.get("portableRef")),
            _text(item.get("sourceId")),
            _text(item.get("reviewState", "unreviewed")),
            _text(item.get("content")),
        )

    def __iter__(self) -> Iterator[DroppedBelief]:
        return (self[i] for i in range(len(self)))


def _text(value: JsonValue) -> str:
    return value if isinstance(value, str) else ""
