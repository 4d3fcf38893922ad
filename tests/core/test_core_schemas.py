"""The packet's schemas compiled by core/core_schemas.py validate exactly as pydantic's own
build of the same types does, and the markers mean what pydantic's own spellings mean:
every schema type reachable from the packet, over values taken from the published
goldens and every one-step fault of them, gives the same result or the same errors."""

from __future__ import annotations

import json
import typing
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
import typing_extensions
from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import SchemaValidator
from typing_extensions import TypedDict

from tests.conftest import REPO
from zcf_inspector.core.core_schemas import closed, compile_validator
from zcf_inspector.core.packet import structure_models as models

GOLDENS = sorted((REPO / "goldens" / "publication").glob("*.json"))
GOLDENS = [p for p in GOLDENS if not p.name.endswith(".receipt.json")]

# Values any field may be given instead of its own: each type, the edges of the formats.
ODD: list[Any] = [
    None,
    True,
    0,
    1,
    -1,
    2.5,
    "",
    "x",
    "a" * 257,
    "\x01",
    "\ud800",
    "sha256:" + "0" * 64,
    "2025-01-01T00:00:00Z",
    "/a/~2",
    "AAAAAAAAAAAAAAAAAAAAAA",
    [],
    ["x"],
    [1],
    {},
    {"k": "v"},
]


def top_types() -> dict[str, Any]:
    found: dict[str, Any] = {f"envelope {k}": t for k, t in models.ENVELOPE_TYPES.items()}
    for name, kinded in (
        ("recipientIntent", models.RECIPIENT_INTENT),
        ("auth", models.AUTHENTICATION),
    ):
        found |= {f"{name} {kind}": t for kind, t in kinded.shapes.items()}
    found |= {f"section {k}": t for k, t in models.SECTION_OBJECT_TYPES.items()}
    found |= {f"array {k}": s.list_type for k, s in models.ARRAY_SECTIONS.items()}
    return found


def inner_types(tp: Any) -> Iterator[Any]:
    """``tp`` and every type it is made of (fields, items, members), each once."""
    seen: list[Any] = []
    stack = [tp]
    while stack:
        current = stack.pop()
        if typing.get_origin(current) in (typing.NotRequired, typing_extensions.NotRequired):
            current = typing.get_args(current)[0]  # a field's requiredness, not a type
        if current in seen:
            continue
        seen.append(current)
        yield current
        if typing_extensions.is_typeddict(current):
            stack.extend(typing_extensions.get_type_hints(current, include_extras=True).values())
        elif typing.get_origin(current) is typing_extensions.Annotated:
            stack.append(current.__origin__)
        else:
            stack.extend(a for a in typing.get_args(current) if not isinstance(a, str))


ALL_TYPES: list[Any] = []
for _tp in top_types().values():
    ALL_TYPES += [t for t in inner_types(_tp) if t not in ALL_TYPES and t is not type(None)]


def pydantic_adapter(tp: Any) -> TypeAdapter[Any]:
    """pydantic's own build, configured as core.bounded_validation configures its types."""
    if isinstance(tp, type) and hasattr(tp, "__pydantic_config__"):
        return TypeAdapter(tp)
    return TypeAdapter(tp, config=ConfigDict(strict=True))


def outcome(validator: SchemaValidator | TypeAdapter[Any], value: object) -> object:
    try:
        return ("valid", validator.validate_python(value))
    except ValidationError as exc:
        return [
            {**e, "ctx": {k: str(v) for k, v in e.get("ctx", {}).items()}}
            for e in exc.errors(include_url=False)
        ]


def samples() -> Iterator[object]:
    """Every object and array in the goldens, and every one-step fault of each object."""
    for path in GOLDENS:
        stack: list[object] = [json.loads(path.read_bytes())]
        while stack:
            value = stack.pop()
            yield value
            if isinstance(value, dict):
                stack.extend(value.values())
                yield {**value, "unknownField": "x"}
                for key in value:
                    yield {k: v for k, v in value.items() if k != key}
                    for odd in ODD:
                        yield {**value, key: odd}
            elif isinstance(value, list):
                stack.extend(value)
                for odd in ODD:
                    yield [*value, odd]
    yield from ODD


SAMPLES = list(samples())


def test_every_packet_schema_compiles_without_pydantic() -> None:
    assert len(ALL_TYPES) > 40
    for tp in ALL_TYPES:
        assert compile_validator(tp) is not None, tp


@pytest.mark.parametrize("index", range(len(ALL_TYPES)), ids=lambda i: repr(ALL_TYPES[i])[:60])
def test_compiled_validators_match_pydantics_own(index: int) -> None:
    tp = ALL_TYPES[index]
    ours = compile_validator(tp)
    assert ours is not None
    theirs = pydantic_adapter(tp)
    valid = 0
    for value in SAMPLES:
        expected = outcome(theirs, value)
        assert outcome(ours, value) == expected, (tp, value)
        valid += isinstance(expected, tuple)
    # Values that pass were compared too (no golden is signed by its source).
    assert valid or tp in SOURCE_SIGNED_ONLY


SOURCE_SIGNED_ONLY = (
    models.SourceSignatureAuthentication,
    typing.Literal["source-signature"],
    typing.Literal["ed25519"],
)


def check_of(tp: Any) -> Any:
    """The function of a type's ``After`` marker."""
    return typing.get_args(tp)[1].func


# pydantic's own spelling of each marked type (as structure_models spelled them before).
NATIVE: list[tuple[Any, Any]] = [
    (models.Id, Annotated[str, StringConstraints(pattern=models.ID_PATTERN)]),
    (models.Digest, Annotated[str, StringConstraints(pattern=models.DIGEST_PATTERN)]),
    (models.JsonPointer, Annotated[str, StringConstraints(pattern=models.POINTER_PATTERN)]),
    (models.Intent, Annotated[str, StringConstraints(min_length=1, max_length=1024)]),
    (models.ByteLength, Annotated[int, Field(ge=0)]),
    (models.One, Annotated[StrictInt, AfterValidator(check_of(models.One))]),
    (models.Timestamp, Annotated[str, AfterValidator(check_of(models.Timestamp))]),
    (models.Nonce, Annotated[str, AfterValidator(check_of(models.Nonce))]),
]


@pytest.mark.parametrize("index", range(len(NATIVE)))
def test_markers_mean_what_pydantics_spelling_means(index: int) -> None:
    marked, native = NATIVE[index]
    ours = compile_validator(marked)
    assert ours is not None
    theirs = TypeAdapter(native, config=ConfigDict(strict=True))
    values = [*ODD, "b-000001", "a" * 256, "x" * 1024, "x" * 1025, 3, 2**60, False]
    for value in values:
        assert outcome(ours, value) == outcome(theirs, value), (marked, value)


def test_types_outside_the_vocabulary_are_left_to_pydantic() -> None:
    assert compile_validator(float) is None
    assert compile_validator(Annotated[str, AfterValidator(str.strip)]) is None
    assert compile_validator(int | str) is None
    assert compile_validator(models.Id, strict=False) is None


@closed
class Node(TypedDict):
    name: str
    children: list[Node]


def test_a_schema_that_holds_itself_is_left_to_pydantic() -> None:
    assert compile_validator(Node) is None
    assert compile_validator(list[Node]) is None
