"""The pure-Python core (no Qt): internal to zcf-inspector, reached by programs through
`zcf_inspector.api`, which is the stable library interface."""
