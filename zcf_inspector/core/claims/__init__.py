"""The packet's claims checked against what the destination has (issue 20)."""
