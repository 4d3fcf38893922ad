"""Configuration bindings (§7): every instruction bound once, in priority order, every policy.

For the configuration a plan uses, its binding's `effective_order`, its `instruction_rules`
and the configuration's instructions name the same set; the effective order lists
priorities in ascending order; `policy_ids` are exactly the configuration's policies.
Per plan, an instruction rule scoped to a root (or a path under one) names a root of a
workspace the plan selects.
"""

from __future__ import annotations

from dataclasses import replace

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.profile import ConfigurationBinding
from zcf_inspector.core.continuation.models.session import Configuration
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, error


def _listed(ids: set[str]) -> str:
    return ", ".join(repr(i) for i in sorted(ids)) or "none"


def check_binding(
    config: Configuration, binding: ConfigurationBinding, where: str
) -> list[Finding]:
    """The plan-independent §7 rules of ``binding`` (at ``where``) for ``config``: each
    finding is about the configuration's subject."""
    findings: list[Finding] = []
    subject = node_of("configuration", config.id)
    instructions = {i.id for i in config.instructions}
    rules = {r.instruction_id: r for r in binding.instruction_rules}
    order = set(binding.effective_order)
    code = PlanCode.INSTRUCTION_BINDING_INCOMPLETE
    if set(rules) != instructions:
        findings.append(
            error(
                code,
                where + "/instruction_rules",
                f"configuration {config.id!r} has instructions {_listed(instructions)}; its "
                f"binding has rules for {_listed(set(rules))}",
            )
        )
    if order != instructions:
        findings.append(
            error(
                code,
                where + "/effective_order",
                f"configuration {config.id!r} has instructions {_listed(instructions)}; the "
                f"effective order lists {_listed(order)}",
            )
        )
    priorities = [rules[i].priority for i in binding.effective_order if i in rules]
    if not findings and priorities != sorted(priorities):
        findings.append(
            error(
                PlanCode.INSTRUCTION_PRECEDENCE_MISMATCH,
                where + "/effective_order",
                f"the effective order {binding.effective_order} has priorities {priorities}, "
                "not ascending",
            )
        )
    policies = {p.id for p in config.policies}
    if set(binding.policy_ids) != policies:
        findings.append(
            error(
                PlanCode.POLICY_BINDING_INCOMPLETE,
                where + "/policy_ids",
                f"configuration {config.id!r} captures policies {_listed(policies)}; the "
                f"binding accounts for {_listed(set(binding.policy_ids))}",
            )
        )
    return [replace(f, subject=subject) for f in findings]


def check_rule_roots(
    binding: ConfigurationBinding, where: str, roots: set[str], plan_id: str
) -> list[Finding]:
    """Rules scoped to a root name one of the plan's selected workspace roots."""
    findings = []
    for i, rule in enumerate(binding.instruction_rules):
        if rule.scope.kind == "global" or rule.scope.root_id in roots:
            continue
        findings.append(
            error(
                PlanCode.INSTRUCTION_ROOT_UNSELECTED,
                f"{where}/instruction_rules/{i}/scope/root_id",
                f"instruction {rule.instruction_id!r} is scoped to root {rule.scope.root_id!r}; "
                f"plan {plan_id!r} selects workspaces of roots {_listed(roots)}",
                node_of("instruction", rule.instruction_id, binding.configuration_id),
            )
        )
    return findings
