"""The fuzz harness: time-bounded rounds of hypothesis examples, a per-example CPU guard,
and the properties every result of the core must have whatever the input.

A fuzz test is written as ``@fuzz(strategy, ...)`` over a body taking the drawn values.
The harness runs the body under hypothesis in *rounds* (one seed per round) until the
active profile's example count or time budget is spent:

- ``ci`` (default): fixed seeds, at most ``rounds`` rounds, and never more than the test's
  share of ``CI_SECONDS`` (a test stops after the round that crosses it);
- ``long`` (``ZCF_FUZZ_PROFILE=long``): random seeds, rounds until the test's share of
  ``FUZZ_SECONDS`` is spent.

Each example runs under a CPU-time guard (``SIGPROF``, so it does not disturb
pytest-timeout's ``SIGALRM``) that turns a hang in Python code into a failing example,
and under a ``faulthandler`` watchdog that dumps every stack and exits if C code hangs.
"""

from __future__ import annotations

import faulthandler
import functools
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hypothesis import given, seed, settings
from hypothesis.strategies import SearchStrategy

from zcf_inspector.core.findings import Finding, Severity

__all__ = [
    "CallTimedOutError",
    "check_findings",
    "cpu_guard",
    "fuzz",
    "is_pointer",
    "locatable",
    "resolve",
]

PROFILE_ENV = "ZCF_FUZZ_PROFILE"
SECONDS_ENV = "FUZZ_SECONDS"
CI_SECONDS = 40.0  # the whole ci run's budget, shared by the fuzz tests by weight
DEFAULT_LONG_SECONDS = 600.0


@dataclass(frozen=True, slots=True)
class Budget:
    profile: str  # the hypothesis profile registered in conftest.py
    seconds: float  # for all fuzz tests together
    max_rounds: int | None  # None: until the time is spent
    fixed_seeds: bool
    cpu_seconds: float  # per example


def active_budget() -> Budget:
    name = os.environ.get(PROFILE_ENV, "ci")
    if name == "ci":
        return Budget("zcf-fuzz-ci", CI_SECONDS, None, True, 20.0)
    if name == "long":
        seconds = float(os.environ.get(SECONDS_ENV, DEFAULT_LONG_SECONDS))
        return Budget("zcf-fuzz-long", seconds, None, False, 60.0)
    raise RuntimeError(f"{PROFILE_ENV} must be 'ci' or 'long', not {name!r}")


# Every fuzz test's weight, so that each gets its share of the run's time budget.
_WEIGHTS: dict[str, float] = {}


class CallTimedOutError(Exception):
    """An example used more CPU time than the guard allows: a hang, for our purposes."""


@contextmanager
def cpu_guard(seconds: float) -> Iterator[None]:
    """Raise ``CallTimedOutError`` after ``seconds`` of CPU; dump stacks and exit if stuck in C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_timer(signum: int, frame: object) -> None:
        raise CallTimedOutError(f"one example used more than {seconds:.0f} s of CPU time")

    previous = signal.signal(signal.SIGPROF, on_timer)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    faulthandler.dump_traceback_later(seconds * 3 + 30, exit=True)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        faulthandler.cancel_dump_traceback_later()
        signal.signal(signal.SIGPROF, previous)


def fuzz(
    *strategies: SearchStrategy[Any], weight: float = 1.0, rounds: int = 3
) -> Callable[[Callable[..., None]], Callable[[], None]]:
    """Turn ``body(*drawn)`` into a zero-argument pytest test run in bounded rounds.

    ``rounds`` is the ci round count (``max_examples`` each, from the profile); ``weight``
    is the test's relative share of the time budget.
    """

    def decorate(body: Callable[..., None]) -> Callable[[], None]:
        budget = active_budget()
        key = f"{body.__module__}.{body.__qualname__}"
        _WEIGHTS[key] = weight

        @functools.wraps(body)  # hypothesis keys its database on the body's source
        def guarded(*args: Any, **kwargs: Any) -> None:
            with cpu_guard(budget.cpu_seconds):
                body(*args, **kwargs)

        def test() -> None:
            # Built at run time: the profiles are registered by conftest.py.
            inner = settings(settings.get_profile(budget.profile))(given(*strategies)(guarded))
            share = budget.seconds * weight / sum(_WEIGHTS.values())
            deadline = time.monotonic() + share
            base = zlib_crc(key)
            done = 0
            while True:
                round_seed = base + done if budget.fixed_seeds else random.getrandbits(64)
                seed(round_seed)(inner)()
                done += 1
                if time.monotonic() >= deadline:
                    break
                if budget.fixed_seeds and done >= rounds:
                    break

        test.__name__ = body.__name__
        test.__qualname__ = body.__qualname__
        test.__doc__ = body.__doc__
        test.__module__ = body.__module__
        return test

    return decorate


def zlib_crc(text: str) -> int:
    import zlib

    return zlib.crc32(text.encode())


# --- properties of findings ------------------------------------------------------------------

# RFC 6901: "" or a sequence of "/" + token, where "~" only ever starts "~0" or "~1".
_POINTER = re.compile(r"(?:/(?:[^/~]|~[01])*)*", re.DOTALL)
MAX_MESSAGE_CHARS = 2_000


def is_pointer(text: object) -> bool:
    return isinstance(text, str) and _POINTER.fullmatch(text) is not None


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


_MISSING = object()


def resolve(document: object, pointer: str) -> object:
    """The value ``pointer`` names in ``document``, or ``_MISSING`` (own resolver, on purpose)."""
    current = document
    for token in _tokens(pointer):
        if isinstance(current, dict):
            if token not in current:
                return _MISSING
            current = current[token]
        elif isinstance(current, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(current):
                return _MISSING
            current = current[int(token)]
        else:
            return _MISSING
    return current


def locatable(document: object, pointer: str) -> bool:
    """``pointer`` resolves, or names a missing member of an object that resolves."""
    if resolve(document, pointer) is not _MISSING:
        return True
    if pointer == "":
        return False
    parent, _, last = pointer.rpartition("/")
    holder = resolve(document, parent)
    return isinstance(holder, dict) and _tokens("/" + last)[0] not in holder


def check_findings(findings: tuple[Finding, ...], codes: type[StrEnum]) -> None:
    """Every finding has a code of ``codes``, a severity, a valid pointer and a message."""
    assert isinstance(findings, tuple), type(findings)
    for finding in findings:
        assert isinstance(finding, Finding), finding
        assert type(finding.code) is codes, (finding.code, codes)
        assert isinstance(finding.severity, Severity), finding
        assert is_pointer(finding.pointer), finding
        assert isinstance(finding.message, str), finding
        assert finding.message, finding
        assert finding.offset is None or finding.offset >= 0, finding
