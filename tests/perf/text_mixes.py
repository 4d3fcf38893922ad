"""The three text mixes of issue 29, as sealed 200,000-belief packets (not checked in).

- ``ascii``: engineering notes in plain ASCII, with the colons, equals signs, paths and
  identifiers such notes carry (``status: done``, ``retries=3``) and nothing secret;
- ``latin-cjk``: the same kind of notes in accented Latin (French, German, Portuguese,
  Vietnamese) and CJK (Chinese, Japanese), full-width punctuation among them;
- ``credential-prose``: prose that names credentials without holding any ("rotate the
  api_key and password before the token expires"), with emoji, Cyrillic and Arabic.

Each is deterministic (a seeded generator), about 50-56 MB written as the goldens write
a packet. The secret scan must flag nothing in any of them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from goldens import generate as g
from tests.perf.make_packets import DATA

MIXES = ("ascii", "latin-cjk", "credential-prose")

_ASCII_WORDS = (  # noqa: SIM905 - prose, kept readable
    "the parser reads the manifest before the receipt path and checks each section digest "
    "against the root; a belief is admitted once review confirms it; the journal keeps "
    "every decision with its checksum; retries were bounded after the timeout in the "
    "window worker; the exporter writes atomically through a temporary file and a rename"
).split()
_ASCII_SHAPES = (
    "status: done",
    "retries=3",
    "timeout: 30s",
    "see zcf_inspector/core/packet/structure.py:146",
    "ratio = 1.83",
    "commit 4fc6347528f6f4e773d0a30a835d445c137ab164",
    "https://example.org/docs/format#section-3",
    "Note: the reader was rewritten.",
    "key order: by code point",
    "x=1, y=2",
)
_LATIN = (  # noqa: SIM905
    "le lecteur vérifie la clé du manifeste avant la réception; "
    "die Prüfung der Übergabe läuft über jeden Abschnitt; "
    "a sessão seguinte confirma a crença revisada; "
    "người đánh giá xác nhận từng niềm tin trước khi nhận; "
    "façade, naïve, Ærøskøbing, Straße, coração, über"
).split()
_CJK = (
    "解析器在收据之前读取清单",
    "每个部分的摘要都与根进行比较",
    "レビューが確認すると信念は受け入れられます",
    "ジャーナルはすべての決定をチェックサムとともに保存します",
    "状态：完成",  # noqa: RUF001 - full-width punctuation is the point
    "重试＝三次",  # noqa: RUF001
    "注意：读取器已重写。",  # noqa: RUF001
)
_PROSE = (
    "rotate the api_key and password before the token expires",
    "the deploy token is read from the environment, never from this packet",
    "password rotation is due; ask the owner of the secret store",
    "the api key lives in the vault 🔐 and the CI token in its settings",
    "credentials: see the team vault",
    "token: the lexer's next one",
    "password: ask Maria",
    "a secret key must never be pasted into a belief ✅",
    "пароль и токен хранятся в хранилище, не в пакете",
    "смените api_key и пароль до истечения токена",
    "كلمة المرور والرمز محفوظان في الخزنة",
    "لا تضع مفتاح api_key في الملاحظات 🙂",
    "the auth header is set by the proxy 🚀",
    "passphrase handling moved to the key module",
)


def _ascii(rng: random.Random) -> str:
    words = rng.choices(_ASCII_WORDS, k=28)
    words.insert(rng.randrange(len(words)), rng.choice(_ASCII_SHAPES))
    return " ".join(words)


def _latin_cjk(rng: random.Random) -> str:
    parts = [" ".join(rng.choices(_LATIN, k=14)), "".join(rng.choices(_CJK, k=3))]
    rng.shuffle(parts)
    return " ".join(parts)


def _prose(rng: random.Random) -> str:
    return "; ".join(rng.choices(_PROSE, k=4))


_MAKERS = {"ascii": _ascii, "latin-cjk": _latin_cjk, "credential-prose": _prose}


def mix_packet_bytes(mix: str, beliefs: int = 200_000) -> bytes:
    rng = random.Random(f"issue-29-{mix}")
    make = _MAKERS[mix]
    packet = g.handoff(f"mix-{mix}")
    packet["content"]["beliefs"] = [
        {"portableRef": f"b-{i:06d}", "sourceId": f"mem-{i:06d}", "content": make(rng)}
        for i in range(beliefs)
    ]
    return json.dumps(g.unsigned(packet), ensure_ascii=False, indent=1).encode("utf-8")


def mix_path(mix: str, beliefs: int = 200_000) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"mix-{mix}-{beliefs}.json"
    if not path.exists():
        path.write_bytes(mix_packet_bytes(mix, beliefs))
    return path
