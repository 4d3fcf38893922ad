"""The Briefing pane's lines (gui/briefing_lines): pure Python, from the real core's
briefing of real packets — one block per item text, escapes, caps and links."""

from __future__ import annotations

from goldens import generate as g
from tests.core.helpers import to_bytes
from zcf_inspector.core.briefing.build import build_briefing
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.secrets.scan import scan_packet
from zcf_inspector.gui.briefing_lines import (
    ITEM_CHARS,
    ITEMS_LISTED,
    LINE_BREAK,
    Style,
    briefing_text,
    revealed_text,
)


def lines_of(packet: dict[str, object]):
    inspection = inspect_bytes(to_bytes(g.unsigned(packet)))
    assert inspection.value is not None
    briefing = build_briefing(inspection, secrets=scan_packet(inspection.value))
    return briefing_text(briefing).lines


def test_a_text_of_several_lines_is_one_block_with_its_breaks_kept() -> None:
    packet = g.handoff("lines")
    packet["content"]["capsule"]["decisions"] = ["first line\nsecond\u2028line\ttab"]
    lines = lines_of(packet)
    item = next(line for line in lines if line.pointer == "/content/capsule/decisions/0")
    assert item.style is Style.ITEM
    # The text's own newline becomes a break inside the block; its U+2028 and tab are
    # shown as escapes (a separator the packet holds is never taken as layout).
    assert item.text == f"• first line{LINE_BREAK}second\\u2028line\\ttab"
    assert "\n" not in item.text


def test_long_texts_and_long_sections_are_cut_and_say_so() -> None:
    packet = g.handoff("caps")
    packet["content"]["capsule"]["risks"] = ["r" * (ITEM_CHARS + 10)]
    packet["content"]["capsule"]["decisions"] = [f"d{i}" for i in range(ITEMS_LISTED + 7)]
    lines = lines_of(packet)
    risk = next(line for line in lines if line.pointer == "/content/capsule/risks/0")
    assert risk.text.endswith(f"… ({ITEM_CHARS + 10:,} characters)")
    listed = [line for line in lines if line.text.startswith("• d")]
    assert len(listed) == ITEMS_LISTED
    more = next(line for line in lines if line.text.startswith("… and "))
    assert more.text == "… and 7 more (in the tree)"
    assert more.pointer == "/content/capsule/decisions"


def test_every_line_of_an_item_links_to_it_and_only_a_masked_one_reveals() -> None:
    packet = g.handoff("links")
    packet["content"]["capsule"]["risks"] = ["plain", "key AKIAIOSFODNN7EXAMPLE here"]
    lines = lines_of(packet)
    for index in (0, 1):
        pointer = f"/content/capsule/risks/{index}"
        item = next(line for line in lines if line.pointer == pointer)
        group = [line for line in lines if line.group == item.group]
        assert {line.pointer for line in group} == {pointer}
        assert group[0] is item
        assert group[1].text.strip() == f"covered · {pointer}"
    plain = next(line for line in lines if line.pointer == "/content/capsule/risks/0")
    masked = next(line for line in lines if line.pointer == "/content/capsule/risks/1")
    assert plain.reveal is None
    assert masked.reveal == "/content/capsule/risks/1"
    assert "AKIAIOSFODNN7EXAMPLE" not in "\n".join(line.text for line in lines)
    shown = revealed_text(masked, "key AKIAIOSFODNN7EXAMPLE here\x1b")
    assert (
        shown == "• key AKIAIOSFODNN7EXAMPLE here\\u001b  (revealed: shown as the packet holds it)"
    )
