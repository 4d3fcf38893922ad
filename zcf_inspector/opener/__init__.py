"""The headless opener: one way from a file to what every front end shows of it.

Pure Python (no Qt), between the presentation layer and the front ends (the window, the
CLI, `zcf_inspector.api`). `open.open_document` (and `open.open_documents` for files
opened together, a report paired with its session) reads each file once under one read
policy (`reading`), recognises its kind (`present.recognise`), runs that kind's checks
once — structure, manifest, authentication, policy, the secret scan, the admission
notice, the workspace check, a report against its session, a current capability
snapshot — and returns a document (`documents`) whose `view` is the one immutable
`DocumentView` its kind's presenter made (`present.registry.verdict_of`): headline,
trust level, chips, findings, admission notice, title words. A re-check is the same
call over the bytes already read.

This package imports none of its modules, so a command loads only what it runs.
"""
