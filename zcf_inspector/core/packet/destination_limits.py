"""A destination's default limits (profile §6): what a destination file that names none
admits. Shared by the destination (`destination.py`) and its file's schema
(`destination_file.py`), which must not import each other: the schema is built only when
a destination file is read, and it builds on nothing but these numbers and the formats.
"""

from __future__ import annotations

from typing import Final

DEFAULT_MAX_BELIEFS: Final = 10_000
DEFAULT_MAX_BELIEF_BYTES: Final = 16_384
