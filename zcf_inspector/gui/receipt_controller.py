"""Receipts matched to the open packets: which packet each open receipt belongs to.

The window asks after every open, close and re-check; the comparison (`match_row`) runs
on the runner, and a newer round makes the answers of an older one stale. A match names
its packet by identity (`PacketIdentity`), never by a tab title, so "Compare with previous
generation" offers a receipt with the packet it matched, not one with the same name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.opener.documents import PacketDocument, ReceiptDocument
from zcf_inspector.present.receipt_match import (
    PacketIdentity,
    ReceiptMatch,
    ReceiptMatchInput,
    match_row,
)


def review_targets(tabs: Sequence[DocumentTab]) -> list[tuple[DocumentTab, ReviewTarget]]:
    """Each open packet as admitted by the destination in force (prepared by its open),
    with its tab."""
    targets = []
    for tab in tabs:
        document = tab.document
        review = document.review if isinstance(document, PacketDocument) else None
        if review is not None and review.target is not None:
            targets.append((tab, review.target))
    return targets


class ReceiptMatcher:
    """The matches of the open receipt tabs, kept up to date by `match`."""

    def __init__(self, runner: TaskRunner, tabs: Callable[[], list[DocumentTab]]) -> None:
        self._runner = runner
        self._tabs = tabs  # the window's document tabs, in order, when asked
        self._generation = 0
        self._matches: dict[DocumentTab, ReceiptMatch] = {}

    def match_of(self, tab: DocumentTab) -> ReceiptMatch | None:
        return self._matches.get(tab)

    def open_files_for(self, asking: DocumentTab) -> tuple[list[OpenFile], list[OpenFile]]:
        """The packets (other than ``asking``'s) and receipts open in tabs, offered as a
        previous generation; a receipt matched to an open packet says which — the packet
        with the identity it matched (`PacketIdentity`), not one with the same title."""
        tabs = self._tabs()
        packet_tabs = [t for t in tabs if isinstance(t.document, PacketDocument)]
        packets = [OpenFile(t.title, t.document.path) for t in packet_tabs if t is not asking]
        identities = {PacketIdentity.of(target): tab for tab, target in review_targets(tabs)}
        receipts = []
        for tab in tabs:
            if not isinstance(tab.document, ReceiptDocument):
                continue
            match = self._matches.get(tab)
            owner = identities.get(match.packet) if match and match.packet else None
            belongs = owner.document.path if owner is not None else None
            receipts.append(OpenFile(tab.title, tab.document.path, belongs))
        return packets, receipts

    def match(self, have_destination: bool) -> None:
        """Say, on every open receipt, which open packet it belongs to (if any).

        A receipt opened before its packet is matched once the packet arrives.
        """
        tabs = self._tabs()
        receipts = [t for t in tabs if isinstance(t.document, ReceiptDocument)]
        self._matches = {t: m for t, m in self._matches.items() if t in receipts}
        if not receipts:
            return
        self._generation += 1
        generation = self._generation
        values = [t.document.value for t in receipts if isinstance(t.document, ReceiptDocument)]
        work = ReceiptMatchInput(
            tuple(values),
            tuple((tab.title, target) for tab, target in review_targets(tabs)),
            have_destination,
        )

        def done(matches: object) -> None:
            if generation != self._generation or not isinstance(matches, tuple):
                return
            still_open = set(self._tabs())
            for tab, match in zip(receipts, matches, strict=True):
                if tab in still_open and isinstance(match, ReceiptMatch):
                    self._matches[tab] = match
                    tab.set_receipt_match(match.chip)

        self._runner.start("matching receipts", partial(match_row, work), done)
