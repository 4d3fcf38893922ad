"""The producer side: `zcf-inspector keygen` and `zcf-inspector seal`."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import add_trust_arguments, emit, json_chunks
from zcf_inspector.core.errors import InputError, ZcfError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.keyfile import (
    load_ed25519_key,
    load_installation_key,
    new_ed25519_key,
    new_installation_key,
)
from zcf_inspector.core.packet.producer import AuthKind, seal_packet
from zcf_inspector.core.packet.receipt_keys import load_public_key
from zcf_inspector.core.reading import read_packet


def register_keygen(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    keygen = sub.add_parser(
        "keygen",
        help=help_of("keygen"),
        description="Write a new Ed25519 key file (seed, public key, fingerprint), or with "
        "--installation-key-id an installation key file, to --out (never overwritten without "
        "--force) or stdout. With --public-of FILE, write no new key: the public key file of "
        "the Ed25519 key in FILE (a key file, or a destination file's signingKey, which "
        "signs its receipts), as `receipt verify --key` reads it.",
    )
    target = keygen.add_mutually_exclusive_group()
    target.add_argument("--installation-key-id", metavar="ID")
    target.add_argument(
        "--public-of",
        metavar="FILE",
        help="the public half of a key file or of a destination file's signingKey",
    )
    keygen.add_argument("--out", metavar="FILE")
    keygen.add_argument("--public-out", metavar="FILE", help="also write the public half (Ed25519)")
    keygen.add_argument(
        "--force", action="store_true", help="allow --out and --public-out to replace a file"
    )
    add_trust_arguments(keygen)
    keygen.set_defaults(func=run_keygen)


def register_seal(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    seal = sub.add_parser(
        "seal",
        help=help_of("seal"),
        description="Recompute the manifest of PACKET and set its authentication of --kind. "
        "The sealed packet goes to --out (never overwritten without --force) or stdout.",
    )
    seal.add_argument("packet", metavar="PACKET")
    seal.add_argument(
        "--kind", choices=[k.value for k in AuthKind], default=AuthKind.UNSIGNED.value
    )
    seal.add_argument("--signing-key", metavar="FILE", help="Ed25519 key file with a seed")
    seal.add_argument("--source-installation-key", metavar="FILE")
    seal.add_argument("--destination-installation-key", metavar="FILE")
    seal.add_argument("--out", metavar="FILE")
    seal.add_argument("--force", action="store_true", help="allow --out to replace a file")
    add_trust_arguments(seal)
    seal.set_defaults(func=run_seal)


def _emit(value: JsonValue, out: str | None, *, force: bool = False) -> int:
    return emit(json_chunks(value), out, force=force, what="key" if out else "output")


def run_keygen(args: argparse.Namespace) -> int:
    if args.public_of is not None:
        if args.public_out:
            raise InputError(
                "--public-out makes a new key's public half; use --out with --public-of"
            )
        return _emit(
            load_public_key(args.public_of).to_json(include_seed=False), args.out, force=args.force
        )
    if args.installation_key_id is not None:
        if args.public_out:
            raise InputError(
                "--public-out is for Ed25519 keys; an installation key is secret as a whole"
            )
        installation = new_installation_key(args.installation_key_id)
        return _emit(installation.to_json(), args.out, force=args.force)
    key = new_ed25519_key()
    if not args.public_out:
        return _emit(key.to_json(), args.out, force=args.force)
    if args.out is not None and os.path.abspath(args.out) == os.path.abspath(args.public_out):
        raise InputError("--out and --public-out name the same file")
    # Both files or neither: the public half first when the seed goes to stdout (nothing
    # is printed if it fails); otherwise the private file is removed again if the public
    # one cannot be written. Without --force neither write replaces a file, so what is
    # removed is the file this run just made; with it, the file it replaced is gone
    # already, so the new key is kept and the way to its public half said.
    if args.out is None:
        _emit(key.to_json(include_seed=False), args.public_out, force=args.force)
        return _emit(key.to_json(), None)
    _emit(key.to_json(), args.out, force=args.force)
    try:
        return _emit(key.to_json(include_seed=False), args.public_out, force=args.force)
    except ZcfError:
        if args.force:
            sys.stderr.write(
                f"zcf-inspector: {shown_path(args.out)} holds the new key; its public half "
                f"was not written (keygen --public-of {shown_path(args.out)} --out FILE "
                "writes it)\n"
            )
            raise
        with contextlib.suppress(FileNotFoundError):
            os.unlink(args.out)
        sys.stderr.write(f"zcf-inspector: {shown_path(args.out)} removed again\n")
        raise


def run_seal(args: argparse.Namespace) -> int:
    kind = AuthKind(args.kind)
    # Only the value is kept while sealing, not the bytes it was read from (a ReadError
    # here is a refusal of the draft, exit 1).
    draft = read_packet(read_bounded(args.packet))
    signing = (
        None if args.signing_key is None else load_ed25519_key(args.signing_key, need_seed=True)
    )
    source = (
        None
        if args.source_installation_key is None
        else load_installation_key(args.source_installation_key)
    )
    dest = (
        None
        if args.destination_installation_key is None
        else load_installation_key(args.destination_installation_key)
    )
    sealed = seal_packet(
        draft,
        kind,
        signing_seed=None if signing is None else signing.seed,
        source_installation_key=None if source is None else source.key,
        destination_installation_key=None if dest is None else dest.key,
    )
    return _emit(sealed, args.out, force=args.force)
