"""`read_bounded`: the one way files are read — regular files only, judged on the open
descriptor, never more than the limit, and never a wait (FIFOs, devices, sockets)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from zcf_inspector.core.files import Unreadable, UnreadableFileError, read_bounded
from zcf_inspector.core.keyfile import KEY_FILE_MAX_BYTES, KeyFileError, load_ed25519_key
from zcf_inspector.core.packet.destination import DestinationError, load_destination

# A read that blocked would hang the test run: each hostile read runs in a child process
# that must finish within this many seconds (a generous bound, not a timing claim).
CHILD_TIMEOUT = 60


def refusal(
    path: Path, max_bytes: int = 100, *, refuse_larger: bool = False
) -> UnreadableFileError:
    with pytest.raises(UnreadableFileError) as caught:
        read_bounded(path, max_bytes, refuse_larger=refuse_larger)
    return caught.value


def test_regular_file_read_up_to_one_byte_past_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 1000)
    assert read_bounded(path, 10) == b"x" * 11  # the reader refuses it as too large
    assert read_bounded(path, 5000) == b"x" * 1000
    error = refusal(path, 10, refuse_larger=True)
    assert error.reason is Unreadable.TOO_LARGE
    assert error.size == 1000


def test_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    error = refusal(fifo)
    assert error.reason is Unreadable.NOT_REGULAR
    assert error.kind == "a named pipe (FIFO)"
    assert "not a regular file" in str(error)


def test_devices_are_refused_before_a_byte_is_read() -> None:
    for device in ("/dev/zero", "/dev/null", "/dev/urandom"):
        error = refusal(Path(device))
        assert error.reason is Unreadable.NOT_REGULAR
        assert error.kind == "a character device"


def test_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        assert refusal(path).reason is Unreadable.NOT_REGULAR
    finally:
        server.close()


def test_folder_links_and_missing_files(tmp_path: Path) -> None:
    assert refusal(tmp_path).reason is Unreadable.FOLDER
    assert refusal(tmp_path / "absent.json").reason is Unreadable.MISSING
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "gone.json")
    error = refusal(dangling)
    assert error.reason is Unreadable.DANGLING_LINK
    assert error.target == str(tmp_path / "gone.json")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.symlink_to(second)
    second.symlink_to(first)
    assert refusal(first).reason is Unreadable.LINK_LOOP
    plain = tmp_path / "plain"
    plain.write_text("x")
    assert refusal(plain / "inside.json").reason is Unreadable.NOT_A_FOLDER
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    link = tmp_path / "link-to-fifo.json"
    link.symlink_to(fifo)
    assert refusal(link).reason is Unreadable.NOT_REGULAR
    good = tmp_path / "good.json"
    good.write_bytes(b"{}")
    alias = tmp_path / "alias.json"
    alias.symlink_to(good)
    assert read_bounded(alias) == b"{}"


def test_file_names_in_messages_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "evil\x1b]0;owned\x07\u202e.json"
    message = str(refusal(path))
    assert not {"\x1b", "\x07", "\u202e"} & set(message)
    assert "\\u001b]0;owned\\u0007\\u202e.json" in message


def test_key_file_that_is_a_device_or_huge_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="not a regular file"):
        load_ed25519_key("/dev/zero", need_seed=False)
    huge = tmp_path / "huge.key.json"
    huge.write_bytes(b" " * (KEY_FILE_MAX_BYTES + 1))
    with pytest.raises(KeyFileError, match="key files are at most"):
        load_ed25519_key(huge, need_seed=False)
    with pytest.raises(DestinationError, match="not a regular file"):
        load_destination("/dev/zero")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zcf_inspector", *args],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        check=False,
    )


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "{f}"],
        ["canonicalize", "{f}"],
        ["plan", "{f}"],
        ["plan", "{good}", "--report", "{f}"],
        ["receipt", "verify", "{good}", "--key", "{f}"],
        ["validate", "--destination", "{f}", "{good}"],
        ["seal", "{good}", "--kind", "source-signature", "--signing-key", "{f}"],
        ["seal", "{good}", "--source-installation-key", "{f}"],
    ],
    ids=["validate", "canonicalize", "plan", "report", "key", "destination", "signing", "inst"],
)
@pytest.mark.parametrize("hostile", ["fifo", "/dev/zero"])
def test_cli_never_waits_on_a_fifo_or_reads_a_device(
    tmp_path: Path, command: list[str], hostile: str
) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(b"{}")
    if hostile == "fifo":
        target = tmp_path / "pipe"
        os.mkfifo(target)
    else:
        target = Path(hostile)
    result = _run(*(part.format(f=target, good=good) for part in command))
    assert result.returncode == 2, result.stderr
    assert "not a regular file" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def swapping_path(tmp_path: Path) -> Iterator[Path]:
    """A path that flips between a regular file and a FIFO as fast as it can."""
    path = tmp_path / "flip.json"
    regular, fifo = tmp_path / "regular.json", tmp_path / "fifo.json"
    regular.write_bytes(b"{}")
    os.mkfifo(fifo)
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            for source in (regular, fifo):
                os.link(source, tmp_path / "next")
                os.replace(tmp_path / "next", path)

    worker = threading.Thread(target=flip)
    worker.start()
    yield path
    stop.set()
    worker.join()


def test_a_fifo_swapped_in_at_any_moment_never_blocks(swapping_path: Path) -> None:
    # The race the attack run found: the type checked on the path, then a FIFO opened.
    # Whatever the path is at the open, the CLI answers (refused, or read) and exits.
    for _ in range(20):
        result = _run("canonicalize", str(swapping_path))
        assert result.returncode in (0, 2), result.stderr
        assert "Traceback" not in result.stderr


def test_a_huge_limit_is_never_an_allocation(tmp_path: Path) -> None:
    # Issue 19: os.read allocates what it is asked for; a limit of 10^15 read from a
    # vector asked the allocator for a petabyte. Reads ask for what the file holds.
    path = tmp_path / "small.json"
    path.write_bytes(b"[1, 2, 3]")
    assert read_bounded(path, 10**15) == b"[1, 2, 3]"
    assert read_bounded(path, 10**15, refuse_larger=True) == b"[1, 2, 3]"
