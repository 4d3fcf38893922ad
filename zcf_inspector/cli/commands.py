"""The table of subcommands: name, the module that implements it, and its one-line help.

Only the chosen subcommand's module is imported (it pulls in the core, pydantic models
and, for `gui`, Qt); `--help` and a mistyped name import none of them.
"""

from __future__ import annotations

from typing import Final, NamedTuple


# A NamedTuple, not a dataclass: `--help` then never imports dataclasses (and inspect).
class Command(NamedTuple):
    module: str  # under zcf_inspector.cli
    register: str  # the function taking the subparsers action
    help: str


COMMANDS: Final[dict[str, Command]] = {
    "validate": Command(
        "validate",
        "register",
        "check packets: bytes, structure, manifest, authentication (and policy with a destination)",
    ),
    "ingest": Command(
        "ingest", "register", "ingest a packet at a destination and emit its transfer receipt"
    ),
    "canonicalize": Command(
        "canonicalize", "register", "print the canonical ZCF-JSON-v1 bytes of any JSON text"
    ),
    "receipt": Command("receipt", "register", "work with transfer receipts"),
    "review": Command(
        "review",
        "register",
        "apply a reviewer's decisions to an ingested packet and emit the receipt",
    ),
    "keygen": Command(
        "keys", "register_keygen", "make an Ed25519 signing key or an installation key"
    ),
    "seal": Command(
        "keys",
        "register_seal",
        "fill a packet's manifest and authenticate it "
        "(unsigned, source-signature, recipient-bound-mac)",
    ),
    "check-goldens": Command("goldens", "register", "run the conformance vectors (profile §7)"),
    "plan": Command("plan", "register", "check ASIF continuation plans (and a destination report)"),
    "diff": Command(
        "diff", "register", "compare two packets: sections by digest, then elements by identity"
    ),
    "brief": Command(
        "brief", "register", "a packet's capsule as a briefing, with secrets and workspace claims"
    ),
    "package": Command(
        "package", "register", "ASIF .asif.zip packages: verify, build deterministically, sign"
    ),
    "gui": Command(
        "gui", "register", "open the inspector window (the default when no command is given)"
    ),
}


def help_of(name: str) -> str:
    return COMMANDS[name].help
