"""Credentials in a packet's texts: found, pointed at and masked, never echoed (issue 20)."""
