"""The window's use of the headless opener (`zcf_inspector.opener`): what is the window's own.

Everything about reading, recognising and checking a file is the opener's, the same call
the CLI and the API make. What the window adds is its read policy on the task runner:
files that are not documents get no tab (``sniff``), and a file larger than
`FAST_READ_MAX_BYTES` takes the exact reader, which lets the UI thread in between
objects — orjson's fast path parses in one call that holds the GIL (about 3 ms per MB),
which would freeze the UI thread past its 100 ms budget. An ASIF session is outlined for
the session view on the worker too (``outline``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import partial

from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.gui.task_runner import Work
from zcf_inspector.opener import open as opener
from zcf_inspector.opener.documents import ContinuationDocument, Document, ShownDocument

FAST_READ_MAX_BYTES = 8 * 1024 * 1024


def open_documents(request: opener.OpenRequest, monitor: Monitor) -> list[Document]:
    """The opener's `open_documents` under the window's read policy (on the runner)."""
    return opener.open_documents(
        replace(request, sniff=True, fast_path_max_bytes=FAST_READ_MAX_BYTES, outline=True),
        monitor,
    )


def recheck_request(
    document: ShownDocument,
    destination: Destination | None,
    now: datetime | None = None,
    *,
    from_disk: bool = False,
    package_keys: tuple[str, ...] = (),
) -> opener.OpenRequest:
    """The opener's re-check of ``document``, under the window's read policy (and the
    trusted package keys of Settings)."""
    return opener.recheck_request(
        document,
        destination,
        now,
        from_disk=from_disk,
        fast_path_max_bytes=FAST_READ_MAX_BYTES,
        package_keys=package_keys,
        outline=True,
    )


def current_snapshot_work(document: ContinuationDocument, path: str, now: datetime | None) -> Work:
    """The runner's work checking ``document`` again with ``path`` as the current snapshot."""
    return partial(
        opener.with_current_snapshot,
        document,
        path,
        now=now,
        fast_path_max_bytes=FAST_READ_MAX_BYTES,
        outline=True,
    )
