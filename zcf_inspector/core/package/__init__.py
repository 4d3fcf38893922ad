"""ASIF packages (package transport 0.1, TRANSPORT.md): an `.asif.zip` of stored members —
`session.json`, its embedded file resources and the `asif-package.json` inventory — read
from bytes without extracting anything (`verify.inspect_package`), built deterministically
(`writer.package_bytes`), and its manifest signed and checked with a detached Ed25519
signature under a key the caller trusts (`signature.py`).

It imports the core's top level and `core.continuation` (the packaged session is checked
by the core rules of ASIF), never `core.packet`, `core.review` or `core.compare`.
"""
