"""The review pane (`pane.ReviewPane`): decide on admitted beliefs, journal every decision,
export the receipt."""
