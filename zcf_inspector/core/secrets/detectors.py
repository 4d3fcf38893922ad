"""What a credential looks like: the detectors the secret scan runs, and how a value is masked.

Why these are written here and not taken from ``detect-secrets`` at run time. We weighed
the well-kept libraries that a Python program could use (notes in docs/notes/issue20.md):

- ``detect-secrets`` (Yelp, Apache-2.0, pure Python) is the reference, and its plugins are
  where most of these patterns come from. But every plugin module imports ``requests`` at
  load (for the network "verify" step we would never run), which brings ``certifi``
  (MPL-2.0: not a licence the packet path may carry) and about 150 ms of imports; and its
  scanning API runs some twenty plugin objects and their filters per line in Python:
  1.8 ms a line, six minutes for the 200,000-belief benchmark packet, against the one
  second `validate` takes as a whole process. Its entropy plugins only look at quoted
  strings in source files — or, line by line, at every word, which flags plain prose.
- ``bc-detect-secrets`` (Bridgecrew's fork): the same imports, fewer plugins.
- ``trufflehog3`` is GPL; ``ggshield`` sends the text to a web service; ``whispers`` reads
  files of known formats and needs a GPL Levenshtein module.

So the patterns are kept here, as data, each naming the detect-secrets plugin (or
provider document) it follows. Where one may match is found in one pass of a multi-pattern
engine (`core.secrets.engine`, RE2) or, without it, by the standard library
(`core.secrets.anchors`); the checks that decide (`core.secrets.verify`) are the same
either way. ``detect-secrets`` stays in the test extras as the independent oracle: the
planted-credential corpus must be flagged by it too (tests/core/test_secret_scan.py), as
rfc8785 checks our canonical bytes.

Every check starts at an anchor and reads a bounded number of bytes from it (a JSON Web
Token's parts are measured once per run of token bytes, `verify`), so a run of near
matches costs time in proportion to its length. The texts are scanned as UTF-8 bytes:
every credential format here is ASCII.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from dataclasses import dataclass
from typing import Final

# Characters of a token (a key, a token, a base64 run): what a credential is made of.
TOKEN_BYTES: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_=.-"


@dataclass(frozen=True, slots=True)
class TokenDetector:
    """A credential with a recognisable shape, found inside a run of token bytes."""

    kind: str  # stable, for --json and tests: "aws-access-key-id"
    label: str  # for a sentence: "an AWS access key id"
    pattern: re.Pattern[bytes]  # group "v" is the secret
    shown_prefix: int  # leading characters that only name the kind of key (ghp_, AKIA)
    origin: str  # where the pattern comes from


def _p(source: bytes) -> re.Pattern[bytes]:
    return re.compile(source)


# Found in runs of token bytes. Each starts with a literal so that the combined search
# inside a run stays cheap; the boundary (not glued to more token bytes) is checked by
# the scan, which knows the run.
TOKEN_DETECTORS: Final[tuple[TokenDetector, ...]] = (
    TokenDetector(
        "aws-access-key-id",
        "an AWS access key id",
        _p(rb"(?P<v>(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16})"),
        4,
        "detect-secrets AWSKeyDetector",
    ),
    TokenDetector(
        "github-token",
        "a GitHub token",
        _p(rb"(?P<v>gh[pousr]_[A-Za-z0-9_]{36,255})"),
        4,
        "detect-secrets GitHubTokenDetector",
    ),
    TokenDetector(
        "github-token",
        "a GitHub fine-grained token",
        _p(rb"(?P<v>github_pat_[A-Za-z0-9_]{22,255})"),
        11,
        "GitHub token formats",
    ),
    TokenDetector(
        "gitlab-token",
        "a GitLab token",
        _p(
            rb"(?P<v>(?:glpat|gldt|glrt|glsoat|glcbt|glptt|glft|glimt|glagent|gloas)-"
            rb"[A-Za-z0-9_-]{20,64})"
        ),
        6,
        "detect-secrets GitLabTokenDetector",
    ),
    TokenDetector(
        "slack-token",
        "a Slack token",
        _p(rb"(?P<v>xox(?:a|b|p|o|s|r)-(?:\d+-)+[A-Za-z0-9]{8,64})"),
        5,
        "detect-secrets SlackDetector",
    ),
    TokenDetector(
        "stripe-key",
        "a Stripe secret key",
        _p(rb"(?P<v>(?:sk|rk)_live_[0-9a-zA-Z]{24,99})"),
        8,
        "detect-secrets StripeDetector",
    ),
    TokenDetector(
        "openai-key",
        "an OpenAI API key",
        _p(
            rb"(?P<v>sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200})"
        ),
        3,
        "detect-secrets OpenAIDetector",
    ),
    TokenDetector(
        "anthropic-key",
        "an Anthropic API key",
        _p(rb"(?P<v>sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{80,120})"),
        7,
        "Anthropic key format",
    ),
    TokenDetector(
        "google-api-key",
        "a Google API key",
        _p(rb"(?P<v>AIza[0-9A-Za-z_-]{35})"),
        4,
        "Google API key format",
    ),
    TokenDetector(
        "pypi-token",
        "a PyPI upload token",
        _p(rb"(?P<v>pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,255})"),
        5,
        "detect-secrets PypiTokenDetector",
    ),
    TokenDetector(
        "npm-token",
        "an npm token",
        _p(rb"(?P<v>npm_[A-Za-z0-9]{36})"),
        4,
        "detect-secrets NpmDetector",
    ),
    TokenDetector(
        "sendgrid-key",
        "a SendGrid API key",
        _p(rb"(?P<v>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})"),
        3,
        "detect-secrets SendGridDetector",
    ),
    TokenDetector(
        "jwt",
        "a JSON Web Token",
        _p(rb"(?P<v>eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{4,65536}\.[A-Za-z0-9_-]{0,4096})"),
        0,
        "detect-secrets JwtTokenDetector",
    ),
)

# The first bytes each token detector can start with: where a token's check begins.
TOKEN_STARTS: Final = re.compile(
    rb"AKIA|ASIA|ABIA|ACCA|A3T|gh[pousr]_|github_pat_|gl[a-z]{1,6}-|xox[abposr]-|[sr]k_live_"
    rb"|sk-|AIza|pypi-|npm_|SG\.|eyJ"
)

# A PEM or PuTTY private key: the header is enough (the body follows on later lines).
PRIVATE_KEY_HEADER: Final = re.compile(
    rb"-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d"
)
PRIVATE_KEY_ORIGIN: Final = "detect-secrets PrivateKeyDetector"

# The token detectors that can begin with each first byte, in their order (the first to
# match an anchor wins): an anchor is tried against these only.
_FIRST_BYTES: Final = (
    b"A",
    b"g",
    b"g",
    b"g",
    b"x",
    b"sr",
    b"s",
    b"s",
    b"A",
    b"p",
    b"n",
    b"S",
    b"e",
)
TOKEN_BY_FIRST_BYTE: Final = {
    first: tuple(
        t for t, firsts in zip(TOKEN_DETECTORS, _FIRST_BYTES, strict=True) if first in firsts
    )
    for first in b"AgxsrpnSe"
}

# user:password@ after a scheme (detect-secrets BasicAuthDetector), found from "://".
URL_LITERAL: Final = b"://"
URL_CREDENTIALS: Final = re.compile(
    rb"://(?P<u>[^\s/:@\x00\"'<>]{1,256}):(?P<v>[^\s/@\x00\"'<>]{1,256})@"
)
URL_SCHEME_BEFORE: Final = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]{0,31}\Z")

# `password = "…"`, `api_key: …` (detect-secrets KeywordDetector, narrowed for prose):
# found from each ":" and "=" by a look back for a credential name just before it and a
# look forward for its value.
KEYWORD_BEFORE: Final = re.compile(
    rb"(?P<k>password|passwd|passphrase|pass|pwd|secret|token|key|credentials?|auth)"
    rb"[a-z0-9_.-]{0,32}[\"']?\s{0,3}\Z"
)
KEYWORD_LOOK_BACK: Final = 48  # bytes before the ":" or "=" where the name may start
KEYWORD_VALUE: Final = re.compile(
    rb"(?:=>|:=|=|:)\s{0,3}(?:(?:bearer|basic|token)\s{1,3})?"
    rb"(?P<q>[\"'`]?)(?P<v>[^\s\"'`\x00,;)\]}]{1,256})",
    re.IGNORECASE,  # ASCII letters only: the value's bytes are matched as they are
)
# A value that is itself a credential name being assigned (``api_key: api_key: …``,
# ``Authorization: Bearer Authorization: …``) is a label repeated, not a credential.
KEYWORD_NAME_ASSIGNED: Final = re.compile(
    rb"[a-z0-9_.-]{0,16}(?:password|passwd|passphrase|pass|pwd|secret|token|key|credentials?"
    rb"|auth)[a-z0-9_.-]{0,32}[:=]",
    re.IGNORECASE,
)
KEYWORD_SHORTEST: Final = 6  # a quoted value's least length; an unquoted one needs 8
# Before a name: start of text, or a byte that does not make it part of another word
# ("monkey", "bypass"), or one of these compound prefixes ("apikey", "secretkey").
KEYWORD_PREFIXES: Final = (b"api", b"access", b"secret", b"private", b"client", b"master", b"db")
PLACEHOLDER: Final = re.compile(
    rb"(?:\$|<|\{|%|\*|\.\.\.|x{4,}|sha(?:256|512):|https?://|none\Z|null\Z|true\Z|false\Z"
    rb"|changeme\Z|example\Z|redacted\Z|placeholder\Z|your[_-])",
    re.IGNORECASE,
)

# High entropy: a piece of a token run that looks random (base64 / base62 keys).
ENTROPY_MIN_LENGTH: Final = 20
ENTROPY_MAX_LENGTH: Final = 4096  # looked at; a longer piece is judged on its first bytes
ENTROPY_BITS: Final = 3.7  # Shannon bits per character, and at least 80 % of the maximum
ENTROPY_SHARE: Final = 0.8
ENTROPY_SWITCHES: Final = 0.3  # changes of character class per character, at least


def shannon_entropy(data: bytes) -> float:
    """Bits per byte of ``data`` (detect-secrets' `calculate_shannon_entropy`)."""
    total = len(data)
    if not total:
        return 0.0
    # Each distinct byte counted by `bytes.count` (in C), in order of first appearance as
    # Counter had them, so the sum is the same float: Counter took a Python step per byte.
    counts = map(data.count, dict.fromkeys(data))
    return -sum((n / total) * math.log2(n / total) for n in counts)


def _class_of(byte: int) -> int:
    if 0x41 <= byte <= 0x5A:
        return 0
    if 0x61 <= byte <= 0x7A:
        return 1
    if 0x30 <= byte <= 0x39:
        return 2
    return 3


# Each byte's class as a byte (upper 0, lower 1, digit 2, other 3): `bytes.translate` makes
# a piece's classes in C, where a Python step per byte made a long run of one letter cost
# milliseconds per piece.
_CLASSES: Final = bytes(_class_of(b) for b in range(256))
_UPPER, _LOWER, _DIGIT = b"\x00", b"\x01", b"\x02"


def _switches(classes: bytes) -> int:
    """How many neighbours differ in class: the zero bytes of the XOR of ``classes`` with
    itself shifted by one are the equal neighbours (big integers: C loops throughout)."""
    pairs = len(classes) - 1
    if pairs <= 0:
        return 0
    shifted = int.from_bytes(classes[:-1], "big") ^ int.from_bytes(classes[1:], "big")
    return pairs - shifted.to_bytes(pairs, "big").count(0)


def looks_random(piece: bytes) -> bool:
    """A piece of a token run that reads as a random key rather than a word, a path, a
    digest or an identifier: upper and lower case letters and digits mixed, switching
    class often, with high entropy. Hex digests (no upper case) are left alone.

    Linear in the piece (at most `ENTROPY_MAX_LENGTH` bytes are looked at), each step a
    C-level pass; a run of one letter is turned down by the class test at once."""
    piece = piece[:ENTROPY_MAX_LENGTH].rstrip(b"=")
    if len(piece) < ENTROPY_MIN_LENGTH:
        return False
    classes = piece.translate(_CLASSES)
    if not (_UPPER in classes and _LOWER in classes and _DIGIT in classes):
        return False
    # Switches counted with the separators "_", "-" and "." left out: an identifier of
    # words (`i_structure_UTF-8_BOM_empty_object`) switches class only between its words,
    # where a random key (base64url included) switches inside its runs too.
    joined = piece.translate(None, b"_-.")
    if _switches(joined.translate(_CLASSES)) < ENTROPY_SWITCHES * len(joined):
        return False
    bits = shannon_entropy(piece)
    return bits >= ENTROPY_BITS and bits >= ENTROPY_SHARE * math.log2(min(len(piece), 64))


def is_jwt(value: bytes) -> bool:
    """The first part decodes (base64url) to a JSON object, as detect-secrets checks."""
    head = value.split(b".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(head + b"=" * (-len(head) % 4))
        parsed = json.loads(decoded)
    except (binascii.Error, ValueError):
        return False
    return isinstance(parsed, dict)


_LETTERS: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_WORD_BYTES: Final = _LETTERS + b"_-."


def acceptable_keyword_value(value: bytes, quoted: bool) -> bool:
    """Whether the value of a `keyword = value` looks like a credential, not prose (C-level
    passes only: a value is up to 256 bytes, and a run of assignments has one per few)."""
    if len(value) < KEYWORD_SHORTEST or PLACEHOLDER.match(value):
        return False
    if KEYWORD_NAME_ASSIGNED.match(value):
        return False
    # Fewer than three distinct bytes: nothing is left once every copy of the first byte,
    # then of the first byte remaining, is deleted (two C passes, where a set of the
    # bytes took a Python object per byte).
    rest = value.translate(None, value[:1])
    if not rest.translate(None, rest[:1]):
        return False
    if quoted:
        return True
    others = len(value.translate(None, _LETTERS))  # bytes that are not ASCII letters
    # Letters joined by "_", "-" or "." alone are a word or an identifier
    # (`key_id: signing_key_untrusted`, `token: not_checked`), not a credential: an
    # unquoted one holds a digit or another symbol too.
    if not value.translate(None, _WORD_BYTES):
        return False
    return len(value) >= 8 and 0 < others < len(value)


def mask(value: str, shown_prefix: int = 0) -> str:
    """What may be shown of a secret: its kind's public prefix (``ghp_``, ``AKIA``) when it
    has one, and its length — never a character that is part of the secret itself."""
    prefix = value[:shown_prefix] if 0 < shown_prefix < len(value) else ""
    return f"{prefix}…({len(value):,} characters, hidden)"
