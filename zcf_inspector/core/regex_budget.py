"""Compiling a document's regular expressions under a budget (issue 19).

A pattern a document carries (a tool schema's ``pattern`` or ``patternProperties`` key)
is attacker-chosen text handed to Python's ``re`` compiler, which is neither linear nor
safe: ``a{4294967296}`` raises OverflowError, 1,200 nested groups RecursionError, and
compiling costs up to ~10 µs and ~270 bytes per character of pattern. So each pattern is
first measured, then compiled only when it fits:

* at most `MAX_PATTERN_CHARS` characters and `MAX_GROUP_DEPTH` nested groups (a scan of
  the text, before the compiler sees it);
* at most `DOCUMENT_PATTERN_CHARS` characters compiled per document (distinct patterns;
  a repeat is answered from the first verdict), which bounds the time any document can
  spend here (well under a second) whatever its size;
* whatever the compiler still raises (``re.error``, OverflowError, RecursionError,
  MemoryError) is a verdict about the pattern, never an exception for the caller.

A pattern past the budget is *not checked*: the caller reports that with its own code
(`PlanCode.PATTERN_TOO_COMPLEX`), never as valid. Compiled patterns are not kept: the
answer is only whether the pattern compiles, and ``re``'s own cache would otherwise hold
up to 512 of them (tens of megabytes of compiled code for long ones).

Why not a linear-time engine (google-re2)? These patterns are ECMA-262 regular
expressions that are only *compiled* here, never matched; RE2 refuses lookaround and
backreferences, which JSON Schema allows, so it would refuse valid schemas; and it would
add a native dependency to the bundle for a check the budget already bounds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

MAX_PATTERN_CHARS: Final = 4096
MAX_GROUP_DEPTH: Final = 64
DOCUMENT_PATTERN_CHARS: Final = 64 * 1024
# Patterns longer than this are dropped from ``re``'s cache once compiled.
_CACHE_KEEPS: Final = 256


@dataclass(frozen=True, slots=True)
class PatternVerdict:
    """Whether one pattern compiles: ``problem`` says why not; ``checked`` is False when
    the budget stopped it from being compiled at all (so nothing is known of it)."""

    problem: str | None
    checked: bool = True


@dataclass
class PatternBudget:
    """What one document may spend compiling regular expressions, and the verdicts so far."""

    chars_left: int = DOCUMENT_PATTERN_CHARS
    verdicts: dict[str, PatternVerdict] = field(default_factory=dict)

    def check(self, pattern: str) -> PatternVerdict:
        verdict = self.verdicts.get(pattern)
        if verdict is None:
            verdict = self._first_check(pattern)
            self.verdicts[pattern] = verdict
        return verdict

    def _first_check(self, pattern: str) -> PatternVerdict:
        shown = _shown(pattern)
        if len(pattern) > MAX_PATTERN_CHARS:
            return PatternVerdict(
                f"pattern {shown} has {len(pattern):,} characters; patterns of at most "
                f"{MAX_PATTERN_CHARS:,} are compiled",
                checked=False,
            )
        depth = group_depth(pattern)
        if depth > MAX_GROUP_DEPTH:
            return PatternVerdict(
                f"pattern {shown} nests groups {depth:,} deep; at most {MAX_GROUP_DEPTH} "
                "are compiled",
                checked=False,
            )
        if len(pattern) > self.chars_left:
            return PatternVerdict(
                f"pattern {shown} was not compiled: this document's patterns already used "
                f"the {DOCUMENT_PATTERN_CHARS:,} characters compiled per document",
                checked=False,
            )
        self.chars_left -= len(pattern)
        return PatternVerdict(compile_problem(pattern))


def compile_problem(pattern: str) -> str | None:
    """Why ``pattern`` does not compile, or None; never raises (the caller bounds its size)."""
    try:
        re.compile(pattern)
    except re.error as exc:
        return f"{_shown(pattern)} is not a regular expression ({exc})"
    except OverflowError:
        return f"{_shown(pattern)} has a repetition count too large to compile"
    except RecursionError:
        return f"{_shown(pattern)} is nested too deeply to compile"
    except MemoryError:
        return f"{_shown(pattern)} needs more memory to compile than there is"
    finally:
        if len(pattern) > _CACHE_KEEPS:
            re.purge()  # do not keep a long compiled pattern nobody will use again
    return None


def group_depth(pattern: str) -> int:
    """The deepest nesting of ``(`` groups, escapes and character classes skipped (an
    over-estimate is harmless: it only refuses to compile)."""
    depth = deepest = 0
    in_class = False
    escaped = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth = max(0, depth - 1)
    return deepest


def _shown(pattern: str) -> str:
    """The pattern as a message quotes it: its start only, when long."""
    return repr(pattern) if len(pattern) <= 60 else repr(pattern[:60]) + "…"
