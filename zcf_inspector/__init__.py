"""zcf-inspector: inspect Continuity Format (ZCF v1) packets and ASIF continuation plans."""

__version__ = "0.1.0"
