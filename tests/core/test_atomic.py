from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zcf_inspector.cli import _unwinding_on_termination, main
from zcf_inspector.core import atomic
from zcf_inspector.core.atomic import (
    STALE_AFTER_SECONDS,
    TargetExistsError,
    TargetNotAFileError,
    UnwritableFileError,
    remove_stale_temporaries,
    write_atomic,
)
from zcf_inspector.core.errors import InputError


def test_writes_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    write_atomic(target, b"{}")
    assert target.read_bytes() == b"{}"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_never_overwrites_without_permission(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_bytes(b"old")
    with pytest.raises(TargetExistsError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    write_atomic(target, b"new", overwrite=True)
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(UnwritableFileError, match="No space"):
        write_atomic(tmp_path / "r.json", b"data")
    assert list(tmp_path.iterdir()) == []


# --- what --force may replace (issue 15) ----------------------------------------------------


def test_overwrite_replaces_a_regular_file_or_a_link_to_one(tmp_path: Path) -> None:
    original = tmp_path / "original.json"
    original.write_bytes(b"kept")
    link = tmp_path / "link.json"
    link.symlink_to(original)
    write_atomic(link, b"new", overwrite=True)
    assert not link.is_symlink()  # the link itself was replaced by the new file
    assert link.read_bytes() == b"new"
    assert original.read_bytes() == b"kept"


def _special_targets(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock"))
    server.close()  # the socket file stays
    folder = tmp_path / "folder"
    folder.mkdir()
    device_link = tmp_path / "device-link"
    device_link.symlink_to("/dev/null")
    fifo_link = tmp_path / "fifo-link"
    fifo_link.symlink_to(fifo)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    return {
        "fifo": fifo,
        "socket": tmp_path / "sock",
        "folder": folder,
        "device": device_link,
        "link to a fifo": fifo_link,
        "dangling link": dangling,
    }


def test_overwrite_never_replaces_anything_but_a_file(tmp_path: Path) -> None:
    for what, target in _special_targets(tmp_path).items():
        before = os.lstat(target)
        with pytest.raises(TargetNotAFileError) as caught:
            write_atomic(target, b"data", overwrite=True)
        assert isinstance(caught.value, InputError), what
        after = os.lstat(target)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode), what
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_cli_force_onto_a_fifo_or_device_is_a_usage_error(tmp_path: Path) -> None:
    packet = Path(__file__).resolve().parents[2] / "goldens" / "publication" / "minimal.json"
    destination = packet.parents[1] / "destination.json"
    for what, target in _special_targets(tmp_path).items():
        code = main(
            ["ingest", "--destination", str(destination), "--out", str(target), "--force",
             str(packet)]
        )  # fmt: skip
        assert code == 2, what


# --- temporaries never stay behind -------------------------------------------------------------


def _leftover(folder: Path, name: str, suffix: str, age: float) -> Path:
    path = folder / f".{name}.{suffix}.tmp"
    path.write_bytes(b"half")
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    return path


def test_a_write_removes_the_stale_temporaries_a_kill_left(tmp_path: Path) -> None:
    old = STALE_AFTER_SECONDS + 60
    stale = _leftover(tmp_path, "r.json", "ab_cd123", old)
    young = _leftover(tmp_path, "r.json", "efgh4567", 5)  # maybe another writer, right now
    other_name = _leftover(tmp_path, "s.json", "ab_cd123", old)
    wrong_shape = _leftover(tmp_path, "r.json", "short", old)
    link = tmp_path / ".r.json.linklink.tmp"
    link.symlink_to(other_name)
    folder = tmp_path / ".r.json.folder00.tmp"
    folder.mkdir()
    write_atomic(tmp_path / "r.json", b"{}")
    assert not stale.exists()
    for kept in (young, other_name, wrong_shape, link, folder):
        assert kept.exists() or kept.is_symlink()
    assert (tmp_path / "r.json").read_bytes() == b"{}"


def test_removal_of_stale_temporaries_spares_other_users_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = _leftover(tmp_path, "r.json", "ab_cd123", STALE_AFTER_SECONDS + 60)
    if os.geteuid() == 0:
        os.chown(stale, 65534, 65534)  # root (the CI container) can give it away
    else:
        # Any other user cannot: be someone else instead, as far as the cleaner can tell.
        monkeypatch.setattr(atomic, "_uid", lambda: stale.stat().st_uid + 1)
    assert remove_stale_temporaries(tmp_path, "r.json") == []
    assert stale.exists()


def test_a_failed_link_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    real_link = os.link

    def target_appears(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> None:
        Path(dest).write_bytes(b"theirs")
        real_link(source, dest)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "link", target_appears)
        with pytest.raises(TargetExistsError):
            write_atomic(target, b"ours")
    assert target.read_bytes() == b"theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_sigterm_unwinds_a_command_so_its_temporary_is_removed() -> None:
    previous = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as caught, _unwinding_on_termination():
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs at the next instruction
    assert caught.value.code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is previous


def test_a_killed_cli_write_is_cleaned_up_by_the_next(tmp_path: Path) -> None:
    # A child writes a big receipt-like file and is SIGKILLed mid-write (it stops itself
    # between the temporary and the link, so the kill lands at a known point).
    script = (
        "import os, signal, sys\n"
        "from zcf_inspector.core import atomic\n"
        "real = os.link\n"
        "def stop(*a):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "atomic.os.link = stop\n"
        "atomic.write_atomic(sys.argv[1], b'x' * 1_000_000)\n"
    )
    target = tmp_path / "out.json"
    result = subprocess.run([sys.executable, "-c", script, str(target)], check=False, timeout=60)
    assert result.returncode == -signal.SIGKILL
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".out.json.")]
    assert len(left) == 1
    assert not target.exists()
    later = time.time() + STALE_AFTER_SECONDS + 1
    assert remove_stale_temporaries(tmp_path, "out.json", now=later) == left
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("length", [242, 243, 250, 255])
def test_names_up_to_name_max_can_be_written(tmp_path: Path, length: int) -> None:
    # Issue 19: the temporary was the name and 14 bytes more, so names of 242-255 bytes
    # could not be written. The temporary is shortened, never the target.
    target = tmp_path / ("r" * (length - 5) + ".json")
    assert len(os.fsencode(target.name)) == length
    write_atomic(target, b"{}")
    assert target.read_bytes() == b"{}"
    write_atomic(target, b"[]", overwrite=True)
    assert target.read_bytes() == b"[]"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_a_long_name_of_multibyte_characters_is_cut_on_a_character(tmp_path: Path) -> None:
    target = tmp_path / ("é" * 125 + ".json")  # 255 bytes in UTF-8
    assert len(os.fsencode(target.name)) == 255
    prefix = atomic.temporary_prefix(tmp_path, target.name)
    assert len(os.fsencode(prefix)) + len("abcdefgh.tmp") <= 255
    prefix.encode("utf-8")  # whole characters only
    write_atomic(target, b"{}")
    assert target.read_bytes() == b"{}"


def test_long_names_sharing_a_start_get_different_temporaries(tmp_path: Path) -> None:
    a, b = "x" * 250 + ".json", "x" * 250 + ".jsom"
    assert atomic.temporary_prefix(tmp_path, a) != atomic.temporary_prefix(tmp_path, b)
    assert atomic.temporary_prefix(tmp_path, "r.json") == ".r.json."  # short: unchanged


def test_stale_temporaries_of_a_long_name_are_removed_too(tmp_path: Path) -> None:
    name = "y" * 250 + ".json"
    prefix = atomic.temporary_prefix(tmp_path, name)
    stale = tmp_path / f"{prefix}ab_cd123.tmp"
    stale.write_bytes(b"half")
    old = time.time() - STALE_AFTER_SECONDS - 60
    os.utime(stale, (old, old))
    write_atomic(tmp_path / name, b"{}")
    assert not stale.exists()
