"""Hostile-input fuzz harness for the core (issue 7, item 3).

Run the bounded ``ci`` profile with the default test run, or longer on demand with
``FUZZ_SECONDS=600 scripts/fuzz.sh`` (the ``long`` profile).
"""
