"""Hostile input at scale (issue 15; not part of the default test run).

Run: ``.venv/bin/python -m tests.perf.bench_hostile`` from the repository root
(``--quick`` stops at 12 MB; ``--cases empty-beliefs,halves`` picks cases).

Each case of the hostile corpus (tests/hostile/corpus.py) is made at 1 MB, 16 MB and just
under the 64 MiB packet limit and run through the CLI in a fresh process: wall time, CPU
time (user + system: what the machine's load does not inflate), peak resident memory of
that process and the size of what it printed. The point is the shape of the curves: time
and memory grow in proportion to the input, and the output does not grow at all once the
findings budget is spent. ``x input`` divides the peak by every input the command read
(both packets for ``diff``).

Issue 19 added the workspace shapes (``delta-chain``, ``deltas-over-snapshot``,
``literal-excludes``, ``glob-excludes``), the regex shapes (``many-patterns``,
``long-pattern``), many decisions on one belief (``one-belief-decisions``, through
``review``) and ``diff`` of the findings bombs: against a small packet (``diff-small``),
against itself (``diff-self``) and against another bomb (``diff-other``).

Issue 34 added the claims check against a workspace on one belief citing many anchors
(``anchors-*``) or many sources (``sources-*``) through ``validate``, ``brief --json`` and
``review`` with ``--workspace``, and every command on the packet dense in empty objects
(``empty-objects-*``: ``seal``, ``receipt verify``, ``brief``, ``ingest``,
``canonicalize``, ``validate``).

The worst case of issue 15 is ``empty-beliefs`` (``"beliefs": [{}, {}, ...]``: three
findings per three bytes); ``halves`` (``[0.5, 0.5, ...]``) is canonicalize's.

Issue 29 added the secret scan's shapes (``--scan-shapes``): one belief whose content is a
run of near matches (``api_key: ``, ``password=``, ``Authorization: Bearer ``, ``ghp_``, a
JWT head, ``-----BEGIN PRIVATE KEY-----`` lines), at 2 MiB and 8 MiB, through ``validate``
(which scans every text): the budget is 2 s of CPU per MiB.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from goldens import generate
from tests.hostile.corpus import DESTINATION, PACKET_RECEIPT, Hostile, by_name, path_of
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

MB = 1024 * 1024
SIZES = (1 * MB, 16 * MB, DEFAULT_MAX_BYTES - 1024)
SMALL_PACKET = str(path_of(by_name("terminal-ids")))
# case -> (corpus document, command); {f}: the document, {g}: a second one (diff-other).
COMMANDS: dict[str, tuple[str, list[str]]] = {
    "empty-beliefs": ("empty-beliefs", ["validate", "{f}"]),
    "diff-small": ("empty-beliefs", ["diff", SMALL_PACKET, "{f}"]),
    "diff-self": ("empty-beliefs", ["diff", "{f}", "{f}"]),
    "diff-other": ("empty-beliefs", ["diff", "{f}", "{g}"]),
    "delta-chain": ("delta-chain", ["plan", "{f}"]),
    "deltas-over-snapshot": ("deltas-over-snapshot", ["plan", "{f}"]),
    "literal-excludes": ("literal-excludes", ["plan", "{f}"]),
    "glob-excludes": ("glob-excludes", ["plan", "{f}"]),
    "many-patterns": ("many-patterns", ["plan", "{f}"]),
    "long-pattern": ("long-pattern", ["plan", "{f}"]),
    "one-belief-decisions": (
        "one-belief-decisions",
        [
            "review",
            str(PACKET_RECEIPT),
            "--destination",
            str(DESTINATION),
            "--decisions",
            "{f}",
            "--reviewer",
            "carol",
        ],
    ),
}
# Issue 34: the claims check against a workspace (`--workspace`, an empty folder: every
# source is looked up and missing) on a belief citing many anchors or many sources, and
# every command on the packet dense in empty objects. Their documents are made here
# (`_OWN_SHAPES`), not kept in the corpus.
_REVIEW = ["--destination", str(DESTINATION), "--decisions", "{d}", "--reviewer", "carol"]
for _shape in ("anchors-on-one-belief", "sources-of-one-belief"):
    _short = _shape.split("-", 1)[0]
    COMMANDS[f"{_short}-validate"] = (_shape, ["validate", "{f}", "--workspace", "{w}"])
    COMMANDS[f"{_short}-brief"] = (_shape, ["brief", "--json", "{f}", "--workspace", "{w}"])
    COMMANDS[f"{_short}-review"] = (_shape, ["review", "{f}", *_REVIEW, "--workspace", "{w}"])
for _words in (
    ["seal"],
    ["receipt", "verify"],
    ["brief"],
    ["ingest", "--destination", str(DESTINATION)],
    ["canonicalize"],
    ["validate"],
):
    COMMANDS[f"empty-objects-{_words[0]}"] = ("empty-beliefs", [*_words, "{f}"])
OTHER = "every-section"  # the second bomb of diff-other
_OLD_COMMANDS = {
    "empty-beliefs": ["validate"],
    "every-section": ["validate"],
    "numbers-as-ids": ["validate"],
    "tiny-strings": ["validate"],
    "unknown-keys": ["validate"],
    "listed-sections": ["validate"],
    "empty-plans": ["plan"],
    "dependency-cycles": ["plan"],
    "empty-decisions": ["receipt", "verify"],
    "halves": ["canonicalize"],
}
for _case, _words in _OLD_COMMANDS.items():
    COMMANDS.setdefault(_case, (_case, [*_words, "{f}"]))
# Issue 29: the secret scan's runs of near matches, each the content of one belief.
SCAN_SHAPES: dict[str, str] = {
    "scan-api-key": "api_key: ",
    "scan-password": "password=",
    "scan-bearer": "Authorization: Bearer ",
    "scan-ghp": "ghp_",
    "scan-jwt-head": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.",
    "scan-private-key": "-----BEGIN PRIVATE KEY-----\n",
}
SCAN_SIZES = (2 * MB, 8 * MB)


def scan_shape(unit: str, size: int) -> bytes:
    """A valid unsigned packet whose one belief's content is ``unit`` repeated to ``size``."""
    from goldens import generate as g

    packet = g.handoff("scan-shape")
    packet["content"]["beliefs"] = [g.belief("b-1", unit * (size // len(unit)))]
    return json.dumps(g.unsigned(packet), ensure_ascii=False).encode("utf-8")


def _one_belief_packet() -> bytes:
    """A valid, sealed packet with one belief ("b") and no anchors or sources."""
    packet = generate.handoff("claims")
    packet["content"]["beliefs"] = [generate.belief("b", "claimed")]
    return json.dumps(generate.unsigned(packet), separators=(",", ":")).encode()


_ZERO_DIGEST = b"sha256:" + b"0" * 64


def _source(i: int) -> bytes:
    return b'{"id":"s%d","kind":"local","locator":"f%d","digest":"%s"}' % (i, i, _ZERO_DIGEST)


def _anchor(i: int) -> bytes:
    return b'{"id":"a%d","beliefRef":"b","sourceRef":"s%d"}' % (i, i)


_OWN_SHAPES = {
    h.name: h
    for h in (
        Hostile(
            "anchors-on-one-belief",
            "packet",
            "one belief cited by every anchor, each naming its own (absent) source",
            _one_belief_packet,
            (b'"evidenceAnchors":[',),
            _anchor,
        ),
        Hostile(
            "sources-of-one-belief",
            "packet",
            "local sources with digests, each cited by an anchor of the one belief",
            _one_belief_packet,
            (b'"evidenceSources":[', b'"evidenceAnchors":['),
            units=(_source, _anchor),
        ),
    )
}


def shape(name: str) -> Hostile:
    return _OWN_SHAPES.get(name) or by_name(name)


@dataclass(frozen=True)
class Run:
    case: str
    size: int  # of every input the command read
    seconds: float
    cpu: float
    peak_rss: int
    output: int
    code: int
    said: str = ""  # the last line on stderr


# A small process runs the command and reports its peak RSS: Linux carries a process's
# peak across fork and exec, so a child of this (large) process would report ours.
# Its stderr's last line is kept, to show why a run printed nothing.
_RUNNER = """
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    run = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.PIPE)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
said = (run.stderr.decode(errors="replace").strip().splitlines() or [""])[-1]
print(usage.ru_maxrss, run.returncode, usage.ru_utime + usage.ru_stime, said[:60])
"""


def measure(case: str, path: Path, other: Path) -> Run:
    folder = path.parent
    (folder / "workspace").mkdir(exist_ok=True)
    (folder / "decisions.json").write_text("[]")
    words = [
        w.format(f=path, g=other, w=folder / "workspace", d=folder / "decisions.json")
        for w in COMMANDS[case][1]
    ]
    command = [sys.executable, "-m", "zcf_inspector", *words]
    read = {str(path), str(other), SMALL_PACKET}  # each occurrence: diff A A reads A twice
    inputs = sum(Path(w).stat().st_size for w in words if w in read)
    with tempfile.NamedTemporaryFile() as out:
        start = time.perf_counter()
        report = subprocess.run(
            [sys.executable, "-c", _RUNNER, out.name, *command],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split(maxsplit=3)
        seconds = time.perf_counter() - start
        printed = Path(out.name).stat().st_size
    peak_kb, code = int(report[0]), int(report[1])  # ru_maxrss is in kilobytes on Linux
    cpu = float(report[2])
    said = report[3].strip() if len(report) > 3 else ""
    return Run(case, inputs, seconds, cpu, peak_kb * 1024, printed, code, said)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="1 MB and 16 MB only")
    parser.add_argument("--cases", default=",".join(COMMANDS), help="comma-separated")
    parser.add_argument("--largest", action="store_true", help="64 MiB only")
    parser.add_argument("--scan-shapes", action="store_true", help="issue 29's, alone")
    args = parser.parse_args()
    if args.scan_shapes:
        return scan_shapes()
    sizes = SIZES[:2] if args.quick else SIZES[2:] if args.largest else SIZES
    print(
        f"{'case':<22}{'input':>10}{'wall':>9}{'cpu':>8}{'cpu/MiB':>9}{'peak RSS':>10}"
        f"{'x input':>8}{'output':>10}  exit"
    )
    with tempfile.TemporaryDirectory() as folder:
        for case in args.cases.split(","):
            for size in sizes:
                path = Path(folder) / f"{case}.json"
                path.write_bytes(shape(COMMANDS[case][0]).build(size))
                other = Path(folder) / "other.json"
                if "{g}" in COMMANDS[case][1]:
                    other.write_bytes(by_name(OTHER).build(size))
                run = measure(case, path, other)
                path.unlink()
                other.unlink(missing_ok=True)
                print(
                    f"{case:<22}{run.size / MB:>8.1f}MB{run.seconds:>8.1f}s{run.cpu:>7.1f}s"
                    f"{run.cpu / (run.size / MB):>8.2f}s{run.peak_rss / MB:>8.0f}MB"
                    f"{run.peak_rss / run.size:>8.1f}{run.output / 1024:>8.0f}KB  {run.code}"
                    f"  {run.said}",
                    flush=True,
                )
    return 0


def scan_shapes() -> int:
    print(f"{'case':<22}{'input':>10}{'wall':>9}{'cpu':>8}{'cpu/MiB':>9}{'peak RSS':>10}  exit")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "shape.json"
        for case, unit in SCAN_SHAPES.items():
            for size in SCAN_SIZES:
                path.write_bytes(scan_shape(unit, size))
                COMMANDS[case] = (case, ["validate", "{f}"])
                run = measure(case, path, path)
                print(
                    f"{case:<22}{run.size / MB:>8.1f}MB{run.seconds:>8.1f}s{run.cpu:>7.1f}s"
                    f"{run.cpu / (run.size / MB):>8.2f}s{run.peak_rss / MB:>8.0f}MB  {run.code}"
                    f"  {run.said}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
