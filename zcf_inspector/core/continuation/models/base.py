"""The shared shape of every continuation model: frozen, strict, open to extra fields.

The continuation reference says additional properties MUST be preserved when relaying,
so every model allows them (they land in ``model_extra``) instead of dropping them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.jsontypes import MAX_SAFE_INTEGER

T = TypeVar("T")

# JSON integers the profile bounds to the interoperable range 0 … 2^53 - 1.


def _unique(items: list[T]) -> list[T]:
    # Items are strings in every `uniqueItems` array the models declare, so a set works.
    seen: set[object] = set()
    for item in items:
        if item in seen:
            raise PydanticCustomError(
                PlanCode.SCHEMA_VIOLATION.value,
                "array items must be unique: {item!r} repeats",
                {"item": item},
            )
        seen.add(item)
    return items


Id = Annotated[str, Field(min_length=1)]
Text = Annotated[str, Field(min_length=1)]
UniqueIds = Annotated[list[Id], AfterValidator(_unique)]
Sha256Hex = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
SafeCount = Annotated[int, Field(ge=0, le=MAX_SAFE_INTEGER)]
Unique = AfterValidator(_unique)

# A free-form JSON value ("JSON value: any JSON value") as the exact reader returns it:
# ints of any size and Decimals included, which pydantic's JsonValue refuses. The reader
# has already made sure it is JSON; the models only carry it.
ExactJsonValue = Any


def rule_error(code: PlanCode, message: str) -> PydanticCustomError:
    """A conditional-rule failure that keeps its specific code through pydantic."""
    return PydanticCustomError(code.value, message)


class SpecModel(BaseModel):
    """A continuation or ASIF object: frozen, strict typing, unknown fields preserved."""

    model_config = ConfigDict(
        extra="allow", frozen=True, strict=True, protected_namespaces=(), populate_by_name=True
    )

    # Optional fields the schema does not let be `null`: pydantic would accept an explicit
    # null for `X | None = None`, so each model names such fields and they are refused here.
    not_null: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="before")
    @classmethod
    def _refuse_null_optionals(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name in cls.not_null:
                if name in data and data[name] is None:
                    raise PydanticCustomError(
                        PlanCode.SCHEMA_VIOLATION.value, "{field} must not be null", {"field": name}
                    )
        return data

    def has(self, name: str) -> bool:
        """Whether the source object spelled ``name`` (optional fields default to None)."""
        return name in self.model_fields_set


def require(model: SpecModel, names: Sequence[str], code: PlanCode, condition: str) -> None:
    """Raise the rule error when any of ``names`` is absent (``condition`` explains why)."""
    absent = [n for n in names if not model.has(n)]
    if absent:
        raise rule_error(code, f"{condition} requires {', '.join(absent)}")
