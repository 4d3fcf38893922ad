"""The review, without Qt: its state machine (`controller.ReviewController`: steps, undo,
the previous generation's carry-over, what may be done now), what an export says and does
(`export`), the words for the previous generation (`previous_texts`), and what the table
and the detail show — the rows for the filters (`table`), each cell's words (`rows`), a
belief's evidence (`evidence`), suspected credentials flagged and masked (`secrets`), the
dropped beliefs (`dropped`) and old text beside new (`text_changes`). The window's review
pane (`gui.review.pane`) renders them; the controller decides."""
