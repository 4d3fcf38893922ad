"""Write docs/codes.md from the code registry (zcf_inspector/core/code_registry.py).

.venv/bin/python scripts/codes_doc.py           # write it
.venv/bin/python scripts/codes_doc.py --check   # exit 1 if it is out of date (CI)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zcf_inspector.core.code_registry import codes_markdown

TARGET = Path(__file__).resolve().parents[1] / "docs" / "codes.md"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that it is up to date")
    args = parser.parse_args()
    text = codes_markdown()
    if args.check:
        if not TARGET.is_file() or TARGET.read_text(encoding="utf-8") != text:
            sys.stderr.write(f"{TARGET} is out of date: run python scripts/codes_doc.py\n")
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {TARGET}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
