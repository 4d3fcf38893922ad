"""The presentation layer: one presenter per document kind, every front end renders it.

Pure Python (no Qt). A presenter owns what a person reads about one kind of document:
*recognise* (what a file is: `recognise.recognise`, the one place kinds are told
apart), *verdict* (headline words, trust level, one chip per check: `vocabulary`) and
*listing* (findings, blockers and notes attached to their nodes: `asif_listing`). The
window's header, the CLI's text and ``--json`` and `zcf_inspector.api` all render from
it (`registry.verdict_of`) — so they cannot drift, and a re-check is the same call as an
open. (The pattern is mitmproxy's contentviews: one registry, one protocol, every front
end renders through it.)

Presenters: `packet`, `receipt`, `asif` (a session, bare profile or report, with or
without its report), `comparison` (two packets), `receipt_match` (a receipt against the
open packets). This package imports none of them, so a command loads only its own.
"""
