"""The PySide6 window: the only package that imports Qt.

Sub-packages ``plangraph`` and ``review`` hold the plan graph and review panes.
"""
