"""RFC 6901 JSON pointers: build them from paths and resolve them in parsed values."""

from __future__ import annotations

from zcf_inspector.core.jsontypes import JsonValue


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(*parts: str | int) -> str:
    """The pointer for a path of keys and indices, e.g. ``join("content", "beliefs", 3)``."""
    return "".join("/" + escape(str(p)) for p in parts)


def child(pointer: str, part: str | int) -> str:
    return pointer + "/" + escape(str(part))


def split(pointer: str) -> list[str]:
    """The unescaped tokens of ``pointer``; raises ``ValueError`` if it is not a pointer."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def resolve(value: JsonValue, pointer: str) -> JsonValue:
    """The value ``pointer`` names in ``value``; raises ``KeyError`` when it names nothing."""
    current = value
    for token in split(pointer):
        if isinstance(current, dict):
            if token not in current:
                raise KeyError(pointer)
            current = current[token]
        elif isinstance(current, list):
            if not _is_index(token) or int(token) >= len(current):
                raise KeyError(pointer)
            current = current[int(token)]
        else:
            raise KeyError(pointer)
    return current


def _is_index(token: str) -> bool:
    return token == "0" or (token.isdigit() and token.isascii() and not token.startswith("0"))


def exists(value: JsonValue, pointer: str) -> bool:
    try:
        resolve(value, pointer)
    except (KeyError, ValueError):
        return False
    return True


def resolve_strictly(value: JsonValue, selector: str) -> JsonValue:
    """Like :func:`resolve`, but a `~` not followed by `0` or `1` is refused (RFC 6901 §3).

    Raises ``ValueError`` for a malformed pointer and ``KeyError`` when it names nothing.
    """
    if selector and not selector.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {selector!r}")
    for token in selector[1:].split("/") if selector else ():
        rest = token
        while "~" in rest:
            at = rest.index("~")
            if rest[at + 1 : at + 2] not in ("0", "1"):
                raise ValueError(f"'~' must be followed by '0' or '1' in {selector!r}")
            rest = rest[at + 2 :]
    return resolve(value, selector)
