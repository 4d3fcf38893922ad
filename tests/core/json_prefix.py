"""A plain reference for where a malformed JSON text stops being JSON (the profile's
clarification of 2026-12-07): a character-by-character recognizer of RFC 8259, written
from the grammar alone, that says at which character a text stops being the beginning of
some JSON text. It knows nothing of the reader or the standard library's decoder."""

from __future__ import annotations

_WS = " \t\n\r"
_HEX = "0123456789abcdefABCDEF"
_DIGITS = "0123456789"
_ESCAPES = '"\\/bfnrtu'
_LITERALS = {"t": "true", "f": "false", "n": "null"}
# Number states in which the literal read so far is a whole number.
_WHOLE = {"zero", "int", "frac", "exp"}


class _Recognizer:
    def __init__(self) -> None:
        self.stack: list[str] = []  # "[" or "{" of each open container
        self.state = "value"  # what may come next
        self.close_ok = False  # "]" or "}" right after its opening bracket
        self.key = False  # the string being read is a key
        self.word = ""  # the literal being read, and how far
        self.at = 0
        self.hex_left = 0

    def _after_value(self) -> None:
        self.state = "after" if self.stack else "done"

    def step(self, c: str) -> bool:  # one branch per state
        state = self.state
        if state == "string":
            if c == '"':
                if self.key:
                    self.state = "colon"
                else:
                    self._after_value()
                return True
            if c == "\\":
                self.state = "escape"
                return True
            return ord(c) >= 0x20
        if state == "escape":
            if c not in _ESCAPES:
                return False
            if c == "u":
                self.state, self.hex_left = "hex", 4
            else:
                self.state = "string"
            return True
        if state == "hex":
            if c not in _HEX:
                return False
            self.hex_left -= 1
            if not self.hex_left:
                self.state = "string"
            return True
        if state == "literal":
            if c != self.word[self.at]:
                return False
            self.at += 1
            if self.at == len(self.word):
                self._after_value()
            return True
        if state in ("minus", "zero", "int", "dot", "frac", "e", "esign", "exp"):
            moved = self._number(c)
            if moved:
                return True
            if state not in _WHOLE:
                return False
            self._after_value()  # the number is whole: c must follow a value
            return self.step(c)
        if c in _WS:
            return True
        if state == "value":
            if self.close_ok and c == "]":
                self.stack.pop()
                self._after_value()
                return True
            return self._value(c)
        if state == "key":
            if self.close_ok and c == "}":
                self.stack.pop()
                self._after_value()
                return True
            if c == '"':
                self.state, self.key = "string", True
                return True
            return False
        if state == "colon":
            if c == ":":
                self.state, self.close_ok = "value", False
                return True
            return False
        if state == "after":
            top = self.stack[-1]
            if c == ",":
                self.state, self.close_ok = ("key" if top == "{" else "value"), False
                return True
            if c == ("}" if top == "{" else "]"):
                self.stack.pop()
                self._after_value()
                return True
            return False
        return False  # "done": only whitespace may follow the one value

    def _value(self, c: str) -> bool:
        self.close_ok = False
        if c == '"':
            self.state, self.key = "string", False
        elif c in "[{":
            self.stack.append(c)
            self.state, self.close_ok = ("value" if c == "[" else "key"), True
        elif c in _LITERALS:
            self.state, self.word, self.at = "literal", _LITERALS[c], 1
        elif c == "-":
            self.state = "minus"
        elif c == "0":
            self.state = "zero"
        elif c in _DIGITS:
            self.state = "int"
        else:
            return False
        return True

    def _number(self, c: str) -> bool:
        state, digit = self.state, c in _DIGITS
        moves = {
            "minus": "zero" if c == "0" else "int" if digit else None,
            "zero": "dot" if c == "." else "e" if c in "eE" else None,
            "int": "int" if digit else "dot" if c == "." else "e" if c in "eE" else None,
            "dot": "frac" if digit else None,
            "frac": "frac" if digit else "e" if c in "eE" else None,
            "e": "exp" if digit else "esign" if c in "+-" else None,
            "esign": "exp" if digit else None,
            "exp": "exp" if digit else None,
        }
        following = moves[state]
        if following is None:
            return False
        self.state = following
        return True


def first_unviable(text: str) -> int | None:
    """The index of the first character of ``text`` that cannot continue a JSON text;
    ``len(text)`` when all of it begins one but the text is not complete; None when it is
    a whole JSON text."""
    recognizer = _Recognizer()
    for index, char in enumerate(text):
        if not recognizer.step(char):
            return index
    if recognizer.state == "done" or (not recognizer.stack and recognizer.state in _WHOLE):
        return None
    return len(text)
