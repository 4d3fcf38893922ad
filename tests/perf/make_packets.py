"""Large packets for the benchmarks, made with the goldens' builders (not checked in)."""

from __future__ import annotations

import json
from pathlib import Path

from goldens import generate as g

DATA = Path(__file__).resolve().parent / "data"


def big_packet_bytes(beliefs: int = 200_000, content_chars: int = 190) -> bytes:
    """A sealed, valid session-handoff with ``beliefs`` beliefs of about 250 bytes each."""
    packet = g.handoff("bench")
    filler = "Evidence-backed note about the parser, the manifest and the receipt path; "
    body = (filler * (content_chars // len(filler) + 1))[:content_chars]
    packet["content"]["beliefs"] = [
        {"portableRef": f"b-{i:06d}", "sourceId": f"mem-{i:06d}", "content": f"{i:06d} {body}"}
        for i in range(beliefs)
    ]
    return json.dumps(g.unsigned(packet), ensure_ascii=False, indent=1).encode("utf-8")


def big_packet_path(beliefs: int = 200_000) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"handoff-{beliefs}.json"
    if not path.exists():
        path.write_bytes(big_packet_bytes(beliefs))
    return path


def next_generation_path(beliefs: int = 200_000, changed: int = 123_456) -> Path:
    """The big packet with one belief's content changed (and resealed): its next
    generation, as `diff` and the compare view see them."""
    path = DATA / f"handoff-{beliefs}-one-changed.json"
    if not path.exists():
        packet = json.loads(big_packet_path(beliefs).read_bytes())
        belief = packet["content"]["beliefs"][changed]
        belief["content"] = belief["content"].replace("parser", "reader", 1)
        path.write_bytes(json.dumps(g.unsigned(packet), ensure_ascii=False, indent=1).encode())
    return path
