"""Typed subject identities (§10a step 1) and the action table of active scopes."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

# §10a: IDs are typed; these kinds are scoped by an owner as well.
OWNED_KINDS = frozenset(
    {"instruction", "capability", "policy", "checkpoint_requirement", "environment_requirement"}
)
SCOPE_ORDER = ("read", "context", "continue")
AGENT_ACTIONS = frozenset({"model_request", "resume_native"})
ACTIVE_ACTIONS = AGENT_ACTIONS | {"reconcile_operation"}


class SubjectKey(NamedTuple):
    """One inventoried subject: its kind, its owner (for owner-scoped kinds) and its ID.

    A named tuple rather than a dataclass: keys are hashed in every graph look-up, and
    tuple hashing runs in C.
    """

    kind: str
    owner: str | None
    id: str

    @property
    def node_id(self) -> str:
        """``TYPE:ID``, or ``TYPE:OWNER/ID`` for owner-scoped subjects."""
        if self.owner is None:
            return f"{self.kind}:{self.id}"
        return f"{self.kind}:{self.owner}/{self.id}"


def active_scopes(action: str) -> tuple[str, ...]:
    """§10a table: `read` always, `continue` for active actions, `context` for agent ones."""
    scopes = {"read"}
    if action in ACTIVE_ACTIONS:
        scopes.add("continue")
    if action in AGENT_ACTIONS:
        scopes.add("context")
    return tuple(s for s in SCOPE_ORDER if s in scopes)


class EdgeKind(StrEnum):
    """Why one subject is a prerequisite of another (§10a steps 2 and 3)."""

    DEPENDS_ON = "depends_on"
    BOUNDARY_EVIDENCE = "boundary_evidence"
    PROMPT_RESOURCE = "prompt_resource"
    INPUT_RESOURCE = "input_resource"
    TOOL_RESOURCE = "tool_resource"
    PART_RESOURCE = "part_resource"
    RESOURCE = "resource"
    ENVIRONMENT = "environment"
    FILE_RESOURCE = "file_resource"
    GIT_RESOURCE = "git_resource"
    GIT_DEPENDENCY = "git_dependency"
    SERVICE_DEPENDENCY = "service_dependency"
    RECOVERY_HANDLER = "recovery_handler"
    EVIDENCE = "evidence"
    NATIVE_RESOURCE = "native_resource"
    REQUIREMENT = "requirement"
    REQUIREMENT_RESOURCE = "requirement_resource"
    REQUIREMENT_CAPABILITY = "requirement_capability"
    REQUIREMENT_ENVIRONMENT = "requirement_environment"
