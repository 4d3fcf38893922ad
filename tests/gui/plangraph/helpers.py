"""Shared helpers: open a pane on a document and ask the CLI about the same file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.core.continuation.spec_examples import CLOCK_TEXT, inspect
from zcf_inspector.cli import main
from zcf_inspector.core.reading import read_json
from zcf_inspector.gui.plangraph.pane import PlanGraphPane


def open_pane(qtbot: Any, source: bytes, receipt: bytes | None = None) -> PlanGraphPane:
    pane = PlanGraphPane()
    qtbot.addWidget(pane)
    pane.resize(1200, 800)
    pane.show_result(inspect(source, receipt), read_json(source))
    pane.show()
    pane.wait_for_layout()
    qtbot.waitUntil(lambda: pane.scene is not None)
    return pane


def cli(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["plan", str(path), "--now", CLOCK_TEXT, *options])
    out, _ = capsys.readouterr()
    return code, out


def cli_json(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> Any:
    _, out = cli(capsys, path, "--json", *options)
    return json.loads(out)
