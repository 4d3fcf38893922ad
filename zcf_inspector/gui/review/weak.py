"""References from the review pane's parts back to the pane that do not keep it alive.

The pane's parts (its steps, opener, decider, comparison and table cursor) call back into
the pane. A strong reference from a part to the pane would close a reference cycle, so
the pane's Python object would outlive its Qt object until the cyclic collector runs —
which can happen on a worker thread, where no Qt object may be finalized. The parts hold
the pane weakly instead: once it is gone, their callbacks do nothing.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from PySide6.QtWidgets import QWidget

P = ParamSpec("P")
R = TypeVar("R")


def weak_call(method: Callable[P, R], gone: R) -> Callable[P, R]:
    """``method`` (bound) without a reference to its object: ``gone`` once it is freed."""
    ref = weakref.WeakMethod(method)

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = ref()
        return gone if bound is None else bound(*args, **kwargs)

    return call


class WeakParent:
    """The widget a part's dialogs belong to, held weakly."""

    def __init__(self, widget: QWidget) -> None:
        self._ref = weakref.ref(widget)

    @property
    def alive(self) -> bool:
        return self._ref() is not None

    @property
    def widget(self) -> QWidget:
        widget = self._ref()
        assert widget is not None, "the pane is gone"  # parts run only while it is there
        return widget
