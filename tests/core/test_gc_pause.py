"""The collector is paused inside `paused_gc` and left as it was found after it."""

from __future__ import annotations

import gc

import pytest

from zcf_inspector.core.gc_pause import paused_gc


def test_paused_inside_and_restored_after_even_on_error() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError, match="inside"), paused_gc():
        raise ValueError("inside")
    assert gc.isenabled()


def test_a_collector_already_off_stays_off() -> None:
    gc.disable()
    try:
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
