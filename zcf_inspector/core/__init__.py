"""The pure-Python core: no Qt import is allowed anywhere below this package."""
