"""ASIF 0.4 documents as pydantic models: profiles, sessions and destination reports."""
