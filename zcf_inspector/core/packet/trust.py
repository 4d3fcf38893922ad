"""What a packet's stages say about trust: validity *and* authenticity, and their words.

Derived once from a `PacketInspection`. The words below are the packets' part of the one
vocabulary; the packet presenter (`zcf_inspector.present.packet`) gives them, with the
trust level and the chips, to every front end (the core's briefing quotes them too). The
rule it keeps: never overstate trust. A packet is ``VALID`` only when
every stage that ran passed *and* everything the packet claims was checked; when the
bytes, structure and manifest hold but a claim could not be checked (a recipient MAC
with no destination keys, a recipient binding with no destination), it is ``INTACT``,
and the headline says which claim was not checked:

    VALID · SIGNED by sha256:… (trusted)           signature by a trusted key, MAC verified
    VALID · UNSIGNED                               claims no identity; all it claims checked
    INTACT · MAC NOT CHECKED (no destination keys) recipient-bound-mac, nothing to check with
    INTACT · UNSIGNED · RECIPIENT NOT CHECKED (no destination)
    REFUSED at authentication                      the first failing stage(s)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.auth import AuthStatus
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageStatus

SEPARATOR = " · "
NO_DESTINATION_KEYS = "no destination keys"
NO_DESTINATION = "no destination"


class Validity(StrEnum):
    VALID = "VALID"  # every stage that ran passed and every claim was checked
    INTACT = "INTACT"  # bytes, structure and manifest hold; a claim could not be checked
    REFUSED = "REFUSED"  # a stage failed


class Authenticity(StrEnum):
    SIGNED = "signed"  # Ed25519 signature by a trusted key, and the recipient MAC, verified
    UNSIGNED = "unsigned"  # the packet carries no cryptographic identity
    MAC_NOT_CHECKED = "mac-not-checked"  # recipient-bound-mac with no destination keys
    REFUSED = "refused"  # authentication refused: unknown key, bad signature or MAC, …
    NOT_CHECKED = "not-checked"  # an earlier stage failed, so nothing was checked


class MacState(StrEnum):
    VERIFIED = "verified"
    NOT_CHECKED = "not-checked"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class PacketTrust:
    validity: Validity
    authenticity: Authenticity
    kind: str | None  # authentication.kind as the packet gives it
    signer: str | None  # the key fingerprint the packet names (a claim until checked)
    signer_trusted: bool | None  # None: not looked up (no destination, or not reached)
    mac: MacState | None  # None: this kind of authentication has no MAC
    refused_at: tuple[Stage, ...]  # the stages that failed, in order
    not_checked: tuple[str, ...]  # each claim not checked, with why ("MAC …")
    reason: str  # the authentication report's own sentence

    @property
    def complete(self) -> bool:
        """Everything the packet claims was checked, and every check passed."""
        return self.validity is Validity.VALID

    def phrase(self, key: Callable[[str], str] = str) -> str:
        """Authenticity in capitals, e.g. ``SIGNED by sha256:… (trusted)``; ``key`` may
        shorten a fingerprint for a narrow display."""
        if self.authenticity is Authenticity.SIGNED:
            return f"SIGNED by {key(self.signer or '?')} (trusted)"
        if self.authenticity is Authenticity.UNSIGNED:
            return "UNSIGNED"
        if self.authenticity is Authenticity.MAC_NOT_CHECKED:
            return f"MAC NOT CHECKED ({NO_DESTINATION_KEYS})"
        if self.authenticity is Authenticity.REFUSED:
            return "AUTHENTICATION REFUSED"
        return "AUTHENTICATION NOT CHECKED"

    def headline(self, key: Callable[[str], str] = str) -> str:
        if self.validity is Validity.REFUSED:
            return f"REFUSED at {', '.join(s.value for s in self.refused_at)}"
        parts = [str(self.validity), self.phrase(key)]
        if self.authenticity is Authenticity.UNSIGNED and self.not_checked:
            parts.append(f"RECIPIENT NOT CHECKED ({NO_DESTINATION})")
        return SEPARATOR.join(parts)


_KEY_REFUSALS = frozenset({ErrorCode.SOURCE_KEY_UNKNOWN})
_SIGNATURE_REFUSALS = frozenset({ErrorCode.SIGNATURE_INVALID})


def packet_trust(inspection: PacketInspection) -> PacketTrust:
    """The trust verdict of ``inspection``; reads its stages and reports, checks nothing."""
    value = inspection.value or {}
    auth_value = value.get("authentication")
    auth_object = auth_value if isinstance(auth_value, dict) else {}
    kind_value = auth_object.get("kind")
    kind = kind_value if isinstance(kind_value, str) else None
    signer = auth_object.get("publicKeyFingerprint")
    signer_text = signer if isinstance(signer, str) else None
    report = inspection.auth
    status = report.status if report is not None else AuthStatus.NOT_CHECKED
    reason = report.reason if report is not None else "not checked: the bytes were refused"
    codes = {f.code for f in (report.findings if report else ()) if f.severity is Severity.ERROR}
    refused_at = tuple(s.stage for s in inspection.stages if s.status is StageStatus.FAILED)
    policy = inspection.stage(Stage.POLICY).status
    not_checked: list[str] = []
    trusted: bool | None = None
    mac: MacState | None = None
    if status is AuthStatus.VERIFIED:
        authenticity, trusted, mac = Authenticity.SIGNED, True, MacState.VERIFIED
    elif status is AuthStatus.UNSIGNED:
        authenticity = Authenticity.UNSIGNED
        if _recipient_bound(value) and policy is StageStatus.NOT_CHECKABLE:
            not_checked.append(f"recipient binding ({NO_DESTINATION})")
    elif status is AuthStatus.NOT_VERIFIED:
        authenticity, mac = Authenticity.MAC_NOT_CHECKED, MacState.NOT_CHECKED
        not_checked.append(f"signature and recipient MAC ({NO_DESTINATION_KEYS})")
    elif status is AuthStatus.REFUSED:
        authenticity = Authenticity.REFUSED
        if codes & _KEY_REFUSALS:
            trusted = False
        elif codes & _SIGNATURE_REFUSALS:
            trusted = True  # the key was found and trusted; the signature did not verify
        elif ErrorCode.MAC_INVALID in codes:
            trusted, mac = True, MacState.INVALID
    else:
        authenticity = Authenticity.NOT_CHECKED
    if kind == "recipient-bound-mac" and mac is None:
        mac = MacState.NOT_CHECKED  # refused (or stopped) before the MAC was reached
    if refused_at:
        validity = Validity.REFUSED
    elif not_checked:
        validity = Validity.INTACT
    else:
        validity = Validity.VALID
    return PacketTrust(
        validity,
        authenticity,
        kind,
        signer_text,
        trusted,
        mac,
        refused_at,
        tuple(not_checked),
        reason,
    )


def _recipient_bound(value: dict[str, JsonValue]) -> bool:
    intent = value.get("recipientIntent")
    return isinstance(intent, dict) and intent.get("kind") == "recipient-bound"


def short_fingerprint(fingerprint: str, hex_digits: int = 16) -> str:
    """``sha256:0123456789abcdef…``: enough to tell keys apart at a glance."""
    prefix, _, digest = fingerprint.partition(":")
    if not digest or len(digest) <= hex_digits:
        return fingerprint
    return f"{prefix}:{digest[:hex_digits]}…"
