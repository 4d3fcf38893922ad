"""`zcf-inspector review` (human review of beliefs): owned by the review work."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    del sub  # filled in by the review work
