"""What admission changed, in words, and the dropped beliefs, from the core ingest result."""

from __future__ import annotations

import json
from typing import Any

from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.admission import DroppedBeliefs, describe_admission
from zcf_inspector.core.packet.ingest import admit_beliefs, ingest_bytes
from zcf_inspector.core.review.target import ReviewTarget


def test_the_reviewers_case_in_the_issues_words() -> None:
    beliefs: list[JsonValue] = [
        {"portableRef": f"b-{i}", "sourceId": "s", "content": "x"} for i in range(200_000)
    ]
    admission = admit_beliefs(beliefs, max_beliefs=40, max_bytes=100)
    notice = describe_admission(admission)
    assert notice.lines == ("40 of 200,000 beliefs admitted — 199,960 dropped by maxBeliefs 40",)
    assert notice.summary == notice.lines[0]
    assert notice.changed
    assert admission.truncations == 199_960  # the receipt's truncatedBeliefCount
    assert admission.dropped == range(40, 200_000)


def test_truncation_golden_drops_and_cuts() -> None:
    result = ingest_bytes(golden_bytes("truncation"), destination())
    assert result.admission is not None
    assert result.receipt is not None
    notice = describe_admission(result.admission, result.degraded)
    assert notice.lines == (
        "8 of 10 beliefs admitted — 2 dropped by maxBeliefs 8",
        "2 admitted beliefs cut to maxBeliefBytes 160 (the rest of the content is not admitted)",
    )
    assert notice.summary == (
        "8 of 10 beliefs admitted — 2 dropped by maxBeliefs 8 · 2 cut to 160 bytes"
    )
    # every change the words name is the receipt's count
    assert result.receipt["truncatedBeliefCount"] == 2 + len(result.admission.cut)
    packet = result.inspection.value
    assert packet is not None
    originals: Any = packet["content"]
    for index in result.admission.cut:
        admitted = result.admitted_beliefs[index]["content"]
        assert isinstance(admitted, str)
        original = originals["beliefs"][index]["content"]
        assert len(admitted.encode()) <= 160 < len(original.encode())
    # how much of each was kept is a fact of admission, said once, in one wording
    assert [(c.index, c.kept, c.original, c.limit) for c in result.admission.cuts] == [
        (0, 160, 255, 160),
        (1, 159, 179, 160),  # a whole code point is not split: one byte under the limit
    ]
    assert result.admission.cuts[1].text == "cut to 159 of 179 bytes by maxBeliefBytes"
    for cut in result.admission.cuts:
        kept = result.admitted_beliefs[cut.index]["content"]
        assert isinstance(kept, str)
        assert len(kept.encode()) == cut.kept
        assert len(originals["beliefs"][cut.index]["content"].encode()) == cut.original
    target = ReviewTarget.from_ingest(result)
    assert [(b.portable_ref, b.cut) for b in target.cut_beliefs] == [
        ("b-long", result.admission.cuts[0]),
        ("b-cut", result.admission.cuts[1]),
    ]
    assert all(b.cut is None for b in target.beliefs[2:])
    dropped = DroppedBeliefs(packet, result.admission)
    assert len(dropped) == 2
    assert [(d.index, d.portable_ref) for d in dropped] == [(8, "b-6"), (9, "b-7")]
    assert dropped[-1].content == "Belief number 7."
    assert [d.portable_ref for d in dropped[0:2]] == ["b-6", "b-7"]


def test_demotion_and_degradation_are_said() -> None:
    demotion = ingest_bytes(golden_bytes("demotion"), destination())
    assert demotion.admission is not None
    notice = describe_admission(demotion.admission, demotion.degraded)
    assert notice.lines == (
        "all 5 beliefs admitted",
        "3 beliefs arrived already reviewed and were demoted to unreviewed",
    )
    assert notice.summary == "all 5 beliefs admitted · 3 demoted"
    assert demotion.receipt is not None
    assert demotion.receipt["demotionCount"] == len(demotion.admission.demoted) == 3
    tools = ingest_bytes(golden_bytes("tools"), destination())
    assert tools.admission is not None
    assert tools.receipt is not None
    assert tools.receipt["degradationCount"] == len(tools.degraded) == 3
    line = describe_admission(tools.admission, tools.degraded).lines[-1]
    assert line == (
        "3 sections or tools not native here: tool zephr_status unsupported, "
        "tool zephr_admin narrated, tool zephr_rules narrated"
    )


def test_nothing_changed_says_so_briefly() -> None:
    result = ingest_bytes(golden_bytes("full-handoff"), destination())
    assert result.admission is not None
    notice = describe_admission(result.admission, result.degraded)
    assert (notice.summary, notice.lines, notice.changed) == (
        "all 3 beliefs admitted",
        ("all 3 beliefs admitted",),
        False,
    )
    minimal = ingest_bytes(golden_bytes("minimal"), destination())
    assert minimal.admission is not None
    assert describe_admission(minimal.admission).summary == "no beliefs to admit"


def test_many_degraded_names_are_counted_not_listed() -> None:
    admission = admit_beliefs([], 10, 10)
    degraded = [("tools", f"t{i}", "unsupported") for i in range(7)]
    line = describe_admission(admission, degraded).lines[-1]
    assert line.endswith("tool t3 unsupported, and 3 more")


def test_refused_packet_has_no_admission() -> None:
    packet = json.loads(golden_bytes("minimal"))
    packet["packet"]["id"] = "changed"  # breaks the manifest
    result = ingest_bytes(json.dumps(packet).encode(), destination())
    assert result.receipt is None
    assert result.admission is None
