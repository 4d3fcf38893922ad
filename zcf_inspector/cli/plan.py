"""`zcf-inspector plan` (continuation plans): owned by the continuation work."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    del sub  # filled in by the continuation work
