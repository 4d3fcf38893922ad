"""The PySide6 window: the only package that imports Qt.

Sub-packages ``plangraph`` and ``review`` hold tool panes written separately; the window
imports them lazily (see ``tool_panes``) and keeps working without them.
"""
