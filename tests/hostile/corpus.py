"""The hostile-input corpus: documents built to cost as much as possible per byte.

Each `Hostile` makes its document at any size: a base document with one marker, spliced
with as many copies of a small unit as fit (so 64 MiB costs a few seconds and no more
memory than the bytes). Small instances are kept in ``tests/data/hostile/`` (written and
checked by this module, like the goldens) and run through the CLI by
``tests/cli/test_hostile_corpus.py``; the fuzz run mutates them
(``tests/fuzz/strategies/``); ``tests/perf/bench_hostile.py`` makes the large ones.

    .venv/bin/python -m tests.hostile.corpus --write   # rewrite tests/data/hostile/
    .venv/bin/python -m tests.hostile.corpus --check   # exit 1 when a file is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from goldens import generate
from tests.conftest import DATA, EXAMPLES, REPO

FOLDER: Final = DATA / "hostile"
SMALL: Final = 8 * 1024  # the size of the kept instances: enough to pass 1,000 findings
# What CLI commands each kind of document goes through, and the exit code each must give
# ({f}: the file; {destination}: the goldens' destination file).
DESTINATION: Final = REPO / "goldens" / "destination.json"
PACKET_RECEIPT: Final = REPO / "goldens" / "publication" / "full-handoff.json"
SECTIONS: Final = (
    b"beliefs",
    b"evidenceSources",
    b"evidenceAnchors",
    b"receipts",
    b"reviewEvents",
    b"verification",
)
# Escapes a terminal would act on, and characters that reorder or hide text.
TERMINAL: Final = "\x1b]0;pwned\x07\x1b[31m\x9b1m\u202eevil\u2066\u2028\u200b\x7f"


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True)
class Hostile:
    """A document grown to a size by repeating ``unit(i)`` after each of ``markers`` in
    ``base()`` (shared out evenly); with no markers, ``base()`` as it is."""

    name: str
    kind: str  # packet, session, report, receipt, decisions, array (any JSON)
    why: str
    base: Callable[[], bytes]
    markers: tuple[bytes, ...] = ()
    unit: Callable[[int], bytes] = lambda _: b""
    opening: bytes = b""  # written after a marker, before the units
    closing: bytes = b""  # written after the units
    # One unit per marker, when the markers need different ones (else ``unit`` everywhere).
    units: tuple[Callable[[int], bytes], ...] = ()

    def _unit(self, marker: int) -> Callable[[int], bytes]:
        return self.units[marker] if self.units else self.unit

    def _unit_size(self, i: int) -> int:
        sizes = [len(self._unit(m)(i)) for m in range(len(self.markers))]
        return max(sizes)  # the longest: the document stays within its size

    def build(self, size: int = SMALL) -> bytes:
        """The document, about ``size`` bytes long (never less than its base)."""
        base = self.base()
        if not self.markers:
            return base
        extra = len(self.markers) * len(self.opening + self.closing)
        room = size - len(base) - extra
        count = max(len(self.markers), room // (self._unit_size(0) + 1))
        # Units may grow with their number ("k9", "k10"): measured by the last one, the
        # document stays within ``size`` (under the packet limit at its largest).
        for _ in range(3):
            count = max(len(self.markers), room // (self._unit_size(count - 1) + 1))
        share = count // len(self.markers)
        pieces: list[bytes] = []
        rest = base
        made = 0
        for n, marker in enumerate(self.markers):
            at = rest.index(marker) + len(marker)
            pieces += [rest[:at], self.opening]
            unit = self._unit(n)
            first = 0 if self.units else made  # each marker's own units count from 0
            pieces.append(b",".join(unit(i) for i in range(first, first + share)))
            pieces.append(self.closing)
            made += share
            rest = rest[at:]
        pieces.append(rest)
        return b"".join(pieces)


# --- bases ------------------------------------------------------------------------------------


@cache
def _packet(name: str = "hostile") -> bytes:
    """A valid, sealed session-handoff with every array section empty."""
    packet = generate.handoff(name)
    return _dump(generate.unsigned(packet))


@cache
def _packet_with(mutation: str) -> bytes:
    packet = generate.handoff("hostile")
    content = packet["content"]
    if mutation == "tools":
        content["allowedTools"] = []
    return _dump(generate.unsigned(packet))


@cache
def _session() -> bytes:
    session = json.loads((EXAMPLES / "another-computer.session.json").read_bytes())
    return _dump(session)


def _session_with(mutate: Callable[[dict[str, Any]], None]) -> bytes:
    session = json.loads(_session())
    mutate(session)
    return _dump(session)


def _no_plans(session: dict[str, Any]) -> None:
    session["continuation"]["plans"] = []


def _plan_without_dependencies(session: dict[str, Any]) -> None:
    plans = session["continuation"]["plans"]
    plans[0]["dependency_ids"] = []
    del plans[1:]


def _one_dependency_selected(session: dict[str, Any]) -> None:
    continuation = session["continuation"]
    plans = continuation["plans"]
    plans[0]["dependency_ids"] = ["d0"]
    del plans[1:]
    continuation["dependencies"] = []


@cache
def _dependency_template() -> dict[str, Any]:
    session = json.loads(_session())
    template: dict[str, Any] = session["continuation"]["dependencies"][0]
    return template


def _paired_dependency(i: int) -> bytes:
    """Dependency ``d{i}``: each pair needs each other (a cycle of two), and the odd one
    of a pair the next pair too, so one selected dependency reaches them all."""
    needs = [f"d{i + 1}"] if i % 2 == 0 else [f"d{i - 1}", f"d{i + 1}"]
    return _dump({**_dependency_template(), "id": f"d{i}", "depends_on": needs})


@cache
def _report() -> bytes:
    report = json.loads((EXAMPLES / "another-computer.report.json").read_bytes())
    report["assessments"] = []
    return _dump(report)


@cache
def _receipt() -> bytes:
    receipt = json.loads((REPO / "goldens" / "publication" / "minimal.receipt.json").read_bytes())
    receipt["review"] = {"decisions": []}
    return _dump(receipt)


def _terminal_packet() -> bytes:
    """A valid packet whose ids and text carry terminal escapes and bidi controls (ids
    refuse only characters below U+0020), and an unknown key that is all of them."""
    packet = generate.handoff("terminal")
    packet["packet"]["id"] = "pkt-" + TERMINAL.replace("\x1b", "").replace("\x07", "")
    packet["packet"]["intent"] = "intent " + TERMINAL
    packet["content"]["beliefs"] = [
        generate.belief("b-" + TERMINAL.replace("\x1b", "").replace("\x07", ""), TERMINAL)
    ]
    packet = generate.unsigned(packet)
    packet["extensions"] = {}  # not covered: still valid
    return _dump(packet)


def _terminal_keys() -> bytes:
    packet = json.loads(_packet())
    packet[TERMINAL] = 1  # an unknown top-level key: its pointer is printed
    packet["content"]["beliefs"] = [{TERMINAL: TERMINAL}]
    return _dump(packet)


def _terminal_session() -> bytes:
    def mutate(session: dict[str, Any]) -> None:
        plans = session["continuation"]["plans"]
        plans[0]["id"] = "plan-" + TERMINAL
        plans[0]["dependency_ids"].append("dep-" + TERMINAL)

    return _session_with(mutate)


# --- sessions: workspaces, tool schemas ------------------------------------------------------


@cache
def _head_workspace() -> dict[str, Any]:
    session = json.loads(_session())
    head: dict[str, Any] = session["continuation"]["workspaces"][0]
    return head


def _delta(ident: str, base: str, entries: list[str], deletions: list[str]) -> dict[str, Any]:
    """A delta workspace over ``base`` adding ``entries`` (files) and deleting ``deletions``."""
    return {
        **_head_workspace(),
        "id": ident,
        "mode": "delta",
        "selection": {"include": [], "exclude": [], "complete_for_selection": False},
        "entries": [_file(path) for path in entries],
        "deletions": deletions,
        "base_snapshot_id": base,
    }


def _file(path: str) -> dict[str, Any]:
    return {"path": path, "kind": "file", "mode": 420, "resource_id": "report"}


def _glob_session(session: dict[str, Any]) -> None:
    """A delta whose excludes and deletions are grown (markers "x-excludes", "x-deletions")."""
    delta = _delta("ws-delta", "workspace-head", [], ["x-deletions"])
    delta["selection"]["exclude"] = ["x-excludes"]
    session["continuation"]["workspaces"].append(delta)


def _chain_unit(i: int) -> bytes:
    """Delta ``w{i}`` over ``w{i-1}`` (the first over the head): one file in, the last out."""
    base = "workspace-head" if i == 0 else f"w{i - 1}"
    gone = "summary.md" if i == 0 else f"f{i - 1}"
    return _dump(_delta(f"w{i}", base, [f"f{i}"], [gone]))


def _snapshot_delta_unit(i: int) -> bytes:
    """Delta ``d{i}`` over the head, deleting the head's grown entry ``p{i}``."""
    return _dump(_delta(f"d{i}", "workspace-head", [], [f"p{i}"]))


def _schema_session(schemas: list[dict[str, Any]]) -> bytes:
    """The session with one tool per schema (``t0``, ``t1``…) besides its own."""
    session = json.loads(_session())
    tool = session["tools"][0]
    for i, schema in enumerate(schemas):
        session["tools"].append({**tool, "id": f"t{i}", "input_schema": schema})
    return _dump(session)


def _regex_bombs() -> bytes:
    """Patterns Python's compiler cannot take: a repeat past 2^32, 1,200 nested groups, a
    pattern of 5,000 characters, a patternProperties key nested 200 deep."""
    return _schema_session(
        [
            {"type": "string", "pattern": "a{4294967296}"},
            {"type": "string", "pattern": "(" * 1200 + ")" * 1200},
            {"type": "string", "pattern": "(a|b)" * 1_000},
            {"type": "object", "patternProperties": {"(" * 200 + "x" + ")" * 200: {}}},
            {"type": "string", "pattern": "[" + "a-z" * 5},  # not a regex: one finding
        ]
    )


# --- the corpus -------------------------------------------------------------------------------


def _fixed(name: str, kind: str, why: str, make: Callable[[], bytes]) -> Hostile:
    """A document of one size."""
    return Hostile(name, kind, why, cache(make))


CORPUS: Final[tuple[Hostile, ...]] = (
    Hostile(
        "empty-beliefs",
        "packet",
        "three missing fields per three bytes: `beliefs: [{}, {}, ...]`",
        _packet,
        (b'"beliefs":[',),
        lambda _: b"{}",
    ),
    Hostile(
        "unknown-keys",
        "packet",
        "one belief with a key per few bytes, each an unknown field",
        _packet,
        (b'"beliefs":[',),
        lambda i: b'"k%d":0' % i,
        b'{"portableRef":"b","sourceId":"s","content":"c",',
        b"}",
    ),
    Hostile(
        "numbers-as-ids",
        "packet",
        "source.scopeRefs of numbers: an invalid value per two bytes, in an envelope object",
        _packet,
        (b'"scopeRefs":[',),
        lambda _: b"1",
    ),
    Hostile(
        "listed-sections",
        "packet",
        "a manifest listing a section no packet has, per few bytes",
        _packet,
        (b'"sections":{',),
        lambda i: b'"s%d":"x"' % i,
        b"",
        b",",
    ),
    Hostile(
        "tiny-strings",
        "packet",
        "allowedTools of one-letter strings: unknown capability and duplicate per 4 bytes",
        lambda: _packet_with("tools"),
        (b'"allowedTools":[',),
        lambda _: b'"x"',
    ),
    Hostile(
        "dangling-references",
        "packet",
        "evidence anchors naming beliefs and sources that do not exist",
        _packet,
        (b'"evidenceAnchors":[',),
        lambda i: b'{"id":"a%d","beliefRef":"b","sourceRef":"s"}' % i,
    ),
    Hostile(
        "duplicate-ids",
        "packet",
        "beliefs that all share one portableRef",
        _packet,
        (b'"beliefs":[',),
        lambda _: b'{"portableRef":"b","sourceId":"s","content":""}',
    ),
    Hostile(
        "dangling-redactions",
        "packet",
        "redaction entries whose pointers name nothing (warnings)",
        _packet,
        (b'"entries":[',),
        lambda i: b'{"section":"beliefs","pointer":"/%d","reason":"r"}' % i,
    ),
    Hostile(
        "every-section",
        "packet",
        "empty objects in every array section at once",
        _packet,
        tuple(b'"%s":[' % name for name in SECTIONS),
        lambda _: b"{}",
    ),
    _fixed(
        "deep-duplicate-key",
        "packet",
        "a duplicate key 127 levels down: refused by the reader at its offset",
        lambda: _packet().replace(
            b'"extensions":{}', b'"extensions":' + b'{"a":' * 126 + b'{"x":1,"x":2}' + b"}" * 126
        ),
    ),
    _fixed("terminal-ids", "packet", "ids and text with escapes and bidi", _terminal_packet),
    _fixed("terminal-keys", "packet", "keys with terminal escapes and bidi", _terminal_keys),
    Hostile(
        "long-key",
        "packet",
        "one unknown key as long as the file: a pointer cut, not printed whole",
        _packet,
        (b'"extensions":{}',),
        lambda _: b"k",
        b',"',
        b'":1',
    ),
    Hostile(
        "empty-plans",
        "session",
        "continuation.plans of empty objects: many missing fields per three bytes",
        lambda: _session_with(_no_plans),
        (b'"plans":[',),
        lambda _: b"{}",
    ),
    Hostile(
        "dangling-dependencies",
        "session",
        "a plan selecting dependencies that are declared nowhere",
        lambda: _session_with(_plan_without_dependencies),
        (b'"dependency_ids":[',),
        lambda i: b'"d%d"' % i,
    ),
    Hostile(
        "dependency-cycles",
        "session",
        "dependencies in cycles of two, all reached from one selected: one cycle per pair",
        lambda: _session_with(_one_dependency_selected),
        (b'"dependencies":[',),
        _paired_dependency,
    ),
    _fixed("terminal-plan", "session", "plan ids with escapes and bidi", _terminal_session),
    Hostile(
        "glob-excludes",
        "session",
        "a delta with a glob exclude and a deletion per few bytes: every pair is a match",
        lambda: _session_with(_glob_session),
        (b'"exclude":["x-excludes"', b'"deletions":["x-deletions"'),
        opening=b",",
        units=(lambda i: b'"g%d*"' % i, lambda i: b'"h%d"' % i),
    ),
    Hostile(
        "literal-excludes",
        "session",
        "a delta with literal excludes and deletions (each deletion also names nothing)",
        lambda: _session_with(_glob_session),
        (b'"exclude":["x-excludes"', b'"deletions":["x-deletions"'),
        opening=b",",
        units=(lambda i: b'"e%d/"' % i, lambda i: b'"e%d/f"' % i),
    ),
    Hostile(
        "delta-chain",
        "session",
        "a chain of deltas, each over the one before: flattening each was the whole chain",
        _session,
        (b'"workspaces":[',),
        _chain_unit,
        closing=b",",
    ),
    Hostile(
        "deltas-over-snapshot",
        "session",
        "many deltas over one large snapshot: each flattened tree was a copy of the snapshot",
        _session,
        (b'"workspaces":[', b'"entries":['),
        closing=b",",
        units=(_snapshot_delta_unit, lambda i: _dump(_file(f"p{i}"))),
    ),
    _fixed("regex-bombs", "session", "tool schema patterns re cannot compile", _regex_bombs),
    Hostile(
        "many-patterns",
        "session",
        "a tool schema of distinct patterns, each compiled (until the document's budget)",
        lambda: _schema_session([{"allOf": [{"pattern": "seed"}]}]),
        (b'"allOf":[{"pattern":"seed"}',),
        lambda i: b'{"pattern":"(a|b)*c{%d}"}' % i,
        opening=b",",
    ),
    Hostile(
        "long-pattern",
        "session",
        "one tool schema pattern as long as the file",
        lambda: _schema_session([{"pattern": "x"}]),
        (b'"pattern":"',),
        lambda _: b"(a)",
    ),
    Hostile(
        "empty-assessments",
        "report",
        "a destination report of empty assessments",
        _report,
        (b'"assessments":[',),
        lambda _: b"{}",
    ),
    Hostile(
        "empty-decisions",
        "receipt",
        "a receipt whose review holds empty decisions",
        _receipt,
        (b'"decisions":[',),
        lambda _: b"{}",
    ),
    Hostile(
        "decisions-file",
        "decisions",
        "a decisions file of empty objects",
        lambda: b"[]",
        (b"[",),
        lambda _: b"{}",
    ),
    Hostile(
        "one-belief-decisions",
        "decisions",
        "every decision on one belief, back and forth: its history as long as the file",
        lambda: b"[]",
        (b"[",),
        lambda i: (
            b'{"portableRef":"b-reader","state":"%s"}' % (b"confirmed" if i % 2 else b"unreviewed")
        ),
    ),
    Hostile(
        "halves",
        "array",
        "`[0.5, 0.5, ...]`: each number a float of its own, for canonicalize",
        lambda: b"[]",
        (b"[",),
        lambda _: b"0.5",
    ),
)


def by_name(name: str) -> Hostile:
    return next(h for h in CORPUS if h.name == name)


def path_of(hostile: Hostile) -> Path:
    return FOLDER / f"{hostile.name}.{hostile.kind}.json"


def kept_files() -> dict[Path, bytes]:
    """The small instance of every document, as kept in the repository."""
    return {path_of(h): h.build(SMALL) for h in CORPUS}


def files() -> dict[str, bytes]:
    """name -> bytes of the kept files (read from disk: what the fuzz run mutates)."""
    return {p.name: p.read_bytes() for p in sorted(FOLDER.glob("*.json"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true")
    action.add_argument("--check", action="store_true")
    args = parser.parse_args()
    wanted = kept_files()
    if args.write:
        FOLDER.mkdir(parents=True, exist_ok=True)
        for leftover in set(FOLDER.glob("*.json")) - set(wanted):
            leftover.unlink()
        for path, data in wanted.items():
            path.write_bytes(data)
        sys.stdout.write(f"wrote {len(wanted)} files to {FOLDER}\n")
        return 0
    stale = [p.name for p, data in wanted.items() if not p.is_file() or p.read_bytes() != data]
    extra = sorted(p.name for p in set(FOLDER.glob("*.json")) - set(wanted))
    if stale or extra:
        sys.stderr.write(
            f"tests/data/hostile is out of date ({', '.join(stale + extra)}): "
            "run .venv/bin/python -m tests.hostile.corpus --write\n"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
