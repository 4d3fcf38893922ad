"""The headless twin of the window: `zcf-inspector COMMAND ...`, or `zcf-inspector [FILE...]`.

Each command lives in its own module, imported only when it runs (`commands.COMMANDS`);
its ``register`` adds the parser and sets ``func``, a callable taking the parsed arguments
and returning an exit code. A `ZcfError` escaping a command becomes a message on stderr
and the exit code `exitcodes.for_error` gives it: never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from types import FrameType

from zcf_inspector import __version__
from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import COMMANDS
from zcf_inspector.cli.terminal_text import FIELD_CHARS
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.secrets.masking import masked_shown, masked_visible

WINDOW = "gui"
# Qt's own command-line options (QApplication, QGuiApplication, X11): single-dash words,
# which none of ours are. Those that take a value take the next argument, or `-name=value`.
QT_OPTIONS_WITH_VALUE = frozenset(
    {
        "-style", "-stylesheet", "-platform", "-platformpluginpath", "-platformtheme",
        "-plugin", "-qwindowgeometry", "-qwindowtitle", "-qwindowicon", "-session",
        "-display", "-geometry", "-name", "-title", "-visual", "-ncols", "-cmap", "-font",
        "-fn", "-bg", "-background", "-fg", "-foreground", "-btn", "-button", "-im",
        "-inputstyle", "-qmljsdebugger",
    }
)  # fmt: skip
ERROR_CHARS = 4000
QT_FLAGS = frozenset({"-reverse", "-widgetcount", "-nograb", "-dograb", "-sync"})


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the full arguments of ``command`` only; the other commands appear
    by name and help line, so that `--help` imports no command module."""
    parser = argparse.ArgumentParser(
        prog="zcf-inspector",
        description="Inspect Continuity Format (ZCF v1) packets, receipts and ASIF "
        "continuation plans.",
        epilog="Without a COMMAND, or given FILEs instead (zcf-inspector FILE...), it opens the "
        "inspector window; Qt's own options (-style Fusion, -platform xcb, ...) are passed to Qt.",
    )
    parser.add_argument("--version", action="version", version=f"zcf-inspector {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    registered: set[str] = set()
    for name, entry in COMMANDS.items():
        if name == command:
            module = importlib.import_module(f"zcf_inspector.cli.{entry.module}")
            getattr(module, entry.register)(sub)
            registered.add(name)
        elif name not in registered:
            sub.add_parser(name, help=entry.help, add_help=False)
    return parser


def split_qt_options(arguments: Sequence[str]) -> tuple[list[str], list[str]]:
    """``arguments`` as (Qt's options, ours), keeping the order within each."""
    qt: list[str] = []
    ours: list[str] = []
    pending = False
    for argument in arguments:
        if pending:
            qt.append(argument)
            pending = False
        elif argument in QT_FLAGS or argument.split("=", 1)[0] in QT_OPTIONS_WITH_VALUE:
            qt.append(argument)
            pending = argument in QT_OPTIONS_WITH_VALUE
        else:
            ours.append(argument)
    return qt, ours


def asks_for_window(arguments: Sequence[str]) -> bool:
    if not arguments or arguments[0] == WINDOW:
        return True
    first = arguments[0]
    if first in QT_FLAGS or first.split("=", 1)[0] in QT_OPTIONS_WITH_VALUE:
        return True
    return not first.startswith("-") and first not in COMMANDS


def missing_file_problem(files: Sequence[str], *, bare: bool) -> str | None:
    """Why the window should not open on ``files``: one that does not exist (a mistyped
    command, most likely, when it comes first with no command), or a folder."""
    for index, name in enumerate(files):
        if os.path.isdir(name):
            return f"'{masked_shown(name, FIELD_CHARS)}' is a folder, not a file"
        if name.startswith("-") or os.path.lexists(name):
            continue
        if bare and index == 0 and not any(c in name for c in "/\\."):
            import difflib  # noqa: PLC0415 - only for this hint, not on every start

            close = difflib.get_close_matches(name, COMMANDS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            return f"'{masked_shown(name, FIELD_CHARS)}' is neither a command nor a file{hint}"
        return f"no such file: '{masked_shown(name, FIELD_CHARS)}'"
    return None


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def _unwinding_on_termination() -> Iterator[None]:
    """SIGTERM and SIGHUP end a command through Python's normal unwinding, so the
    temporary file of a half-made output is removed (`core.atomic`), not left behind.
    The previous handlers come back afterwards (tests call `main` in their process)."""
    numbers = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; no signal lands elsewhere anyway
        return
    previous = {number: signal.signal(number, _terminated) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except MemoryError:
        # Under a memory limit (`ulimit -v`) a large input may not fit: a refusal in
        # words, never a crash. Nothing was judged: exit as for a file that cannot be read.
        sys.stderr.write(
            "zcf-inspector: not enough memory to finish: the input is too large for the "
            "memory this process may use\n"
        )
        return exitcodes.USAGE


def _main(argv: Sequence[str] | None) -> int:
    # pydantic looks for plugins in every installed distribution's entry points the first
    # time it builds a validator; this process uses none, so skip the scan (start-up time).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    arguments = list(sys.argv[1:] if argv is None else argv)
    qt_arguments: list[str] = []
    # `zcf-inspector --no-restore` (issue 31): the window without the last session.
    no_restore = "--no-restore" in arguments[:1] or arguments[:2] == [WINDOW, "--no-restore"]
    if no_restore:
        arguments = [a for a in arguments if a != "--no-restore"]
    if asks_for_window(arguments):
        qt_arguments, arguments = split_qt_options(arguments)
        bare = not arguments or arguments[0] != WINDOW
        files = arguments if bare else arguments[1:]
        problem = missing_file_problem(files, bare=bare)
        if problem is not None:
            build_parser().print_usage(sys.stderr)
            sys.stderr.write(f"zcf-inspector: error: {masked_visible(problem)}\n")
            return exitcodes.USAGE
        arguments = [WINDOW, *files]
    command = arguments[0] if arguments and arguments[0] in COMMANDS else None
    parser = build_parser(command)
    args = parser.parse_args(arguments)
    args.qt_arguments = qt_arguments
    args.bare_no_restore = no_restore
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return exitcodes.OK
    # Imported once a command runs: `--help` needs neither.
    from zcf_inspector.cli.stdout import checked_stdout  # noqa: PLC0415
    from zcf_inspector.core.file_trust import allowing_unsafe, take_overridden  # noqa: PLC0415

    unwinding = _unwinding_on_termination() if command != WINDOW else contextlib.nullcontext()
    # Every byte a command prints is written or the command fails (`cli.stdout`); the
    # window prints nothing worth checking, and Qt owns its streams.
    checked = checked_stdout() if command != WINDOW else contextlib.nullcontext()
    trusting = allowing_unsafe(bool(getattr(args, "allow_unsafe_permissions", False)))
    take_overridden()  # warn of this command's files only (`_warn_overridden`)
    # A command builds acyclic trees (parsed JSON, findings) that reference counting frees
    # on its own; the cyclic collector would only walk them again and again as they grow.
    collecting = gc.isenabled()
    gc.disable()
    try:
        with unwinding, trusting, checked:
            code: int = func(args)
    except ZcfError as error:
        # Messages quote file names and values from input: escaped, never obeyed, and cut.
        sys.stderr.write(f"zcf-inspector: {masked_shown(str(error), ERROR_CHARS)}\n")
        return exitcodes.for_error(error)
    except BrokenPipeError:
        # The reader went away (`... | head`): nothing is wrong with the input, so no
        # traceback; stdout is pointed at /dev/null so the interpreter's final flush is
        # quiet too, and the exit code is the shell's for SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return exitcodes.BROKEN_PIPE
    finally:
        if collecting:
            gc.enable()
        _warn_overridden()
    return code


def _warn_overridden() -> None:
    """Each trust-file refusal --allow-unsafe-permissions let through, once, on stderr."""
    from zcf_inspector.core.file_trust import take_overridden  # noqa: PLC0415

    for note in take_overridden():
        sys.stderr.write(f"zcf-inspector: warning: {masked_shown(note, ERROR_CHARS)}\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
