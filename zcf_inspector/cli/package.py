"""`zcf-inspector package verify|build|sign`: ASIF packages (`.asif.zip`, package
transport 0.1).

``verify PKG [--signature SIG --key KEY] [--json]`` prints the package presenter's words
(as the window will show them) and exits by them: 0 for VALID PACKAGE (SIGNED by a
trusted key, or UNSIGNED: no signature was given), 3 for INTACT PACKAGE · SIGNATURE NOT
CHECKED (a signature without a key), 1 for REFUSED PACKAGE, 2 for usage errors and
unreadable files. ``build SESSION --out PKG`` and ``sign PKG --key SEED --out SIG`` write
atomically and never replace a file without ``--force``.
"""

from __future__ import annotations

import argparse

from zcf_inspector import api
from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_trust_arguments,
    emit,
    print_findings,
    print_json,
    print_verdict,
    verdict_json,
)
from zcf_inspector.core.errors import InputError
from zcf_inspector.present import asif


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("package", help=help_of("package"))
    actions = parser.add_subparsers(dest="package_command", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify",
        help="check an .asif.zip: container, inventory, resource closure, session, signature",
        description="Read the package without extracting it. Exit 0 when it is VALID "
        "(SIGNED under --key, or UNSIGNED: no --signature), 3 when a --signature was given "
        "without a --key (INTACT: the signature was not checked), 1 when it is REFUSED, 2 "
        "for a usage error or an unreadable file. A signature never brings its own trust: "
        "--key is the Ed25519 public key you trust (32 raw bytes, hex or base64 text).",
    )
    verify.add_argument("package", metavar="PKG")
    verify.add_argument("--signature", metavar="SIG", help="the detached signature file")
    verify.add_argument("--key", metavar="KEY", help="the trusted Ed25519 public key file")
    verify.add_argument("--json", action="store_true", help="print the result as JSON")
    add_trust_arguments(verify)
    verify.set_defaults(func=run_verify)
    build = actions.add_parser(
        "build",
        help="package an ASIF session and the files its embedded resources name",
        description="Deterministic: byte for byte the reference writer's package (sorted "
        "names, 1980-01-01 timestamps, mode 0600, the manifest as sorted compact JSON). The "
        "session is checked first; a refused one is not packaged.",
    )
    build.add_argument("session", metavar="SESSION")
    build.add_argument("--out", metavar="PKG", required=True)
    build.add_argument("--force", action="store_true", help="allow --out to replace a file")
    build.set_defaults(func=run_build)
    sign = actions.add_parser(
        "sign",
        help="write the detached Ed25519 signature of a valid package's manifest",
    )
    sign.add_argument("package", metavar="PKG")
    sign.add_argument(
        "--key", metavar="SEED", required=True, help="the 32-byte signing seed (raw, hex, base64)"
    )
    sign.add_argument("--out", metavar="SIG", required=True)
    sign.add_argument("--force", action="store_true", help="allow --out to replace a file")
    add_trust_arguments(sign)
    sign.set_defaults(func=run_sign)


def run_verify(args: argparse.Namespace) -> int:
    if args.key is not None and args.signature is None:
        raise InputError("--key checks a detached signature: give it with --signature")
    result = api.verify_package(args.package, signature=args.signature, key=args.key)
    shown = api.verdict(result)
    if args.json:
        session = None if result.session is None else asif.verdict(result.session).to_json()
        print_json(
            {
                "path": args.package,
                **verdict_json(shown),
                "package": result.to_json(),
                "session": session,
            }
        )
    else:
        print_verdict(args.package, shown)
        print_findings(result.findings)
        if result.signature is not None:
            print_findings(result.signature.findings)
    return exitcodes.for_trust(shown.trust)


def run_build(args: argparse.Namespace) -> int:
    return emit(api.build_package(args.session), args.out, force=args.force, what="package")


def run_sign(args: argparse.Namespace) -> int:
    signed = api.sign_package(args.package, args.key)
    return emit(signed, args.out, force=args.force, what="signature")
