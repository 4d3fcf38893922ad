"""The destination's policy stage (profile §3, last stage): expiry, unsigned refusal,
recipient binding for every authentication kind, and high-risk tools in strict mode."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.formats import format_timestamp, parse_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.structure import HIGH_RISK_TOOLS
from zcf_inspector.core.pointer import join

if TYPE_CHECKING:  # annotations only: `validate` without a destination never loads it
    from zcf_inspector.core.packet.destination import Destination


def check_policy(packet: dict[str, JsonValue], destination: Destination) -> tuple[Finding, ...]:
    """Every policy refusal for a packet that passed §1-§5 (its fields are well-formed)."""
    findings: list[Finding] = []
    now = destination.now()
    retention = packet.get("retention")
    expires = retention.get("expiresAt") if isinstance(retention, dict) else None
    if isinstance(expires, str) and parse_timestamp(expires) < now:
        findings.append(
            error(
                ErrorCode.PACKET_EXPIRED,
                join("retention", "expiresAt"),
                f"the packet expired at {expires}; "
                f"the destination's clock says {format_timestamp(now)}",
            )
        )
    auth = packet.get("authentication")
    kind = auth.get("kind") if isinstance(auth, dict) else None
    if kind == "unsigned" and destination.refuse_unsigned:
        findings.append(
            error(
                ErrorCode.UNSIGNED_REFUSED,
                join("authentication", "kind"),
                "this destination refuses unsigned packets (refuseUnsigned)",
            )
        )
    intent = packet.get("recipientIntent")
    # A recipient-bound-mac packet had its binding checked in §5, where it is the verdict.
    if (
        isinstance(intent, dict)
        and intent.get("kind") == "recipient-bound"
        and kind != ("recipient-bound-mac")
    ):
        bound = intent.get("destinationInstallationKeyId")
        if bound != destination.installation_key_id:
            findings.append(
                error(
                    ErrorCode.RECIPIENT_MISMATCH,
                    join("recipientIntent", "destinationInstallationKeyId"),
                    f"the packet is bound to {bound!r}, this destination is "
                    f"{destination.installation_key_id!r}",
                )
            )
    if destination.strict:
        content = packet.get("content")
        tools = content.get("allowedTools") if isinstance(content, dict) else None
        for index, name in enumerate(tools if isinstance(tools, list) else []):
            if name in HIGH_RISK_TOOLS:
                findings.append(
                    error(
                        ErrorCode.HIGH_RISK_TOOL_REFUSED,
                        join("content", "allowedTools", index),
                        f"high-risk tool {name!r} refused: the destination is strict",
                    )
                )
    return tuple(findings)
