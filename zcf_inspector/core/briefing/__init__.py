"""The capsule as a briefing: what a reviewer reads before deciding (issue 20)."""
