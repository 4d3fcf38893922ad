"""ZCF v1 packets, stage by stage: structure (§3), manifest (§4), authentication (§5),
policy and ingest (§6), receipts, the producer side and the §7 conformance run."""
