"""The review pane: decide on admitted beliefs, journal every decision, export the receipt."""

from zcf_inspector.gui.review.pane import ReviewPane

__all__ = ["ReviewPane"]
