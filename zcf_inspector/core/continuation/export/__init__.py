"""Continuation results written out: JSON for `plan --json`, Graphviz DOT for `plan --dot`."""
