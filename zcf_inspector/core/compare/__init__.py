"""Comparing two packets: which sections changed, and inside them which elements.

`compare` (in `packets`) reads and checks both packets strictly, then compares what
can be read; `model` holds the frozen results; `matching` pairs elements by identity,
`fields` finds what changed inside a pair, `text_spans` and `render` say which
characters to highlight and how a value is shown. This package imports nothing here,
so importing one module does not load the rest.
"""
