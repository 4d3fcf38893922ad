"""The table of subcommands."""

from __future__ import annotations

import argparse


def register_all(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from zcf_inspector.cli import plan  # noqa: PLC0415

    plan.register(sub)
