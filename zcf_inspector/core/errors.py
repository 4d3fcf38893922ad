"""The closed set of ZCF v1 refusal codes (profile §1-§6), as stable strings."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Every code the profile names, and no other: scripts match on these strings."""

    # §1 reading bytes
    PACKET_TOO_LARGE = "packet_too_large"
    INVALID_ENCODING = "invalid_encoding"
    INVALID_JSON = "invalid_json"
    DUPLICATE_KEY = "duplicate_key"
    NESTING_TOO_DEEP = "nesting_too_deep"
    NUMBER_OUT_OF_RANGE = "number_out_of_range"
    NOT_AN_OBJECT = "not_an_object"
    # §3 structure
    UNKNOWN_FIELD = "unknown_field"
    MISSING_FIELD = "missing_field"
    INVALID_VALUE = "invalid_value"
    UNSUPPORTED_FORMAT = "unsupported_format"
    UNSUPPORTED_FORMAT_VERSION = "unsupported_format_version"
    UNSUPPORTED_CANONICALIZATION_PROFILE = "unsupported_canonicalization_profile"
    ARTIFACT_CONTENT_MISMATCH = "artifact_content_mismatch"
    SECTION_MISSING_UNACCOUNTED = "section_missing_unaccounted"
    DUPLICATE_ID = "duplicate_id"
    DANGLING_REFERENCE = "dangling_reference"
    UNKNOWN_CAPABILITY = "unknown_capability"
    PACKET_EXPIRED = "packet_expired"
    # §4 manifest
    MANIFEST_SECTION_MISSING = "manifest_section_missing"
    MANIFEST_SECTION_UNEXPECTED = "manifest_section_unexpected"
    SECTION_DIGEST_MISMATCH = "section_digest_mismatch"
    MANIFEST_ROOT_MISMATCH = "manifest_root_mismatch"
    # §5 authentication
    UNSIGNED_REFUSED = "unsigned_refused"
    SOURCE_SIGNATURE_UNVERIFIABLE = "source_signature_unverifiable"
    RECIPIENT_INTENT_CONFLICT = "recipient_intent_conflict"
    RECIPIENT_MISMATCH = "recipient_mismatch"
    SOURCE_KEY_UNKNOWN = "source_key_unknown"
    INSTALLATION_KEY_UNAVAILABLE = "installation_key_unavailable"
    SIGNATURE_INVALID = "signature_invalid"
    MAC_INVALID = "mac_invalid"
    # §6 ingest
    HIGH_RISK_TOOL_REFUSED = "high_risk_tool_refused"
