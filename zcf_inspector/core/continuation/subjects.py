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
        """``TYPE:ID``, or ``TYPE:OWNER/ID`` for owner-scoped subjects: one string per key.

        IDs are free text and may hold ``/`` (feature IDs do: ``asif.portable-continuation/0.2``),
        so the owner is written with ``~`` as ``~0`` and ``/`` as ``~1`` (JSON pointer's
        escapes): the first ``/`` after the owner ends it. Whether a kind has an owner is
        fixed by the kind; a key that breaks that rule (a report may name one) gets ``!``
        after its kind, so it can never be taken for a subject of the plan.
        """
        owned = self.kind in OWNED_KINDS
        if self.owner is None:
            return f"{self.kind}:{self.id}" if not owned else f"{self.kind}!:{self.id}"
        owner = self.owner.replace("~", "~0").replace("/", "~1")
        mark = ":" if owned else "!:"
        return f"{self.kind}{mark}{owner}/{self.id}"


def node_of(kind: str, ident: str, owner: str | None = None) -> str:
    """The node ID (`SubjectKey.node_id`) of a subject: what a rule names as the subject
    of a finding it raises (`Finding.subject`), whether or not some plan inventories it."""
    return SubjectKey(kind, owner, ident).node_id


def active_scopes(action: str) -> tuple[str, ...]:
    """§10a table: `read` always, `continue` for active actions, `context` for agent ones."""
    scopes = {"read"}
    if action in ACTIVE_ACTIONS:
        scopes.add("continue")
    if action in AGENT_ACTIONS:
        scopes.add("context")
    return tuple(s for s in SCOPE_ORDER if s in scopes)


class EdgeKind(StrEnum):
    """The relation one inventoried subject has to another: why the target is inventoried.

    A closed set. The first group are §10a's prerequisite edges (steps 2 and 3): the
    source needs the target, and the required flag flows along them (step 4). The second
    group are selection edges (step 1): the source names the target, which is inventoried
    but not thereby required. Together they make every subject of a plan's inventory
    reachable from its plan node, each edge created by one field (its JSON pointer).
    """

    # -- prerequisites (§10a steps 2-3): the required flag propagates along these ----
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
    # -- selections (§10a step 1): inventoried, required only by the action table ----
    SELECTS_CONTEXT = "selects_context"
    SELECTS_MODEL = "selects_model"
    SELECTS_CONFIGURATION = "selects_configuration"
    REQUIRED_FEATURE = "required_feature"
    SELECTS_DEPENDENCY = "selects_dependency"
    SELECTS_WORKSPACE = "selects_workspace"
    SELECTS_SERVICE = "selects_service"
    SELECTS_OPERATION = "selects_operation"
    SELECTS_NATIVE_IMPORT = "selects_native_import"
    CHECKPOINT_REQUIREMENT = "checkpoint_requirement"
    ENVIRONMENT_REQUIREMENT = "environment_requirement"
    INSTRUCTION = "instruction"
    CAPABILITY = "capability"
    POLICY = "policy"
    CONFIGURATION_ENVIRONMENT = "configuration_environment"

    @property
    def prerequisite(self) -> bool:
        """True when the source needs the target (the required flag flows along it)."""
        return self not in SELECTIONS

    @property
    def label(self) -> str:
        """A few words naming the relation, as the "why" chain and the legend show it."""
        return RELATIONS[self][0]

    @property
    def meaning(self) -> str:
        """One sentence: what the edge says (README, legend, hover)."""
        return RELATIONS[self][1]


SELECTIONS = frozenset(
    {
        EdgeKind.SELECTS_CONTEXT,
        EdgeKind.SELECTS_MODEL,
        EdgeKind.SELECTS_CONFIGURATION,
        EdgeKind.REQUIRED_FEATURE,
        EdgeKind.SELECTS_DEPENDENCY,
        EdgeKind.SELECTS_WORKSPACE,
        EdgeKind.SELECTS_SERVICE,
        EdgeKind.SELECTS_OPERATION,
        EdgeKind.SELECTS_NATIVE_IMPORT,
        EdgeKind.CHECKPOINT_REQUIREMENT,
        EdgeKind.ENVIRONMENT_REQUIREMENT,
        EdgeKind.INSTRUCTION,
        EdgeKind.CAPABILITY,
        EdgeKind.POLICY,
        EdgeKind.CONFIGURATION_ENVIRONMENT,
    }
)

# relation -> (label, meaning). The label reads in a chain: "context c (input) -> resource r".
RELATIONS: dict[EdgeKind, tuple[str, str]] = {
    EdgeKind.DEPENDS_ON: ("depends_on", "the dependency needs this dependency"),
    EdgeKind.BOUNDARY_EVIDENCE: (
        "boundary evidence",
        "the plan's boundary cites this resource as evidence",
    ),
    EdgeKind.PROMPT_RESOURCE: (
        "decision prompt",
        "a typed part of the awaited decision's prompt names this resource",
    ),
    EdgeKind.INPUT_RESOURCE: ("input", "a typed part of the context's inputs names this resource"),
    EdgeKind.TOOL_RESOURCE: (
        "tool definition",
        "a tool the context selects is defined by this resource",
    ),
    EdgeKind.PART_RESOURCE: ("part", "a typed part of the instruction names this resource"),
    EdgeKind.RESOURCE: ("resource_ids", "the subject's resource list names this resource"),
    EdgeKind.ENVIRONMENT: ("environment_id", "the workspace runs in this environment"),
    EdgeKind.FILE_RESOURCE: ("file", "a file of the flattened workspace is this resource"),
    EdgeKind.GIT_RESOURCE: (
        "git",
        "a Git bundle, index entry or prerequisite of the workspace is this resource",
    ),
    EdgeKind.GIT_DEPENDENCY: (
        "git lfs/submodule",
        "a Git LFS object or submodule of the workspace is this dependency",
    ),
    EdgeKind.SERVICE_DEPENDENCY: ("dependency_ids", "the service binding needs this dependency"),
    EdgeKind.RECOVERY_HANDLER: (
        "recovery handler",
        "the operation's recovery is handled by this dependency",
    ),
    EdgeKind.EVIDENCE: ("evidence", "the operation or its recovery cites this resource"),
    EdgeKind.NATIVE_RESOURCE: ("resource_ids", "the native import reads this resource"),
    EdgeKind.REQUIREMENT: (
        "required_for",
        "the requirement applies to an active scope of the plan's action",
    ),
    EdgeKind.REQUIREMENT_RESOURCE: ("resource_id", "the requirement declares this resource"),
    EdgeKind.REQUIREMENT_CAPABILITY: (
        "capability_id",
        "the requirement declares this capability",
    ),
    EdgeKind.REQUIREMENT_ENVIRONMENT: (
        "environment_id",
        "the requirement declares this environment",
    ),
    EdgeKind.SELECTS_CONTEXT: ("context_id", "the plan selects this context"),
    EdgeKind.SELECTS_MODEL: ("model_requirements", "the plan states this model's requirements"),
    EdgeKind.SELECTS_CONFIGURATION: (
        "configuration_id",
        "the plan selects this configuration (always required)",
    ),
    EdgeKind.REQUIRED_FEATURE: (
        "required_features",
        "the session declares this feature required (always required)",
    ),
    EdgeKind.SELECTS_DEPENDENCY: ("dependency_ids", "the plan selects this dependency"),
    EdgeKind.SELECTS_WORKSPACE: ("workspace_ids", "the plan selects this workspace"),
    EdgeKind.SELECTS_SERVICE: ("service_binding_ids", "the plan selects this service binding"),
    EdgeKind.SELECTS_OPERATION: ("operation_ids", "the plan selects this operation"),
    EdgeKind.SELECTS_NATIVE_IMPORT: ("native_import_id", "the plan selects this native import"),
    EdgeKind.CHECKPOINT_REQUIREMENT: (
        "checkpoint requirement",
        "the selected checkpoint declares this requirement, outside the active scopes",
    ),
    EdgeKind.ENVIRONMENT_REQUIREMENT: (
        "environment requirement",
        "the environment declares this requirement, outside the active scopes",
    ),
    EdgeKind.INSTRUCTION: ("instructions", "the configuration holds this instruction"),
    EdgeKind.CAPABILITY: ("capabilities", "the configuration holds this capability"),
    EdgeKind.POLICY: ("policies", "the configuration holds this policy"),
    EdgeKind.CONFIGURATION_ENVIRONMENT: (
        "environment_ids",
        "the configuration names this environment",
    ),
}
