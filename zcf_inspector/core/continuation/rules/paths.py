"""Portable, non-escaping relative paths (§5), stricter than `core.formats`.

A path here must mean the same file on every destination filesystem: `/`-separated,
relative, no `.`/`..`/empty segment, none of the characters or device names that some
filesystem refuses or reinterprets, and no trailing dot or space (Windows drops them).
"""

from __future__ import annotations

import re

MAX_PATH_CHARS = 4096
_FORBIDDEN = frozenset('<>"|?*\\:')
_DEVICE = re.compile(r"(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?", re.IGNORECASE)


def path_problem(path: str, *, allow_empty: bool = False) -> str | None:
    """Why ``path`` is not a portable relative path, or None when it is one."""
    if path == "":
        return None if allow_empty else "the path is empty"
    if len(path) > MAX_PATH_CHARS:
        return f"the path is longer than {MAX_PATH_CHARS} characters"
    if path.startswith("/"):
        return "the path is absolute"
    for segment in path.split("/"):
        if segment in ("", ".", ".."):
            return f"segment {segment!r} escapes or is not portable"
        if any(ord(ch) < 0x20 or ch in _FORBIDDEN for ch in segment):
            return f"segment {segment!r} has a character some filesystems refuse"
        if segment.endswith((" ", ".")):
            return f"segment {segment!r} ends with a dot or space"
        if _DEVICE.fullmatch(segment):
            return f"segment {segment!r} is a reserved device name"
    return None


def link_target_problem(target: str, link_path: str) -> str | None:
    """Why a modelled symlink target would leave the workspace root, or None."""
    if target.startswith("/") or re.match(r"[A-Za-z]:", target) or "\\" in target:
        return "the link target is absolute or not `/`-separated"
    depth = len(link_path.split("/")) - 1
    for segment in target.split("/"):
        if segment == "..":
            depth -= 1
            if depth < 0:
                return "the link target escapes the workspace root"
        elif segment not in ("", "."):
            depth += 1
    return None
