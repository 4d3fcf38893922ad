"""Self-test of a built zcf-inspector: `python packaging/self_test.py dist/zcf-inspector`.

It runs the executable the way a user would, headless first (every check decides on the
exit code *and* the output, so a bundle that starts but lost a module or a resource fails),
then the window on the offscreen Qt platform. Standard library only, so any Python 3.11
can test a bundle; given a plain executable (e.g. `.venv/bin/zcf-inspector`) instead of a
bundle folder, it runs the same checks minus the bundle's file layout, which is how
tests/test_packaging.py keeps this script honest without building a bundle.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXE_NAME = "zcf-inspector"
# PyInstaller 6's one-dir layout: the executable beside `_internal/`, which is sys._MEIPASS.
INTERNAL = "_internal"
# What the bundle must carry besides code: the app's resources (loaded with
# importlib.resources) and the goldens that `check-goldens` finds without an argument.
BUNDLED_FILES = (
    "zcf_inspector/resources/examples/full-handoff.json",
    "zcf_inspector/resources/icons/pass.svg",
    "zcf_inspector/resources/app/zcf-inspector.svg",
    "zcf_inspector/goldens/publication/full-handoff.json",
    "zcf_inspector/goldens/destination.json",
)
GUI_SECONDS = 6.0
HEADLESS_TIMEOUT = 120.0
# Lines the offscreen platform prints for any window; they are not the app's errors.
BENIGN_GUI_OUTPUT = ("This plugin does not support propagateSizeHints()",)
ERROR_MARKERS = ("Traceback", "Error", "error:", "Could not", "Cannot", "critical", "Fatal")


@dataclass(frozen=True)
class Target:
    exe: Path
    internal: Path | None  # the bundle's data folder; None for a plain executable
    goldens: Path  # the goldens the headless checks read


class SelfTestError(Exception):
    """A check failed; the message says which and shows what the app printed."""


def run(
    target: Target, args: Sequence[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(target.exe), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=HEADLESS_TIMEOUT,
        check=False,
    )


def expect(
    result: subprocess.CompletedProcess[str], code: int, must_contain: str, what: str
) -> None:
    if result.returncode != code or must_contain not in result.stdout:
        raise SelfTestError(
            f"{what}: exit {result.returncode} (expected {code}), "
            f"stdout should contain {must_contain!r}\n"
            f"--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}"
        )


def check_layout(target: Target, env: dict[str, str]) -> str:
    del env
    if target.internal is None:
        return "not a bundle folder: layout not checked"
    missing = [name for name in BUNDLED_FILES if not (target.internal / name).is_file()]
    if missing:
        raise SelfTestError(f"missing from {target.internal}: {', '.join(missing)}")
    return f"{len(BUNDLED_FILES)} resource files present"


def check_version(target: Target, env: dict[str, str]) -> str:
    result = run(target, ["--version"], env)
    expect(result, 0, "zcf-inspector ", "--version")
    return result.stdout.strip()


def check_validate_golden(target: Target, env: dict[str, str]) -> str:
    golden = target.goldens / "publication" / "full-handoff.json"
    result = run(target, ["validate", "--json", str(golden)], env)
    expect(result, 0, '"valid": true', f"validate {golden}")
    verdict = json.loads(result.stdout)
    sections = verdict[0]["manifest"]["sections"]
    if not sections or not all(section["match"] for section in sections.values()):
        raise SelfTestError(f"validate {golden}: manifest sections do not all match: {sections}")
    return f"{golden.name} valid, {len(sections)} manifest sections match"


def check_refuses_tampered(target: Target, env: dict[str, str]) -> str:
    # A verifier that accepts everything would pass the check above; this one must refuse.
    golden = target.goldens / "negative" / "tampered-capsule.json"
    result = run(target, ["validate", str(golden)], env)
    expect(result, 1, "section_digest_mismatch", f"validate {golden}")
    return f"{golden.name} refused (section_digest_mismatch)"


def check_goldens(target: Target, env: dict[str, str]) -> str:
    # Every vector, ingest and MAC/signature verification included: this exercises the
    # frozen cryptography and pydantic extension modules, not only the reader.
    result = run(target, ["check-goldens", str(target.goldens)], env)
    expect(result, 0, " 0 failed", f"check-goldens {target.goldens}")
    return result.stdout.strip().splitlines()[-1]


def check_bundled_goldens(target: Target, env: dict[str, str]) -> str:
    if target.internal is None:
        return "not a bundle folder: default goldens not checked"
    result = run(target, ["check-goldens"], env)
    expect(result, 0, " 0 failed", "check-goldens (the bundled goldens)")
    return result.stdout.strip().splitlines()[-1]


# A made-up credential in AWS's documented example shape, planted in a golden's belief.
PLANTED_KEY = "AKIAIOSFODNN7EXAMPLE"


def check_secret_scan(target: Target, env: dict[str, str]) -> str:
    """The secret scan runs in the bundle, on its engine: a planted key is flagged, masked
    (its tail never printed), and the engine's extension module is in the bundle."""
    engine = []
    if target.internal is not None:
        # The RE2 extension the scan's engine loads (core/secrets/engine.py): without it the
        # bundle would scan, slowly, with the standard library alone.
        engine = sorted((target.internal / "re2").glob("_re2*.so"))
        if not engine:
            raise SelfTestError(
                f"the secret scan's engine (re2/_re2*.so) is not in {target.internal}"
            )
    packet = json.loads((target.goldens / "publication" / "full-handoff.json").read_text())
    packet["content"]["beliefs"][0]["content"] += f" deploy key {PLANTED_KEY}"
    with tempfile.TemporaryDirectory() as folder:
        planted = Path(folder) / "planted.json"
        planted.write_text(json.dumps(packet))
        result = run(target, ["validate", str(planted)], env)
    # Refused (the planted text no longer matches its digest); the scan runs all the same.
    expect(result, 1, "secret_suspected  /content/beliefs/0/content", "validate a planted key")
    expect(result, 1, "AKIA…(20 characters, hidden)", "validate a planted key")
    if PLANTED_KEY[4:] in result.stdout + result.stderr:
        raise SelfTestError(f"validate a planted key: the key was printed\n{result.stdout[-3000:]}")
    where = f", engine {engine[0].name}" if engine else ""
    return f"planted key flagged at /content/beliefs/0/content, masked{where}"


def example_packet(target: Target) -> Path:
    if target.internal is not None:
        return target.internal / "zcf_inspector/resources/examples/full-handoff.json"
    return target.goldens / "publication" / "full-handoff.json"


def check_window(target: Target, env: dict[str, str]) -> str:
    """The window opens the example packet and stays up with nothing alarming printed.

    The app has no exit-after-load switch, so this runs it for GUI_SECONDS, then ends it:
    still running at that point (not crashed, not exited) and a clean stderr is the pass.
    """
    example = example_packet(target)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([str(target.exe), str(example)], stdout=out, stderr=err, env=env)
        try:
            deadline = time.monotonic() + GUI_SECONDS
            while time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.1)
            exited = process.poll()
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        out.seek(0)
        err.seek(0)
        printed = out.read() + err.read()
    alarming = [
        line
        for line in printed.splitlines()
        if line.strip()
        and not any(benign in line for benign in BENIGN_GUI_OUTPUT)
        and any(marker in line for marker in ERROR_MARKERS)
    ]
    if exited is not None or alarming:
        state = f"exited with {exited}" if exited is not None else "stayed up"
        raise SelfTestError(f"window on {example.name}: {state}; output:\n{printed[-3000:]}")
    return f"window stayed up {GUI_SECONDS:.0f} s on {example.name}, no errors printed"


CHECKS: tuple[tuple[str, Callable[[Target, dict[str, str]], str]], ...] = (
    ("bundle layout", check_layout),
    ("--version", check_version),
    ("validate a golden", check_validate_golden),
    ("refuse a tampered packet", check_refuses_tampered),
    ("check-goldens DIR", check_goldens),
    ("check-goldens (bundled)", check_bundled_goldens),
    ("secret scan", check_secret_scan),
    ("window, offscreen", check_window),
)


def resolve(path: Path, goldens: Path) -> Target:
    if path.is_dir():
        return Target(exe=path / EXE_NAME, internal=path / INTERNAL, goldens=goldens)
    return Target(exe=path, internal=None, goldens=goldens)


def isolated_env(home: Path) -> dict[str, str]:
    """The user's environment, minus anything that would make the test touch their files
    or depend on their display: a throwaway HOME and XDG dirs (QSettings writes the
    recent-files list there) and the offscreen Qt platform."""
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_RUNTIME_DIR=str(home / "runtime"),
        QT_QPA_PLATFORM="offscreen",
    )
    (home / "runtime").mkdir(mode=0o700)
    # A Python of the caller's would shadow the bundle's own (or the venv's) modules.
    for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP"):
        env.pop(name, None)
    return env


def self_test(path: Path, goldens: Path) -> list[str]:
    """Run every check; return one line per failure (empty: all passed)."""
    target = resolve(path, goldens)
    if not target.exe.is_file():
        return [f"no executable at {target.exe}"]
    failures = []
    with tempfile.TemporaryDirectory(prefix="zcf-self-test-") as home:
        env = isolated_env(Path(home))
        for name, check in CHECKS:
            started = time.monotonic()
            try:
                detail = check(target, env)
            except (SelfTestError, subprocess.TimeoutExpired, OSError, ValueError) as exc:
                failures.append(f"{name}: {exc}")
                print(f"FAIL {name}: {exc}", flush=True)
            else:
                print(f"ok   {name} ({time.monotonic() - started:.1f} s): {detail}", flush=True)
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Self-test a built zcf-inspector.")
    parser.add_argument(
        "target", type=Path, help="the bundle folder (dist/zcf-inspector) or an executable"
    )
    parser.add_argument(
        "--goldens", type=Path, default=REPO / "goldens", help="default: the repository's goldens"
    )
    args = parser.parse_args(argv)
    failures = self_test(args.target, args.goldens)
    print(f"self-test: {len(CHECKS) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
