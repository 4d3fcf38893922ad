"""Room left under a memory limit, checked before a native library allocates.

Under ``ulimit -v`` (RLIMIT_AS) or ``ulimit -d`` (RLIMIT_DATA) an allocation can fail.
Python says so with ``MemoryError``, which the CLI turns into a plain refusal; the Rust
libraries on the packet path (pydantic-core, orjson) do not: their allocator aborts the
process, and was seen to hang it on a lock instead. So before each call that may make a
few megabytes in Rust (a piece of schema validation, its errors), `ensure_headroom`
raises ``MemoryError`` itself when less than `MARGIN` is left under the limit. Without a
limit (the usual case) it costs one cached look-up.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Final

try:
    import resource
except ImportError:  # pragma: no cover - Windows has no rlimits
    resource = None  # type: ignore[assignment]

# More than one piece of validation may allocate in Rust (core.bounded_validation keeps a
# piece's errors to a few tens of megabytes at most).
MARGIN: Final = 48 * 1024 * 1024
_STATM: Final = "/proc/self/statm"


@cache
def _page_size() -> int:
    return os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _limit(which: int) -> int | None:
    assert resource is not None
    soft, _ = resource.getrlimit(which)
    return None if soft == resource.RLIM_INFINITY else soft


def limited() -> bool:
    """Whether an address-space or data-size limit is in force."""
    if resource is None:  # pragma: no cover
        return False
    return _limit(resource.RLIMIT_AS) is not None or _limit(resource.RLIMIT_DATA) is not None


def ensure_headroom(margin: int = MARGIN) -> None:
    """Raise ``MemoryError`` when less than ``margin`` bytes are left under the limit."""
    if resource is None:  # pragma: no cover
        return
    address_space = _limit(resource.RLIMIT_AS)
    data = _limit(resource.RLIMIT_DATA)
    if address_space is None and data is None:
        return
    try:
        with open(_STATM, "rb") as statm:
            fields = statm.read().split()
    except OSError:  # pragma: no cover - not Linux: nothing to measure with
        return
    size, data_size = int(fields[0]) * _page_size(), int(fields[5]) * _page_size()
    if address_space is not None and size + margin > address_space:
        raise MemoryError("the address-space limit is nearly reached")
    if data is not None and data_size + margin > data:
        raise MemoryError("the data-size limit is nearly reached")
