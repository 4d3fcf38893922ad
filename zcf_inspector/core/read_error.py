"""The §1 refusal (`ReadError`), in a module of its own: the reader raises it and so does
the search for the problem at the lowest byte offset (`first_problem`), which the reader
calls — with the class here neither module imports the other's for it."""

from __future__ import annotations

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.errors import RefusalError
from zcf_inspector.core.findings import Finding, Severity


class ReadError(RefusalError):
    """A §1 refusal: one code, a specific message, and where in the input it was found."""

    code: ErrorCode
    message: str
    offset: int | None
    pointer: str | None

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        offset: int | None = None,
        pointer: str | None = None,
    ) -> None:
        # All four go to args so the exception survives pickling and copying.
        super().__init__(code, message, offset, pointer)
        self.code = code
        self.message = message
        self.offset = offset
        self.pointer = pointer

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_finding(self) -> Finding:
        return Finding(self.code, Severity.ERROR, self.pointer or "", self.message, self.offset)
