"""Issue 18, the UI-stall benchmark: a shown document's parse, once a tab lets go of it, is
freed off the UI thread a slice at a time (`gui/release.py`) — never while anyone else
still holds it — and a tree model closed lets go of its document at once (its nodes refer
to each other, so without that only a cycle collection on the UI thread would free it)."""

from __future__ import annotations

import gc
import sys
import threading
import time
from typing import Any

from zcf_inspector.gui.packet_tree_model import PacketTreeModel
from zcf_inspector.gui.release import BIG, Releaser

FREED_BY: list[str] = []


class Marker:
    """Stands for a belief: says on which thread it was freed."""

    def __del__(self) -> None:
        FREED_BY.append(threading.current_thread().name)


def wait_for(done: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "not released in time"
        time.sleep(0.01)


def test_a_value_is_freed_on_the_release_thread_once_no_one_else_holds_it() -> None:
    FREED_BY.clear()
    count = 3 * BIG
    value: Any = {"content": {"beliefs": [Marker() for _ in range(count)]}, "manifest": {}}
    holder = [value]  # a pane still showing it
    releaser = Releaser()
    releaser.release(value)
    del value
    time.sleep(0.3)
    assert FREED_BY == []  # held elsewhere: left alone
    assert releaser.pending == 1
    holder.clear()
    wait_for(lambda: releaser.pending == 0)
    assert len(FREED_BY) == count
    assert set(FREED_BY) == {"zcf-release"}


def test_a_small_value_is_not_taken() -> None:
    releaser = Releaser()
    small: Any = {"content": {"beliefs": [1, 2, 3]}}
    releaser.release(small)
    assert releaser.pending == 0
    assert sys.getrefcount(small) == 2  # the local and the argument: nothing kept


def test_a_closed_tree_model_lets_go_of_its_document(qtbot: Any) -> None:
    del qtbot  # a QApplication for the model
    document: Any = {"content": {"beliefs": [{"id": f"b{i}"} for i in range(3000)]}}
    model = PacketTreeModel(document)
    beliefs = model.index_for_pointer("/content/beliefs/2500")  # range nodes made
    assert beliefs.isValid()
    content = document["content"]
    assert len(gc.get_referrers(content)) > 1  # the document, and the node showing it
    assert model.close() is document
    assert model.rowCount() == 0
    # No node holds any part of it any more (a range node held a slice of the beliefs).
    assert gc.get_referrers(content) == [document]
    assert gc.get_referrers(content["beliefs"][2500]) == [content["beliefs"]]


class Record:
    """Stands for a core record (a review, its target): holds long tuples of markers."""

    def __init__(self, items: tuple[object, ...], other: Any = None) -> None:
        self.items = items
        self.other = other


def test_let_go_waits_for_the_group_then_frees_on_its_thread() -> None:
    FREED_BY.clear()
    count = 3 * BIG
    target = Record(tuple(Marker() for _ in range(count)))
    review = Record((), {"session": target})  # the review's session holds the target
    pane = [target, review]  # a pane still showing them
    releaser = Releaser()
    releaser.let_go(target, review, (), None)  # a shared constant and None are not taken
    del target, review
    time.sleep(0.3)
    assert FREED_BY == []
    assert releaser.pending == 1
    pane.clear()  # the members hold each other (review → dict → target): that is alone
    wait_for(lambda: releaser.pending == 0)
    assert len(FREED_BY) == count
    assert set(FREED_BY) == {"zcf-release"}


def test_let_go_frees_a_long_tuple_a_slice_at_a_time() -> None:
    """A tuple cannot be emptied in slices; its elements are held apart and freed so."""
    freed_in_turn: list[int] = []
    turns = [0]

    class Counted:
        def __del__(self) -> None:
            freed_in_turn.append(turns[0])

    def between() -> None:
        turns[0] += 1

    from zcf_inspector.gui.release import free_in_slices

    count = 5 * BIG + 7
    objects: list[object] = [Record(tuple(Counted() for _ in range(count)))]
    free_in_slices(objects, between)
    assert objects == []
    assert len(freed_in_turn) == count
    per_turn = {turn: freed_in_turn.count(turn) for turn in set(freed_in_turn)}
    assert max(per_turn.values()) <= BIG
    assert len(per_turn) >= 5


def test_an_entry_held_elsewhere_holds_up_no_other() -> None:
    FREED_BY.clear()
    kept = Record(tuple(Marker() for _ in range(BIG)))
    pane = [kept]  # kept by a pane for long
    releaser = Releaser()
    releaser.let_go(kept)
    freed = Record(tuple(Marker() for _ in range(BIG)))
    releaser.let_go(freed)
    del kept, freed
    wait_for(lambda: releaser.pending == 1)  # the second went although the first waits
    assert len(FREED_BY) == BIG
    pane.clear()
    wait_for(lambda: releaser.pending == 0)
    assert len(FREED_BY) == 2 * BIG
