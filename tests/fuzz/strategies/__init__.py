"""Hypothesis strategies for near-valid inputs: structured mutations of the golden packets
and of the ASIF examples, and raw-byte mutations of the files themselves.

One module a job, each importing only those above it:

- ``trees`` — a tree (a JSON value that may hold leaf markers for what a ``dict`` cannot say:
  a number spelled exactly so, a string written verbatim, a repeated key), ``render`` in
  several layouts, and ``Blob``, bytes whose ``repr`` names a file;
- ``corpus`` — the golden packets and destination, the ASIF examples, the hostile files;
- ``pools`` — the keys, scalars and ids harvested from the corpus for mutations to draw;
- ``leaves`` — hostile scalars: boundary numbers, odd literals, near-miss formats;
- ``mutation`` — structured mutation of a tree at a drawn path;
- ``packets`` — mutated golden packets, maybe re-sealed, rendered;
- ``raw_bytes`` — byte-level mutation of whole files;
- ``continuations`` — mutated ASIF sessions and reports, bound to each other or not.
"""
