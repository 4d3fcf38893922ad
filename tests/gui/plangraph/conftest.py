"""Plan-graph pane fixtures: offscreen Qt, and the pane opened on a session."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
