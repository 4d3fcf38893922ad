"""The names and limits of ASIF package transport 0.1 (TRANSPORT.md, REFERENCE.md's
"Input limits"), in one place for the reader, the writer and the signature."""

from __future__ import annotations

from typing import Final

SESSION: Final = "session.json"
MANIFEST: Final = "asif-package.json"
RESERVED: Final = frozenset({SESSION, MANIFEST})
PACKAGE_VERSION: Final = "0.1"
SIGNATURE_VERSION: Final = "0.1"
ALGORITHM: Final = "Ed25519"
# The signed message is DOMAIN || SHA-256(exact manifest bytes), the digest as 32 bytes.
DOMAIN: Final = b"ASIF-PACKAGE-MANIFEST-v1\x00"

MiB: Final = 1024 * 1024
MAX_DOCUMENT: Final = 16 * MiB  # session.json or asif-package.json
MAX_RESOURCE: Final = 64 * MiB  # any other member
MAX_TOTAL: Final = 256 * MiB  # every member's bytes together
MAX_ARCHIVE: Final = MAX_TOTAL + MAX_DOCUMENT  # 272 MiB, the envelope included
MAX_MEMBERS: Final = 1024
MAX_SIGNATURE: Final = 64 * 1024  # a detached signature is ~320 bytes
