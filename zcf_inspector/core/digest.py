"""Length-prefixing and the `sha256:` digest spelling used throughout the profile."""

from __future__ import annotations

import hashlib
import re

DIGEST_RE = re.compile(r"sha256:[0-9a-f]{64}")


def lp(data: bytes | str) -> bytes:
    """``LP(x)``: the 8-byte big-endian length of ``x`` then ``x`` (strings as UTF-8)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return len(raw).to_bytes(8, "big") + raw


def lp_concat(*parts: bytes | str) -> bytes:
    return b"".join(lp(p) for p in parts)


def sha256_digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def is_digest(value: object) -> bool:
    return isinstance(value, str) and DIGEST_RE.fullmatch(value) is not None
