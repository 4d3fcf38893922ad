"""The core never imports Qt: it must run headless, in CI and scripts, without a display."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import zcf_inspector.core

CORE = Path(zcf_inspector.core.__file__).parent
QT_MODULES = ("PySide6", "shiboken6", "PyQt5", "PyQt6")


def test_no_core_module_imports_qt() -> None:
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in QT_MODULES]
    assert offenders == []


def test_importing_every_core_module_loads_no_qt() -> None:
    modules = sorted(
        "zcf_inspector.core." + ".".join(p.relative_to(CORE).with_suffix("").parts)
        for p in CORE.rglob("*.py")
        if p.name != "__init__.py"
    )
    script = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {QT_MODULES!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert len(modules) > 10
