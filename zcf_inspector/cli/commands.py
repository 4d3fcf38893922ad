"""The table of subcommands."""

from __future__ import annotations

import argparse


def register_all(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from zcf_inspector.cli import (  # noqa: PLC0415
        canonicalize,
        diff,
        goldens,
        gui,
        ingest,
        keys,
        plan,
        receipt,
        review,
        validate,
    )

    for module in (validate, ingest, canonicalize, diff, receipt, review, keys, goldens, plan, gui):
        module.register(sub)
