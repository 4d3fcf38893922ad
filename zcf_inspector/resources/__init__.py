"""Icons and the bundled example packet, read with ``importlib.resources`` (no .qrc)."""
