"""The checks run over a parsed continuation document: document-wide rules, per-plan rules,
workspace state and destination reports."""
