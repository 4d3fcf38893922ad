"""Generate the conformance goldens (profile §7) from fixed keys and a fixed clock.

    python goldens/generate.py           # (re)write every golden in this folder
    python goldens/generate.py --check   # fail if any golden differs from what this makes

Every key is derived from a label, so the same run always writes the same bytes
(Ed25519 signatures are deterministic). Nothing here is secret: these keys are public
test keys and must never be trusted anywhere else.
"""

# The generator is split by job: fixtures.py (keys, clock, the handoff builders),
# publication_packets.py, negative_vectors.py and writing.py (the files and the folder).
# This module is the command and the one name the tests import (`from goldens import
# generate as g`; `g.handoff`, `g.SOURCE_SEED`...), so it re-exports the builders.

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __name__ == "__main__":  # run as `python goldens/generate.py`: its siblings are `goldens.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from goldens.fixtures import (
    DEST_ID,
    DEST_INSTALLATION,
    DESTINATION,
    NOW,
    RECEIPT_SEED,
    SOURCE_ID,
    SOURCE_INSTALLATION,
    SOURCE_SEED,
    UNTRUSTED_SEED,
    Packet,
    belief,
    bound,
    content,
    handoff,
    json_bytes,
    key,
    mac,
    nonce,
    unsigned,
)
from goldens.negative_vectors import MINIMAL_BYTES, NEGATIVE
from goldens.publication_packets import (
    PUBLICATION,
    archive,
    demotion,
    full_handoff,
    minimal,
    omissions_redactions,
    recipient_bound_mac,
    recipient_bound_unsigned,
    scope_proof,
    tools,
    truncation,
    unicode,
)
from goldens.writing import BUNDLED_FROM, build, files_in, stale_files, write_files

__all__ = [
    "BUNDLED_EXAMPLE",
    "BUNDLED_FROM",
    "DESTINATION",
    "DEST_ID",
    "DEST_INSTALLATION",
    "HERE",
    "MINIMAL_BYTES",
    "NEGATIVE",
    "NOW",
    "PUBLICATION",
    "RECEIPT_SEED",
    "REGENERATE",
    "SOURCE_ID",
    "SOURCE_INSTALLATION",
    "SOURCE_SEED",
    "UNTRUSTED_SEED",
    "Packet",
    "archive",
    "belief",
    "bound",
    "build",
    "content",
    "demotion",
    "full_handoff",
    "handoff",
    "json_bytes",
    "key",
    "mac",
    "main",
    "minimal",
    "nonce",
    "omissions_redactions",
    "on_disk",
    "recipient_bound_mac",
    "recipient_bound_unsigned",
    "scope_proof",
    "tools",
    "truncation",
    "unicode",
    "unsigned",
]

# Read by `main` when it runs, so a test can point the check at a copy of the folder.
HERE = Path(__file__).resolve().parent
REGENERATE = "python goldens/generate.py"
# The window's bundled example is the richest golden; the generator keeps the copy equal.
BUNDLED_EXAMPLE = HERE.parent / "zcf_inspector" / "resources" / "examples" / "full-handoff.json"


def on_disk() -> dict[str, bytes]:
    return files_in(HERE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    wanted = build()
    if args.check:
        stale = stale_files(wanted, HERE, BUNDLED_EXAMPLE)
        if stale:
            sys.stderr.write(
                "goldens are out of date with goldens/generate.py: "
                + ", ".join(stale)
                + f"\nregenerate them with `{REGENERATE}` and review the diff\n"
            )
            return 1
        sys.stdout.write(f"goldens: {len(wanted)} files up to date\n")
        return 0
    write_files(wanted, HERE, BUNDLED_EXAMPLE)
    sys.stdout.write(f"goldens: wrote {len(wanted)} files\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
