"""The review, without Qt: its state machine (`controller.ReviewController`: steps, undo,
the previous generation's carry-over, what may be done now), what an export says and does
(`export`), and the words for the previous generation (`previous_texts`). The window's
review pane (`gui.review.pane`) renders them; the controller decides."""
